import Foundation
import Synchronization

/// An edit's result (`PHContentEditingOutput`): the rendered file, written by the editor at
/// ``renderedContentURL``, and the ``adjustmentData`` describing it. Commit it by setting
/// ``AssetChangeRequest/contentEditingOutput`` inside ``PhotoLibrary/performChanges(_:)``, or
/// save it as a new asset with
/// ``AssetChangeRequest/creationRequestForAsset(modifiedVersionOf:output:)``.
///
/// ```swift
/// let input = try await library.requestContentEditingInput(for: asset)
/// let output = ContentEditingOutput(contentEditingInput: input)
/// let edit = Adjustments(rotation: 90)
/// let rendered = try edit.applied(to: Image(contentsOfFile: input.fullSizeImageURL!.path))
/// try rendered.encoded(as: .jpeg).write(to: output.renderedContentURL)
/// output.adjustmentData = edit.adjustmentData
/// try await library.performChanges { AssetChangeRequest(for: asset).contentEditingOutput = output }
/// ```
///
/// The rendered file lives in a private folder of its own in the library's `staging/` (locked
/// while the output exists, so a crash's leftover is removed by the next process to open the
/// library) until the change commits, when the library files a copy in `renders/`; the editor's
/// file is removed with the output.
public final class ContentEditingOutput: Sendable {
    /// The asset it edits.
    public let assetLocalIdentifier: String
    /// Where the editor writes the full-size result: a JPEG (or any image format Shoebox reads)
    /// for photos, an MP4 or MOV for movies.
    public let renderedContentURL: URL
    private let folder: URL
    private let lock: FileLock?
    private let adjustment = Mutex<AdjustmentData?>(nil)

    /// An output for the asset `input` describes.
    public init(contentEditingInput input: ContentEditingInput) {
        assetLocalIdentifier = input.asset.localIdentifier
        let name = "edit-\(UUID().uuidString)"
        var folder = (input.stagingFolder ?? FileManager.default.temporaryDirectory).appendingPathComponent(name)
        var lock = FileLock(creatingFolder: folder.path)
        if lock == nil {
            // No staging folder to write in (a library on a read-only disk): a private temporary one.
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-\(name)")
            lock = FileLock(creatingFolder: folder.path)
        }
        self.folder = folder
        self.lock = lock
        renderedContentURL = folder.appendingPathComponent(input.mediaType == .video ? "render.mp4" : "render.jpg")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
        withExtendedLifetime(lock) {}
    }

    /// What the edit did. Required: a change with an output without it fails.
    public var adjustmentData: AdjustmentData? {
        get { adjustment.withLock { $0 } }
        set { adjustment.withLock { $0 = newValue } }
    }
}
