import Foundation
import ShoeboxImaging

/// How many of an image's metadata fields Shoebox reads as exiftool does, over many files.
///
/// Each ``ImageMetadata`` property is compared with the exiftool tag it stands for (``fields``).
/// A field counts for a file when either reader finds a value there; it agrees when both find the
/// same value (numbers within a part in ten thousand, dates to the millisecond with the same
/// offset, GPS to a ten-millionth of a degree, text exactly). Values exiftool prints but that are
/// not values at all (an orientation outside 1…8, a date of zeros, a zero f-number) count as absent,
/// as Shoebox reads them.
///
/// exiftool picks among a tag's copies (EXIF before XMP, maker notes when EXIF lacks the tag) as
/// it does for a person running it; ``fields`` lists where a property's value may come from when
/// exiftool names it differently (XMP `aux:Lens` is exiftool's `Lens`, Shoebox's ``ImageMetadata/lensModel``).
///
/// ```swift
/// var agreement = MetadataAgreement()
/// let exiftool = try Exiftool.read(urls, tags: MetadataAgreement.exiftoolTags)
/// for url in urls {
///     agreement.compare(try Image(contentsOf: url).metadata, with: exiftool[url.path] ?? [:], file: url.path)
/// }
/// print(agreement.rate)
/// ```
public struct MetadataAgreement: Sendable {
    /// One compared property.
    public struct Field: Sendable {
        /// The ``ImageMetadata`` property's name.
        public let name: String
        /// The exiftool tags read for it, first found wins.
        public let exiftoolTags: [String]
        let ours: @Sendable (ImageMetadata) -> Value?
        let theirs: @Sendable ([String: String]) -> Value?
    }

