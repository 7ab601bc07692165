import Foundation
import ShoeboxImaging
import Synchronization

/// A request to create, modify, delete or restore assets, made inside
/// ``PhotoLibrary/performChanges(_:)``: `PHAssetChangeRequest` without the prefix.
///
/// ```swift
/// let result = try await library.performChanges {
///     let request = AssetChangeRequest.creationRequestForAsset(fromImageAt: photoURL)
///     request.isFavorite = true
///     AssetChangeRequest.deleteAssets([oldAsset])
/// }
/// print(result.created.first?.localIdentifier ?? "")
/// ```
///
/// Requests are recorded while the closure runs and applied together afterwards: all of them
/// or none. Making one outside `performChanges` is a programmer error and stops the program, as
/// it raises an exception on iOS.
public final class AssetChangeRequest: Sendable {
    enum Kind: Sendable {
        case create(Source)
        case modify(localIdentifier: String)
        case delete([String])
        case restore([String])
        case purge([String])
    }

    /// Where a new asset's bytes come from.
    enum Source: Sendable {
        case image(URL)
        case video(URL)
        case file(URL)
        /// A file written through ``PendingImport/write(_:)``, hashed as it was written: moved
        /// into staging, not copied and hashed again.
        case written(URL, contentHash: String, size: Int)
        case data(Data, metadata: ImageMetadata?, filename: String)
        /// An edit's render saved as a new asset made from `original`.
        case modifiedVersion(of: Asset, output: ContentEditingOutput)

        /// Whether the bytes come from a file whose name is the camera's.
        var isFile: Bool {
            switch self {
            case .image, .video, .file, .written: true
            case .data, .modifiedVersion: false
            }
        }

        var displayPath: String {
            switch self {
            case .image(let url), .video(let url), .file(let url), .written(let url, _, _): url.path
            case .data(_, _, let filename): filename
            case .modifiedVersion(_, let output): output.renderedContentURL.path
            }
        }
    }

    struct Values: Sendable {
        var isFavorite: Bool?
        var isHidden: Bool?
        var creationDate: Date?
        var captureTime: CaptureTime?
        var revertsFields: Asset.MetadataFields = []
        var location: Asset.Location??
        var creatorClient: String?
        var contentEditingOutput: ContentEditingOutput?
        var revertsContent = false
        var makesBurstKeyPhoto = false
        var details = AssetUpdate.Details()
        /// For a file's creation: what its XMP sidecar says, which wins over the file.
        var sidecar: XMPSidecar?
        /// For a file's creation: what Google Takeout's JSON says, which fills what the file lacks.
        var takeout: TakeoutMetadata?
        /// For a file of an ``AssetCreationRequest``: the request's pairing group and the file's
        /// resource type, and the name it keeps.
        var resourceGroup: String?
        var resourceType: AssetResource.ResourceType?
        var filename: String?
    }

    let kind: Kind
    private let values = Mutex(Values())

    /// The asset a creation request will make; its identifier is valid once the change commits
    /// (for a duplicate, ``ChangeResult`` maps it to the existing asset).
    public let placeholderForCreatedAsset: ObjectPlaceholder?

    private init(kind: Kind) {
        self.kind = kind
        if case .create = kind {
            placeholderForCreatedAsset = ObjectPlaceholder(localIdentifier: ObjectPlaceholder.newIdentifier())
        } else {
            placeholderForCreatedAsset = nil
        }
        ChangeTransaction.record(self)
    }

    /// A creation request for one file of an ``AssetCreationRequest`` (its primary file takes
    /// that request's placeholder).
    init(creating source: Source, placeholder: ObjectPlaceholder?) {
        kind = .create(source)
        placeholderForCreatedAsset = placeholder ?? ObjectPlaceholder(localIdentifier: ObjectPlaceholder.newIdentifier())
        ChangeTransaction.record(self)
    }

    func setResource(group: String, type: AssetResource.ResourceType, filename: String?) {
        values.withLock {
            $0.resourceGroup = group
            $0.resourceType = type
            $0.filename = filename
        }
    }

    // MARK: Creating

    /// Adds the image file at `url` (any format ``ShoeboxImaging`` opens, recognised by content).
    public static func creationRequestForAsset(fromImageAt url: URL) -> AssetChangeRequest {
        AssetChangeRequest(kind: .create(.image(url)))
    }

