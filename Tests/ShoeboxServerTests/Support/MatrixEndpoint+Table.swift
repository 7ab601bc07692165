import Foundation

/// Every endpoint of `docs/API.md`, as the authorization matrix calls it. `AuthorizationMatrixTests`
/// fails when the document and this table disagree.
extension MatrixEndpoint {
    static let assets: [MatrixObject] = [.ownAsset, .grantedAsset, .secretAsset, .otherAsset]
    static let albums: [MatrixObject] = [.ownAlbum, .userAlbum, .otherAlbum]
    static let fetches: [MatrixObject] = [.ownFetch, .otherFetch]
    static let uploads: [MatrixObject] = [.ownUpload, .otherUpload]
    static let sessions: [MatrixObject] = [.ownSession, .otherSession]
    static let clients: [MatrixObject] = [.selfClient, .otherClient]

    static let table: [MatrixEndpoint] = (library + media + uploading + privacy + jobs + picker + pickerPage + pages + people + sharedAlbums + editing).map {
        endpoint in
        var endpoint = endpoint
        endpoint.member = memberRules["\(endpoint.method) \(endpoint.template)"]
        return endpoint
    }

    /// The member's outcomes that their access rule does not give (``MatrixEndpoint/memberOutcome(on:method:)``):
    /// what only admins (people) do, and the user-only
    /// endpoints whose body names the first admin's things. Apps and jobs are each person's: the
    /// member's own, none (the first admin's clients, questions and pickers are not found).
    static let memberRules: [String: MemberRule] = {
        var rules: [String: MemberRule] = [
            // The member registering a client is their own app, whatever its identifier (the
            // owner's app of the same name stays the owner's): OwnerAPITests checks it, since
            // here the member's own registration would read as the owner's identifier leaking.
            "POST /api/clients": .skip,
            "POST /api/me/password": .outcome(.refused(403, "wrongPassword")),  // a session must give its current password
            "POST /api/sessions/end-all": .skip, "DELETE /api/session": .skip,
            "POST /api/shares": .outcome(.refused(404, "notFound")),  // it shares the first admin's photos
            "DELETE /api/shares/{shareID}": .outcome(.refused(404, "notFound")),
            "GET /api/shares/{shareID}/views": .outcome(.refused(404, "notFound")),
        ]
        for admin in [
            "GET /api/people", "POST /api/people", "PATCH /api/people/{member}", "POST /api/people/{spare}/password", "DELETE /api/people/{noPerson}",
        ] {
            rules[admin] = .adminOnly
        }
        return rules
    }()

    // MARK: People and sessions (the matrix's user is the first admin; its member has a password)

