import Foundation
import Hummingbird
import Logging
import ShoeboxLibrary
import Synchronization

/// Passkeys (WebAuthn): a signed-in person registers them and lists or removes their own
/// (`/api/passkeys`, `/api/passkeys/registration`); anyone signs in with one
/// (`/api/passkeys/challenge`, then `/api/passkeys/signin`). docs/API.md says what each takes.
struct PasskeyRoutes {
    let server: PhotoLibraryServer
    var state: ServerState { server.state }
    static let logger = Logger(label: "shoebox.signin")

    /// A passkey as the API shows it (never its public key).
    struct PasskeyJSON: Encodable {
        let id: String
        let name: String
        let createdDate: Date
        let lastUsedDate: Date?

        init(_ passkey: Passkey) {
            id = passkey.id
            name = passkey.name
            createdDate = passkey.createdDate
            lastUsedDate = passkey.lastUsedDate
        }
    }

    /// A `PublicKeyCredential` as the web app sends it: base64url fields.
    struct Credential: Decodable {
        struct Response: Decodable {
            let clientDataJSON: String
            let attestationObject: String?
            let authenticatorData: String?
            let signature: String?
            let userHandle: String?
        }

        let rawId: String
        let type: String
        let response: Response
    }

    struct NewPasskey: Decodable {
        let name: String?
        let credential: Credential
    }

    struct SignIn: Decodable {
        let credential: Credential
    }

    /// `PublicKeyCredentialCreationOptions`, base64url where the browser wants bytes.
    struct CreationOptions: Encodable {
        struct Party: Encodable {
            let id: String
            let name: String
        }
        struct User: Encodable {
            let id: String
            let name: String
            let displayName: String
        }
        struct Parameter: Encodable {
            var type = "public-key"
            let alg: Int
        }
        struct Selection: Encodable {
            var residentKey = "required"
            var requireResidentKey = true
            var userVerification = "preferred"
        }
        struct Descriptor: Encodable {
            var type = "public-key"
            let id: String
        }
        let challenge: String
        let rp: Party
        let user: User
        let pubKeyCredParams: [Parameter]
        let timeout: Int
        var attestation = "none"
        var authenticatorSelection = Selection()
        let excludeCredentials: [Descriptor]
    }

