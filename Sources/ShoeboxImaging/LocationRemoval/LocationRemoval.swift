import Foundation

/// Takes the place a photo or movie was made out of its file, without touching anything else: the
/// bytes keep their length and every other byte, so pixels, other metadata and the container's
/// offsets stay as they were. What a download or a shared copy leaves out when asked to
/// ("Include location" off, as Photos has it).
///
/// What is taken out is what Shoebox itself, exiftool or ffprobe read as a place:
/// - EXIF (a JPEG's APP1, a HEIF's `Exif` item, a PNG's `eXIf`, a WebP's `EXIF`, a TIFF or raw
///   file itself, EXIF inside a movie's metadata boxes): the GPS directory's pointer is taken out
///   of IFD0 and the directory and its values are zeroed.
/// - XMP, wrapped in `x:xmpmeta` or `x:xapmeta` or a bare `rdf:RDF`, in any container: the
///   `exif:GPS…` properties, DJI's `drone-dji:Gps…` and the place names (`photoshop:City`,
///   `State`, `Country`, the IPTC core and extension locations) are blanked out with spaces.
/// - IPTC-IIM records (Photoshop's `8BIM` resource 0x0404, a TIFF's IPTC tag): city,
///   sub-location, state, country and content location are blanked out with spaces.
/// - QuickTime and MP4 movies: `©xyz` and 3GPP `loci` boxes become `free` boxes of the same
///   size with nothing in them; the values of `mdta` keys that name a place (Apple's
///   `com.apple.quicktime.location.*`, `location`, GPS keys) are blanked out; XMP and EXIF in
///   `uuid`, `XMP_` and other metadata boxes as above.
/// - Matroska and WebM: every tag whose name names a place (`LOCATION`, GPS, coordinates)
///   becomes an EBML `Void` element of the same size.
///
/// ``patches(for:includingCaptureDetails:)`` can also take out when and with what a movie was
/// made (what a shared link without its metadata leaves out).
///
/// Nothing is read into memory that the file does not need: a file without a place is only read
/// (mapped), never copied; a photo with one is copied only as far as its metadata reaches (the
/// whole photo only when it is under ``wholeCopyLimit``), and a movie never.
///
/// ```swift
/// let shared = LocationRemoval.removingLocation(from: try Data(contentsOf: photo))
/// ```
public enum LocationRemoval {
    /// Bytes to write at `offset`, of the same length as what they replace.
    public struct Patch: Sendable, Hashable {
        /// Where the bytes go, in bytes from the start of the file.
        public let offset: Int
        /// The replacement, as long as the bytes it overwrites.
        public let bytes: Data

        /// `bytes` to write at `offset`.
        public init(offset: Int, bytes: Data) {
            self.offset = offset
            self.bytes = bytes
        }
    }

    /// The bytes a file is read as: a view of its mapped pages, or of a copy, from index 0.
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The file's bytes with every patch of ``patches(for:includingCaptureDetails:)`` applied.
    public static func removingLocation(from data: Data, includingCaptureDetails: Bool = false) -> Data {
        var copy = Data(data)
        for patch in patches(for: data, includingCaptureDetails: includingCaptureDetails)
        where patch.offset >= 0 && patch.offset + patch.bytes.count <= copy.count {
            copy.replaceSubrange(patch.offset..<(patch.offset + patch.bytes.count), with: patch.bytes)
        }
        return copy
    }

    /// The patches for the file at `url`, which is mapped, not read into memory.
    public static func patches(forFileAt url: URL, includingCaptureDetails: Bool = false) throws -> [Patch] {
        try patches(for: Data(contentsOf: url, options: .alwaysMapped), includingCaptureDetails: includingCaptureDetails)
    }

