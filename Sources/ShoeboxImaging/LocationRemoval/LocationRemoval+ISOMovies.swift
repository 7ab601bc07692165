import Foundation

extension LocationRemoval {
    /// The places in a QuickTime or MP4 movie's metadata (and, when asked, its dates and camera):
    /// the movie box, its tracks, their user data and metadata boxes, and `uuid` and `meta` boxes
    /// at the top. Media data is never read.
    static func isoMoviePatches(_ bytes: Bytes, includingCaptureDetails: Bool) -> [Patch] {
        let data = sharedData(bytes)
        let reader = HEIFContainer.BoxReader(data: data)
        var patches: [Patch] = []
        for box in reader.children(in: 0..<data.count) {
            switch box.type {
            case "moov":
                for child in reader.children(in: box.body) {
                    switch child.type {
                    case "trak":
                        for part in reader.children(in: child.body) {
                            patches += movieMetadataPatches(part, reader: reader, bytes: bytes, details: includingCaptureDetails)
                            if includingCaptureDetails, part.type == "mdia" {
                                for header in reader.children(in: part.body) where header.type == "mdhd" {
                                    patches += headerTimePatches(header, reader: reader)
                                }
                            }
                        }
                    default:
                        patches += movieMetadataPatches(child, reader: reader, bytes: bytes, details: includingCaptureDetails)
                    }
                }
            case "udta", "meta", "uuid":
                patches += movieMetadataPatches(box, reader: reader, bytes: bytes, details: includingCaptureDetails)
            default:
                break
            }
        }
        return patches
    }

    /// A box of the movie or of a track: headers' times, user data, metadata and `uuid` boxes.
    private static func movieMetadataPatches(_ box: HEIFContainer.BoxReader.Box, reader: HEIFContainer.BoxReader, bytes: Bytes, details: Bool) -> [Patch] {
        switch box.type {
        case "mvhd", "tkhd":
            return details ? headerTimePatches(box, reader: reader) : []
        case "udta":
            var patches: [Patch] = []
            for item in reader.children(in: box.body) {
                switch item.type {
                case _ where placeBoxTypes.contains(item.type):
                    patches += freed(item, reader: reader)
                case _ where details && detailBoxTypes.contains(item.type):
                    patches += freed(item, reader: reader)
                case "meta":
                    patches += metadataItemPatches(reader, meta: item, details: details)
                    patches += embeddedPatches(bytes, item.body)
                default:
                    // `XMP_`, makers' boxes: XMP and EXIF inside.
                    patches += embeddedPatches(bytes, item.body)
                }
            }
            return patches
        case "meta":
            return metadataItemPatches(reader, meta: box, details: details) + embeddedPatches(bytes, box.body)
        case "uuid":
            return embeddedPatches(bytes, box.body)
        default:
            return []
        }
    }

    /// The 3GPP location (`loci`) and QuickTime's `©xyz`.
    private static let placeBoxTypes: Set<String> = ["loci", quickTime("xyz")]

    /// When and with what a movie was made: QuickTime's `©day`, `©mak`, `©mod`, `©swr` and the
    /// 3GPP recording year (`yrrc`).
    private static let detailBoxTypes: Set<String> = [quickTime("day"), quickTime("mak"), quickTime("mod"), quickTime("swr"), "yrrc"]

    /// QuickTime's `©` names: the box reader spells types as UTF-8, so © (0xA9) reads as U+FFFD.
    private static func quickTime(_ name: String) -> String {
        String(decoding: [0xA9] + Array(name.utf8), as: UTF8.self)
    }

    /// A box made a `free` box of the same size with nothing in it: readers skip it, and every
    /// offset in the file stays.
    private static func freed(_ box: HEIFContainer.BoxReader.Box, reader: HEIFContainer.BoxReader) -> [Patch] {
        // A 32-bit size and the type, or a 1, the type and a 64-bit size (which stays).
        let large = reader.u32(box.body.lowerBound - 16) == 1 && reader.u32(box.body.lowerBound - 8).map(Int.init) != box.body.count + 8
        let typeAt = box.body.lowerBound - (large ? 12 : 4)
        return [Patch(offset: typeAt, bytes: Data("free".utf8)), Patch(offset: box.body.lowerBound, bytes: Data(count: box.body.count))]
    }

