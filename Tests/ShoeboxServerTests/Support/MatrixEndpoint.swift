import Foundation

/// One row of the authorization matrix's endpoint table: an endpoint of `docs/API.md`, how to
/// call it (path parameters filled per object, a body, what to set up first), the objects to
/// call it on, and its access rule, from which every cell's expected outcome is derived.
struct MatrixEndpoint: Sendable {
    /// Who may call an endpoint (docs/API.md's "who" column, made precise).
    enum Access: Sendable {
        /// Anyone, even without credentials.
        case anyone
        /// A shared link's routes: anyone with the link, whatever credentials come with the
        /// request (they are not even read: the routes act for nobody).
        case sharedLink
        /// The user's pages: signed in (cookie or key), else a `401` sign-in page.
        case page
        /// `POST /api/clients`: anyone registers a new identifier; a registered one takes its
        /// own token or the user.
        case registration
        /// The user only.
        case user
        /// The user, or the client the path names when it is the caller itself.
        case userOrSelf
        /// A client asking about itself (`/api/authorization/SERVICE`); `asks`: the request asks
        /// the user when the status is undecided.
        case clientItself(asks: Bool)
        /// Needs read access; a limited client reaches only the assets shared with it and its
        /// own (others do not exist for it: `404`).
        case read
        /// A client's deletion: as `read`, and the user is asked first (the matrix's answer is no).
        case clientDeletion
        /// Needs the right to add photos (add-only, or read-write).
        case add
        /// Files a new photo into an album: adding, plus the album as `album` has it.
        case addIntoAlbum
        /// Reads or changes an album: a limited client only its own; full access any.
        case album
        /// Deletes an album: a limited client only its own (others `404`); full access only its
        /// own (others `403 notDeletable`); the user any.
        case albumDelete
        /// A fetch snapshot: only its owner's (others `404`), read with the owner's grant as it
        /// is now; `finding`: the asset looked up in it, as `read` decides.
        case snapshot(finding: MatrixObject?)
        /// The change events: needs read access.
        case events
        /// A resumable upload: only its uploader's (and the user's); `adding`: and the right to
        /// add photos now.
        case uploader(adding: Bool)
        /// Creates a picker session: a client or the user, no library grant; `camera`: the
        /// client's camera grant.
        case pickerCreate(camera: Bool)
        /// A picker session's own routes: its creator or the user (others `404`); `camera`: the
        /// creator's camera grant as it is now.
        case pickerOwner(camera: Bool)
        /// The picker page's routes: the user only.
        case pickerPage
        /// Signing in with a person's name and password: anyone (the matrix's body is the
        /// fixture member's right password).
        case signIn
        /// The sign-in form's post without the form's value from this browser's cookie: a
        /// `403` page for everyone.
        case signInFormExpired
        /// The user only, on an object that is not there (`404` for the user).
        case userMissing
        /// The user only, and what the matrix sends them is refused with this status and code
        /// (a passkey's options at an IP address, a credential no authenticator made).
        case userRefused(Int, String)
        /// Anyone, and what the matrix sends is refused with this status and code for everyone.
        case anyoneRefused(Int, String)
    }

    /// What a member of the library (``MatrixIdentity/member``) gets, where it does not follow
    /// from the access rule: `nil` derives it (``memberOutcome(on:method:)``).
    enum MemberRule: Sendable {
        /// An admin's endpoint: `403 adminOnly`.
        case adminOnly
        /// This answer.
        case outcome(Outcome)
        /// Not called as the member: it ends the member's own session (the cells after it would
        /// be nobody's).
        case skip
    }

    /// What a cell must answer.
    enum Outcome: Equatable, Sendable, CustomStringConvertible {
        /// A `2xx` (the pages' and static files' `200`).
        case success
        /// Refused with this status and, when given, this error code.
        case refused(Int, String?)
        /// A question reaches the user first (the matrix answers no), then this status and code.
        case asks(Int, String?)

