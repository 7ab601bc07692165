import Foundation
import ShoeboxImaging

extension PhotoLibrary {
    /// What an archive holds of each asset.
    public struct ArchiveOptions: Sendable, Hashable {
        /// Which files of an asset go in.
        public enum Files: String, Sendable, Hashable, Codable, CaseIterable {
            /// The current version: an edited asset's render, else its original (one file each).
            case current
            /// Every original file: the photo or movie as imported, and a Live Photo's movie and a
            /// RAW+JPEG pair's raw with it.
            case originals
        }

        /// Which files of each asset go in: the current version (the default) or every original.
        public var files: Files
        /// Whether the files keep the place they were made (`false`: taken out with
        /// `LocationRemoval`, every other byte as it is).
        public var includesLocation: Bool
        /// Whether each asset's files are followed by an XMP sidecar of what the catalog knows of
        /// it (``Asset/xmpSidecar(includesLocation:)``), named after its first file
        /// (`IMG_0001.JPG.xmp`): the date, place, title, caption, keywords and rating the person set.
        public var includesSidecars: Bool

        /// Options from their parts; by default each asset's current version, with its location,
        /// without sidecars.
        public init(files: Files = .current, includesLocation: Bool = true, includesSidecars: Bool = false) {
            self.files = files
            self.includesLocation = includesLocation
            self.includesSidecars = includesSidecars
        }
    }

    /// A ZIP of `assets`' files, made as it is read: each piece comes when the reader asks for
    /// it, a file is read a mebibyte at a time, and nothing is built whole in memory or on disk.
    /// The files are stored as they are (photos and movies are compressed already), named as
    /// imported (`IMG_0001.JPG`; a second of the same name `IMG_0001 2.JPG`), dated when taken;
    /// ZIP64 where sizes call for it.
    ///
    /// ```swift
    /// let zip = FileHandle(forWritingAtPath: "Trip.zip")!
    /// for try await piece in library.archive(of: assets, options: .init(files: .originals, includesLocation: false)) {
    ///     try zip.write(contentsOf: piece)
    /// }
    /// ```
    ///
    /// The sequence throws ``LibraryError`` when a file cannot be read (the archive is then
    /// unfinished: whoever receives it must drop it).
    public func archive(of assets: [Asset], options: ArchiveOptions = ArchiveOptions()) -> Archive {
        Archive(library: self, assets: assets, options: options)
    }

    /// The pieces of a ZIP archive (``archive(of:options:)``), in order.
    public struct Archive: AsyncSequence, Sendable {
        /// Each piece is a run of the ZIP's bytes, to be written out in order.
        public typealias Element = Data

        let library: PhotoLibrary
        let assets: [Asset]
        let options: ArchiveOptions

        /// An iterator that makes the archive from the start; each iteration reads the files anew.
        public func makeAsyncIterator() -> Iterator {
            Iterator(
                library: library, options: options,
                entries: assets.flatMap { asset -> [Iterator.Entry] in
                    let resources = options.files == .originals ? asset.resources.filter(\.isOriginal) : [asset.currentResource]
                    return resources.map { .file(asset, $0) } + (options.includesSidecars ? [.sidecar(asset)] : [])
                })
        }

        /// Makes the archive's pieces one at a time as they are asked for.
        public struct Iterator: AsyncIteratorProtocol {
            /// One entry of the archive: a file of an asset, or the XMP sidecar that follows its files.
            enum Entry: Sendable {
                case file(Asset, AssetResource)
                case sidecar(Asset)
            }

            let library: PhotoLibrary
            let options: ArchiveOptions
            var entries: [Entry]
            var next = 0
            /// The name the last file was given in the archive: its sidecar is named after it.
            var lastName = ""
            var writer = ZipStreamWriter()
            var names: Set<String> = []
            /// The file being read, where in it, and the patches that take its place out.
            var open: (handle: FileHandle, offset: Int, patches: [LocationRemoval.Patch])?
            var finished = false

            init(library: PhotoLibrary, options: ArchiveOptions, entries: [Entry]) {
                self.library = library
                self.options = options
                self.entries = entries
            }

