import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ShoeboxLibrary

/// Signing in and out, a person's sessions and account, and (for admins) the people of the
/// library: `/api/session`, `/api/sessions`, `/api/me`, `/api/people` (docs/API.md).
struct PeopleRoutes {
    let server: PhotoLibraryServer
    var state: ServerState { server.state }
    static let logger = Logger(label: "shoebox.signin")

    /// A person as the API shows them (without the catalog's row id).
    struct PersonJSON: Encodable {
        let id: String
        let name: String
        let displayName: String
        let role: String
        let state: String
        let quota: Int64?
        let hasPassword: Bool
        let createdDate: Date
        let usage: PersonUsage?

        init(_ person: Person, usage: PersonUsage? = nil) {
            id = person.id
            name = person.name
            displayName = person.displayName
            role = person.role.rawValue
            state = person.state.rawValue
            quota = person.quota
            hasPassword = person.hasPassword
            createdDate = person.createdDate
            self.usage = usage
        }
    }

    struct SessionJSON: Encodable {
        let id: String
        let createdDate: Date
        let lastSeenDate: Date
        let expiresDate: Date
        let address: String
        let userAgent: String
        let current: Bool
    }

    struct SignIn: Decodable {
        let name: String
        let password: String
    }

    struct NewPerson: Decodable {
        let name: String
        let displayName: String?
        let password: String?
        let role: Person.Role?
        let quota: Int64?
    }

    /// A change of a person; `quota` present and `null` removes the limit.
    struct PersonChange: Decodable {
        let displayName: String?
        let role: Person.Role?
        let state: Person.State?
        let quota: Int64??