        var description: String {
            switch self {
            case .success: "2xx"
            case .refused(let status, let code): "\(status) \(code ?? "")"
            case .asks(let status, let code): "a question, then \(status) \(code ?? "")"
            }
        }
    }

    /// Which picker sessions the session objects are.
    enum SessionKind: Sendable {
        /// Photos and movies from the library, no selection limit.
        case library
        /// The camera (the synthetic capture device) with its standard controls.
        case camera
        /// The camera with custom controls (`showsControls: false`): the program takes pictures.
        case customControls
    }

    enum Body: Sendable {
        case none
        case json(Data)
        case bytes(Data)

        static func object(_ value: Any) -> Body {
            .json((try? JSONSerialization.data(withJSONObject: value)) ?? Data())
        }
    }

    /// The values a call fills its path with and builds its body from: `o` (the object), `v`
    /// (an asset's version), `file` (a picked file's name), `granted`, `movie`, `secret`, …
    typealias Values = [String: String]

    let method: String
    /// `{o}` is the object; other `{name}`s come from the fixture's values.
    let template: String
    let access: Access
    var objects: [MatrixObject] = [.none]
    var session: SessionKind = .library
    /// A success uses up its object (deletes, finishes, answers it): such cells get a fresh one.
    var consumes = false
    /// A streamed answer (server-sent events, Motion JPEG): read its start, then hang up.
    var streams = false
    var body: @Sendable (MatrixFixture, Values) async throws -> Body = { _, _ in .none }
    /// The member's outcome, where the access rule does not say it.
    var member: MemberRule? = nil
    /// Done by the user before a cell that should succeed (an album chosen, a picture taken).
    var prepare: (@Sendable (MatrixFixture, Values) async throws -> Void)?

