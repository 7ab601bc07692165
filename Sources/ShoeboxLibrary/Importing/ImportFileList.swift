import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The files an import reads: the files it was given, and the regular files of the folders it
/// was given (one level deep, or all the way down, links to folders followed once), each
/// folder's sorted by name; hidden files are left out, sub-folders not read are named, and so
/// are links to a folder already read (loops).
///
/// Folders are read as bytes (`readdir`), not through `FileManager`, which turns a name that is
/// not valid UTF-8 (a Latin-1 name from an old camera, archive or Windows share) into one with
/// U+FFFD in it that names no file, so the import left such files out without a word. Such a
/// file is read through a symbolic link with a readable name — its bytes read as Latin-1, so
/// `caf\xE9.jpg` becomes `café.jpg` — in a temporary folder ``removeLinks()`` removes; the
/// link carries the file's dates. Reports name it by ``displayPath(of:)``: its folder and its
/// name with the bytes that are not UTF-8 written `\xE9`.
struct ImportFileList {
    /// The files, in order.
    private(set) var files: [URL] = []
    /// For each of ``files``, the folders it sits in, from the folder it was found through (its
    /// name first) down: `["Trips", "2019 Rome"]` for `Trips/2019 Rome/a.jpg` found in `Trips`;
    /// `nil` for a file given by itself. Names that are not UTF-8 are read as Latin-1.
    private(set) var folders: [[String]?] = []
    /// Sub-folders not read (an import that is not recursive).
    private(set) var skippedFolders: [String] = []
    /// Links to folders not followed: the folder they reach is read already (a loop).
    private(set) var skippedLinks: [String] = []
    /// Link path → how the file it stands for is named in reports.
    private var displayPaths: [String: String] = [:]
    /// The folder of links, when there are any.
    private var linkFolder: URL?

