import Foundation
import Hummingbird
import ShoeboxLibrary

/// Shared albums (``ShoeboxLibrary/SharedAlbum``), a person's (a session or a key; apps are
/// refused): `GET /api/household` (whom to share with), `GET /api/shared-albums`, `GET /api/shared-albums/ID` (with its photos),
/// `…/activity`, `POST …/people` and `DELETE …/people/NAME` (share, change a role, take out,
/// leave), `POST …/assets` and `DELETE …/assets/ASSET` (add one's own, take out), `PUT`/`DELETE
/// …/assets/ASSET/like`, `POST …/assets/ASSET/comments`, `DELETE …/comments/ID`, `POST
/// …/assets/ASSET/copy` (Add to my library), and the pictures: `…/assets/ASSET/thumbnail`,
/// `…/image` and `…/video`. An album the person is not in is `404` on every route, as one that
/// is not there.
struct SharedAlbumRoutes {
    let state: ServerState

    struct PersonJSON: Encodable {
        let id: String
        let name: String
        let displayName: String
        let role: String?
        let addedDate: Date?

        init(_ member: SharedAlbum.Member, withRole: Bool = true) {
            (id, name, displayName) = (member.id, member.name, member.displayName)
            role = withRole ? member.role.rawValue : nil
            addedDate = withRole ? member.addedDate : nil
        }
    }

    struct AlbumJSON: Encodable {
        let localIdentifier: String
        let title: String
        let creationDate: Date
        let owner: PersonJSON
        /// What the person asking may do: `owner`, `contributor` or `viewer`.
        let role: String
        let members: [PersonJSON]
        let count: Int

        init(_ album: SharedAlbum) {
            (localIdentifier, title, creationDate, count) = (album.id, album.title, album.creationDate, album.count)
            owner = PersonJSON(album.owner)
            role = album.role.rawValue
            members = album.members.map { PersonJSON($0) }
        }
    }

    /// A photo of the album: what a viewer needs to show it, never its file name, place or camera.
    struct ItemJSON: Encodable {
        let localIdentifier: String
        let mediaType: String
        let pixelWidth: Int
        let pixelHeight: Int
        let duration: Double?
        let creationDate: Date
        let localCreationDate: String
        let version: String
        let addedBy: PersonJSON
        /// Whether the person asking added it (and so may take it out).
        let isMine: Bool
        let likeCount: Int
        let isLikedByMe: Bool
        let commentCount: Int

        init(_ item: SharedAlbumItem, me: String) {
            let asset = item.asset
            localIdentifier = asset.localIdentifier
            mediaType = asset.mediaType == .video ? "video" : "image"
            (pixelWidth, pixelHeight) = (asset.pixelWidth, asset.pixelHeight)
            duration = asset.mediaType == .video ? asset.duration : nil
            creationDate = asset.creationDate
            localCreationDate = asset.captureTime.localDateString
            version = AssetJSON.version(of: asset)
            addedBy = PersonJSON(item.addedBy, withRole: false)
            isMine = item.addedBy.id == me
            (likeCount, isLikedByMe, commentCount) = (item.likeCount, item.isLikedByMe, item.commentCount)
        }
    }

    struct ActivityJSON: Encodable {
        let id: String
        let kind: String
        let person: String
        let personName: String
        let assetIdentifier: String?
        let text: String?
        let count: Int
        let date: Date

        init(_ activity: SharedAlbumActivity) {
            (id, kind, person, personName) = (activity.id, activity.kind.rawValue, activity.personID, activity.personDisplayName)
            (assetIdentifier, text, count, date) = (activity.assetIdentifier, activity.text, activity.count, activity.date)
        }
    }

    struct Sharing: Decodable {
        let person: String
        let role: String
    }

    struct Assets: Decodable {
        let assets: [String]
    }

