import Foundation

/// Who calls, in the authorization matrix: the user in two ways (and a page without its CSRF
/// token), nobody, tokens that are no good, and registered clients in each grant state.
enum MatrixIdentity: String, CaseIterable, Sendable {
    /// The key as a bearer token (Shoebox's own tools).
    case user
    /// The browser: the key's cookie, with the page's CSRF token and this server's `Origin` on
    /// state-changing requests.
    case browser
    /// The cookie without the CSRF token (a cross-site form): reads as the user, changes nothing.
    case browserWithoutCSRF
    /// No credentials.
    case anonymous
    /// A bearer token this library never issued.
    case forged
    /// A client whose tokens the user revoked (`DELETE /api/clients/ID/tokens`).
    case revoked
    /// A client the user removed (`DELETE /api/clients/ID`).
    case removed
    /// photoLibrary notDetermined (never asked), camera notDetermined. (The microphone's status
    /// is the camera's throughout: the camera picker records movies with sound.)
    case undecided
    /// photoLibrary and camera denied.
    case denied
    /// photoLibrary limited to a selection of the user's photos; camera authorized.
    case limited
    /// photoLibrary and camera authorized.
    case authorized
    /// photoLibrary, camera and microphone restricted by the administrator's policy file.
    case restricted
    /// photoLibraryAdd authorized only (add-only access); camera denied.
    case addOnly
    /// photoLibraryAdd denied, photoLibrary never asked.
    case addDenied
    /// Another client with full access, whose own objects (asset, album, fetch, upload, picker
    /// sessions) the others must not reach.
    case other
    /// A member of the library signed in with a password (a session cookie, with its page's CSRF
    /// token): a library of their own, empty; the first admin's photos, albums, links, apps and
    /// jobs are not theirs to see (their own jobs list is empty).
    case member
    /// A person the admin disabled, with the session cookie they had: nobody.
    case disabledMember

    /// What a client may read of the library.
    enum ReadScope: Sendable { case all, limited }

    /// The grant statuses a client identity holds during the matrix (`nil`: never decided).
    struct Grants: Sendable {
        var photoLibrary: String?
        var photoLibraryAdd: String?
        var camera: String?
    }

    var isUser: Bool { self == .user || self == .browser || self == .browserWithoutCSRF }
    /// A client whose token the server still accepts.
    var isClient: Bool { clientIdentifier != nil && !hasBadToken }
    /// A bearer token the server refuses (`401 invalidToken` on every route).
    var hasBadToken: Bool { self == .forged || self == .revoked || self == .removed }

    /// The registered client behind the identity (`nil` for the user, nobody and the forged token).
    var clientIdentifier: String? {
        switch self {
        case .user, .browser, .browserWithoutCSRF, .anonymous, .forged, .member, .disabledMember: nil
        default: "com.matrix.\(rawValue.lowercased())"
        }
    }

    var grants: Grants {
        switch self {
        case .undecided, .addDenied: Grants(photoLibrary: nil, photoLibraryAdd: self == .addDenied ? "denied" : nil, camera: nil)
        case .denied: Grants(photoLibrary: "denied", photoLibraryAdd: nil, camera: "denied")
        case .limited: Grants(photoLibrary: "limited", photoLibraryAdd: nil, camera: "authorized")
        case .authorized, .other, .revoked, .removed: Grants(photoLibrary: "authorized", photoLibraryAdd: nil, camera: "authorized")
        // The policy file makes photoLibrary and camera restricted, whatever is stored.
        case .restricted: Grants(photoLibrary: "authorized", photoLibraryAdd: nil, camera: "authorized")
        case .addOnly: Grants(photoLibrary: nil, photoLibraryAdd: "authorized", camera: "denied")
        case .user, .browser, .browserWithoutCSRF, .anonymous, .forged, .member, .disabledMember: Grants()
        }
    }

    /// The status `GET /api/authorization/SERVICE` reports for each service.
    func status(of service: String) -> String {
        if self == .restricted, ["photoLibrary", "camera", "microphone"].contains(service) { return "restricted" }
        let grants = grants
        switch service {
        case "photoLibrary": return grants.photoLibrary ?? "notDetermined"
        case "photoLibraryAdd":
            // Read-write access includes adding, while it is in force (not when restricted).
            if ["authorized", "limited"].contains(status(of: "photoLibrary")) { return "authorized" }
            return grants.photoLibraryAdd ?? "notDetermined"
        case "camera", "microphone": return grants.camera ?? "notDetermined"
        default: return "notDetermined"
        }
    }

    /// What it may read now: the user everything; a client by its photoLibrary status.
    var readScope: ReadScope? {
        if isUser { return .all }
        guard isClient else { return nil }
        switch status(of: "photoLibrary") {
        case "authorized": return .all
        case "limited": return .limited
        default: return nil
        }
    }

    /// Whether it may add photos now (read-write access includes adding).
    var mayAdd: Bool { isUser || self == .member || (isClient && status(of: "photoLibraryAdd") == "authorized") }
}