    /// The creation and modification times of a movie, track or media header (`mvhd`, `tkhd`,
    /// `mdhd`) set to zero: four bytes each in version 0, eight in version 1.
    private static func headerTimePatches(_ box: HEIFContainer.BoxReader.Box, reader: HEIFContainer.BoxReader) -> [Patch] {
        guard let version = reader.u8(box.body.lowerBound) else { return [] }
        let width = version == 1 ? 8 : 4
        guard box.body.count >= 4 + 2 * width else { return [] }
        return [Patch(offset: box.body.lowerBound + 4, bytes: Data(count: 2 * width))]
    }

    /// XMP and EXIF inside a metadata box, at most 16 MiB of it.
    private static func embeddedPatches(_ bytes: Bytes, _ range: Range<Int>) -> [Patch] {
        let range = range.lowerBound..<min(range.upperBound, range.lowerBound + (16 << 20))
        guard !range.isEmpty else { return [] }
        let part = Bytes(rebasing: bytes[range])
        var patches: [Patch] = []
        for base in exifBlocks(part) { patches += exifPatches(part, tiffAt: base) }
        for packet in xmpPackets(part) { patches += xmpPatches(part, packet) }
        return patches.map { Patch(offset: range.lowerBound + $0.offset, bytes: $0.bytes) }
    }

    /// The values of a `meta` box's items that name a place (and, with `details`, a date or the
    /// camera): with a `keys` box (QuickTime's `mdta`), the items numbered by keys such as
    /// `com.apple.quicktime.location.ISO6709` or `location`; without one, iTunes-style items
    /// named `©xyz` (and `©day`, `©mak`, `©mod`, `©swr`).
    private static func metadataItemPatches(_ reader: HEIFContainer.BoxReader, meta: HEIFContainer.BoxReader.Box, details: Bool) -> [Patch] {
        // QuickTime's meta has no version and flags; ISO's has four bytes of them.
        var children = reader.children(in: meta.body)
        if !children.contains(where: { $0.type == "keys" || $0.type == "ilst" }), meta.body.count > 4 {
            children = reader.children(in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
        }
        guard let list = children.first(where: { $0.type == "ilst" }) else { return [] }
        var chosen: (HEIFContainer.BoxReader.Box) -> Bool
        if let keys = children.first(where: { $0.type == "keys" }), let count = reader.u32(keys.body.lowerBound + 4) {
            var numbers: Set<Int> = []
            var cursor = keys.body.lowerBound + 8
            for number in 1...Swift.max(1, Int(Swift.min(count, 10_000))) {
                guard let size = reader.u32(cursor), size >= 8, cursor + Int(size) <= keys.body.upperBound else { break }
                let name = String(decoding: reader.data[(reader.data.startIndex + cursor + 8)..<(reader.data.startIndex + cursor + Int(size))], as: UTF8.self)
                if namesAPlace(name) || (details && namesADetail(name)) { numbers.insert(number) }
                cursor += Int(size)
            }
            chosen = { numbers.contains($0.type.utf8.reduce(0) { $0 << 8 | Int($1) }) }
        } else {
            chosen = { placeBoxTypes.contains($0.type) || (details && detailBoxTypes.contains($0.type)) }
        }
        var patches: [Patch] = []
        for item in reader.children(in: list.body) where chosen(item) {
            for value in reader.children(in: item.body) where value.type == "data" {
                // Type and locale (8 bytes), then the value (none in a box shorter than them).
                let payload = min(value.body.lowerBound + 8, value.body.upperBound)..<value.body.upperBound
                if !payload.isEmpty { patches.append(Patch(offset: payload.lowerBound, bytes: Data(repeating: 0x20, count: payload.count))) }
            }
        }
        return patches
    }

    /// A metadata key that holds a place: Apple's `com.apple.quicktime.location.*`, `location`
    /// (as ffmpeg writes it), anything of GPS.
    static func namesAPlace(_ key: String) -> Bool {
        let key = key.lowercased()
        return key.contains("location") || key.contains("gps") || key.contains("coordinates") || key.hasSuffix("xyz")
    }

    /// A metadata key that holds when or with what a movie was made.
    static func namesADetail(_ key: String) -> Bool {
        let key = key.lowercased()
        return key.contains("date") || key.contains("creation") || key.hasSuffix(".make") || key.hasSuffix(".model")
            || key.hasSuffix(".software") || key == "make" || key == "model" || key == "encoder"
    }
}
