import Foundation

/// How far ``PhotoLibrary/importItems(at:recursive:albumsFromFolders:progress:)`` has come: told once before the
/// first file (``file`` is `nil`, nothing completed, the totals known) and again as each file is
/// done, in the order the files finish.
public struct ImportProgress: Sendable, Hashable {
    /// The file just done; `nil` in the first report, before any file is tried.
    public let file: URL?
    /// The size in bytes of ``file`` (0 for the first report or a file that cannot be read).
    public let fileBytes: Int
    /// Files done so far, failed ones included.
    public let completedFiles: Int
    /// Bytes of the files done so far.
    public let completedBytes: Int
    /// Files the import will try: those named and those found in the folders named.
    public let totalFiles: Int
    /// Bytes of all those files, read once before the import starts.
    public let totalBytes: Int

    /// Done, as a fraction from 0 to 1: by bytes, or by files when there are no bytes to count.
    public var fractionCompleted: Double {
        if totalBytes > 0 { return min(1, Double(completedBytes) / Double(totalBytes)) }
        return totalFiles > 0 ? Double(completedFiles) / Double(totalFiles) : 1
    }

    /// A progress report; ``PhotoLibrary/importItems(at:recursive:albumsFromFolders:progress:)`` makes them.
    package init(file: URL?, fileBytes: Int, completedFiles: Int, completedBytes: Int, totalFiles: Int, totalBytes: Int) {
        self.file = file
        self.fileBytes = fileBytes
        self.completedFiles = completedFiles
        self.completedBytes = completedBytes
        self.totalFiles = totalFiles
        self.totalBytes = totalBytes
    }
}
