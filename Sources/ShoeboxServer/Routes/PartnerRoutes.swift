import Foundation
import Hummingbird
import ShoeboxLibrary

/// Partner sharing (``ShoeboxLibrary/PartnerShare``), a person's (a session or a key; apps are
/// refused): `GET /api/partners` (both sides), `PUT /api/partners/NAME` (share one's library
/// with a person, from a date or all of it; again to change the date), `DELETE
/// /api/partners/NAME` (stop), `PATCH /api/partners/from/NAME` (show their photos in one's
/// timeline or not) and `DELETE /api/partners/from/NAME` (stop seeing them). A partner's photos
/// are listed by the fetch routes (`partner=NAME`, or `partners=true` with one's own) and served
/// by the asset routes, read-only.
struct PartnerRoutes {
    let state: ServerState

    struct PartyJSON: Encodable {
        let id: String
        let name: String
        let displayName: String

        init(_ party: PartnerShare.Party) { (id, name, displayName) = (party.id, party.name, party.displayName) }
    }

    struct ShareJSON: Encodable {
        let sharer: PartyJSON
        let partner: PartyJSON
        /// The earliest capture date shared; absent: everything.
        let startDate: Date?
        let inTimeline: Bool
        let creationDate: Date

        init(_ share: PartnerShare) {
            (sharer, partner) = (PartyJSON(share.sharer), PartyJSON(share.partner))
            (startDate, inTimeline, creationDate) = (share.startDate, share.isShownInTimeline, share.creationDate)
        }
    }

    struct Sharing: Decodable {
        /// `YYYY-MM-DD` (that day's start, UTC) or an ISO 8601 time; absent or `null`: everything.
        let startDate: String?
    }

    struct Showing: Decodable {
        let inTimeline: Bool
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("partners") { _, context in
            let (library, me) = try person(context)
            return try await attempt {
                let shares = try await library.partnerShares()
                struct Both: Encodable {
                    /// The caller's library, and with whom.
                    let sharing: [ShareJSON]
                    /// Others' libraries shared with the caller.
                    let sharedWithMe: [ShareJSON]
                }
                return try JSONResponse.make(
                    Both(
                        sharing: shares.filter { $0.sharer.id == me.id }.map(ShareJSON.init),
                        sharedWithMe: shares.filter { $0.partner.id == me.id }.map(ShareJSON.init)))
            }
        }
        api.put("partners/:person") { request, context in
            let (library, _) = try person(context)
            let other = try context.parameters.requireDecoded("person")
            let body = try await JSONResponse.decode(Sharing.self, from: request)
            let start = try body.startDate.map(Self.date(_:))
            return try await attempt { try JSONResponse.make(ShareJSON(try await library.sharePartnerLibrary(with: other, from: start))) }
        }
        api.delete("partners/:person") { _, context in
            let (library, _) = try person(context)
            let other = try context.parameters.requireDecoded("person")
            try await attempt { try await library.stopPartnerSharing(with: other) }
            return Response(status: .noContent)
        }
        api.patch("partners/from/:person") { request, context in
            let (library, _) = try person(context)
            let other = try context.parameters.requireDecoded("person")
            let body = try await JSONResponse.decode(Showing.self, from: request)
            try await attempt { try await library.showPartnerAssetsInTimeline(body.inTimeline, from: other) }
            return Response(status: .noContent)
        }
        api.delete("partners/from/:person") { _, context in
            let (library, _) = try person(context)
            let other = try context.parameters.requireDecoded("person")
            try await attempt { try await library.leavePartnerShare(from: other) }
            return Response(status: .noContent)
        }
    }

    /// `YYYY-MM-DD` as that day's start in UTC, or an ISO 8601 time.
    static func date(_ text: String) throws(APIError) -> Date {
        if text.count == 10, let day = try? Date(text + "T00:00:00Z", strategy: .iso8601) { return day }
        if let time = try? Date(text, strategy: .iso8601) { return time }
        throw APIError.badRequest("startDate must be YYYY-MM-DD or an ISO 8601 time, not \(text)")
    }

    /// The person's library and the person (apps are refused).
    func person(_ context: ServerRequestContext) throws -> (PhotoLibrary, Person) {
        let me = try context.caller.requirePerson("apps do not see partner sharing")
        return (try state.handle(for: context.caller).library, me)
    }

    /// `body`, its library errors as the API's.
    func attempt<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw APIError(error) }
    }
}
