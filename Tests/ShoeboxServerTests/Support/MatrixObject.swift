import Foundation

/// What a matrix cell calls an endpoint on, seen from the identity calling: its own objects, the
/// user's (shared with it, or not), another client's, and the capabilities (fetch snapshots,
/// uploads, picker sessions, prompts) that are only their owner's.
enum MatrixObject: String, CaseIterable, Sendable {
    /// The endpoint takes no object.
    case none
    /// A photo the calling client uploaded (while it could).
    case ownAsset
    /// The user's photo in every client's limited selection.
    case grantedAsset
    /// The user's photo shared with nobody: `SECRET-PHOTO-<uuid>.jpg`, with its own place.
    case secretAsset
    /// A photo another client uploaded.
    case otherAsset
    /// The user's movie in every client's limited selection.
    case grantedMovie
    /// The user's movie shared with nobody.
    case secretMovie
    /// An album the calling client made.
    case ownAlbum
    /// The user's album `SECRET-ALBUM-<uuid>`.
    case userAlbum
    /// The user's folder `SECRET-FOLDER-<uuid>`.
    case userFolder
    /// An album another client made.
    case otherAlbum
    /// A fetch snapshot the caller made / another client made.
    case ownFetch, otherFetch
    /// A resumable upload the caller began / another client began.
    case ownUpload, otherUpload
    /// A picker session the caller created / another client created (of the endpoint's kind).
    case ownSession, otherSession
    /// A file of a session the caller created / another client created, which the user picked.
    case ownPick, otherPick
    /// A question waiting for the user's answer.
    case prompt
    /// The calling client's registration / another client's / an identifier nobody holds.
    case selfClient, otherClient, newClient
    /// A service of `/api/authorization/SERVICE`.
    case photoLibrary, photoLibraryAdd, camera, microphone

    /// Assets the user shared with limited clients, and the client's own: what a limited client sees.
    var isVisibleToLimitedClient: Bool {
        switch self {
        case .none, .ownAsset, .grantedAsset, .grantedMovie, .ownAlbum: true
        default: false
        }
    }
}
