import Foundation
import Hummingbird
import Logging
import ShoeboxLibrary

/// A person's keys for tools (``PersonKey``): `GET` and `POST /api/keys`, `DELETE
/// /api/keys/ID` (docs/API.md). Each person sees and revokes only their own; the token is in the
/// answer that makes the key and nowhere after. No key reaches these routes (``KeyScopeRule``).
struct KeyRoutes {
    let server: PhotoLibraryServer
    var state: ServerState { server.state }
    static let logger = Logger(label: "shoebox.keys")

    /// A key as the API shows it (never its token).
    struct KeyJSON: Encodable {
        let id: String
        let name: String
        let scope: String
        let prefix: String
        let createdDate: Date
        let lastUsedDate: Date?

        init(_ key: PersonKey) {
            id = key.id
            name = key.name
            scope = key.scope.rawValue
            prefix = key.prefix
            createdDate = key.createdDate
            lastUsedDate = key.lastUsedDate
        }
    }

    struct NewKey: Decodable {
        let name: String
        let scope: PersonKey.Scope
    }

    struct MadeKey: Encodable {
        let key: KeyJSON
        /// The token, shown this once.
        let token: String
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("keys") { _, context in
            let person = try context.caller.requirePerson("only a person has keys")
            let keys: [PersonKey]
            do { keys = try await state.library.forPerson(person).keys() } catch { throw APIError(error) }
            return try JSONResponse.make(["keys": keys.map(KeyJSON.init)])
        }
        api.post("keys") { request, context in
            let person = try context.caller.requirePerson("only a person has keys")
            let body = try await JSONResponse.decode(NewKey.self, from: request)
            let made: (key: PersonKey, token: String)
            do { made = try await state.library.forPerson(person).makeKey(named: body.name, scope: body.scope) } catch { throw APIError(error) }
            Self.logger.info("key made", metadata: ["person": "\(person.name)", "key": "\(made.key.id)", "scope": "\(made.key.scope.rawValue)"])
            var response = try JSONResponse.make(MadeKey(key: KeyJSON(made.key), token: made.token), status: .created)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        api.delete("keys/:key") { _, context in
            let person = try context.caller.requirePerson("only a person has keys")
            let id = try context.parameters.require("key")
            let revoked: Bool
            do { revoked = try await state.library.forPerson(person).revokeKey(id) } catch { throw APIError(error) }
            guard revoked else { throw APIError.notFound("no key \(id)") }
            state.sessions.forgetAll()
            Self.logger.info("key revoked", metadata: ["person": "\(person.name)", "key": "\(id)"])
            return Response(status: .noContent)
        }
    }
}
