import Foundation

/// The `QVCI` APP1 segment of Casio's QV cameras from before EXIF (1997–1999): the date the
/// picture was taken, at byte 0x4D as twenty bytes of text, `1998.10.24.12.08.57`.
enum CasioQVCISegment {
    /// The date in a segment's payload (which starts `QVCI\0`), or `nil` when it holds none.
    static func dateTimeOriginal(segment: Data) -> ImageMetadata.DateTime? {
        guard segment.starts(with: Array("QVCI\0".utf8)), segment.count >= 0x4D + 19 else { return nil }
        let start = segment.startIndex + 0x4D
        var text = Array(segment[start..<(start + 19)])
        // `YYYY.MM.DD.hh.mm.ss` in EXIF's spelling: colons in the date and time, a space between.
        guard [4, 7, 10, 13, 16].allSatisfy({ text[$0] == UInt8(ascii: ".") }) else { return nil }
        for index in [4, 7, 13, 16] { text[index] = UInt8(ascii: ":") }
        text[10] = UInt8(ascii: " ")
        return ImageMetadata.DateTime(exif: String(decoding: text, as: UTF8.self))
    }
}