        enum CodingKeys: String, CodingKey { case displayName, role, state, quota }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
            role = try container.decodeIfPresent(Person.Role.self, forKey: .role)
            state = try container.decodeIfPresent(Person.State.self, forKey: .state)
            quota = container.contains(.quota) ? .some(try container.decodeIfPresent(Int64.self, forKey: .quota)) : nil
        }
    }

    struct PasswordChange: Decodable {
        /// The person's current password (when they change their own).
        let current: String?
        let password: String
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.post("session") { request, context in
            // JSON only: another site's page cannot send it without asking the server first (a
            // CORS preflight), so it cannot sign a browser in as someone else.
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                throw APIError(.unsupportedMediaType, "invalidArgument", "sign in with a JSON body ({\"name\", \"password\"})")
            }
            let body = try await JSONResponse.decode(SignIn.self, from: request)
            let (person, token) = try await signIn(name: body.name, password: body.password, request: request, context: context)
            var response = try JSONResponse.make(["person": PersonJSON(person)], status: .created)
            response.headers[values: .setCookie] = [sessionCookie(token)]
            return response
        }
        api.delete("session") { _, context in
            try context.caller.requireUser("only a person signs out")
            if let session = context.session, let person = context.caller.person {
                do { _ = try await state.library.endSession(session.id, of: person) } catch { throw APIError(error) }
                state.sessions.forgetAll()
            }
            var response = Response(status: .noContent)
            response.headers[values: .setCookie] = [clearedCookie()]
            return response
        }
        api.get("me") { _, context in
            let person = try context.caller.requirePerson("only a person has an account")
            let usage: PersonUsage?
            do { usage = try await state.library.usage()[person.id] } catch { throw APIError(error) }
            return try JSONResponse.make(
                MeJSON(
                    person: PersonJSON(person, usage: usage), isOwner: context.caller.isFirstAdmin, session: context.session?.id,
                    usesServerKey: context.session == nil && context.key == nil,
                    key: context.key.map(KeyRoutes.KeyJSON.init), signInAccount: await OpenIDRoutes(server: server).account(of: person)))
        }
        api.post("me/password") { request, context in
            let person = try context.caller.requirePerson("only a person has a password")
            let body = try await JSONResponse.decode(PasswordChange.self, from: request)
            do {
                // A person changing their own proves they know it (the key's holder need not).
                if context.session != nil {
                    guard let current = body.current, try await state.library.authenticate(name: person.name, password: current) != nil else {
                        throw APIError(.forbidden, "wrongPassword", "the current password is not right")
                    }
                }
                try await state.library.setPassword(body.password, of: person)
                state.sessions.forgetAll()
                // Every session ended with the old password; this browser stays signed in.
                guard context.session != nil else { return Response(status: .noContent) }
                let (_, token) = try await state.library.startSession(
                    for: person, address: context.remoteAddress, userAgent: "")
                var response = Response(status: .noContent)
                response.headers[values: .setCookie] = [sessionCookie(token)]
                return response
            } catch let error as LibraryError {
                throw APIError(error)
            }
        }
        api.get("sessions") { _, context in
            let person = try context.caller.requirePerson("only a person has sessions")
            let sessions: [PersonSession]
            do { sessions = try await state.library.sessions(of: person) } catch { throw APIError(error) }
            return try JSONResponse.make([
                "sessions": sessions.map {
                    SessionJSON(
                        id: $0.id, createdDate: $0.createdDate, lastSeenDate: $0.lastSeenDate, expiresDate: $0.expiresDate, address: $0.address,
                        userAgent: $0.userAgent, current: $0.id == context.session?.id)
                }
            ])
        }
        api.delete("sessions/:session") { _, context in
            let person = try context.caller.requirePerson("only a person has sessions")
            let id = try context.parameters.require("session")
            let ended: Bool
            do { ended = try await state.library.endSession(id, of: person) } catch { throw APIError(error) }
            guard ended else { throw APIError.notFound("no session \(id)") }
            state.sessions.forgetAll()
            return Response(status: .noContent)
        }
        api.post("sessions/end-all") { _, context in
            let person = try context.caller.requirePerson("only a person has sessions")
            do { try await state.library.endSessions(of: person) } catch { throw APIError(error) }
            state.sessions.forgetAll()
            Self.logger.info("signed out everywhere", metadata: ["person": "\(person.name)"])
            var response = Response(status: .noContent)
            if context.session != nil { response.headers[values: .setCookie] = [clearedCookie()] }
            return response
        }

        // The household: admins only.
        api.get("people") { _, context in
            try context.caller.requireAdmin("only an admin sees the people of the library")
            do {
                let usage = try await state.library.usage()
                return try JSONResponse.make(["people": try await state.library.people().map { PersonJSON($0, usage: usage[$0.id]) }])
            } catch let error as LibraryError {
                throw APIError(error)
            }
        }
        api.post("people") { request, context in
            try context.caller.requireAdmin("only an admin adds people")
            let body = try await JSONResponse.decode(NewPerson.self, from: request)
            do {
                let person = try await state.library.addPerson(
                    name: body.name, displayName: body.displayName, role: body.role ?? .member, password: body.password, quota: body.quota)
                Self.logger.info("person added", metadata: ["person": "\(person.name)", "by": "\(context.caller.person?.name ?? "")"])
                return try JSONResponse.make(PersonJSON(person), status: .created)
            } catch let error as LibraryError {
                throw APIError(error)
            }
        }
        api.patch("people/:person") { request, context in
            try context.caller.requireAdmin("only an admin changes people")
            let body = try await JSONResponse.decode(PersonChange.self, from: request)
            do {
                var person = try await person(context)
                if body.displayName != nil || body.role != nil || body.quota != nil {
                    person = try await state.library.updatePerson(person, displayName: body.displayName, role: body.role, quota: body.quota)
                }
                if let new = body.state, new != person.state { person = try await state.library.setState(new, of: person) }
                state.peopleChanged()
                return try JSONResponse.make(PersonJSON(person))
            } catch let error as LibraryError {
                throw APIError(error)
            }
        }
        api.post("people/:person/password") { request, context in
            try context.caller.requireAdmin("only an admin sets another person's password")
            let body = try await JSONResponse.decode(PasswordChange.self, from: request)
            do {
                let person = try await person(context)
                // Another admin setting the owner's password would sign in as the owner.
                if person.rowID == Person.adminRowID, !context.caller.isFirstAdmin {
                    throw APIError.forbidden("adminOnly", "only the library's owner (its first admin) sets their own password")
                }
                try await state.library.setPassword(body.password, of: person)
            } catch let error as LibraryError {
                throw APIError(error)
            }
            state.peopleChanged()
            return Response(status: .noContent)
        }
        api.delete("people/:person") { request, context in
            try context.caller.requireAdmin("only an admin removes people")
            let deleting = request.uri.queryParameters.get("deleteLibrary") == "true"
            do {
                let person = try await person(context)
                try await state.library.removePerson(person, deletingTheirLibrary: deleting)
                Self.logger.info("person removed", metadata: ["person": "\(person.name)", "by": "\(context.caller.person?.name ?? "")"])
            } catch let error as LibraryError {
                throw APIError(error)
            }
            state.peopleChanged()
            return Response(status: .noContent)
        }
    }

    struct MeJSON: Encodable {
        let person: PersonJSON
        /// Whether the person is the library's owner, its first admin: apps, their questions and
        /// the browser's cameras for their pickers are theirs (for now).
        let isOwner: Bool
        /// This browser's session, if it signed in with a password.
        let session: String?
        /// Whether the caller is signed in by the server's key (the first admin's tools).
        let usesServerKey: Bool
        /// The person's key the caller sent, if it is a tool with one.
        let key: KeyRoutes.KeyJSON?
        /// The OpenID Connect provider the server signs in with and the person's account there,
        /// if connected (`nil`: the server has no provider).
        let signInAccount: OpenIDRoutes.AccountJSON?
    }

    /// The person the path names (by identifier or sign-in name).
    private func person(_ context: ServerRequestContext) async throws -> Person {
        let id = try context.parameters.requireDecoded("person")
        do {
            guard let person = try await state.library.person(named: id) else { throw APIError.notFound("no person \(id)") }
            return person
        } catch let error as LibraryError {
            throw APIError(error)
        }
    }

    /// Signs a person in, or throws the answer: `401 signInFailed`, `429 rateLimited`. Every
    /// failure is logged (name and address, never the password).
    func signIn(name: String, password: String, request: Request, context: ServerRequestContext) async throws -> (Person, String) {
        let outcome: PhotoLibrary.SignInOutcome
        do {
            outcome = try await state.library.signIn(
                name: String(name.prefix(64)), password: password, address: context.remoteAddress,
                userAgent: request.headers[.userAgent] ?? "")
        } catch {
            throw APIError(error)
        }
        switch outcome {
        case .signedIn(let person, _, let token):
            Self.logger.info("signed in", metadata: ["person": "\(person.name)", "address": "\(context.remoteAddress)"])
            return (person, token)
        case .refused:
            Self.logger.warning("sign-in failed", metadata: ["name": "\(name.prefix(64))", "address": "\(context.remoteAddress)"])
            throw APIError(.unauthorized, "signInFailed", "that name and password do not match a person who may sign in")
        case .throttled(let wait):
            Self.logger.warning("sign-in throttled", metadata: ["name": "\(name.prefix(64))", "address": "\(context.remoteAddress)"])
            var error = APIError(
                .tooManyRequests, "rateLimited", "too many failed sign-ins for this name or from this address: try again in \(Int(wait / 60)) minutes")
            error.headers[.retryAfter] = String(Int(wait))
            throw error
        }
    }

    /// The session cookie: HttpOnly, same-site only, for the session's lifetime.
    func sessionCookie(_ token: String) -> String {
        "\(CallerMiddleware.sessionCookieName(key: server.userKey))=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(PersonSession.lifetime))\(state.cookieSecurity)"
    }

    /// The session cookie, gone.
    func clearedCookie() -> String {
        "\(CallerMiddleware.sessionCookieName(key: server.userKey))=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0\(state.cookieSecurity)"
    }
}
