import Foundation
import ShoeboxImaging

/// TIFF directories: `ImageMetadata(exif:)` (the EXIF block of every JPEG, PNG, WebP and HEIF, and
/// the directories of TIFF and raw files), the raw-format check and the sensor size, and the
/// reader's own promise that every value it locates lies in the data where it says.
enum TIFFFuzzTarget {
    static func run(_ data: Data) {
        let metadata = ImageMetadata(exif: data)
        MetadataInvariants.check(metadata)
        FuzzCheck.require(ImageMetadata(exif: FuzzCheck.shifted(data)) == metadata, "a slice of the same bytes reads differently")

        let format = TIFFDirectoryReader.refine(.tiff, tiffData: data)
        FuzzCheck.require([.tiff, .dng, .cr2, .nef, .nrw, .arw, .pef, .srw, .hasselblad3FR].contains(format), "a TIFF refined to \(format)")
        let panasonic = TIFFDirectoryReader.refine(.rw2, tiffData: data)
        FuzzCheck.require(panasonic == .rw2 || panasonic == .rwl, "an RW2 refined to \(panasonic)")
        if let xmp = TIFFDirectoryReader.embeddedXMP(tiffData: data) {
            FuzzCheck.require(xmp.count <= data.count, "an XMP packet of \(xmp.count) bytes in \(data.count)")
        }
        if let size = TIFFDirectoryReader.fullResolutionSize(tiffData: data) {
            FuzzCheck.require(
                size.width > 0 && size.height > 0 && size.width <= Int(UInt32.max) && size.height <= Int(UInt32.max),
                "sensor size \(size)")
        }
        checkReader(data)
    }

    /// Every entry of the first directory: where its value is, what the typed reads give.
    private static func checkReader(_ data: Data) {
        guard let reader = TIFFDirectoryReader(data) else { return }
        let base = data.starts(with: [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]) ? 6 : 0
        FuzzCheck.require(data.count - base >= 8, "a TIFF header shorter than 8 bytes was accepted")
        let littleEndian = data[base] == 0x49
        FuzzCheck.require(littleEndian ? data[base + 1] == 0x49 : (data[base] == 0x4D && data[base + 1] == 0x4D), "no byte order mark")

        /// `count` bytes at `offset` from the header, as the model reads them.
        func model(_ offset: Int, _ count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, base + offset + count <= data.count else { return nil }
            return Array(data[(base + offset)..<(base + offset + count)])
        }
        func integer(_ bytes: [UInt8]) -> UInt32 {
            (littleEndian ? bytes.reversed() : bytes).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }

        let first = reader.firstDirectoryOffset
        let directory = reader.directory(at: first)
        FuzzCheck.require(directory.count <= TIFFDirectoryReader.maximumEntriesPerDirectory, "\(directory.count) entries")
        for (tag, entry) in directory {
            FuzzCheck.require(tag == entry.tag, "entry \(entry.tag) filed under \(tag)")
            guard let unit = TIFFDirectoryReader.unitSize(entry.type) else {
                FuzzCheck.require(false, "an entry of unknown type \(entry.type) was kept")
                return
            }
            let length = entry.count * unit
            if length <= 4 {
                // A value of four bytes or fewer sits in the entry itself: offset + 2 + 12 × index + 8.
                let inline = entry.valueOffset - first - 10
                FuzzCheck.require(inline >= 0 && inline % 12 == 0, "inline value of tag \(tag) at \(entry.valueOffset), directory at \(first)")
            }
            let probe = min(length, 64)
            let expected = model(entry.valueOffset, probe)
            FuzzCheck.require(
                reader.bytes(at: entry.valueOffset, count: probe) == expected,
                "tag \(tag): bytes at \(entry.valueOffset) differ from the data's")
            for index in Set([0, entry.count - 1]) where index >= 0 && index < entry.count {
                let value = reader.unsigned(entry, index: index)
                switch entry.type {
                case 1, 3, 4, 7, 13:
                    let size = entry.type == 3 ? 2 : (entry.type == 4 || entry.type == 13 ? 4 : 1)
                    FuzzCheck.require(
                        value == model(entry.valueOffset + index * size, size).map(integer),
                        "tag \(tag)[\(index)] read as \(String(describing: value))")
                default:
                    FuzzCheck.require(value == nil, "tag \(tag) of type \(entry.type) read as an unsigned integer")
                }
                if let rational = reader.rational(entry, index: index) {
                    FuzzCheck.require(rational.isFinite, "tag \(tag)[\(index)] is \(rational)")
                }
            }
            if let text = reader.string(entry) {
                FuzzCheck.require(
                    !text.isEmpty && FuzzCheck.isPrintable(text)
                        && text == text.trimmingCharacters(in: .whitespacesAndNewlines), "tag \(tag) text \(text.debugDescription)")
            }
        }
    }
}