    /// Adds the movie file at `url` (one ``ShoeboxMedia/Movie/isVideoCompatibleWithSavedPhotosAlbum(at:)`` accepts).
    public static func creationRequestForAsset(fromVideoAt url: URL) -> AssetChangeRequest {
        AssetChangeRequest(kind: .create(.video(url)))
    }

    /// Adds a photo or a movie, whichever the file's content is.
    public static func creationRequestForAsset(fromFileAt url: URL) -> AssetChangeRequest {
        AssetChangeRequest(kind: .create(.file(url)))
    }

    /// Adds encoded image bytes. `metadata`, when given, is what the caller knows of the shot:
    ///
    /// - its camera fields (make, model, lens, software, serial number, exposure, f-number, ISO,
    ///   focal length, flash), capture date (with sub-seconds and offset) and place are written
    ///   into the bytes' EXIF over the bytes' own, for JPEG and PNG, without touching the pixels
    ///   (`Image.embeddingMetadata(_:in:)`); the stored original is those bytes;
    /// - its capture date and place take the place of what the bytes say in the catalog, for
    ///   every format (HEIF, WebP, GIF, TIFF and raw bytes are stored as given).
    ///
    /// To encode pixels with metadata, use `PhotoLibrary.saveImage(_:metadata:format:filename:)`.
    public static func creationRequestForAsset(from data: Data, metadata: ImageMetadata? = nil, filename: String = "Image") -> AssetChangeRequest {
        AssetChangeRequest(kind: .create(.data(data, metadata: metadata, filename: filename)))
    }

    /// Saves an edit of `asset` as a new asset whose ``Asset/originalAssetIdentifier`` points back
    /// to it (ALAsset's `writeModifiedImageDataToSavedPhotosAlbum`): what a client does with an
    /// asset it may not edit in place. The new asset's original is `output`'s rendered file; it
    /// takes `asset`'s creation date and location, and belongs to the client making the request.
    public static func creationRequestForAsset(modifiedVersionOf asset: Asset, output: ContentEditingOutput) -> AssetChangeRequest {
        AssetChangeRequest(kind: .create(.modifiedVersion(of: asset, output: output)))
    }

    // MARK: Modifying

    /// A request to change `asset`'s favorite, hidden, date or location.
    public convenience init(for asset: Asset) {
        self.init(kind: .modify(localIdentifier: asset.localIdentifier))
    }

    /// Moves assets to Recently Deleted (they are purged later, or with ``purgeAssets(_:)``).
    public static func deleteAssets(_ assets: [Asset]) {
        _ = AssetChangeRequest(kind: .delete(assets.map(\.localIdentifier)))
    }

    /// Brings assets back from Recently Deleted.
    public static func restoreAssets(_ assets: [Asset]) {
        _ = AssetChangeRequest(kind: .restore(assets.map(\.localIdentifier)))
    }

    /// Removes assets that are in Recently Deleted for good, with their originals when no other
    /// asset shares the bytes. Assets not in Recently Deleted are left alone.
    public static func purgeAssets(_ assets: [Asset]) {
        _ = AssetChangeRequest(kind: .purge(assets.map(\.localIdentifier)))
    }

    /// Marks the asset as a favorite or not (`PHAssetChangeRequest.isFavorite`); `nil` leaves it
    /// as it is (a new asset: not a favorite).
    public var isFavorite: Bool? {
        get { values.withLock { $0.isFavorite } }
        set { values.withLock { $0.isFavorite = newValue } }
    }

    /// Hides the asset or shows it again (`PHAssetChangeRequest.isHidden`); `nil` leaves it as it
    /// is (a new asset: shown).
    public var isHidden: Bool? {
        get { values.withLock { $0.isHidden } }
        set { values.withLock { $0.isHidden = newValue } }
    }

    /// Moves when the asset was taken, keeping the zone of its place (`PHAssetChangeRequest.creationDate`).
    /// `nil` leaves the date as it is: for a new asset, what the file says (a modified version:
    /// its original's date).
    public var creationDate: Date? {
        get { values.withLock { $0.creationDate } }
        set { values.withLock { $0.creationDate = newValue } }
    }

    /// Sets when the asset was taken together with the zone it was taken in (the person says
    /// where the camera's clock was); `nil` leaves it as it is. Wins over ``creationDate``.
    public var captureTime: CaptureTime? {
        get { values.withLock { $0.captureTime } }
        set { values.withLock { $0.captureTime = newValue } }
    }