    static let people: [MatrixEndpoint] = [
        MatrixEndpoint(
            method: "POST", template: "/api/session", access: .signIn,
            body: { _, _ in .object(["name": MatrixFixture.memberName, "password": MatrixFixture.memberPassword]) }),
        MatrixEndpoint(method: "GET", template: "/api/me", access: .user),
        MatrixEndpoint(
            method: "POST", template: "/api/me/password", access: .user, body: { _, _ in .object(["password": "the-admin-password"]) }),
        MatrixEndpoint(method: "GET", template: "/api/sessions", access: .user),
        MatrixEndpoint(method: "DELETE", template: "/api/sessions/{noSession}", access: .userMissing),
        MatrixEndpoint(method: "POST", template: "/api/sessions/end-all", access: .user),
        MatrixEndpoint(method: "GET", template: "/api/keys", access: .user),
        MatrixEndpoint(method: "POST", template: "/api/keys", access: .user, body: { _, _ in .object(["name": "matrix key", "scope": "read"]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/keys/{noKey}", access: .userMissing),
        // Passkeys: the matrix calls at 127.0.0.1, where WebAuthn has no site (WebAuthnTests and the
        // browser test use localhost); the credential it sends is no authenticator's.
        MatrixEndpoint(method: "GET", template: "/api/passkeys", access: .user),
        MatrixEndpoint(method: "POST", template: "/api/passkeys/registration", access: .userRefused(400, "passkeysUnavailable")),
        MatrixEndpoint(
            method: "POST", template: "/api/passkeys", access: .userRefused(400, "passkeyRefused"),
            body: { _, _ in .object(["credential": ["rawId": "AAAA", "type": "public-key", "response": ["clientDataJSON": "e30", "attestationObject": "oA"]]]) }
        ),
        MatrixEndpoint(method: "DELETE", template: "/api/passkeys/{noPasskey}", access: .userMissing),
        // OpenID Connect: the matrix's server has no provider (OpenIDConnectTests has one), so
        // every caller who gets past who-may-call finds none.
        MatrixEndpoint(method: "GET", template: "/signin/oidc", access: .anyoneRefused(404, "notFound")),
        MatrixEndpoint(method: "GET", template: "/signin/oidc/callback?code=c&state=s", access: .anyoneRefused(404, "notFound")),
        MatrixEndpoint(method: "POST", template: "/api/me/oidc", access: .userRefused(404, "notFound")),
        MatrixEndpoint(method: "DELETE", template: "/api/me/oidc", access: .userRefused(404, "notFound")),
        MatrixEndpoint(method: "POST", template: "/api/passkeys/challenge", access: .anyoneRefused(400, "passkeysUnavailable")),
        MatrixEndpoint(
            method: "POST", template: "/api/passkeys/signin", access: .anyoneRefused(401, "signInFailed"),
            body: { _, _ in
                .object([
                    "credential": [
                        "rawId": "AAAA", "type": "public-key", "response": ["clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"],
                    ]
                ])
            }),
        MatrixEndpoint(method: "DELETE", template: "/api/session", access: .user),
        MatrixEndpoint(method: "GET", template: "/api/people", access: .user),
        MatrixEndpoint(
            method: "POST", template: "/api/people", access: .user,
            body: { _, _ in .object(["name": "p-" + UUID().uuidString.prefix(8).lowercased(), "password": "a-new-password"]) }),
        MatrixEndpoint(
            method: "PATCH", template: "/api/people/{member}", access: .user,
            body: { _, _ in .object(["displayName": "Matrix Member"]) }),
        MatrixEndpoint(
            // Another person's: a new password ends their sessions, and the member's must last.
            method: "POST", template: "/api/people/{spare}/password", access: .user,
            body: { _, _ in .object(["password": MatrixFixture.memberPassword]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/people/{noPerson}", access: .userMissing),
        MatrixEndpoint(method: "POST", template: "/signin", access: .signInFormExpired),
    ]

    /// Shared albums: the matrix's identities are in none (SharedAlbumAPITests covers the roles),
    /// so each is refused as a client (`403 userOnly`) or finds no album (`404`). Partner sharing
    /// likewise.
    static let sharedAlbums: [MatrixEndpoint] = [
        MatrixEndpoint(method: "GET", template: "/api/household", access: .user),
        MatrixEndpoint(method: "GET", template: "/api/shared-albums", access: .user),
        MatrixEndpoint(method: "GET", template: "/api/shared-albums/{noAlbum}", access: .userMissing),
        MatrixEndpoint(method: "GET", template: "/api/shared-albums/{noAlbum}/activity", access: .userMissing),
        MatrixEndpoint(
            method: "POST", template: "/api/shared-albums/{noAlbum}/people", access: .userMissing,
            body: { _, _ in .object(["person": MatrixFixture.memberName, "role": "viewer"]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/shared-albums/{noAlbum}/people/{member}", access: .userMissing),
        MatrixEndpoint(
            method: "POST", template: "/api/shared-albums/{noAlbum}/assets", access: .userMissing,
            body: { _, _ in .object(["assets": ["no-such-asset"]]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/shared-albums/{noAlbum}/assets/{noAsset}", access: .userMissing),
        MatrixEndpoint(method: "PUT", template: "/api/shared-albums/{noAlbum}/assets/{noAsset}/like", access: .userMissing),
        MatrixEndpoint(method: "DELETE", template: "/api/shared-albums/{noAlbum}/assets/{noAsset}/like", access: .userMissing),
        MatrixEndpoint(
            method: "POST", template: "/api/shared-albums/{noAlbum}/assets/{noAsset}/comments", access: .userMissing,
            body: { _, _ in .object(["text": "a comment"]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/shared-albums/{noAlbum}/comments/{noComment}", access: .userMissing),
        MatrixEndpoint(method: "POST", template: "/api/shared-albums/{noAlbum}/assets/{noAsset}/copy", access: .userMissing),
        MatrixEndpoint(method: "GET", template: "/api/shared-albums/{noAlbum}/assets/{noAsset}/thumbnail?size=64", access: .userMissing),
        MatrixEndpoint(method: "GET", template: "/api/shared-albums/{noAlbum}/assets/{noAsset}/image", access: .userMissing),
        MatrixEndpoint(method: "GET", template: "/api/shared-albums/{noAlbum}/assets/{noAsset}/video", access: .userMissing),
        // Partner sharing: the person's own (PartnerAPITests covers sharers, partners and strangers).
        MatrixEndpoint(method: "GET", template: "/api/partners", access: .user),
        MatrixEndpoint(method: "PUT", template: "/api/partners/{spare}", access: .user, body: { _, _ in .object(["startDate": NSNull()]) }),
        // Nobody shares with the member, nor the admin with them: nothing to stop.
        MatrixEndpoint(method: "DELETE", template: "/api/partners/{member}", access: .userMissing),
        MatrixEndpoint(method: "PATCH", template: "/api/partners/from/{member}", access: .userMissing, body: { _, _ in .object(["inTimeline": true]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/partners/from/{member}", access: .userMissing),
        // The Shared Library: the matrix's identities are in none and invited to none
        // (SharedLibraryAPITests covers participants, the invited, former ones and strangers).
        MatrixEndpoint(method: "GET", template: "/api/shared-library", access: .user),
        MatrixEndpoint(
            method: "POST", template: "/api/shared-library/invitations", access: .userRefused(404, "noSuchPerson"),
            body: { _, _ in .object(["person": "no-such-person"]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/shared-library/invitations/{member}", access: .userMissing),
        MatrixEndpoint(method: "POST", template: "/api/shared-library/join", access: .userMissing, body: { _, _ in .object(["move": "nothing"]) }),
        MatrixEndpoint(method: "POST", template: "/api/shared-library/decline", access: .userMissing),
        MatrixEndpoint(method: "PATCH", template: "/api/shared-library", access: .userMissing, body: { _, _ in .object(["movesNewAssets": true]) }),
        MatrixEndpoint(
            method: "POST", template: "/api/shared-library/move", access: .userRefused(403, "notPermitted"),
            body: { _, _ in .object(["to": "shared", "move": "everything"]) }),
        MatrixEndpoint(method: "POST", template: "/api/shared-library/leave", access: .userMissing, body: { _, _ in .object(["keep": "mine"]) }),
    ]

    // MARK: Editing (last: an edit gives its asset a new version, which the thumbnail cells' `v` would miss)

    static let editing: [MatrixEndpoint] = [
        MatrixEndpoint(method: "GET", template: "/api/assets/{o}/adjustments", access: .read, objects: assets),
        MatrixEndpoint(
            method: "PUT", template: "/api/assets/{o}/adjustments", access: .user, objects: assets,
            body: { _, _ in .object(["rotation": 180]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/assets/{o}/adjustments", access: .user, objects: assets),
    ]

    // MARK: Library

    static let library: [MatrixEndpoint] = [
        MatrixEndpoint(method: "GET", template: "/api/health", access: .anyone),
        MatrixEndpoint(method: "GET", template: "/api/albums", access: .read),
        MatrixEndpoint(method: "POST", template: "/api/albums", access: .read, body: { _, _ in .object(["title": "Matrix album"]) }),
        MatrixEndpoint(
            method: "POST", template: "/api/albums", access: .album, objects: [.userFolder],
            body: { _, values in .object(["title": "Matrix album", "folder": values["oRaw"]!]) }),
        // Renamed to its own title: the album stays as it was for the next cell.
        MatrixEndpoint(
            method: "PATCH", template: "/api/albums/{o}", access: .album, objects: albums + [.userFolder],
            body: { fixture, values in .object(["title": fixture.title(ofAlbum: values["oRaw"]!)]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/albums/{o}", access: .albumDelete, objects: albums + [.userFolder], consumes: true),
        MatrixEndpoint(
            method: "POST", template: "/api/albums/{o}/add", access: .album, objects: albums,
            body: { _, values in .object(["assets": [values["grantedRaw"]!]]) }),
        MatrixEndpoint(
            method: "POST", template: "/api/albums/{o}/remove", access: .album, objects: albums,
            body: { _, values in .object(["assets": [values["grantedRaw"]!]]) }),
        MatrixEndpoint(method: "GET", template: "/api/assets?limit=100", access: .read),
        MatrixEndpoint(method: "GET", template: "/api/assets?album={o}", access: .album, objects: albums),
        MatrixEndpoint(
            method: "POST", template: "/api/assets?filename=matrix.jpg", access: .add,
            body: { fixture, _ in .bytes(fixture.uniquePhoto()) }),
        MatrixEndpoint(
            method: "POST", template: "/api/assets?filename=matrix.jpg&album={o}", access: .addIntoAlbum, objects: albums,
            body: { fixture, _ in .bytes(fixture.uniquePhoto()) }),
        MatrixEndpoint(method: "GET", template: "/api/assets/{o}", access: .read, objects: assets),
        // Every shared asset is a favorite from the start: setting it again changes nothing.
        MatrixEndpoint(
            method: "PATCH", template: "/api/assets/{o}", access: .read, objects: assets,
            body: { _, _ in .object(["isFavorite": true]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/assets/{o}", access: .clientDeletion, objects: assets, consumes: true),
        MatrixEndpoint(method: "POST", template: "/api/assets/{o}/restore", access: .read, objects: assets),
        MatrixEndpoint(method: "POST", template: "/api/assets/{o}/purge", access: .clientDeletion, objects: assets, consumes: true),
        MatrixEndpoint(
            method: "POST", template: "/api/assets/batch", access: .read, objects: assets,
            body: { _, values in .object(["action": "favorite", "assets": [values["oRaw"]!]]) }),
        MatrixEndpoint(
            method: "POST", template: "/api/assets/batch", access: .clientDeletion, objects: assets, consumes: true,
            body: { _, values in .object(["action": "delete", "assets": [values["oRaw"]!]]) }),
        MatrixEndpoint(
            method: "POST", template: "/api/assets/batch", access: .snapshot(finding: nil), objects: fetches,
            body: { _, values in .object(["action": "favorite", "fetch": values["oRaw"]!]) }),
        // A rating of 0 on assets that have none: the change changes nothing the next cell sees.
        MatrixEndpoint(
            method: "POST", template: "/api/assets/metadata", access: .read, objects: assets,
            body: { _, values in .object(["rating": 0, "assets": [values["oRaw"]!]]) }),
        MatrixEndpoint(
            method: "POST", template: "/api/assets/metadata", access: .snapshot(finding: nil), objects: fetches,
            body: { _, values in .object(["rating": 0, "fetch": values["oRaw"]!]) }),
        MatrixEndpoint(method: "GET", template: "/api/keywords", access: .read),
        MatrixEndpoint(method: "POST", template: "/api/fetches", access: .read, body: { _, _ in .object([String: Any]()) }),
        MatrixEndpoint(
            method: "POST", template: "/api/fetches", access: .album, objects: albums,
            body: { _, values in .object(["album": values["oRaw"]!]) }),
        MatrixEndpoint(method: "GET", template: "/api/fetches/{o}/index?asset={granted}", access: .snapshot(finding: .grantedAsset), objects: fetches),
        MatrixEndpoint(method: "GET", template: "/api/fetches/{o}/index?asset={secret}", access: .snapshot(finding: .secretAsset), objects: [.ownFetch]),
        MatrixEndpoint(method: "GET", template: "/api/fetches/{o}/assets?offset=0&limit=100", access: .snapshot(finding: nil), objects: fetches),
        MatrixEndpoint(method: "GET", template: "/api/fetches/{o}/summary", access: .snapshot(finding: nil), objects: fetches),
        MatrixEndpoint(method: "GET", template: "/api/events", access: .events, streams: true),
        MatrixEndpoint(method: "GET", template: "/api/events?fetch={o}", access: .events, objects: fetches, streams: true),
        MatrixEndpoint(method: "GET", template: "/api/devices", access: .user),
        MatrixEndpoint(method: "GET", template: "/api/places", access: .read),
        MatrixEndpoint(method: "GET", template: "/api/places/clusters?cell=10", access: .read),
        MatrixEndpoint(method: "GET", template: "/api/places/world", access: .read),
        MatrixEndpoint(method: "GET", template: "/api/places/search?q=rome", access: .read),
        MatrixEndpoint(method: "GET", template: "/api/memories", access: .read),
        MatrixEndpoint(method: "GET", template: "/api/shares", access: .user),
        MatrixEndpoint(
            method: "POST", template: "/api/shares", access: .user, objects: [.userAlbum],
            body: { _, values in .object(["album": values["oRaw"]!]) }),
        MatrixEndpoint(method: "DELETE", template: "/api/shares/{shareID}", access: .user),
        MatrixEndpoint(method: "GET", template: "/api/shares/{shareID}/views", access: .user),
        MatrixEndpoint(method: "GET", template: "/s/{share}", access: .sharedLink),
        MatrixEndpoint(method: "GET", template: "/s/{share}/data", access: .sharedLink),
        MatrixEndpoint(method: "GET", template: "/s/{share}/{first}/thumbnail", access: .sharedLink),
        MatrixEndpoint(method: "GET", template: "/s/{share}/{first}/image", access: .sharedLink),
        MatrixEndpoint(method: "GET", template: "/s/{share}/{second}/video", access: .sharedLink),
        MatrixEndpoint(method: "GET", template: "/s/{share}/{first}/download", access: .sharedLink),
        MatrixEndpoint(method: "POST", template: "/s/{share}/unlock", access: .sharedLink, body: { _, _ in .object(["password": "none needed"]) }),
        MatrixEndpoint(method: "POST", template: "/api/memories/{memory}/hide", access: .user),
        MatrixEndpoint(method: "POST", template: "/api/memories/{memory}/unhide", access: .user),
    ]

    // MARK: Pixels and files

    static let media: [MatrixEndpoint] = [
        MatrixEndpoint(method: "GET", template: "/api/assets/{o}/thumbnail?size=64&v={v}", access: .read, objects: assets),
        MatrixEndpoint(method: "GET", template: "/api/assets/{o}/original", access: .read, objects: assets),
        MatrixEndpoint(method: "GET", template: "/api/assets/{o}/original?download", access: .read, objects: [.secretAsset]),
        MatrixEndpoint(method: "GET", template: "/api/assets/{o}/render", access: .read, objects: assets),
        MatrixEndpoint(method: "GET", template: "/api/assets/{o}/original?download&location=strip", access: .read, objects: [.grantedAsset, .secretAsset]),
        MatrixEndpoint(method: "GET", template: "/api/archive?assets={o}", access: .read, objects: assets),
        MatrixEndpoint(method: "GET", template: "/api/archive?fetch={o}&files=originals", access: .snapshot(finding: nil), objects: fetches),
        MatrixEndpoint(method: "GET", template: "/api/assets/{o}/video", access: .read, objects: [.grantedMovie, .secretMovie]),
        MatrixEndpoint(
            method: "GET", template: "/api/assets/{o}/resources/{resource}", access: .read,
            objects: assets + [.grantedMovie, .secretMovie]),
    ]

    // MARK: Resumable uploads

    static let uploading: [MatrixEndpoint] = [
        MatrixEndpoint(
            method: "POST", template: "/api/uploads", access: .add,
            body: { _, _ in .object(["filename": "matrix.jpg", "size": 1_000]) }),
        MatrixEndpoint(
            method: "POST", template: "/api/uploads", access: .addIntoAlbum, objects: albums,
            body: { _, values in .object(["filename": "matrix.jpg", "size": 1_000, "album": values["oRaw"]!]) }),
        MatrixEndpoint(
            method: "PUT", template: "/api/uploads/{o}?offset=0", access: .uploader(adding: true), objects: uploads, consumes: true,
            body: { fixture, values in .bytes(fixture.bytes(ofUpload: values["oRaw"]!)) }),
        MatrixEndpoint(method: "GET", template: "/api/uploads/{o}", access: .uploader(adding: false), objects: uploads),
        MatrixEndpoint(method: "DELETE", template: "/api/uploads/{o}", access: .uploader(adding: false), objects: uploads, consumes: true),
        MatrixEndpoint(
            method: "POST", template: "/api/assets/known", access: .user,
            body: { _, _ in .object(["sha256": [String(repeating: "0", count: 64)]]) }),
    ]

    // MARK: Clients and privacy

    static let privacy: [MatrixEndpoint] = [
        MatrixEndpoint(
            method: "POST", template: "/api/clients", access: .registration, objects: [.newClient, .selfClient, .otherClient],
            body: { fixture, values in .object(fixture.manifest(of: values["oRaw"]!)) }),
        MatrixEndpoint(method: "GET", template: "/api/clients", access: .user),
        MatrixEndpoint(method: "GET", template: "/api/clients/{o}", access: .userOrSelf, objects: clients),
        // Set to what it is: the next cell finds the client as it was.
        MatrixEndpoint(
            method: "PUT", template: "/api/clients/{o}/services/{service}", access: .user, objects: clients,
            body: { fixture, values in .object(["status": fixture.storedStatus(of: values["oRaw"]!, service: "photoLibrary")]) }),
        MatrixEndpoint(
            method: "PUT", template: "/api/clients/{o}/limited", access: .user, objects: clients,
            body: { fixture, _ in .object(["assets": fixture.limitedSelection]) }),
        MatrixEndpoint(method: "GET", template: "/api/clients/{o}/report?limit=20", access: .user, objects: clients),
        MatrixEndpoint(method: "DELETE", template: "/api/clients/{o}/tokens", access: .user, objects: clients, consumes: true),
        MatrixEndpoint(method: "DELETE", template: "/api/clients/{o}", access: .user, objects: clients, consumes: true),
        MatrixEndpoint(
            method: "GET", template: "/api/authorization/{o}", access: .clientItself(asks: false),
            objects: [.photoLibrary, .photoLibraryAdd, .camera, .microphone]),
        MatrixEndpoint(
            method: "POST", template: "/api/authorization/{o}", access: .clientItself(asks: true),
            objects: [.photoLibrary, .photoLibraryAdd, .camera, .microphone]),
        MatrixEndpoint(method: "GET", template: "/api/prompts", access: .user),
        MatrixEndpoint(
            method: "POST", template: "/api/prompts/{o}", access: .user, objects: [.prompt], consumes: true,
            body: { _, _ in .object(["answer": "deny"]) }),
    ]

    // MARK: Background work

    static let jobs: [MatrixEndpoint] = [
        MatrixEndpoint(method: "GET", template: "/api/jobs", access: .user),
        MatrixEndpoint(method: "POST", template: "/api/jobs/retry", access: .user, body: { _, _ in .object(["ids": [0]]) }),
        MatrixEndpoint(method: "POST", template: "/api/jobs/cancel", access: .user, body: { _, _ in .object(["ids": [0]]) }),
    ]

    // MARK: Picker sessions

    static let picker: [MatrixEndpoint] = [
        MatrixEndpoint(method: "GET", template: "/api/picker/cameras", access: .user),
        // No cameras: the matrix's camera sessions stay on the synthetic capture device.
        MatrixEndpoint(method: "POST", template: "/api/picker/cameras", access: .user, body: { _, _ in .object(["cameras": [] as [Any]]) }),
        MatrixEndpoint(
            method: "POST", template: "/api/picker/sessions", access: .pickerCreate(camera: false),
            body: { _, _ in .object(MatrixFixture.request(for: .library)) }),
        MatrixEndpoint(
            method: "POST", template: "/api/picker/sessions", access: .pickerCreate(camera: true),
            body: { _, _ in .object(MatrixFixture.request(for: .camera)) }),
        MatrixEndpoint(method: "GET", template: "/api/picker/sessions/{o}", access: .pickerOwner(camera: false), objects: sessions),
        MatrixEndpoint(method: "GET", template: "/api/picker/sessions/{o}/files/{file}", access: .pickerOwner(camera: false), objects: [.ownPick, .otherPick]),
        MatrixEndpoint(method: "DELETE", template: "/api/picker/sessions/{o}", access: .pickerOwner(camera: false), objects: sessions, consumes: true),
        MatrixEndpoint(
            method: "POST", template: "/api/picker/sessions/{o}/takePicture", access: .pickerOwner(camera: true), objects: sessions,
            session: .customControls, consumes: true),
        MatrixEndpoint(
            method: "POST", template: "/api/picker/sessions/{o}/startVideoCapture", access: .pickerOwner(camera: true), objects: sessions,
            session: .customControls, consumes: true),
        MatrixEndpoint(
            method: "POST", template: "/api/picker/sessions/{o}/stopVideoCapture", access: .pickerOwner(camera: true), objects: sessions,
            session: .customControls, consumes: true,
            prepare: { fixture, values in
                // Answered once the movie has its first frame: the stop has a movie to finish.
                try await fixture.asUser("POST", "/api/picker/sessions/\(values["o"]!)/startVideoCapture")
            }),
        MatrixEndpoint(
            method: "POST", template: "/api/picker/sessions/{o}/dismiss", access: .pickerOwner(camera: false), objects: sessions,
            session: .customControls, consumes: true),
    ]

    // MARK: The picker page's own routes

    static func ui(
        _ method: String, _ path: String, session: SessionKind = .library, consumes: Bool = false, streams: Bool = false,
        body: @escaping @Sendable (MatrixFixture, Values) async throws -> Body = { _, _ in .none },
        prepare: (@Sendable (MatrixFixture, Values) async throws -> Void)? = nil
    ) -> MatrixEndpoint {
        MatrixEndpoint(
            method: method, template: "/api/picker/sessions/{o}/ui" + path, access: .pickerPage, objects: sessions, session: session,
            consumes: consumes, streams: streams, body: body, prepare: prepare)
    }

    /// What the page does first, as the user, on the session `values["o"]` names: `(method, path,
    /// body)`, where a body value `$name` is `values[name]`.
    static func page(_ steps: [(String, String, [String: String]?)]) -> @Sendable (MatrixFixture, Values) async throws -> Void {
        { fixture, values in
            for (method, path, body) in steps {
                let json = body.map { $0.mapValues { $0.hasPrefix("$") ? values[String($0.dropFirst())] ?? $0 : $0 } }
                try await fixture.asUser(method, "/api/picker/sessions/\(values["o"]!)/ui\(path)", json: json)
            }
        }
    }

    static let chooseRecents: (String, String, [String: String]?) = ("POST", "/album", ["id": "$recents"])
    static let selectGranted: (String, String, [String: String]?) = ("POST", "/select", ["id": "$grantedRaw"])

    static let pickerPage: [MatrixEndpoint] = [
        ui("GET", ""),
        ui("GET", "/events", streams: true),
        ui("GET", "/albums"),
        ui("POST", "/album", body: { _, values in .object(["id": values["recents"]!]) }),
        ui("GET", "/assets?offset=0&limit=10", prepare: page([chooseRecents])),
        ui("GET", "/assets/{granted}/thumbnail?size=64"),
        ui("GET", "/assets/{movie}/video"),
        ui("POST", "/preview", body: { _, values in .object(["id": values["grantedRaw"]!]) }, prepare: page([chooseRecents])),
        ui("POST", "/select", body: { _, values in .object(["id": values["grantedRaw"]!]) }),
        ui("POST", "/deselect", body: { _, values in .object(["id": values["grantedRaw"]!]) }, prepare: page([selectGranted])),
        ui(
            "POST", "/crop", body: { _, values in .object(["id": values["grantedRaw"]!, "rect": ["x": 0, "y": 0, "width": 100, "height": 100]]) },
            prepare: page([selectGranted])),
        ui(
            "POST", "/trim", body: { _, values in .object(["id": values["movieRaw"]!, "start": 0, "end": 0.5]) },
            prepare: page([("POST", "/select", ["id": "$movieRaw"])])),
        ui("POST", "/confirm", consumes: true, prepare: page([selectGranted])),
        ui("POST", "/cancel", consumes: true),
        ui("POST", "/dismiss", consumes: true),
        ui("POST", "/camera/takePicture", session: .camera, consumes: true),
        ui("POST", "/camera/startVideoCapture", session: .camera, consumes: true),
        ui(
            "POST", "/camera/stopVideoCapture", session: .camera, consumes: true,
            prepare: { fixture, values in
                // Answered once the movie has its first frame: the stop has a movie to finish.
                try await page([("POST", "/camera/startVideoCapture", nil)])(fixture, values)
            }),
        ui("POST", "/camera/retake", session: .camera, consumes: true, prepare: page([("POST", "/camera/takePicture", nil)])),
        ui("POST", "/camera/use", session: .camera, consumes: true, prepare: page([("POST", "/camera/takePicture", nil)])),
        ui("POST", "/camera/settings", session: .camera, body: { _, _ in .object(["flash": "off"]) }),
        ui("POST", "/captures?filename=capture.jpg", session: .camera, consumes: true, body: { fixture, _ in .bytes(fixture.uniquePhoto()) }),
        ui(
            "GET", "/captures/{capture}", session: .camera, consumes: true,
            prepare: { fixture, values in
                try await fixture.asUser("POST", "/api/picker/sessions/\(values["o"]!)/ui/captures?filename=capture.jpg", body: fixture.uniquePhoto())
            }),
        ui("GET", "/camera/preview", session: .camera, consumes: true, streams: true),
    ]

    // MARK: Pages

    static let pages: [MatrixEndpoint] = [
        MatrixEndpoint(method: "GET", template: "/", access: .page),
        MatrixEndpoint(method: "GET", template: "/pick/{o}", access: .page, objects: sessions),
        MatrixEndpoint(method: "GET", template: "/app/{appFile}", access: .anyone),
        MatrixEndpoint(method: "GET", template: "/favicon.ico", access: .anyone),
    ]
}