    struct Comment: Decodable {
        let text: String
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        // Whom a person may share with: the household's active people, by name (every person
        // sees them, as a family sees its members; admins manage them at /api/people).
        api.get("household") { _, context in
            let me = try context.caller.requirePerson("apps do not see the household")
            return try await attempt {
                let people = try await state.library.people().filter { $0.state == .active && $0.rowID != me.rowID }
                return try JSONResponse.make(["people": people.map { ["id": $0.id, "name": $0.name, "displayName": $0.displayName] }])
            }
        }
        api.get("shared-albums") { _, context in
            let library = try library(context)
            return try await attempt { try JSONResponse.make(["albums": try await library.sharedAlbums().map(AlbumJSON.init)]) }
        }
        api.get("shared-albums/:album") { _, context in
            let (library, album) = try album(context)
            let me = try context.caller.requirePerson("shared albums are a person's")
            return try await attempt {
                guard let shared = try await library.sharedAlbum(withLocalIdentifier: album) else { throw Self.missing(album) }
                struct Whole: Encodable {
                    let album: AlbumJSON
                    let items: [ItemJSON]
                }
                let items = try await library.sharedAlbumItems(album)
                return try JSONResponse.make(Whole(album: AlbumJSON(shared), items: items.map { ItemJSON($0, me: me.id) }))
            }
        }
        api.get("shared-albums/:album/activity") { _, context in
            let (library, album) = try album(context)
            return try await attempt { try JSONResponse.make(["activity": try await library.sharedAlbumActivity(album).map(ActivityJSON.init)]) }
        }
        api.post("shared-albums/:album/people") { request, context in
            let (library, album) = try album(context)
            let body = try await JSONResponse.decode(Sharing.self, from: request)
            guard let role = SharedAlbum.Role(rawValue: body.role), role != .owner else {
                throw APIError.badRequest("role must be viewer or contributor, not \(body.role)")
            }
            return try await attempt {
                guard let collection = try await library.assetCollection(withLocalIdentifier: album) else {
                    // Someone else's album: a member is told they may not, a stranger that there is none.
                    if try await library.sharedAlbum(withLocalIdentifier: album) != nil {
                        throw APIError.forbidden("notPermitted", "only the album's owner shares it")
                    }
                    throw Self.missing(album)
                }
                return try JSONResponse.make(["album": AlbumJSON(try await library.shareAlbum(collection, with: body.person, as: role))])
            }
        }
        api.delete("shared-albums/:album/people/:person") { _, context in
            let (library, album) = try album(context)
            let person = try context.parameters.requireDecoded("person")
            try await attempt { try await library.unshareAlbum(album, with: person) }
            return Response(status: .noContent)
        }
        api.post("shared-albums/:album/assets") { request, context in
            let (library, album) = try album(context)
            let body = try await JSONResponse.decode(Assets.self, from: request)
            return try await attempt { try JSONResponse.make(["added": try await library.addToSharedAlbum(album, assets: body.assets)]) }
        }
        api.delete("shared-albums/:album/assets/:asset") { _, context in
            let (library, album) = try album(context)
            let asset = try context.parameters.requireDecoded("asset")
            let removed = try await attempt { try await library.removeFromSharedAlbum(album, assets: [asset]) }
            guard removed > 0 else { throw APIError.notFound("\(asset) is not in the album, or not yours to take out") }
            return Response(status: .noContent)
        }
        api.put("shared-albums/:album/assets/:asset/like") { _, context in
            let (library, album) = try album(context)
            let asset = try context.parameters.requireDecoded("asset")
            try await attempt { try await library.setLike(true, asset: asset, inSharedAlbum: album) }
            return Response(status: .noContent)
        }
        api.delete("shared-albums/:album/assets/:asset/like") { _, context in
            let (library, album) = try album(context)
            let asset = try context.parameters.requireDecoded("asset")
            try await attempt { try await library.setLike(false, asset: asset, inSharedAlbum: album) }
            return Response(status: .noContent)
        }
        api.post("shared-albums/:album/assets/:asset/comments") { request, context in
            let (library, album) = try album(context)
            let asset = try context.parameters.requireDecoded("asset")
            let body = try await JSONResponse.decode(Comment.self, from: request, limit: 64 << 10)
            return try await attempt { try JSONResponse.make(["id": try await library.comment(body.text, on: asset, inSharedAlbum: album)], status: .created) }
        }
        api.delete("shared-albums/:album/comments/:comment") { _, context in
            let (library, album) = try album(context)
            let comment = try context.parameters.require("comment")
            try await attempt { try await library.deleteComment(comment, inSharedAlbum: album) }
            return Response(status: .noContent)
        }
        api.post("shared-albums/:album/assets/:asset/copy") { _, context in
            let (library, album) = try album(context)
            let asset = try context.parameters.requireDecoded("asset")
            return try await attempt {
                let mine = try await library.addSharedAssetToLibrary(asset, fromSharedAlbum: album)
                return try JSONResponse.make(await AssetJSON.one(mine, in: library), status: .created)
            }
        }
        api.get("shared-albums/:album/assets/:asset/thumbnail") { request, context in
            let asset = try await sharedAsset(context)
            return try await MediaRoutes(state: state).thumbnail(of: asset, images: state.everyonesImages, request: request, context: context, caches: false)
        }
        api.get("shared-albums/:album/assets/:asset/image") { request, context in
            let asset = try await sharedAsset(context)
            return try await MediaRoutes(state: state).thumbnail(
                of: asset, images: state.everyonesImages, request: request, context: context, caches: false,
                parameters: ["size": "2048", "mode": "fit"])
        }
        api.get("shared-albums/:album/assets/:asset/video") { request, context in
            let asset = try await sharedAsset(context)
            guard asset.mediaType == .video else { throw APIError.notFound("\(asset.localIdentifier) is not a movie") }
            let url = try await attempt { try await state.everyonesImages.requestVideoURL(for: asset) }
            return try await FileResponse.make(
                url, contentType: MediaRoutes.playbackMIMEType(of: url, asset: asset), entityTag: AssetJSON.version(of: asset) + "-play",
                immutable: false, request: request, context: context, fileIO: state.fileIO)
        }
    }

    /// An album the person is not in, as one that is not there (its identifier not repeated).
    static func missing(_ album: String) -> APIError { APIError.notFound("there is no such shared album") }

    /// The person's library (apps are refused).
    func library(_ context: ServerRequestContext) throws -> PhotoLibrary {
        try context.caller.requireUser("apps do not see shared albums")
        return try state.handle(for: context.caller).library
    }

    func album(_ context: ServerRequestContext) throws -> (PhotoLibrary, String) {
        (try library(context), try context.parameters.requireDecoded("album"))
    }

    /// The photo `:asset` of the album `:album`, when the person is in it and it shows there.
    func sharedAsset(_ context: ServerRequestContext) async throws -> Asset {
        let (library, album) = try album(context)
        let identifier = try context.parameters.requireDecoded("asset")
        guard let asset = try await attempt({ try await library.sharedAlbumAsset(album, asset: identifier) }) else {
            throw APIError.notFound("the album shows no such photo")
        }
        return asset
    }

    /// `body`, its library errors as the API's.
    func attempt<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw APIError(error) }
    }
}