    /// - Parameters:
    ///   - unpacked: The folder the import's archives were unpacked into (read all the way
    ///     down, named `name` as the outermost folder), and how reports name its files
    ///     (`takeout-001.zip/Takeout/…`).
    ///   - leavingOut: Files not to list (the archives themselves), as ``displayPath(of:)`` names them.
    init(_ urls: [URL], recursive: Bool, unpacked: (folder: URL, name: String, shownAs: [String: String])? = nil, leavingOut: Set<String> = []) {
        for url in urls {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                files.append(url)  // a path that is not there stays, for its import to report
                folders.append(nil)
                continue
            }
            let root = url.standardizedFileURL
            read(folder: Array(root.path.utf8), named: root.lastPathComponent, recursive: recursive)
        }
        if let unpacked {
            let root = unpacked.folder.standardizedFileURL
            read(folder: Array(root.path.utf8), named: unpacked.name, recursive: true)
            displayPaths.merge(unpacked.shownAs) { own, _ in own }
        }
        if !leavingOut.isEmpty {
            let kept = files.indices.filter { !leavingOut.contains(displayPath(of: files[$0])) }
            (files, folders) = (kept.map { files[$0] }, kept.map { folders[$0] })
        }
    }

    /// How `file` is named in reports: its own path, or for a link, the file it stands for.
    func displayPath(of file: URL) -> String {
        displayPaths[file.path] ?? file.path
    }

    /// `text` (a failure's message) naming the file as ``displayPath(of:)`` does.
    func displayText(_ text: String, for file: URL) -> String {
        guard let shown = displayPaths[file.path] else { return text }
        return text.replacingOccurrences(of: file.path, with: shown)
    }

    /// Removes the links, once the import is over.
    func removeLinks() {
        if let linkFolder { try? FileManager.default.removeItem(at: linkFolder) }
    }

    private mutating func read(folder: [UInt8], named rootName: String, recursive: Bool) {
        var found: [[UInt8]] = []
        var folders: [[UInt8]] = []
        for name in Self.names(in: folder) {
            let path = folder + [UInt8(ascii: "/")] + name
            var status = stat()
            guard Self.withCString(path, { stat($0, &status) }) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFREG: found.append(path)
            case S_IFDIR: folders.append(path)
            default: continue
            }
        }
        if recursive {
            // All the way down, sorted as one list. A link to a folder is followed, once: a
            // folder already read (by the link's loop back up, or by a second way to it) is
            // named in skippedLinks and not read again.
            var all = found
            var read: Set<FolderIdentity> = []
            if let identity = FolderIdentity(folder) { read.insert(identity) }
            var pending: [[UInt8]] = []
            func enter(_ path: [UInt8]) {
                guard let identity = FolderIdentity(path) else { return }
                if read.insert(identity).inserted {
                    pending.append(path)
                } else if !Self.isRealFolder(path) {
                    skippedLinks.append(Self.shown(path))
                }
            }
            // Real folders before links, so a link to a folder also reached directly is the one left out.
            for path in folders.sorted(by: Self.byteOrder) where Self.isRealFolder(path) { enter(path) }
            for path in folders.sorted(by: Self.byteOrder) where !Self.isRealFolder(path) { enter(path) }
            while let next = pending.popLast() {
                var links: [[UInt8]] = []
                for name in Self.names(in: next).sorted(by: Self.byteOrder) {
                    let path = next + [UInt8(ascii: "/")] + name
                    var status = stat()
                    guard Self.withCString(path, { stat($0, &status) }) == 0 else { continue }
                    if status.st_mode & S_IFMT == S_IFREG { all.append(path) }
                    if status.st_mode & S_IFMT == S_IFDIR {
                        if Self.isRealFolder(path) { enter(path) } else { links.append(path) }
                    }
                }
                for link in links { enter(link) }
            }
            for path in all.sorted(by: Self.byteOrder) {
                files.append(url(for: path))
                self.folders.append(Self.folderNames(of: path, below: folder, rootName: rootName))
            }
            skippedLinks.sort()
        } else {
            for path in found.sorted(by: Self.byteOrder) {
                files.append(url(for: path))
                self.folders.append([rootName])
            }
            skippedFolders += folders.sorted(by: Self.byteOrder).map(Self.shown)
        }
    }

    /// The folders between `root` and the file at `path`, `rootName` first.
    private static func folderNames(of path: [UInt8], below root: [UInt8], rootName: String) -> [String] {
        let parent = path[..<(path.lastIndex(of: UInt8(ascii: "/")) ?? path.startIndex)]
        let inner = parent.dropFirst(root.count).split(separator: UInt8(ascii: "/"))
        return [rootName] + inner.map { name in String(validating: name, as: UTF8.self) ?? String(name.map { Character(Unicode.Scalar($0)) }) }
    }

    /// The URL to import `path` from: its own, or a link's when its name is not UTF-8.
    private mutating func url(for path: [UInt8]) -> URL {
        if let text = String(validating: path, as: UTF8.self) { return URL(fileURLWithPath: text) }
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return URL(fileURLWithPath: Self.shown(path)) }
        let folderBytes = Array(path[..<slash])
        let name = String(path[(slash + 1)...].map { Character(Unicode.Scalar($0)) })  // Latin-1
        do {
            let linkFolder = try self.linkFolder ?? Self.makeLinkFolder()
            self.linkFolder = linkFolder
            // One sub-folder per source folder, so names do not clash and pairs stay together.
            let source = Self.shown(folderBytes)
            let group = linkFolder.appendingPathComponent(String(UInt64(bitPattern: Int64(source.hashValue)), radix: 36))
            try FileManager.default.createDirectory(at: group, withIntermediateDirectories: true)
            let link = group.appendingPathComponent(name)
            guard Self.withCString(path, { target in symlink(target, link.path) }) == 0 || errno == EEXIST else {
                return URL(fileURLWithPath: Self.shown(path))
            }
            // The link's own dates are the file's, which the import reads without following it.
            var status = stat()
            if Self.withCString(path, { stat($0, &status) }) == 0 {
                var times = [status.st_atim, status.st_mtim]
                _ = utimensat(AT_FDCWD, link.path, &times, AT_SYMLINK_NOFOLLOW)
            }
            displayPaths[link.path] = Self.shown(path)
            return link
        } catch {
            return URL(fileURLWithPath: Self.shown(path))  // fails as "no such file", named
        }
    }

    private static func makeLinkFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-import-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// The names in a folder, hidden ones (and `.`, `..`) left out; none if it cannot be read.
    private static func names(in folder: [UInt8]) -> [[UInt8]] {
        guard let directory = withCString(folder, { opendir($0) }) else { return [] }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name.isEmpty || name[0] == UInt8(ascii: ".") { continue }
            names.append(name)
        }
        return names
    }

    /// A folder as the file system knows it, whatever path reached it.
    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64

        init?(_ path: [UInt8]) {
            var status = stat()
            guard ImportFileList.withCString(path, { stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private static func isRealFolder(_ path: [UInt8]) -> Bool {
        var status = stat()
        return withCString(path, { lstat($0, &status) }) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private static func byteOrder(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.lexicographicallyPrecedes(b)
    }

    /// A path as text: UTF-8, with each byte that is not written `\xE9`.
    static func shown(_ path: [UInt8]) -> String {
        var text = ""
        var rest = path[...]
        while !rest.isEmpty {
            // The longest valid prefix, then one invalid byte.
            var end = rest.endIndex
            while end > rest.startIndex, String(validating: rest[rest.startIndex..<end], as: UTF8.self) == nil { end -= 1 }
            if end > rest.startIndex {
                text += String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
                rest = rest[end...]
            } else {
                text += String(format: "\\x%02X", rest[rest.startIndex])
                rest = rest.dropFirst()
            }
        }
        return text
    }

    private static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}
