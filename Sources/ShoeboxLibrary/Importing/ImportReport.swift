/// What ``PhotoLibrary/importItems(at:recursive:albumsFromFolders:progress:)`` did with each file it was given.
public struct ImportReport: Sendable, Hashable, Codable {
    /// A file that did not become an asset, and why.
    public struct Failure: Sendable, Hashable, Codable {
        /// The file as it was given or found.
        public let path: String
        /// The ``LibraryError/Code`` of its failure (`corrupt`, `unsupportedFormat`, `io`, …).
        public let code: String
        /// The failure in words, naming the file.
        public let message: String
    }

    /// An XMP sidecar no file of the import belongs to.
    public struct WaitingSidecar: Sendable, Hashable, Codable {
        /// The sidecar as it was given or found.
        public let path: String
        /// The photo it waits for: `IMG_0042.CR2`, or "a photo or movie named IMG_0042 and any
        /// extension" for `IMG_0042.xmp`.
        public let photo: String
    }

    /// New assets.
    public var imported = 0
    /// Files whose bytes the library already held (their assets are in ``assets`` too).
    public var duplicates = 0
    /// Files whose bytes were in Recently Deleted: those assets came back.
    public var restored = 0
    /// Files that became a resource of another asset: a Live Photo's movie, the raw file of a
    /// RAW+JPEG pair (in either order).
    public var paired = 0
    /// Google Takeout JSON files read with their photos (their time, place, description and
    /// favorite mark fill what the photo's own file lacks).
    public var takeoutJSON = 0
    /// XMP sidecars imported with their photos (``Asset/title``, ``Asset/keywords``, …).
    public var sidecars = 0
    /// XMP sidecars whose photo was not in the import (nor imported): nothing of them is kept;
    /// import them with their photo.
    public var waitingSidecars: [WaitingSidecar] = []
    /// Sidecar and text files other than XMP (`.aae`, `.json`, …, and text without an extension
    /// such as README): left out, not failures.
    public var skipped: [String] = []
    /// Sub-folders not read (an import that is not recursive).
    public var skippedFolders: [String] = []
    /// Links to folders not followed by a recursive import, because the folder they lead to is
    /// read already: a link back up (a loop) or a second way to one folder. Every other link to
    /// a folder is followed, once.
    public var skippedLinks: [String] = []
    /// Files that failed; the others were imported all the same.
    public var failed: [Failure] = []
    /// The assets made or found, in the order of the files (a paired resource's asset once).
    public var assets: [String] = []
    /// The albums an import with `albumsFromFolders` made or filled, one per folder that held
    /// photos, in the order of the folders' first files.
    public var albums: [String] = []
    /// How many archives (`.zip`, `.tgz`/`.tar.gz`, `.tar`: Google Takeout's parts) were unpacked
    /// and their contents imported as one folder.
    public var archives = 0

    /// An empty report.
    public init() {}
}
