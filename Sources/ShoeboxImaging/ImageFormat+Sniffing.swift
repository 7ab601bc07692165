import Foundation

extension ImageFormat {
    /// The number of leading bytes ``init(sniffing:)`` looks at.
    public static let sniffLength = 32

    /// Recognises a format from the first bytes of a file (at least ``sniffLength`` when the
    /// file is that long). Returns `nil` for anything Shoebox does not accept.
    ///
    /// Raw formats built on TIFF's signature that need more than the header to tell apart (DNG,
    /// NEF, ARW, PEF, SRW, …) are reported as ``tiff`` here, and Leica's RWL as ``rw2``; ``Image``
    /// refines them from the TIFF tags.
    public init?(sniffing prefix: some Collection<UInt8>) {
        let bytes = Array(prefix.prefix(Self.sniffLength))
        func matches(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { matches(Array(text.utf8), at: offset) }

        if matches([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if ascii("GIF87a") || ascii("GIF89a") {
            self = .gif
        } else if ascii("RIFF") && ascii("WEBP", at: 8) {
            self = .webp
        } else if matches([0x49, 0x49, 0x2A, 0x00]) || matches([0x4D, 0x4D, 0x00, 0x2A]) {
            self = matches([0x43, 0x52], at: 8) ? .cr2 : .tiff
        } else if ascii("IIRO") || ascii("IIRS") || ascii("MMOR") {
            self = .orf
        } else if matches([0x49, 0x49, 0x55, 0x00]) {
            self = .rw2
        } else if ascii("FUJIFILMCCD-RAW") {
            self = .raf
        } else if (ascii("II") || ascii("MM")) && ascii("HEAPCCDR", at: 6) {
            self = .crw
        } else if ascii("FOVb") {
            self = .x3f
        } else if matches([0x00, 0x4D, 0x52, 0x4D]) {
            self = .mrw
        } else if ascii("ftyp", at: 4) && ascii("crx ", at: 8) {
            self = .cr3
        } else if ascii("ftyp", at: 4), let format = Self.heifFamily(bytes) {
            self = format
        } else {
            return nil
        }
    }

    /// HEIF brands: the major brand and the compatible brands that fit in the prefix.
    private static func heifFamily(_ bytes: [UInt8]) -> ImageFormat? {
        guard bytes.count >= 12 else { return nil }
        var brands: [String] = []
        let boxSize =
            bytes.count >= 4
            ? Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]) : 0
        let end = min(bytes.count, max(12, boxSize))
        var offset = 8
        while offset + 4 <= end {
            if offset != 12 {  // bytes 12..<16 are the minor version, not a brand
                brands.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            }
            offset += 4
        }
        let heic: Set = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs"]
        let avif: Set = ["avif", "avis"]
        let heif: Set = ["mif1", "msf1", "mif2"]
        if let major = brands.first {
            if heic.contains(major) { return .heic }
            if avif.contains(major) { return .avif }
        }
        if brands.contains(where: heic.contains) { return .heic }
        if brands.contains(where: avif.contains) { return .avif }
        if brands.contains(where: heif.contains) { return .heif }
        return nil
    }

    /// A short description of unrecognised leading bytes, for error messages.
    static func describeUnrecognised(_ prefix: some Collection<UInt8>) -> String {
        let bytes = Array(prefix.prefix(8))
        if bytes.isEmpty { return "no data" }
        let hex = bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
        let printable = bytes.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        return printable
            ? "the data looks like text, not an image (starts with \(hex))"
            : "not a recognised image format (starts with \(hex))"
    }
}
