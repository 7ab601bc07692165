import Foundation

/// The shared test media (`../shared/corpus` beside the package, or `$SHOEBOX_CORPUS`) and what
/// exiftool and ffprobe read from it.
public struct Corpus: Sendable {
    /// The corpus folder.
    public let root: URL

    /// The corpus in `root` (a folder holding `expected.tsv`), as given: a path through a
    /// symbolic link stays one.
    public init(root: URL) {
        self.root = root
    }

    /// The corpus, or `nil` when it is absent (tests then skip, saying so).
    public static func locate(packageRoot: URL = Corpus.packageRoot()) -> Corpus? {
        let candidates = [
            ProcessInfo.processInfo.environment["SHOEBOX_CORPUS"].map { URL(fileURLWithPath: $0) },
            packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus"),
        ].compactMap { $0 }
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("expected.tsv").path) {
            return Corpus(root: candidate.standardizedFileURL)
        }
        return nil
    }

    /// The package root, found from this source file's location.
    public static func packageRoot(file: StaticString = #filePath) -> URL {
        URL(fileURLWithPath: "\(file)")
            .deletingLastPathComponent()  // ShoeboxTesting
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()
    }

    /// The URL of `relativePath` (a file or folder, such as `exif-samples/jpg`) under ``root``; it need
    /// not exist.
    public func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// One row of `expected.tsv`.
    public struct ExpectedImage: Sendable, CustomStringConvertible {
        /// The file's path relative to the corpus root, as ``Corpus/url(_:)`` takes it.
        public let path: String
        /// exiftool's file type (`JPEG`, `PNG`, `HEIC`, `TIFF`, `CR2`…); empty when it recognised none.
        public let fileType: String
        /// The stored width in pixels, before orientation is applied; `nil` when exiftool read none.
        public let width: Int?
        /// The stored height in pixels, before orientation is applied; `nil` when exiftool read none.
        public let height: Int?
        /// The EXIF orientation number (1…8); `nil` when the file records none.
        public let orientation: Int?
        /// The camera's maker (`Make`); `nil` when the file names none.
        public let make: String?
        /// The camera's model (`Model`); `nil` when the file names none.
        public let model: String?
        /// `DateTimeOriginal` as EXIF writes it (`2008:05:30 15:56:01`, no time zone); `nil` when absent.
        public let dateTimeOriginal: String?
        /// The GPS latitude in decimal degrees, negative south of the equator; `nil` without a position.
        public let latitude: Double?
        /// The GPS longitude in decimal degrees, negative west of Greenwich; `nil` without a position.
        public let longitude: Double?
        /// Whether libvips opens the file's header (`vipsheader`), from the `decodes_with_libvips` column.
        public let opensWithLibvips: Bool
        /// Whether libvips decodes every pixel (`vips avg`); `false` for a damaged file whose header
        /// still opens.
        public let decodesFully: Bool

        /// The path, so that a failing test names the file.
        public var description: String { path }
    }

    /// Every row of `expected.tsv`.
    public func expectedImages() throws -> [ExpectedImage] {
        try rows("expected.tsv").map { row in
            func text(_ key: String) -> String? { row[key].flatMap { $0.isEmpty ? nil : $0 } }
            return ExpectedImage(
                path: row["path"] ?? "", fileType: row["file_type"] ?? "",
                width: text("width").flatMap(Int.init), height: text("height").flatMap(Int.init),
                orientation: text("orientation").flatMap(Int.init),
                make: text("make"), model: text("model"), dateTimeOriginal: text("date_time_original"),
                latitude: text("gps_latitude").flatMap(Double.init), longitude: text("gps_longitude").flatMap(Double.init),
                opensWithLibvips: row["decodes_with_libvips"] == "yes", decodesFully: row["decodes_fully"] == "yes")
        }
    }

    /// Files under a corpus folder, sorted, relative to the corpus.
    public func files(in folder: String) -> [String] {
        let base = url(folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var result: [String] = []
        for case let file as URL in enumerator
        where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            result.append(folder + "/" + file.path.dropFirst(base.path.count + 1))
        }
        return result.sorted()
    }

    /// A TSV file's rows as dictionaries keyed by the header line.
    public func rows(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: url(name), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            var row: [String: String] = [:]
            for (index, key) in header.enumerated() {
                row[key] = index < fields.count ? fields[index] : ""
            }
            return row
        }
    }
}