            /// The next piece of the ZIP (an entry's header, up to a mebibyte of a file, an entry's data
            /// descriptor, or at the end the central directory), or `nil` once the archive is complete.
            ///
            /// - Throws: ``LibraryError`` when a file cannot be located or opened; the underlying
            ///   error, not a ``LibraryError``, when reading an opened file fails.
            public mutating func next() async throws -> Data? {
                if let file = open {
                    let handle = file.handle
                    let chunk = try await BlockingPool.shared.run { try handle.read(upToCount: 1 << 20) ?? Data() }
                    guard chunk.isEmpty else {
                        let piece = Self.patched(chunk, at: file.offset, with: file.patches)
                        open = (file.handle, file.offset + piece.count, file.patches)
                        writer.add(piece)
                        return piece
                    }
                    try? file.handle.close()
                    open = nil
                    return writer.end()
                }
                if next < entries.count {
                    let asset: Asset
                    let resource: AssetResource
                    switch entries[next] {
                    case .file(let owner, let file): (asset, resource) = (owner, file)
                    case .sidecar(let owner):
                        next += 1
                        return sidecar(of: owner)
                    }
                    next += 1
                    let url = try await library.fileURL(for: resource)
                    let patches: [LocationRemoval.Patch]
                    if options.includesLocation {
                        patches = []
                    } else {
                        patches = try await BlockingPool.shared.run { try LocationRemoval.patches(forFileAt: url) }
                    }
                    let handle: FileHandle
                    do {
                        handle = try FileHandle(forReadingFrom: url)
                    } catch {
                        throw LibraryError.storage("cannot read \(resource.originalFilename) for the archive: \(error.localizedDescription)", underlying: error)
                    }
                    open = (handle, 0, patches)
                    lastName = Self.unique(resource.deliveredFilename, among: &names)
                    return writer.begin(name: lastName, modified: asset.creationDate, expectedSize: resource.fileSize)
                }
                guard !finished else { return nil }
                finished = true
                return writer.finish()
            }

            /// `asset`'s XMP sidecar as one whole entry (it is small), named after its last file.
            private mutating func sidecar(of asset: Asset) -> Data {
                let packet = asset.xmpSidecar(includesLocation: options.includesLocation)
                var piece = writer.begin(name: Self.unique(lastName + ".xmp", among: &names), modified: asset.creationDate, expectedSize: packet.count)
                writer.add(packet)
                piece.append(packet)
                piece.append(writer.end())
                return piece
            }

            /// `chunk` (the file's bytes from `offset`) with the parts of `patches` that fall in it.
            package static func patched(_ chunk: Data, at offset: Int, with patches: [LocationRemoval.Patch]) -> Data {
                var piece = chunk
                let end = offset + chunk.count
                for patch in patches where patch.offset < end && patch.offset + patch.bytes.count > offset {
                    let from = Swift.max(patch.offset, offset)
                    let to = Swift.min(patch.offset + patch.bytes.count, end)
                    let source = patch.bytes.subdata(in: (from - patch.offset)..<(to - patch.offset))
                    piece.replaceSubrange((from - offset)..<(to - offset), with: source)
                }
                return piece
            }

            /// A plain file name (no folders, no control or invisible formatting characters — a
            /// right-to-left override would show `gpj.exe` as `exe.jpg` — no line or paragraph
            /// separators, none of the characters Windows and macOS refuse: `:` becomes `-`, and
            /// `<>"|?*` become `_`), made unique in the archive as a file manager would:
            /// `IMG_0001.JPG`, `IMG_0001 2.JPG`, …
            static func unique(_ name: String, among taken: inout Set<String>) -> String {
                let kept = name.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
                    switch scalar.properties.generalCategory {
                    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return nil
                    default: break
                    }
                    switch scalar {
                    case "/", "\\": return nil
                    case ":": return "-"
                    case "<", ">", "\"", "|", "?", "*": return "_"
                    default: return scalar
                    }
                }
                var safe = String(String.UnicodeScalarView(kept))
                safe = safe.trimmingCharacters(in: .whitespaces)
                if safe.isEmpty || safe == "." || safe == ".." { safe = "file" }
                let stem = (safe as NSString).deletingPathExtension
                let ext = (safe as NSString).pathExtension
                var candidate = safe
                var counter = 2
                while taken.contains(candidate.lowercased()) {
                    candidate = ext.isEmpty ? "\(stem) \(counter)" : "\(stem) \(counter).\(ext)"
                    counter += 1
                }
                taken.insert(candidate.lowercased())
                return candidate
            }
        }
    }
}