    /// The patches that take the location out of `data`, in file order and apart from each other;
    /// none when it has none. A cleaned file has nothing more to take out: taking one place out
    /// can uncover another (a second GPS directory behind the first, an XMP property whose
    /// neighbour was blanked), so a photo is cleaned again until nothing changes (at most
    /// ``maximumPasses`` times) and the patches are what differs in the end. A movie's places sit
    /// in boxes whose blanking changes no structure, so one pass is enough.
    ///
    /// - Parameter includingCaptureDetails: For movies, also when the movie was made (the movie,
    ///   track and media headers' times, `©day`, Apple's creation date, Matroska's `DateUTC` and
    ///   date tags) and with what (make, model and software tags). Photos are not changed further:
    ///   a copy without their metadata is a new encoding (`ImageEncodingOptions.keepsMetadata`).
    public static func patches(for data: Data, includingCaptureDetails: Bool = false) -> [Patch] {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return patches(in: bytes, includingCaptureDetails: includingCaptureDetails)
        }
    }

    /// How many times a photo is cleaned at most before its patches are final.
    public static let maximumPasses = 16

    /// Photos up to this size are copied whole for the later passes; a larger one only as far as
    /// the first pass's patches reach, and a mebibyte beyond.
    public static let wholeCopyLimit = 64 << 20

    static func patches(in bytes: Bytes, includingCaptureDetails: Bool) -> [Patch] {
        let head = Array(bytes.prefix(ImageFormat.sniffLength))
        if isISOMedia(head), !isHEIF(head) {
            return unchanged(merged(isoMoviePatches(bytes, includingCaptureDetails: includingCaptureDetails)), in: bytes)
        }
        if isMatroska(head) {
            return unchanged(merged(matroskaPatches(bytes, includingCaptureDetails: includingCaptureDetails)), in: bytes)
        }
        let first = onePass(bytes)
        guard !first.isEmpty else { return [] }
        // Later passes look at a copy of what the first one reached: a photo's metadata sits in
        // its first mebibytes, so a large file is not copied whole.
        let reach = first.map { $0.offset + $0.bytes.count }.max() ?? 0
        let limit = bytes.count <= wholeCopyLimit ? bytes.count : min(bytes.count, reach + (1 << 20))
        var copy = Array(bytes[0..<limit])
        var found = first
        for _ in 0..<maximumPasses {
            var changed = false
            for patch in found.sorted(by: { $0.offset < $1.offset }) where patch.offset >= 0 && patch.offset + patch.bytes.count <= copy.count {
                for (index, byte) in patch.bytes.enumerated() where copy[patch.offset + index] != byte {
                    copy[patch.offset + index] = byte
                    changed = true
                }
            }
            if !changed { break }
            found = copy.withUnsafeBufferPointer { onePass($0) }
        }
        // What differs, as runs of changed bytes.
        var patches: [Patch] = []
        var index = 0
        while index < limit {
            guard copy[index] != bytes[index] else {
                index += 1
                continue
            }
            var end = index + 1
            while end < limit, copy[end] != bytes[end] { end += 1 }
            patches.append(Patch(offset: index, bytes: Data(copy[index..<end])))
            index = end
        }
        return patches
    }

    /// One look for places in a photo's bytes.
    private static func onePass(_ bytes: Bytes) -> [Patch] {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return pngPatches(bytes) }
        var patches: [Patch] = []
        var bases = exifBlocks(bytes)
        if isISOMedia(Array(bytes.prefix(12))) { bases += heifExifItems(bytes).filter { !bases.contains($0) } }
        for base in bases { patches += exifPatches(bytes, tiffAt: base) }
        for range in xmpPackets(bytes) { patches += xmpPatches(bytes, range) }
        patches += iptcPatches(bytes)
        return patches
    }

    /// Sorted patches with overlapping ones joined (a later one wins where they overlap).
    static func merged(_ patches: [Patch]) -> [Patch] {
        var result: [Patch] = []
        for patch in patches.sorted(by: { $0.offset < $1.offset }) where !patch.bytes.isEmpty {
            if let last = result.last, patch.offset <= last.offset + last.bytes.count {
                var joined = [UInt8](last.bytes)
                let end = max(last.offset + last.bytes.count, patch.offset + patch.bytes.count)
                joined += [UInt8](repeating: 0, count: end - last.offset - joined.count)
                joined.replaceSubrange((patch.offset - last.offset)..<(patch.offset - last.offset + patch.bytes.count), with: patch.bytes)
                result[result.count - 1] = Patch(offset: last.offset, bytes: Data(joined))
            } else {
                result.append(patch)
            }
        }
        return result
    }

    /// The patches that change something: one that writes what is there already is left out, so
    /// a cleaned movie has none.
    private static func unchanged(_ patches: [Patch], in bytes: Bytes) -> [Patch] {
        patches.filter { patch in
            patch.offset >= 0 && patch.offset + patch.bytes.count <= bytes.count
                && !bytes[patch.offset..<(patch.offset + patch.bytes.count)].elementsEqual(patch.bytes)
        }
    }

    // MARK: Kinds

    static func isISOMedia(_ head: [UInt8]) -> Bool {
        head.count >= 12 && Array(head[4..<8]) == Array("ftyp".utf8)
    }

    private static func isHEIF(_ head: [UInt8]) -> Bool {
        ImageFormat(sniffing: head.prefix(ImageFormat.sniffLength)).map { $0.isDecodedByLibheif || $0 == .cr3 } ?? false
    }

    /// Matroska and WebM: an EBML header.
    static func isMatroska(_ head: [UInt8]) -> Bool {
        head.starts(with: [0x1A, 0x45, 0xDF, 0xA3])
    }

    // MARK: Reading

    /// A `Data` over `bytes[from...]` that shares its memory: valid only while `bytes` is.
    static func sharedData(_ bytes: Bytes, from start: Int = 0) -> Data {
        guard let base = bytes.baseAddress, start < bytes.count else { return Data() }
        return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base + start), count: bytes.count - start, deallocator: .none)
    }

    /// The first place of `needle` in `haystack[start..<end]` (`end`: the end of the bytes).
    static func find(_ needle: [UInt8], in haystack: Bytes, from start: Int, to end: Int? = nil) -> Int? {
        let end = min(end ?? haystack.count, haystack.count)
        guard let first = needle.first, start >= 0, end - start >= needle.count else { return nil }
        let last = end - needle.count
        var index = start
        while index <= last {
            guard haystack[index] == first else {
                index += 1
                continue
            }
            var matched = true
            var offset = 1
            while offset < needle.count {
                if haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                offset += 1
            }
            if matched { return index }
            index += 1
        }
        return nil
    }
}