    /// A value as compared.
    enum Value: Sendable, Equatable, CustomStringConvertible {
        case text(String)
        case number(Double)
        case date(ImageMetadata.DateTime)
        case position(Double, Double)

        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.text(let a), .text(let b)): a == b
            case (.number(let a), .number(let b)): abs(a - b) <= max(1e-9, abs(b) * 1e-4)
            case (.position(let a, let b), .position(let c, let d)): abs(a - c) < 1e-7 && abs(b - d) < 1e-7
            case (.date(let a), .date(let b)):
                a.exifString == b.exifString && a.utcOffset == b.utcOffset
                    && abs((a.fractionalSecond ?? 0) - (b.fractionalSecond ?? 0)) < 0.0005
            default: false
            }
        }

        var description: String {
            switch self {
            case .text(let text): "\"\(text)\""
            case .number(let number): "\(number)"
            case .date(let date):
                date.exifString + (date.fractionalSecond.map { String(format: "%.3f", $0).dropFirst() } ?? "")
                    + (date.offsetString ?? "")
            case .position(let latitude, let longitude): "\(latitude) \(longitude)"
            }
        }
    }

    /// A file and field where the readers differ.
    public struct Disagreement: Sendable, CustomStringConvertible {
        /// The file, as given to ``MetadataAgreement/compare(_:with:file:)``.
        public let file: String
        /// The field's name, as ``MetadataAgreement/Field/name`` gives it.
        public let field: String
        /// Shoebox's value, `nil` when it found none.
        public let shoebox: String?
        /// exiftool's value, `nil` when it found none.
        public let exiftool: String?

        /// One line: the file, the field, and both readers' values (`none` for a missing one).
        public var description: String {
            "\(file): \(field) Shoebox \(shoebox ?? "none"), exiftool \(exiftool ?? "none")"
        }
    }

    /// The fields compared, in the order reported.
    public static let fields: [Field] = [
        text("make", "Make") { $0.make },
        text("model", "Model") { $0.model },
        text("lensMake", "LensMake") { $0.lensMake },
        Field(
            name: "lensModel", exiftoolTags: ["LensModel", "XMP-aux:Lens"],
            ours: { $0.lensModel.map { .text($0) } },
            theirs: { tags in (tags["LensModel"] ?? tags["XMP-aux:Lens"]).flatMap(trimmedText) }),
        text("software", "Software") { $0.software },
        Field(
            name: "orientation", exiftoolTags: ["Orientation#"],
            ours: { $0.orientation.map { .number(Double($0.rawValue)) } },
            theirs: { tags in
                tags["Orientation#"].flatMap(Int.init).flatMap { (1...8).contains($0) ? .number(Double($0)) : nil }
            }),
        Field(
            // XMP's `photoshop:DateCreated` is the taken date where nothing else gives one (as
            // ``ImageMetadata/dateTimeOriginal`` reads it); exiftool names it `DateCreated`.
            name: "dateTimeOriginal", exiftoolTags: ["SubSecDateTimeOriginal", "DateTimeOriginal", "XMP-photoshop:DateCreated"],
            ours: { $0.dateTimeOriginal.map { .date($0) } },
            theirs: { tags in
                (tags["SubSecDateTimeOriginal"] ?? tags["DateTimeOriginal"] ?? tags["XMP-photoshop:DateCreated"])
                    .flatMap { ImageMetadata.DateTime(iso8601: $0) }.map { .date($0) }
            }),
        Field(
            name: "latitude, longitude", exiftoolTags: ["GPSPosition#"],
            ours: { metadata in
                guard let latitude = metadata.latitude, let longitude = metadata.longitude else { return nil }
                return .position(latitude, longitude)
            },
            theirs: { tags in
                let parts = (tags["GPSPosition#"] ?? "").split(separator: " ").compactMap { Double($0) }
                return parts.count == 2 ? .position(parts[0], parts[1]) : nil
            }),
        number("altitude", "GPSAltitude#", positive: false) { $0.altitude },
        number("exposureTime", "ExposureTime#") { $0.exposureTime },
        number("fNumber", "FNumber#") { $0.fNumber },
        // The printed ISO: maker notes keep codes (Pentax's 6 is ISO 100) that only print as speeds.
        number("isoSpeed", "ISO") { $0.isoSpeed.map(Double.init) },
        number("focalLength", "FocalLength#") { $0.focalLength },
        Field(
            name: "flashFired", exiftoolTags: ["Flash#"],
            ours: { $0.flashFired.map { .text($0 ? "fired" : "did not fire") } },
            theirs: { tags in tags["Flash#"].flatMap(Int.init).map { .text($0 & 1 == 1 ? "fired" : "did not fire") } }),
        text("colorProfileName", "ProfileDescription") { $0.colorProfileName },
    ]

    /// Every exiftool tag ``fields`` read.
    public static var exiftoolTags: [String] { fields.flatMap(\.exiftoolTags) }

    /// For each field's name, how many files it counted for and how many of those agreed.
    public private(set) var tally: [String: (compared: Int, agreed: Int)] = [:]
    /// Every difference found, in the order compared.
    public private(set) var disagreements: [Disagreement] = []
    /// The files compared.
    public private(set) var files = 0

    /// An empty tally, before any file is compared.
    public init() {}

    /// Compares one file's metadata with exiftool's tags for it.
    public mutating func compare(_ metadata: ImageMetadata, with exiftool: [String: String], file: String) {
        files += 1
        for field in Self.fields {
            let ours = field.ours(metadata)
            let theirs = field.theirs(exiftool)
            guard ours != nil || theirs != nil else { continue }
            var counts = tally[field.name] ?? (0, 0)
            counts.compared += 1
            if ours == theirs {
                counts.agreed += 1
            } else {
                disagreements.append(
                    Disagreement(
                        file: file, field: field.name, shoebox: ours?.description, exiftool: theirs?.description))
            }
            tally[field.name] = counts
        }
    }

    /// Field values compared, over every file.
    public var compared: Int { tally.values.reduce(0) { $0 + $1.compared } }
    /// Field values that agreed.
    public var agreed: Int { tally.values.reduce(0) { $0 + $1.agreed } }
    /// `agreed / compared` (1 when nothing was compared).
    public var rate: Double { compared == 0 ? 1 : Double(agreed) / Double(compared) }

    /// A table of the fields, one per line: name, agreed, compared, percentage.
    public var report: String {
        var lines = ["\(files) files, \(agreed) of \(compared) field values agree (\(String(format: "%.2f", rate * 100)) %)"]
        for field in Self.fields {
            guard let counts = tally[field.name] else { continue }
            let percent = String(format: "%.1f", Double(counts.agreed) / Double(counts.compared) * 100)
            lines.append("  \(field.name): \(counts.agreed)/\(counts.compared) (\(percent) %)")
        }
        return lines.joined(separator: "\n")
    }

    private static func text(
        _ name: String, _ tag: String, _ ours: @escaping @Sendable (ImageMetadata) -> String?
    ) -> Field {
        Field(
            name: name, exiftoolTags: [tag], ours: { ours($0).map { .text($0) } },
            theirs: { tags in tags[tag].flatMap(trimmedText) })
    }

    private static func trimmedText(_ value: String) -> Value? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : .text(trimmed)
    }

    /// A number; exiftool's zero (or negative, when `positive`) reads as absent, as an unset
    /// rational does for Shoebox. A list (`100 100`) reads as its last value.
    private static func number(
        _ name: String, _ tag: String, positive: Bool = true, _ ours: @escaping @Sendable (ImageMetadata) -> Double?
    ) -> Field {
        Field(
            name: name, exiftoolTags: [tag], ours: { ours($0).map { .number($0) } },
            theirs: { tags in
                guard let last = tags[tag]?.split(separator: " ").last, let value = Double(last), value.isFinite
                else { return nil }
                return positive && value <= 0 ? nil : .number(value)
            })
    }
}
