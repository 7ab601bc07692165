import Foundation

/// The archives an import was given — `.zip` (Google Takeout's parts, any ZIP, ZIP64 included),
/// `.tgz`/`.tar.gz` and `.tar` — unpacked into one folder of the library's staging, so that a
/// photo in one part and its JSON in another meet, and imported from there as a folder; the folder
/// goes when the import ends.
///
/// Nothing lands outside the folder: an entry's path is taken apart and put back together from
/// its names, one that climbs out (`..`) is refused, links are not made, and an entry is written
/// under a temporary name and renamed only once whole and checked (a ZIP's CRC-32 and size; a
/// tar's size), so an archive cut short or damaged leaves no half file. What cannot be read is a
/// failure that names the archive and the entry; what was read before it is imported.
struct ArchiveUnpacker {
    /// What kind of archive a file is, by its name and its first bytes.
    enum Kind {
        case zip, gzipTar, tar
    }

    /// Where the entries go.
    let folder: URL
    /// Each file written (its path) and how reports name it: `takeout-001.zip/Takeout/…/IMG_1.jpg`.
    private(set) var written: [String: String] = [:]
    /// What could not be read, by archive and entry.
    private(set) var failures: [ImportReport.Failure] = []
    /// How many archives were read (wholly or in part).
    private(set) var archives = 0

    init(folder: URL) {
        self.folder = folder
    }

    /// The kind of archive at `url`: a regular file named `.zip`, `.tgz`, `.tar.gz` or `.tar`
    /// whose first bytes say so (a ZIP's `PK`, gzip's `1F 8B`, a tar's `ustar` at 257); `nil` for
    /// anything else, which the import reads as a photo or movie (and reports as such).
    static func kind(of url: URL) -> Kind? {
        let name = url.lastPathComponent.lowercased()
        let named: Kind? =
            name.hasSuffix(".zip") ? .zip : name.hasSuffix(".tgz") || name.hasSuffix(".tar.gz") ? .gzipTar : name.hasSuffix(".tar") ? .tar : nil
        guard let named, let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
        switch named {
        case .zip: return head.starts(with: [0x50, 0x4B]) ? .zip : nil
        case .gzipTar: return head.starts(with: [0x1F, 0x8B]) ? .gzipTar : nil
        case .tar: return head.count >= 262 && Array(head[257..<262]) == Array("ustar".utf8) ? .tar : nil
        }
    }

    /// Unpacks the archive at `url` (of `kind`) into ``folder``; blocking work.
    mutating func unpack(_ url: URL, kind: Kind) {
        archives += 1
        switch kind {
        case .zip: unpackZip(url)
        case .gzipTar, .tar: unpackTar(url, gzip: kind == .gzipTar)
        }
    }

    /// Notes that `entry` of `archive` (or the archive itself) could not be read.
    mutating func fail(_ archive: URL, entry: String? = nil, code: LibraryError.Code = .corrupt, _ reason: String) {
        let path = entry.map { archive.lastPathComponent + "/" + $0 } ?? archive.path
        failures.append(.init(path: path, code: code.rawValue, message: "\(entry.map { "\($0) in " } ?? "")\(archive.lastPathComponent): \(reason)"))
    }

    /// Where an entry named `name` goes, or `nil` (with the reason) for a name that would leave
    /// the folder or names nothing. A leading `/` or `./` is dropped, as tar does; Windows' `\`
    /// separates too.
    func destination(of name: String) -> (url: URL?, reason: String?) {
        let parts = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).map(String.init).filter { !$0.isEmpty && $0 != "." }
        if parts.contains("..") { return (nil, "its path climbs out of the archive (..), so it was not unpacked") }
        if parts.contains(where: { $0.utf8.count > 255 || $0.contains("\0") }) { return (nil, "a name in its path is not a file name") }
        guard !parts.isEmpty else { return (nil, nil) }
        return (parts.reduce(folder) { $0.appendingPathComponent($1) }, nil)
    }

    /// Makes the folders down to `url`'s.
    func makeFolders(for url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    }

    /// Records an entry written whole at `url`, from `entry` of `archive`.
    mutating func record(_ url: URL, entry: String, of archive: URL) {
        written[url.path] = archive.lastPathComponent + "/" + entry
    }

    /// Where a new entry's bytes go: `url`, or `url` with ` 2` (` 3`…) before its extension when
    /// another archive's entry took the name already.
    static func free(_ url: URL) -> URL {
        var candidate = url
        var counter = 2
        let base = url.deletingPathExtension().lastPathComponent
        let ext = url.pathExtension
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = url.deletingLastPathComponent().appendingPathComponent(ext.isEmpty ? "\(base) \(counter)" : "\(base) \(counter).\(ext)")
            counter += 1
        }
        return candidate
    }
}

/// One entry being written: to `NAME.partial`, renamed to its name once whole.
final class ArchiveEntryFile {
    let url: URL
    private let partial: URL
    private let handle: FileHandle
    private(set) var size = 0
    private(set) var crc: UInt32 = 0

    init(_ url: URL) throws {
        self.url = ArchiveUnpacker.free(url)
        partial = self.url.appendingPathExtension("partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = FileHandle(forWritingAtPath: partial.path) else {
            throw CocoaError(.fileWriteNoPermission)
        }
        self.handle = handle
    }

    func write(_ data: Data) throws {
        try handle.write(contentsOf: data)
        size += data.count
        crc = Inflater.crc32(crc, data)
    }

    /// Renames it into place, dated `modified` (what the import falls back to without EXIF).
    func finish(modified: Date?) throws {
        try handle.close()
        if let modified { try? FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: partial.path) }
        try FileManager.default.moveItem(at: partial, to: url)
    }

    /// Drops what was written.
    func abandon() {
        try? handle.close()
        try? FileManager.default.removeItem(at: partial)
    }
}