    /// `PublicKeyCredentialRequestOptions` for a passkey that names its person (no list of
    /// credentials: the authenticator offers the person's passkeys for this site).
    struct RequestOptions: Encodable {
        let challenge: String
        let rpId: String
        let timeout: Int
        var userVerification = "preferred"
        var allowCredentials: [CreationOptions.Descriptor] = []
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("passkeys") { _, context in
            let person = try context.caller.requirePerson("only a person has passkeys")
            let passkeys: [Passkey]
            do { passkeys = try await state.library.forPerson(person).passkeys() } catch { throw APIError(error) }
            return try JSONResponse.make(["passkeys": passkeys.map(PasskeyJSON.init)])
        }
        api.post("passkeys/registration") { request, context in
            let person = try context.caller.requirePerson("only a person has passkeys")
            let rpID = try relyingParty(for: request)
            let existing: [Passkey]
            do { existing = try await state.library.forPerson(person).passkeys() } catch { throw APIError(error) }
            let options = CreationOptions(
                challenge: state.passkeyChallenges.make(.registration, person: person.rowID), rp: .init(id: rpID, name: "Shoebox"),
                user: .init(id: WebAuthn.base64URL(Data(person.id.utf8)), name: person.name, displayName: person.displayName),
                pubKeyCredParams: WebAuthn.algorithms.map { .init(alg: $0) }, timeout: Int(WebAuthn.timeout * 1000),
                excludeCredentials: existing.map { .init(id: $0.id) })
            return try JSONResponse.make(["publicKey": options])
        }
        api.post("passkeys") { request, context in
            let person = try context.caller.requirePerson("only a person has passkeys")
            let body = try await JSONResponse.decode(NewPasskey.self, from: request)
            let credential = body.credential
            guard credential.type == "public-key", let rawID = WebAuthn.data(base64URL: credential.rawId),
                let clientData = WebAuthn.data(base64URL: credential.response.clientDataJSON),
                let attestation = credential.response.attestationObject.flatMap(WebAuthn.data(base64URL:))
            else { throw Self.refused("the credential lacks its id, client data or attestation object (base64url)") }
            let registration: WebAuthn.Registration
            do throws(WebAuthn.Refusal) {
                registration = try WebAuthn.registration(
                    clientDataJSON: clientData, attestationObject: attestation, rawID: rawID,
                    challenge: { state.passkeyChallenges.take($0, .registration, person: person.rowID) }, origin: origin)
            } catch {
                Self.logger.warning("passkey registration refused", metadata: ["person": "\(person.name)", "why": "\(error)"])
                throw Self.refused(error.description)
            }
            let passkey: Passkey
            do {
                passkey = try await state.library.forPerson(person).addPasskey(
                    id: WebAuthn.base64URL(registration.credentialID), name: body.name ?? "Passkey", publicKey: registration.publicKey,
                    algorithm: registration.algorithm, signCount: registration.signCount)
            } catch {
                throw APIError(error)
            }
            Self.logger.info("passkey registered", metadata: ["person": "\(person.name)", "passkey": "\(passkey.name)"])
            return try JSONResponse.make(PasskeyJSON(passkey), status: .created)
        }
        api.delete("passkeys/:passkey") { _, context in
            let person = try context.caller.requirePerson("only a person has passkeys")
            let id = try context.parameters.requireDecoded("passkey")
            let removed: Bool
            do { removed = try await state.library.forPerson(person).removePasskey(id) } catch { throw APIError(error) }
            guard removed else { throw APIError.notFound("no passkey \(id)") }
            Self.logger.info("passkey removed", metadata: ["person": "\(person.name)"])
            return Response(status: .noContent)
        }
        api.post("passkeys/challenge") { request, _ in
            let options = RequestOptions(
                challenge: state.passkeyChallenges.make(.signIn), rpId: try relyingParty(for: request), timeout: Int(WebAuthn.timeout * 1000))
            return try JSONResponse.make(["publicKey": options])
        }
        api.post("passkeys/signin") { request, context in
            // JSON only, as the password's sign-in: no form of another site can post it.
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                throw APIError(.unsupportedMediaType, "invalidArgument", "sign in with a JSON body ({\"credential\"})")
            }
            let body = try await JSONResponse.decode(SignIn.self, from: request)
            let (person, token) = try await signIn(body.credential, request: request, context: context)
            var response = try JSONResponse.make(["person": PeopleRoutes.PersonJSON(person)], status: .created)
            response.headers[values: .setCookie] = [PeopleRoutes(server: server).sessionCookie(token)]
            return response
        }
    }

    /// Checks a sign-in with a passkey and starts a session; throws `401 signInFailed` for any
    /// failure (the same answer for an unknown passkey, a bad signature, a disabled person) and
    /// `429 rateLimited` after too many from the address. Every failure is logged.
    private func signIn(_ credential: Credential, request: Request, context: ServerRequestContext) async throws -> (Person, String) {
        let address = context.remoteAddress
        let library = state.library
        do {
            if let wait = try await library.passkeySignInWait(address: address) {
                Self.logger.warning("passkey sign-in throttled", metadata: ["address": "\(address)"])
                var error = APIError(.tooManyRequests, "rateLimited", "too many failed sign-ins from this address: try again in \(Int(wait / 60)) minutes")
                error.headers[.retryAfter] = String(Int(wait))
                throw error
            }
            let why: String
            if credential.type == "public-key", let clientData = WebAuthn.data(base64URL: credential.response.clientDataJSON),
                let authenticatorData = credential.response.authenticatorData.flatMap(WebAuthn.data(base64URL:)),
                let signature = credential.response.signature.flatMap(WebAuthn.data(base64URL:)),
                let rawID = WebAuthn.data(base64URL: credential.rawId)
            {
                if let (passkey, person) = try await library.passkey(id: WebAuthn.base64URL(rawID)) {
                    do {
                        // The user handle, when given, is the person's the passkey was made for.
                        if let handle = credential.response.userHandle, !handle.isEmpty, WebAuthn.data(base64URL: handle) != Data(person.id.utf8) {
                            throw WebAuthn.Refusal("the user handle is not the passkey's person")
                        }
                        let count = try WebAuthn.assertion(
                            clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature, publicKey: passkey.publicKey,
                            algorithm: passkey.algorithm, storedSignCount: passkey.signCount,
                            challenge: { state.passkeyChallenges.take($0, .signIn) }, origin: origin)
                        if person.state == .active {
                            try await library.notePasskeyUse(passkey.id, signCount: count)
                            let (_, token) = try await library.startSession(for: person, address: address, userAgent: request.headers[.userAgent] ?? "")
                            Self.logger.info("signed in with a passkey", metadata: ["person": "\(person.name)", "address": "\(address)"])
                            return (person, token)
                        }
                        why = "the person is disabled"
                    } catch let refusal as WebAuthn.Refusal {
                        why = refusal.description
                    }
                } else {
                    why = "no person has this passkey"
                }
            } else {
                why = "the credential lacks its id, client data, authenticator data or signature (base64url)"
            }
            try await library.notePasskeyFailure(address: address)
            Self.logger.warning("passkey sign-in failed", metadata: ["address": "\(address)", "why": "\(why)"])
            throw APIError(.unauthorized, "signInFailed", "that passkey does not sign in a person of this library")
        } catch let error as LibraryError {
            throw APIError(error)
        }
    }

    /// The relying party id for a request: the host name it was sent to (this server's, as the
    /// host check let it through). WebAuthn takes domain names (`localhost` among them), not IP
    /// addresses.
    private func relyingParty(for request: Request) throws -> String {
        let host = request.head.authority ?? ""
        let name = Self.hostName(of: host)
        guard !name.isEmpty, !name.contains(":"), name.contains(where: \.isLetter) else {
            throw APIError(
                .badRequest, "passkeysUnavailable",
                "passkeys need this server's name (such as localhost), not an IP address: open it as http://localhost:PORT or by its domain")
        }
        return name
    }

    /// The relying party id of a page's origin, if the origin is this server's (its host in the
    /// hosts the server answers, over http, or https behind a proxy).
    @Sendable private func origin(_ origin: String) -> String? {
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.path.isEmpty || url.path == "/"
        else { return nil }
        let authority = origin.dropFirst(scheme.count + 3).lowercased()
        guard state.allowedHosts.withLock({ $0.contains(String(authority)) }) else { return nil }
        return Self.hostName(of: String(authority))
    }

    /// `host` without its port (`[::1]:8080` → `[::1]`).
    static func hostName(of authority: String) -> String {
        if authority.hasPrefix("[") { return String(authority.prefix { $0 != "]" }) + "]" }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    static func refused(_ why: String) -> APIError {
        APIError(.badRequest, "passkeyRefused", "the passkey was not registered: \(why)")
    }
}
