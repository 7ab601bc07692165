import Foundation
import Synchronization

/// A request to create one asset from several files, made inside
/// ``PhotoLibrary/performChanges(_:)``: `PHAssetCreationRequest` without the prefix.
///
/// ```swift
/// try await library.performChanges {
///     let request = AssetCreationRequest.forAsset()
///     request.addResource(with: .photo, fileURL: heic)
///     request.addResource(with: .pairedVideo, fileURL: mov)   // a Live Photo
///     request.isFavorite = true
/// }
/// ```
///
/// An asset is one ``AssetResource/ResourceType/photo`` or ``AssetResource/ResourceType/video``,
/// and for a photo at most one second file: a ``AssetResource/ResourceType/pairedVideo`` (a
/// Live Photo's movie) or an ``AssetResource/ResourceType/alternatePhoto`` (a raw file, when
/// the photo is not raw: RAW+JPEG). The files are paired as given, whatever their metadata says.
/// Anything else fails the whole change with ``LibraryError/Code/invalidArgument`` naming the
/// problem: a missing or second primary file, a resource type Shoebox does not keep
/// (`fullSizePhoto`, `fullSizeVideo` are an edit's), a paired video that is not a movie.
///
/// Bytes already in the library are a duplicate, as with ``AssetChangeRequest``: a photo
/// already there keeps its own resources, and the second file then becomes an asset of its own.
public final class AssetCreationRequest: Sendable {
    /// The files added so far, each an underlying creation request.
    private let resources = Mutex<[(type: AssetResource.ResourceType, request: AssetChangeRequest)]>([])
    private let values = Mutex(AssetChangeRequest.Values())
    /// What pairs this request's files in the catalog.
    private let group = "request:" + UUID().uuidString

    /// The asset the request will make; its identifier is valid once the change commits.
    public let placeholderForCreatedAsset: ObjectPlaceholder?

    private init() {
        placeholderForCreatedAsset = ObjectPlaceholder(localIdentifier: ObjectPlaceholder.newIdentifier())
        ChangeTransaction.requireCurrent("AssetCreationRequest")
    }

    /// A request for a new asset, to which ``addResource(with:fileURL:options:)`` adds files.
    public static func forAsset() -> AssetCreationRequest { AssetCreationRequest() }

    /// Adds the file at `fileURL` as the asset's resource of `type` (copied when the change
    /// commits; the file is left where it is).
    public func addResource(with type: AssetResource.ResourceType, fileURL: URL, options: AssetResourceCreationOptions? = nil) {
        add(type, source: .file(fileURL), options: options)
    }

    private func add(_ type: AssetResource.ResourceType, source: AssetChangeRequest.Source, options: AssetResourceCreationOptions?) {
        resources.withLock { list in
            // The first photo or movie carries the request's placeholder: it is the asset.
            let isPrimary = (type == .photo || type == .video) && !list.contains { $0.type == .photo || $0.type == .video }
            let request = AssetChangeRequest(creating: source, placeholder: isPrimary ? placeholderForCreatedAsset : nil)
            request.setResource(group: group, type: type, filename: options?.originalFilename)
            list.append((type, request))
        }
        forwardValues()
    }

    /// Marks the new asset as a favorite (`PHAssetChangeRequest.isFavorite`); `nil` leaves it
    /// not a favorite.
    public var isFavorite: Bool? {
        get { values.withLock { $0.isFavorite } }
        set {
            values.withLock { $0.isFavorite = newValue }
            forwardValues()
        }
    }

    /// Hides the new asset (`PHAssetChangeRequest.isHidden`); `nil` leaves it shown.
    public var isHidden: Bool? {
        get { values.withLock { $0.isHidden } }
        set {
            values.withLock { $0.isHidden = newValue }
            forwardValues()
        }
    }

    /// When the new asset was taken, in place of what its photo or movie file says
    /// (`PHAssetChangeRequest.creationDate`); `nil` keeps the file's date.
    public var creationDate: Date? {
        get { values.withLock { $0.creationDate } }
        set {
            values.withLock { $0.creationDate = newValue }
            forwardValues()
        }
    }

    /// Set to `nil` to record no location.
    public var location: Asset.Location? {
        get { values.withLock { $0.location ?? nil } }
        set {
            values.withLock { $0.location = .some(newValue) }
            forwardValues()
        }
    }

    /// The favorite, hidden, date and location set here go to the asset's primary file.
    private func forwardValues() {
        let current = values.withLock { $0 }
        let primary = resources.withLock { list in list.first { $0.type == .photo || $0.type == .video }?.request }
        guard let primary else { return }
        if let value = current.isFavorite { primary.isFavorite = value }
        if let value = current.isHidden { primary.isHidden = value }
        if let value = current.creationDate { primary.creationDate = value }
        if let value = current.location { primary.location = value }
    }

    /// Checks that each request's files make one asset Shoebox keeps, by what the files turned
    /// out to be (`kind` of each placeholder: its media type and whether it is raw).
    static func validate(
        _ resources: [(placeholder: String, group: String, type: AssetResource.ResourceType)],
        kinds: [String: (isMovie: Bool, isRaw: Bool, name: String)]
    ) throws(LibraryError) {
        for (group, files) in Dictionary(grouping: resources, by: \.group) {
            _ = group
            let primaries = files.filter { $0.type == .photo || $0.type == .video }
            let seconds = files.filter { $0.type == .pairedVideo || $0.type == .alternatePhoto }
            if let other = files.first(where: { $0.type == .fullSizePhoto || $0.type == .fullSizeVideo }) {
                throw .invalidArgument("an asset's \(other.type.rawValue) resource is an edit's render: commit an edit with contentEditingOutput instead")
            }
            guard primaries.count == 1, let primary = primaries.first, let main = kinds[primary.placeholder] else {
                throw .invalidArgument("an asset creation request needs exactly one photo or video resource, not \(primaries.count)")
            }
            guard seconds.count <= 1 else {
                throw .invalidArgument("an asset creation request takes at most one paired video or alternate photo, not \(seconds.count)")
            }
            if primary.type == .photo, main.isMovie { throw .invalidArgument("the photo resource \(main.name) is a movie") }
            if primary.type == .video, !main.isMovie { throw .invalidArgument("the video resource \(main.name) is not a movie") }
            guard let second = seconds.first, let other = kinds[second.placeholder] else { continue }
            guard primary.type == .photo else {
                throw .invalidArgument("a video takes no \(second.type.rawValue) resource: only a photo has one")
            }
            switch second.type {
            case .pairedVideo where !other.isMovie:
                throw .invalidArgument("the paired video resource \(other.name) is not a movie")
            case .alternatePhoto where other.isMovie || other.isRaw == main.isRaw:
                throw .invalidArgument("a photo's alternate must be its raw file and the photo not raw (\(main.name), \(other.name))")
            default:
                continue
            }
        }
    }
}

/// How a resource is added (`PHAssetResourceCreationOptions`).
public struct AssetResourceCreationOptions: Sendable, Hashable {
    /// The file name the resource keeps (default: the file's own).
    public var originalFilename: String?

    /// Options that name the resource `originalFilename`, or keep the file's own name (`nil`).
    public init(originalFilename: String? = nil) {
        self.originalFilename = originalFilename
    }
}
