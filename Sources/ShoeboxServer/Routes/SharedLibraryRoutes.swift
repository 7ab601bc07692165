import Foundation
import Hummingbird
import ShoeboxLibrary

/// The household's Shared Library (``ShoeboxLibrary/SharedLibrary``), a person's (a session or
/// a key; apps are refused, though they see its photos as their grant allows):
/// `GET /api/shared-library` (who is in it and invited, or `null`), `POST
/// /api/shared-library/invitations` (invite; the first makes it), `DELETE
/// /api/shared-library/invitations/NAME` (take one back), `POST /api/shared-library/join` (with
/// what to move in and the default for new photos), `POST /api/shared-library/decline`, `PATCH
/// /api/shared-library` (the default for new photos), `POST /api/shared-library/move` (photos
/// in or back out) and `POST /api/shared-library/leave` (keeping everything or one's own). Its
/// photos are listed by the fetch routes (`library=both|personal|shared`) with `library:
/// "shared"`, `addedBy` and, in Recently Deleted, `deletedBy`.
struct SharedLibraryRoutes {
    let state: ServerState

    struct ParticipantJSON: Encodable {
        let person: PartnerRoutes.PartyJSON
        let hasJoined: Bool
        let movesNewAssets: Bool
        let invitedDate: Date
        let joinedDate: Date?
    }

    struct LibraryJSON: Encodable {
        let sharedLibrary: Participants?

        struct Participants: Encodable {
            let participants: [ParticipantJSON]
            let maximumParticipants = SharedLibrary.maximumParticipants
        }

        enum CodingKeys: String, CodingKey { case sharedLibrary }

        /// `null` for none (not a missing key: docs/API.md promises the key).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sharedLibrary, forKey: .sharedLibrary)
        }

        init(_ library: SharedLibrary?) {
            sharedLibrary = library.map { library in
                Participants(
                    participants: library.participants.map {
                        ParticipantJSON(
                            person: PartnerRoutes.PartyJSON($0.person), hasJoined: $0.hasJoined, movesNewAssets: $0.movesNewAssets,
                            invitedDate: $0.invitedDate, joinedDate: $0.joinedDate)
                    })
            }
        }
    }

    struct Invitation: Decodable {
        let person: String
    }

    /// What to move in: `move` is `everything`, `nothing`, `from` (with `from`: `YYYY-MM-DD`) or
    /// `chosen` (with `assets`).
    struct Contribution: Decodable {
        let move: String?
        let from: String?
        let assets: [String]?
        let movesNewAssets: Bool?

        func contribution() throws(APIError) -> SharedLibrary.Contribution {
            switch move ?? "nothing" {
            case "everything": return .everything
            case "nothing": return .nothing
            case "from":
                guard let from else { throw APIError.badRequest("move from needs from: YYYY-MM-DD") }
                return .takenFrom(try PartnerRoutes.date(from))
            case "chosen":
                guard let assets, !assets.isEmpty else { throw APIError.badRequest("move chosen needs assets: a list of asset identifiers") }
                return .chosen(assets)
            case let other: throw APIError.badRequest("move must be everything, nothing, from or chosen, not \(other)")
            }
        }
    }

    /// `to`: `shared` (with the fields of ``Contribution``) or `personal` (with `assets`).
    struct Move: Decodable {
        let to: String
        let move: String?
        let from: String?
        let assets: [String]?
    }

    struct Default: Decodable {
        let movesNewAssets: Bool
    }

    struct Departure: Decodable {
        /// `everything` or `mine`.
        let keep: String
    }

    struct Count: Encodable {
        let moved: Int
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("shared-library") { _, context in
            let library = try person(context)
            return try await attempt { try JSONResponse.make(LibraryJSON(try await library.sharedLibrary())) }
        }
        api.post("shared-library/invitations") { request, context in
            let library = try person(context)
            let body = try await JSONResponse.decode(Invitation.self, from: request)
            return try await attempt { try JSONResponse.make(LibraryJSON(try await library.inviteToSharedLibrary(body.person))) }
        }
        api.delete("shared-library/invitations/:person") { _, context in
            let library = try person(context)
            let other = try context.parameters.requireDecoded("person")
            try await attempt { try await library.withdrawSharedLibraryInvitation(other) }
            return Response(status: .noContent)
        }
        api.post("shared-library/join") { request, context in
            let library = try person(context)
            let body = try await JSONResponse.decode(Contribution.self, from: request)
            let contribution = try body.contribution()
            return try await attempt {
                try JSONResponse.make(Count(moved: try await library.joinSharedLibrary(moving: contribution, movesNewAssets: body.movesNewAssets ?? false)))
            }
        }
        api.post("shared-library/decline") { _, context in
            let library = try person(context)
            try await attempt { try await library.declineSharedLibraryInvitation() }
            return Response(status: .noContent)
        }
        api.patch("shared-library") { request, context in
            let library = try person(context)
            let body = try await JSONResponse.decode(Default.self, from: request)
            try await attempt { try await library.setSharedLibraryMovesNewAssets(body.movesNewAssets) }
            return Response(status: .noContent)
        }
        api.post("shared-library/move") { request, context in
            let library = try person(context)
            let body = try await JSONResponse.decode(Move.self, from: request)
            switch body.to {
            case "shared":
                let contribution = try Contribution(move: body.move ?? "chosen", from: body.from, assets: body.assets, movesNewAssets: nil).contribution()
                return try await attempt { try JSONResponse.make(Count(moved: try await library.moveToSharedLibrary(contribution))) }
            case "personal":
                guard let assets = body.assets, !assets.isEmpty else { throw APIError.badRequest("to personal needs assets: a list of asset identifiers") }
                return try await attempt { try JSONResponse.make(Count(moved: try await library.moveToPersonalLibrary(assets))) }
            default:
                throw APIError.badRequest("to must be shared or personal, not \(body.to)")
            }
        }
        api.post("shared-library/leave") { request, context in
            let library = try person(context)
            let body = try await JSONResponse.decode(Departure.self, from: request)
            let departure: SharedLibrary.Departure
            switch body.keep {
            case "everything": departure = .everything
            case "mine": departure = .ownContributions
            default: throw APIError.badRequest("keep must be everything or mine, not \(body.keep)")
            }
            return try await attempt { try JSONResponse.make(Count(moved: try await library.leaveSharedLibrary(keeping: departure))) }
        }
    }

    /// The person's library (apps are refused).
    func person(_ context: ServerRequestContext) throws -> PhotoLibrary {
        _ = try context.caller.requirePerson("apps do not manage the Shared Library")
        return try state.handle(for: context.caller).library
    }

    /// `body`, its library errors as the API's.
    func attempt<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw APIError(error) }
    }
}
