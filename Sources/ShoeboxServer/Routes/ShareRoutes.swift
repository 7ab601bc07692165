import Foundation
import Hummingbird
import ShoeboxLibrary

/// The user's shared links: `POST /api/shares` (make one), `GET /api/shares`,
/// `DELETE /api/shares/ID` (turn it off) and `GET /api/shares/ID/views`. The user only.
struct ShareRoutes {
    let state: ServerState

    struct ShareJSON: Encodable {
        let id: String
        let title: String
        let album: String?
        let assetCount: Int?
        let createdDate: Date
        let expiresDate: Date?
        let hasPassword: Bool
        let allowsDownload: Bool
        let includesMetadata: Bool
        let revokedDate: Date?
        let isOpen: Bool
        let viewCount: Int

        init(_ link: SharedLink) {
            (id, title, album, createdDate, expiresDate) = (link.id, link.title, link.albumIdentifier, link.createdDate, link.expiresDate)
            assetCount = link.albumIdentifier == nil ? link.assetIdentifiers.count : nil
            (hasPassword, allowsDownload, includesMetadata) = (link.hasPassword, link.allowsDownload, link.includesMetadata)
            (revokedDate, isOpen, viewCount) = (link.revokedDate, link.isOpen(), link.viewCount)
        }
    }

    struct NewShare: Decodable {
        let album: String?
        let assets: [String]?
        let title: String?
        /// Days until it expires (`nil`: never).
        let expiresInDays: Double?
        let password: String?
        let allowsDownload: Bool?
        let includesMetadata: Bool?
    }

    struct Created: Encodable {
        let share: ShareJSON
        /// The link's path (`/s/TOKEN`): shown once.
        let url: String
    }

    struct ViewJSON: Encodable {
        let date: Date
        let address: String
        let what: String
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.post("shares") { request, context in
            try context.caller.requireUser("only the user shares links")
            let body = try await JSONResponse.decode(NewShare.self, from: request)
            let library = state.library(for: context.caller)
            var album: AssetCollection?
            var sharedAlbum: SharedAlbum?
            if let identifier = body.album {
                do {
                    album = try await library.assetCollection(withLocalIdentifier: identifier)
                    // One shared with the person: a link shows it as they see it.
                    if album == nil { sharedAlbum = try await library.sharedAlbum(withLocalIdentifier: identifier) }
                } catch {
                    throw APIError(error)
                }
                // Not repeated: it may be someone else's album, and this must not read as its.
                guard album != nil || sharedAlbum != nil else { throw APIError.notFound("there is no such album") }
            }
            var assets: [Asset] = []
            if let identifiers = body.assets {
                guard identifiers.count <= PhotoLibrary.sharedLinkMaximumAssets else {
                    throw APIError.badRequest("a link shows at most 10,000 chosen photos, not \(identifiers.count): share an album of them instead")
                }
                do { assets = try await library.fetchAssets(withLocalIdentifiers: identifiers).allObjects() } catch { throw APIError(error) }
                let found = Set(assets.map(\.localIdentifier))
                if let missing = identifiers.first(where: { !found.contains($0) }) {
                    do { throw try await library.sharedLinkRefusal(missing: missing) } catch { throw APIError(error) }
                }
                let order = Dictionary(identifiers.enumerated().map { ($1, $0) }) { first, _ in first }
                assets.sort { (order[$0.localIdentifier] ?? 0) < (order[$1.localIdentifier] ?? 0) }
            }
            if let days = body.expiresInDays, !(days.isFinite && days > 0 && days <= 3_650) {
                throw APIError.badRequest("expiresInDays must be more than 0 and at most 3650")
            }
            let options = SharedLink.Options(
                expiresDate: body.expiresInDays.map { Date().addingTimeInterval($0 * 86_400) },
                password: body.password.flatMap { $0.isEmpty ? nil : $0 },
                allowsDownload: body.allowsDownload ?? false, includesMetadata: body.includesMetadata ?? false)
            do {
                let (link, token) =
                    if let sharedAlbum {
                        try await library.createSharedLink(title: body.title, sharedAlbum: sharedAlbum.id, options: options)
                    } else {
                        try await library.createSharedLink(title: body.title, album: album, assets: assets, options: options)
                    }
                return try JSONResponse.make(Created(share: ShareJSON(link), url: "/s/\(token)"), status: .created)
            } catch {
                throw APIError(error)
            }
        }
        api.get("shares") { _, context in
            try context.caller.requireUser("only the user sees shared links")
            do { return try JSONResponse.make(["shares": try await state.library(for: context.caller).sharedLinks().map(ShareJSON.init)]) } catch {
                throw APIError(error)
            }
        }
        api.delete("shares/:share") { _, context in
            try context.caller.requireUser("only the user turns shared links off")
            do { try await state.library(for: context.caller).revokeSharedLink(try context.parameters.require("share")) } catch { throw APIError(error) }
            return Response(status: .noContent)
        }
        api.get("shares/:share/views") { _, context in
            try context.caller.requireUser("only the user sees who looked")
            let id = try context.parameters.require("share")
            do {
                let library = state.library(for: context.caller)
                guard try await library.sharedLinks().contains(where: { $0.id == id }) else { throw APIError.notFound("no shared link \(id)") }
                return try JSONResponse.make([
                    "views": try await library.sharedLinkViews(id).map { ViewJSON(date: $0.date, address: $0.address, what: $0.what) }
                ])
            } catch let error as APIError {
                throw error
            } catch {
                throw APIError(error)
            }
        }
    }
}