    /// The canonical path `docs/API.md` lists it under.
    var documented: APIDocument.Endpoint {
        var path = template
        while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
            path.replaceSubrange(open...close, with: "\u{1}")
        }
        return APIDocument.Endpoint(method: method, path: APIDocument.canonical(path).replacingOccurrences(of: "\u{1}", with: "{}"))
    }

    /// Whether it also answers `HEAD` in the matrix (every `GET` route does; streams are left out).
    var answersHead: Bool { method == "GET" && !streams }

    // MARK: Expected outcomes

    /// Whether the member calls it at all.
    var callsAsMember: Bool {
        if case .skip? = member { return false }
        return true
    }

    /// The member's outcome: their own library is empty and they have no apps, so every object of
    /// the fixture (the first admin's and the clients') is not there for them (`404`), lists are
    /// theirs (empty), and what only admins do is `403 adminOnly`.
    func memberOutcome(on object: MatrixObject, method: String) -> Outcome {
        let notFound: Outcome = .refused(404, "notFound")
        let adminOnly: Outcome = .refused(403, "adminOnly")
        switch member {
        case .adminOnly?: return adminOnly
        case .outcome(let outcome)?: return outcome
        case .skip?, nil: break
        }
        switch access {
        case .anyone, .sharedLink, .page, .signIn, .events, .add:
            return .success
        case .signInFormExpired:
            return .refused(403, nil)
        case .registration:
            return object == .otherClient ? .refused(409, "alreadyRegistered") : .success
        case .user:
            return object == .none ? .success : notFound
        case .userMissing:
            return notFound
        case .userRefused(let status, let code), .anyoneRefused(let status, let code):
            return .refused(status, code)
        case .userOrSelf, .pickerPage:
            // Another person's client or picker: not theirs, not found.
            return notFound
        case .pickerCreate:
            // A picker of their own library (its URL never carries the server key).
            return .success
        case .clientItself:
            return .refused(401, "clientOnly")
        case .read, .clientDeletion, .addIntoAlbum, .album, .albumDelete, .snapshot, .uploader, .pickerOwner:
            return object == .none ? .success : notFound
        }
    }

    /// The outcome the rule gives `identity` calling on `object` with `method`.
    func expected(for identity: MatrixIdentity, on object: MatrixObject, method: String) -> Outcome {
        if case .sharedLink = access { return .success }
        if identity.hasBadToken { return .refused(401, "invalidToken") }
        if identity == .browserWithoutCSRF, !["GET", "HEAD"].contains(method) { return .refused(403, "csrf") }
        // A session that ended is no one's.
        if identity == .disabledMember { return expected(for: .anonymous, on: object, method: method) }
        if identity == .member { return memberOutcome(on: object, method: method) }
        let anonymous: Outcome = .refused(401, "authenticationRequired")
        let notAuthorized: Outcome = .refused(403, "notAuthorized")
        let notFound: Outcome = .refused(404, "notFound")
        let userOnly: Outcome = .refused(403, "userOnly")
        /// `read`'s answer for an asset or album the caller names.
        func reading(_ object: MatrixObject) -> Outcome {
            if identity.isUser { return .success }
            if identity == .anonymous { return anonymous }
            switch identity.readScope {
            case nil: return notAuthorized
            case .all?: return .success
            case .limited?: return object.isVisibleToLimitedClient ? .success : notFound
            }
        }
        switch access {
        case .anyone, .sharedLink:
            return .success
        case .page:
            return identity.isUser ? .success : .refused(401, nil)
        case .registration:
            switch object {
            case .otherClient: return identity.isUser ? .success : .refused(409, "alreadyRegistered")
            default: return .success
            }
        case .user:
            return identity.isUser ? .success : identity == .anonymous ? anonymous : userOnly
        case .userOrSelf:
            if identity.isUser || object == .selfClient { return .success }
            return identity == .anonymous ? anonymous : userOnly
        case .clientItself(let asks):
            guard identity.isClient else { return .refused(401, "clientOnly") }
            if asks, identity.status(of: object.rawValue) == "notDetermined" { return .asks(200, nil) }
            return .success
        case .read:
            return reading(object)
        case .events:
            // A fetch (its own, or one it does not hold: a reset) scopes nothing the grant does not.
            return reading(.none)
        case .clientDeletion:
            let read = reading(object)
            return read == .success && identity.isClient ? .asks(403, "deletionDeclined") : read
        case .add:
            if identity == .anonymous { return anonymous }
            return identity.mayAdd ? .success : notAuthorized
        case .addIntoAlbum, .album:
            // An album is looked up before any byte is taken: add-only clients see none.
            return reading(object)
        case .albumDelete:
            let read = reading(object)
            guard read == .success, identity.isClient, identity.readScope == .all, object != .ownAlbum else { return read }
            return .refused(403, "notDeletable")
        case .snapshot(let finding):
            if identity == .anonymous { return anonymous }
            if object == .otherFetch { return notFound }
            if identity.isUser { return .success }
            guard identity.readScope != nil else { return notAuthorized }
            return finding.map(reading) ?? .success
        case .uploader(let adding):
            if identity == .anonymous { return anonymous }
            if identity.isUser { return .success }
            if object == .otherUpload { return notFound }
            return !adding || identity.mayAdd ? .success : notAuthorized
        case .pickerCreate(let camera):
            if identity == .anonymous { return anonymous }
            guard camera, identity.isClient else { return .success }
            switch identity.status(of: "camera") {
            case "authorized": return .success
            case "notDetermined": return .asks(403, "notAuthorized")
            default: return notAuthorized
            }
        case .pickerOwner(let camera):
            if identity == .anonymous { return anonymous }
            if identity.isUser { return .success }
            if object == .otherSession || object == .otherPick { return notFound }
            return !camera || identity.status(of: "camera") == "authorized" ? .success : notAuthorized
        case .pickerPage:
            return identity.isUser ? .success : identity == .anonymous ? anonymous : userOnly
        case .signIn:
            return .success
        case .signInFormExpired:
            return .refused(403, nil)
        case .userMissing:
            return identity.isUser ? notFound : identity == .anonymous ? anonymous : userOnly
        case .userRefused(let status, let code):
            return identity.isUser ? .refused(status, code) : identity == .anonymous ? anonymous : userOnly
        case .anyoneRefused(let status, let code):
            return .refused(status, code)
        }
    }
}
