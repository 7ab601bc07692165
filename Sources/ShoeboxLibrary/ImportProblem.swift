import Foundation
import ShoeboxImaging
import ShoeboxMedia

/// What is wrong with a file that cannot be imported, in plain words that name no internals:
/// "not a photo or movie", "the file is damaged: it ends early".
///
/// The words are decided from the file itself and from which step failed, never from libvips's
/// error text: libvips keeps one error buffer per process, so under concurrent imports the text
/// a failing call finds there may be another file's. Each file's message is its own.
enum ImportProblem {
    /// Files that travel with photos but are not photos: sidecars (`.xmp`, `.aae`, `.thm`),
    /// exports' notes (`.json`, `.txt`) and folders' housekeeping (`Thumbs.db`, `desktop.ini`).
    /// Imports skip them with a note instead of failing.
    static let sidecarExtensions: Set<String> = ["xmp", "aae", "json", "txt", "thm", "xml", "ini", "db", "md", "csv", "log"]

    /// Whether `filename` names a sidecar or text file: by its extension, or, for a name
    /// without one (README, LICENSE, NOTES), by the file's bytes being text.
    static func isSidecar(_ filename: String, contents file: URL) -> Bool {
        let fileExtension = (filename as NSString).pathExtension.lowercased()
        return fileExtension.isEmpty ? looksLikeText(file) : sidecarExtensions.contains(fileExtension)
    }

    /// The error for a sidecar or text file.
    static func sidecar(path: String, filename: String) -> LibraryError {
        let fileExtension = (filename as NSString).pathExtension.lowercased()
        return .importFailed(
            path: path, code: .sidecar,
            message: fileExtension.isEmpty
                ? "a text file, not a photo or movie: skipped" : "a sidecar or text file (.\(fileExtension)), not a photo or movie: skipped")
    }

    /// The error for a file neither libvips nor ffprobe recognises.
    static func unrecognized(_ file: URL, path: String, underlying: (any Error)? = nil) -> LibraryError {
        .importFailed(
            path: path, code: .unsupportedFormat,
            message: looksLikeText(file) ? "a text file, not a photo or movie" : "not a photo or movie", underlying: underlying)
    }

    /// The error for a photo whose decoding failed with `error`.
    static func photo(_ file: URL, path: String, format: ImageFormat?, error: ImageError?) -> LibraryError {
        switch error?.code {
        case .tooLarge?:
            return .importFailed(
                path: path, code: .tooLarge,
                message: "the picture is too large: \(megapixels(error?.pixelCount ?? 0)) megapixels (the limit is \(megapixels(error?.pixelLimit ?? 0)))",
                underlying: error)
        case .unsupportedFormat? where format?.isRaw == true:
            // A raw format Shoebox reads, from a camera LibRaw does not know: say which.
            return .importFailed(path: path, code: .unsupportedFormat, message: "a \(error?.detail ?? "raw image")", underlying: error)
        case .unsupportedFormat?:
            return .importFailed(path: path, code: .unsupportedFormat, message: "a kind of picture Shoebox cannot read", underlying: error)
        case .io?:
            return .importFailed(path: path, code: .io, message: "the file cannot be read", underlying: error)
        default:
            return .importFailed(
                path: path, code: .corrupt,
                message: endsEarly(file, format: format) ? "the file is damaged: it ends early" : "the file is damaged: its picture cannot be read",
                underlying: error)
        }
    }

    /// The error for a movie ffprobe could not read with `error`.
    static func movie(_ file: URL, path: String, error: MediaError) -> LibraryError {
        switch error.code {
        case .unsupportedFormat: return unrecognized(file, path: path, underlying: error)
        case .toolMissing:
            return .importFailed(path: path, code: .toolMissing, message: "movies cannot be read here: ffmpeg is not installed", underlying: error)
        case .io: return .importFailed(path: path, code: .io, message: "the file cannot be read", underlying: error)
        default:
            return .importFailed(
                path: path, code: .corrupt,
                message: endsEarly(file, format: nil) ? "the file is damaged: it ends early" : "the movie is damaged: it cannot be played",
                underlying: error)
        }
    }

    private static func megapixels(_ pixels: Int) -> String {
        String(format: "%.0f", Double(pixels) / 1_000_000)
    }

    /// Whether the start of the file is text (UTF-8, no control bytes but tabs and line ends).
    static func looksLikeText(_ file: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 4_096), !head.isEmpty else { return false }
        return !head.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
            && String(decoding: head.prefix(4_000), as: UTF8.self).unicodeScalars.allSatisfy { $0 != "\u{FFFD}" }
    }

    /// Whether the file stops before its format's structure says it ends: a JPEG without its
    /// end-of-image marker, a PNG without its `IEND` chunk, a TIFF whose first directory lies
    /// past its end, a container whose last box, segment, chunk or packet runs past the end of the
    /// file (``ContainerIntegrity/endsEarly(_:)``).
    static func endsEarly(_ file: URL, format: ImageFormat?) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 12 else { return true }
        func read(at offset: UInt64, count: Int) -> [UInt8] {
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count) else { return [] }
            return [UInt8](data)
        }
        let head = read(at: 0, count: 12)
        if head.starts(with: [0xFF, 0xD8]) {
            // The end-of-image marker, allowing a few padding bytes after it.
            let tail = read(at: size - min(size, 32), count: 32)
            return !zip(tail, tail.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
        }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            let tail = read(at: size - min(size, 16), count: 16)
            return !String(decoding: tail, as: UTF8.self).contains("IEND")
        }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            // Classic TIFF: the first directory's offset, in the file's byte order, then at least
            // its two-byte entry count.
            let offset = head[0] == 0x49 ? Array(head[4..<8].reversed()) : Array(head[4..<8])
            if offset.reduce(UInt64(0), { $0 << 8 | UInt64($1) }) + 2 > size { return true }
            // A raw's sensor data (or any TIFF's strips and tiles) past the end.
            return (try? Data(contentsOf: file, options: .alwaysMapped)).map(TIFFDirectoryReader.dataEndsEarly(tiffData:)) ?? false
        }
        // ISO media (HEIF, AVIF, MP4, MOV), Matroska, AVI, MPEG transport streams: the movie
        // import's own container check.
        return ContainerIntegrity.endsEarly(file.path)
    }
}