    /// Gives back what the file says of `fields` in place of what the person set
    /// (``Asset/userSetFields``): the values the asset had when they were first set, or, for an
    /// asset whose file was read again since, that reading. Fields the person did not set are
    /// left as they are.
    public func revertToFileValues(_ fields: Asset.MetadataFields) {
        values.withLock { $0.revertsFields.formUnion(fields) }
    }

    /// Where the asset was taken (`PHAssetChangeRequest.location`); set to `nil` to remove it.
    public var location: Asset.Location? {
        get { values.withLock { $0.location ?? nil } }
        set { values.withLock { $0.location = .some(newValue) } }
    }

    /// Gives the asset a title (``Asset/title``); `""` removes it, `nil` leaves it as it is.
    public var title: String? {
        get { values.withLock { $0.details.title } }
        set { values.withLock { $0.details.title = newValue } }
    }

    /// Gives the asset a caption (``Asset/caption``); `""` removes it, `nil` leaves it as it is.
    public var caption: String? {
        get { values.withLock { $0.details.caption } }
        set { values.withLock { $0.details.caption = newValue } }
    }

    /// Replaces the asset's keywords (``Asset/keywords``; a hierarchical one as a path,
    /// `Places/Italy/Rome`); `[]` removes them all, `nil` leaves them as they are.
    public var keywords: [String]? {
        get { values.withLock { $0.details.keywords } }
        set { values.withLock { $0.details.keywords = newValue } }
    }

    /// Rates the asset from 1 to 5 stars (``Asset/rating``; more is 5); 0 removes the rating,
    /// `nil` leaves it as it is.
    public var rating: Int? {
        get { values.withLock { $0.details.rating } }
        set { values.withLock { $0.details.rating = newValue } }
    }

    /// Gives the asset a colour label (``Asset/label``); `""` removes it, `nil` leaves it as it is.
    public var label: String? {
        get { values.withLock { $0.details.label } }
        set { values.withLock { $0.details.label = newValue } }
    }

    /// An edit of the asset's content to commit (modify requests only). The asset keeps its
    /// original; the render becomes its current version. Only the client that created the asset
    /// may do this (see ``Asset/canPerform(_:client:)``).
    public var contentEditingOutput: ContentEditingOutput? {
        get { values.withLock { $0.contentEditingOutput } }
        set { values.withLock { $0.contentEditingOutput = newValue } }
    }

    /// Drops the asset's edit: its current version becomes the original again, and the render
    /// is removed once nothing refers to it (`PHAssetChangeRequest.revertAssetContentToOriginal()`).
    public func revertAssetContentToOriginal() {
        values.withLock { $0.revertsContent = true }
    }

    /// Makes the asset its burst's key photo (modify requests only): the frame default fetches
    /// show and the grid stands the burst for (``Asset/representsBurst``), chosen by the user
    /// (``Asset/BurstSelectionTypes/userPick``) in place of the first frame. A shoebox addition:
    /// PhotoKit leaves the choice to the Photos app.
    ///
    /// The change fails with ``LibraryError/Code/invalidArgument`` for an asset in no burst.
    public func makeKeyPhotoOfBurst() {
        values.withLock { $0.makesBurstKeyPhoto = true }
    }

    /// The client creating the asset (creation requests only); defaults to the library's
    /// ``PhotoLibrary/clientIdentifier``.
    public var creatorClient: String? {
        get { values.withLock { $0.creatorClient } }
        set { values.withLock { $0.creatorClient = newValue } }
    }

    var currentValues: Values { values.withLock { $0 } }

    /// Gives a file's creation what its XMP sidecar says.
    func setSidecar(_ sidecar: XMPSidecar) {
        values.withLock { $0.sidecar = sidecar }
    }

    /// Gives a file's creation what its Google Takeout JSON says.
    func setTakeout(_ takeout: TakeoutMetadata) {
        values.withLock { $0.takeout = takeout }
    }
}

/// Stands for an object a change will create: `PHObjectPlaceholder`.
public struct ObjectPlaceholder: Sendable, Hashable {
    /// The identifier the created asset or album will have once the change commits (a new UUID
    /// with `/L0/001`); for a duplicate, ``ChangeResult`` names the existing asset instead.
    public let localIdentifier: String

    static func newIdentifier() -> String {
        UUID().uuidString + "/L0/001"
    }
}
