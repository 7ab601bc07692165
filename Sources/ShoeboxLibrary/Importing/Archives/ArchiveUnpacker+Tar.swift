import Foundation

/// tar, plain or gzipped: headers of 512 bytes, each file's bytes after its header padded to 512;
/// GNU's long names (`L`) and POSIX pax headers (`x`: `path`, `mtime`) name what follows.
extension ArchiveUnpacker {
    /// Reads a tar stream as it arrives, writing each file.
    struct TarStream {
        enum State {
            case header
            /// A file's bytes: how many are left, then the padding.
            case body(remaining: Int, padding: Int)
            /// Bytes skipped (a link, a pax header being read, what is not a file).
            case skip(remaining: Int)
            case end
        }

        var state = State.header
        var pending = Data()
        var file: ArchiveEntryFile?
        var fileName = ""
        var fileModified: Date?
        /// The name (and date) a GNU `L` or pax `x` header gives the next entry.
        var nextName: String?
        var nextModified: Date?
        /// The data of a special header being read (`L`, `x`), with its kind.
        var special: (kind: UInt8, data: Data, remaining: Int, padding: Int)?
        var entries = 0
    }

    mutating func unpackTar(_ url: URL, gzip: Bool) {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return fail(url, code: .io, "it cannot be read") }
        defer { try? handle.close() }
        var stream = TarStream()
        let inflater = gzip ? Inflater(gzip: true) : nil
        do {
            while true {
                guard let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
                if let inflater {
                    try inflater.inflate(chunk) { try feed($0, &stream, archive: url) }
                } else {
                    try feed(chunk, &stream, archive: url)
                }
                if case .end = stream.state { break }
            }
            if case .end = stream.state { return }
            if let inflater, !inflater.ended || stream.file != nil || !stream.pending.isEmpty {
                stream.file?.abandon()
                let cut = stream.file == nil ? "" : " inside \(stream.fileName), which was not kept"
                return fail(url, "it is cut short: the archive ends\(cut); the files before the cut were read")
            }
            if let file = stream.file {
                file.abandon()
                return fail(url, "it is cut short: the archive ends inside \(stream.fileName), which was not kept; the files before the cut were read")
            }
        } catch let failure as Inflater.Failure {
            stream.file?.abandon()
            fail(url, "it is damaged (\(failure.reason)); the files before the damage were read")
        } catch let failure as TarFailure {
            stream.file?.abandon()
            fail(url, failure.reason)
        } catch {
            stream.file?.abandon()
            fail(url, code: .io, "it could not be unpacked: \(error.localizedDescription)")
        }
    }

    struct TarFailure: Error {
        let reason: String
    }

    /// Takes the next bytes of the tar stream.
    private mutating func feed(_ data: Data, _ stream: inout TarStream, archive: URL) throws {
        stream.pending.append(data)
        var at = stream.pending.startIndex
        defer { stream.pending = stream.pending.suffix(from: at) }
        while at < stream.pending.endIndex {
            let available = stream.pending.endIndex - at
            switch stream.state {
            case .end:
                at = stream.pending.endIndex
            case .skip(let remaining):
                let taken = min(remaining, available)
                at += taken
                stream.state = remaining - taken == 0 ? .header : .skip(remaining: remaining - taken)
            case .body(let remaining, let padding):
                if remaining > 0 {
                    let taken = min(remaining, available)
                    if let special = stream.special {
                        stream.special = (special.kind, special.data + stream.pending[at..<(at + taken)], special.remaining - taken, special.padding)
                    } else {
                        try stream.file?.write(stream.pending[at..<(at + taken)])
                    }
                    at += taken
                    stream.state = .body(remaining: remaining - taken, padding: padding)
                    continue
                }
                guard available >= padding else { return }
                at += padding
                stream.state = .header
                if let special = stream.special {
                    stream.special = nil
                    readSpecial(special.kind, special.data, &stream)
                } else if let file = stream.file {
                    stream.file = nil
                    try file.finish(modified: stream.fileModified)
                    record(file.url, entry: stream.fileName, of: archive)
                }
            case .header:
                guard available >= 512 else { return }
                let block = [UInt8](stream.pending[at..<(at + 512)])
                at += 512
                if block.allSatisfy({ $0 == 0 }) {
                    // An empty block ends the archive (tar writes two; one is enough to stop).
                    stream.state = .end
                    continue
                }
                try header(block, &stream, archive: archive)
            }
        }
    }

    /// Reads one header block and sets what follows it.
    private mutating func header(_ block: [UInt8], _ stream: inout TarStream, archive: URL) throws {
        let stored = Self.octal(block[148..<156])
        let sum = block.enumerated().reduce(0) { $0 + (148..<156 ~= $1.offset ? 32 : Int($1.element)) }
        guard stored == sum else {
            throw TarFailure(
                reason: stream.entries == 0
                    ? "it is not a tar archive (its first header's checksum is wrong)"
                    : "it is damaged after its \(stream.entries) first entries (a header's checksum is wrong); those were read")
        }
        stream.entries += 1
        let size = Self.size(block[124..<136])
        guard size >= 0 else { throw TarFailure(reason: "it is damaged: an entry's size cannot be read") }
        let padding = (512 - size % 512) % 512
        let kind = block[156]
        var name = Self.text(block[0..<100])
        if Array(block[257..<262]) == Array("ustar".utf8) {
            let prefix = Self.text(block[345..<500])
            if !prefix.isEmpty { name = prefix + "/" + name }
        }
        name = stream.nextName ?? name
        let modified = stream.nextModified ?? Date(timeIntervalSince1970: TimeInterval(Self.octal(block[136..<148])))
        switch kind {
        case UInt8(ascii: "L"), UInt8(ascii: "x"):
            stream.special = (kind, Data(), size, padding)
            stream.state = .body(remaining: size, padding: padding)
            return
        default:
            break
        }
        stream.nextName = nil
        stream.nextModified = nil
        switch kind {
        case 0, UInt8(ascii: "0"), UInt8(ascii: "7"):
            let (target, reason) = destination(of: name)
            guard let target else {
                if let reason { fail(archive, entry: name, code: .invalidArgument, reason) }
                stream.state = .skip(remaining: size + padding)
                return
            }
            try makeFolders(for: target)
            stream.file = try ArchiveEntryFile(target)
            (stream.fileName, stream.fileModified) = (name, modified)
            stream.state = .body(remaining: size, padding: padding)
        case UInt8(ascii: "1"), UInt8(ascii: "2"):
            fail(archive, entry: name, code: .invalidArgument, "a link, which is not unpacked")
            stream.state = .skip(remaining: size + padding)
        default:
            // Folders (made with their files), global pax headers, devices: nothing to write.
            stream.state = .skip(remaining: size + padding)
        }
        if case .skip(0) = stream.state { stream.state = .header }
    }

    /// A GNU long name, or a pax header's `path` and `mtime`, for the entry that follows.
    private func readSpecial(_ kind: UInt8, _ data: Data, _ stream: inout TarStream) {
        if kind == UInt8(ascii: "L") {
            stream.nextName = Self.text(Array(data)[...])
            return
        }
        // pax: "LENGTH key=value\n" records.
        var rest = Substring(String(decoding: data, as: UTF8.self))
        while let space = rest.firstIndex(of: " "), let length = Int(rest[rest.startIndex..<space]), length > 0,
            let end = rest.index(rest.startIndex, offsetBy: length, limitedBy: rest.endIndex)
        {
            let record = rest[rest.index(after: space)..<end].dropLast()
            rest = rest[end...]
            guard let equals = record.firstIndex(of: "=") else { continue }
            let (key, value) = (record[record.startIndex..<equals], record[record.index(after: equals)...])
            if key == "path" { stream.nextName = String(value) }
            if key == "mtime", let seconds = Double(value) { stream.nextModified = Date(timeIntervalSince1970: seconds) }
        }
    }

    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        let used = bytes.prefix { $0 != 0 }
        return String(validating: Array(used), as: UTF8.self) ?? String(used.map { Character(Unicode.Scalar($0)) })
    }

    static func octal(_ bytes: ArraySlice<UInt8>) -> Int {
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x37 else {
                if byte == 0 || byte == 0x20 { if value > 0 { break } else { continue } }
                return -1
            }
            value = value * 8 + Int(byte - 0x30)
        }
        return value
    }

    /// A size in octal, or GNU's base-256 (high bit set) for 8 GiB and more.
    static func size(_ bytes: ArraySlice<UInt8>) -> Int {
        guard let first = bytes.first, first & 0x80 != 0 else { return octal(bytes) }
        return bytes.dropFirst().reduce(Int(first & 0x7F)) { $0 << 8 | Int($1) }
    }
}
