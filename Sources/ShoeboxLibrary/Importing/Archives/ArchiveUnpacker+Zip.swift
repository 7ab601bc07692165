import Foundation

/// ZIP: the central directory at the end names every entry (ZIP64's too); an archive cut short
/// has none, and is read entry by entry from its start as far as it goes.
extension ArchiveUnpacker {
    /// An entry as the directory (or, without one, its local header) describes it.
    struct ZipEntry {
        var name: String
        var flags: UInt16
        var method: UInt16
        var crc: UInt32
        var compressedSize: UInt64
        var size: UInt64
        var localOffset: UInt64
        var modified: Date?
        var isLink: Bool
    }

    /// A file read at offsets, a mebibyte at a time.
    final class ByteReader {
        let handle: FileHandle
        let length: UInt64

        init?(_ url: URL) {
            guard let handle = FileHandle(forReadingAtPath: url.path), let end = try? handle.seekToEnd() else { return nil }
            self.handle = handle
            length = end
        }

        deinit { try? handle.close() }

        func read(_ offset: UInt64, _ count: Int) -> [UInt8] {
            guard offset < length, (try? handle.seek(toOffset: offset)) != nil else { return [] }
            return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
        }
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { at + 2 <= bytes.count ? UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 : 0 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { at + 4 <= bytes.count ? UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16 : 0 }
    static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { at + 8 <= bytes.count ? UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 : 0 }

    mutating func unpackZip(_ url: URL) {
        guard let reader = ByteReader(url) else { return fail(url, code: .io, "it cannot be read") }
        guard let entries = Self.centralDirectory(reader) else {
            fail(url, "it is cut short (the ZIP's directory at its end is missing): the files before the cut were read, the rest is lost")
            return unpackZipFromStart(url, reader)
        }
        for entry in entries { unpackZipEntry(entry, of: url, reader) }
    }

    /// The entries the end of the ZIP lists, or `nil` when it has no directory (cut short).
    static func centralDirectory(_ reader: ByteReader) -> [ZipEntry]? {
        let tail = UInt64(min(reader.length, 65_557))
        let end = reader.read(reader.length - tail, Int(tail))
        guard end.count >= 22, let at = stride(from: end.count - 22, through: 0, by: -1).first(where: { u32(end, $0) == 0x0605_4B50 }) else { return nil }
        var count = UInt64(u16(end, at + 10))
        var size = UInt64(u32(end, at + 12))
        var offset = UInt64(u32(end, at + 16))
        // ZIP64: the locator just before points at the larger record.
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF, at >= 20, u32(end, at - 20) == 0x0706_4B50 {
            let record = reader.read(u64(end, at - 20 + 8), 56)
            guard u32(record, 0) == 0x0606_4B50 else { return nil }
            (count, size, offset) = (u64(record, 32), u64(record, 40), u64(record, 48))
        }
        guard offset + size <= reader.length, size < 1 << 31 else { return nil }
        let directory = reader.read(offset, Int(size))
        var entries: [ZipEntry] = []
        var at2 = 0
        for _ in 0..<count {
            guard at2 + 46 <= directory.count, u32(directory, at2) == 0x0201_4B50 else { return entries.isEmpty ? nil : entries }
            let nameLength = Int(u16(directory, at2 + 28))
            let extraLength = Int(u16(directory, at2 + 30))
            let commentLength = Int(u16(directory, at2 + 32))
            guard at2 + 46 + nameLength + extraLength <= directory.count else { break }
            let flags = u16(directory, at2 + 8)
            var entry = ZipEntry(
                name: Self.name(Array(directory[(at2 + 46)..<(at2 + 46 + nameLength)]), utf8: flags & 0x800 != 0), flags: flags,
                method: u16(directory, at2 + 10), crc: u32(directory, at2 + 16), compressedSize: UInt64(u32(directory, at2 + 20)),
                size: UInt64(u32(directory, at2 + 24)), localOffset: UInt64(u32(directory, at2 + 42)),
                modified: Self.dosDate(u16(directory, at2 + 14), u16(directory, at2 + 12)),
                isLink: (u32(directory, at2 + 38) >> 16) & 0o170000 == 0o120000)
            Self.readExtra(Array(directory[(at2 + 46 + nameLength)..<(at2 + 46 + nameLength + extraLength)]), into: &entry)
            entries.append(entry)
            at2 += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }

    /// ZIP64 sizes and offset (0x0001), and Info-ZIP's UTC modification time (0x5455).
    static func readExtra(_ extra: [UInt8], into entry: inout ZipEntry) {
        var at = 0
        while at + 4 <= extra.count {
            let id = u16(extra, at)
            let length = Int(u16(extra, at + 2))
            let body = Array(extra[(at + 4)..<min(extra.count, at + 4 + length)])
            if id == 0x0001 {
                var field = 0
                if entry.size == 0xFFFF_FFFF {
                    entry.size = u64(body, field)
                    field += 8
                }
                if entry.compressedSize == 0xFFFF_FFFF {
                    entry.compressedSize = u64(body, field)
                    field += 8
                }
                if entry.localOffset == 0xFFFF_FFFF { entry.localOffset = u64(body, field) }
            } else if id == 0x5455, body.count >= 5, body[0] & 1 != 0 {
                entry.modified = Date(timeIntervalSince1970: TimeInterval(u32(body, 1)))
            }
            at += 4 + length
        }
    }

    /// A name as the ZIP writes it: UTF-8 when flagged (or valid), else the IBM PC's code page,
    /// read here as Latin-1 (the accented letters differ, the name stays a name).
    static func name(_ bytes: [UInt8], utf8: Bool) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    /// MS-DOS's date and time (local, to two seconds), read as UTC: the clock the camera had.
    static func dosDate(_ date: UInt16, _ time: UInt16) -> Date? {
        var parts = DateComponents()
        (parts.year, parts.month, parts.day) = (Int(date >> 9) + 1980, Int((date >> 5) & 0xF), Int(date & 0x1F))
        (parts.hour, parts.minute, parts.second) = (Int(time >> 11), Int((time >> 5) & 0x3F), Int(time & 0x1F) * 2)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        guard (1...12).contains(parts.month ?? 0), (1...31).contains(parts.day ?? 0) else { return nil }
        return calendar.date(from: parts)
    }

    /// One entry, from its local header on: checked, inflated, written whole or not at all.
    mutating func unpackZipEntry(_ entry: ZipEntry, of url: URL, _ reader: ByteReader) {
        let (target, reason) = destination(of: entry.name)
        guard let target else {
            if let reason { fail(url, entry: entry.name, code: .invalidArgument, reason) }
            return
        }
        if entry.name.hasSuffix("/") || entry.name.hasSuffix("\\") { return }  // a folder: made with its files
        guard !entry.isLink else { return fail(url, entry: entry.name, code: .invalidArgument, "a symbolic link, which is not unpacked") }
        guard entry.flags & 1 == 0 else { return fail(url, entry: entry.name, code: .unsupportedFormat, "it is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            return fail(url, entry: entry.name, code: .unsupportedFormat, "it is compressed in a way Shoebox does not read (method \(entry.method))")
        }
        let header = reader.read(entry.localOffset, 30)
        guard Self.u32(header, 0) == 0x0403_4B50 else { return fail(url, entry: entry.name, "its header is not where the directory says") }
        let start = entry.localOffset + 30 + UInt64(Self.u16(header, 26)) + UInt64(Self.u16(header, 28))
        guard start + entry.compressedSize <= reader.length else {
            return fail(url, entry: entry.name, "it is cut short: the archive ends inside it")
        }
        do {
            try makeFolders(for: target)
            let file = try ArchiveEntryFile(target)
            do {
                let inflater = entry.method == 8 ? Inflater(gzip: false) : nil
                var offset = start
                let end = start + entry.compressedSize
                while offset < end {
                    let piece = Data(reader.read(offset, Int(min(1 << 20, end - offset))))
                    guard !piece.isEmpty else { throw Inflater.Failure(reason: "it cannot be read to its end") }
                    offset += UInt64(piece.count)
                    if let inflater { try inflater.inflate(piece, into: file.write) } else { try file.write(piece) }
                    guard UInt64(file.size) <= entry.size else { throw Inflater.Failure(reason: "it holds more than its directory says") }
                }
                guard UInt64(file.size) == entry.size, file.crc == entry.crc else {
                    throw Inflater.Failure(reason: "its bytes do not match its checksum (CRC-32): it is damaged")
                }
                try file.finish(modified: entry.modified)
                record(file.url, entry: entry.name, of: url)
            } catch {
                file.abandon()
                throw error
            }
        } catch let failure as Inflater.Failure {
            fail(url, entry: entry.name, failure.reason)
        } catch {
            fail(url, entry: entry.name, code: .io, "it could not be written: \(error.localizedDescription)")
        }
    }

    /// A ZIP without its directory, read header by header from the start: each entry whose
    /// sizes its header gives, or whose DEFLATE data ends by itself, until the cut.
    mutating func unpackZipFromStart(_ url: URL, _ reader: ByteReader) {
        var offset: UInt64 = 0
        while true {
            let header = reader.read(offset, 30)
            guard header.count == 30, Self.u32(header, 0) == 0x0403_4B50 else { return }
            let nameLength = Int(Self.u16(header, 26))
            let extraLength = Int(Self.u16(header, 28))
            let flags = Self.u16(header, 6)
            let nameAndExtra = reader.read(offset + 30, nameLength + extraLength)
            guard nameAndExtra.count == nameLength + extraLength else { return }
            var entry = ZipEntry(
                name: Self.name(Array(nameAndExtra.prefix(nameLength)), utf8: flags & 0x800 != 0), flags: flags, method: Self.u16(header, 8),
                crc: Self.u32(header, 14), compressedSize: UInt64(Self.u32(header, 18)), size: UInt64(Self.u32(header, 22)),
                localOffset: offset, modified: Self.dosDate(Self.u16(header, 12), Self.u16(header, 10)), isLink: false)
            Self.readExtra(Array(nameAndExtra.suffix(extraLength)), into: &entry)
            let start = offset + 30 + UInt64(nameLength + extraLength)
            guard flags & 8 == 0 else {
                // Sizes after the data (a streamed ZIP): only DEFLATE data says where it ends.
                guard entry.method == 8, let used = streamedEntry(entry, at: start, of: url, reader) else { return }
                var next = start + used
                if Self.u32(reader.read(next, 4), 0) == 0x0807_4B50 { next += 4 }
                offset = next + 12 + (entry.compressedSize == 0xFFFF_FFFF ? 8 : 0)
                continue
            }
            guard start + entry.compressedSize <= reader.length else { return fail(url, entry: entry.name, "it is cut short: the archive ends inside it") }
            unpackZipEntry(entry, of: url, reader)
            offset = start + entry.compressedSize
        }
    }

    /// A streamed entry's DEFLATE data inflated to its end; how many bytes it took, or `nil`
    /// when it did not end before the archive did (nothing of it kept).
    mutating func streamedEntry(_ entry: ZipEntry, at start: UInt64, of url: URL, _ reader: ByteReader) -> UInt64? {
        let (target, reason) = destination(of: entry.name)
        guard let target, !entry.name.hasSuffix("/") else {
            if let reason { fail(url, entry: entry.name, code: .invalidArgument, reason) }
            return nil
        }
        guard let inflater = Inflater(gzip: false), (try? makeFolders(for: target)) != nil, let file = try? ArchiveEntryFile(target) else { return nil }
        var offset = start
        do {
            while !inflater.ended {
                let piece = Data(reader.read(offset, 1 << 20))
                guard !piece.isEmpty else { throw Inflater.Failure(reason: "it is cut short: the archive ends inside it") }
                offset += UInt64(try inflater.inflate(piece, into: file.write))
            }
            // The data descriptor after it: its CRC-32 (after a signature, when it has one).
            var descriptor = offset
            if Self.u32(reader.read(descriptor, 4), 0) == 0x0807_4B50 { descriptor += 4 }
            let written = reader.read(descriptor, 4)
            guard written.count == 4, Self.u32(written, 0) == file.crc else {
                throw Inflater.Failure(reason: "its bytes do not match its checksum (CRC-32), or the archive ends before it")
            }
            try file.finish(modified: entry.modified)
            record(file.url, entry: entry.name, of: url)
            return offset - start
        } catch {
            file.abandon()
            fail(url, entry: entry.name, (error as? Inflater.Failure)?.reason ?? "it could not be written")
            return nil
        }
    }
}
