import Foundation
import ShoeboxImaging

/// A Live Photo as an iPhone leaves it on disk: a JPEG whose Apple maker note carries the content
/// identifier (tag 0x11, and a burst identifier, tag 0x0B, when given) and a QuickTime movie
/// with the same identifier in `com.apple.quicktime.content.identifier`.
///
/// ```swift
/// let pair = SyntheticLivePhoto(identifier: UUID().uuidString, seed: 7)
/// let (photo, movie) = try pair.write(to: folder, stem: "IMG_0001")  // IMG_0001.JPG, IMG_0001.MOV
/// ```
public struct SyntheticLivePhoto: Sendable {
    /// The content identifier both files carry, which pairs them (an iPhone's is a UUID string).
    public var identifier: String
    /// The burst's identifier (maker note tag 0x0B), or `nil` for a photo outside a burst, whose
    /// maker note then lacks the tag.
    public var burstIdentifier: String?
    /// Chooses the photo's picture, as ``SyntheticPhoto/seed`` does; the movie shows ffmpeg's test
    /// pattern whatever it is.
    public var seed: UInt64
    /// The photo's and the movie's width in pixels.
    public var width: Int
    /// The photo's and the movie's height in pixels.
    public var height: Int
    /// The movie's length in seconds (an iPhone's is about 3).
    public var duration: Double

    /// A pair to write: a `width × height` photo and movie (160 × 120 pixels by default), the movie
    /// `duration` seconds long.
    public init(identifier: String, burstIdentifier: String? = nil, seed: UInt64, width: Int = 160, height: Int = 120, duration: Double = 1) {
        self.identifier = identifier
        self.burstIdentifier = burstIdentifier
        self.seed = seed
        self.width = width
        self.height = height
        self.duration = duration
    }

    /// Writes `STEM.JPG` and `STEM.MOV` into `folder`.
    @discardableResult
    public func write(to folder: URL, stem: String) throws -> (photo: URL, movie: URL) {
        let photo = folder.appendingPathComponent(stem + ".JPG")
        try photoData().write(to: photo)
        var movie = SyntheticMovie(duration: duration, width: width, height: height, hasAudio: false)
        movie.metadata["com.apple.quicktime.content.identifier"] = identifier
        let movieURL = try movie.write(to: folder.appendingPathComponent(stem + ".MOV"))
        return (photo, movieURL)
    }

    /// The JPEG: pixels from ``SyntheticPhoto``, then an APP1 EXIF block with `Make` = Apple and
    /// the maker note.
    public func photoData() throws -> Data {
        let jpeg = try SyntheticPhoto(width: width, height: height, seed: seed).image()
            .encoded(as: .jpeg, options: ImageEncodingOptions(keepsMetadata: false))
        let payload = Array("Exif\0\0".utf8) + exif()
        let app1: [UInt8] = [0xFF, 0xE1] + Self.bigEndian(UInt16(payload.count + 2)) + payload
        return Data([0xFF, 0xD8] + app1) + jpeg.dropFirst(2)
    }

    /// A big-endian TIFF block: IFD0 (`Make`, the EXIF pointer), the EXIF IFD (`MakerNote`).
    private func exif() -> [UInt8] {
        let make = Array("Apple\0".utf8)
        let ifd0 = 8
        let makeAt = ifd0 + 2 + 2 * 12 + 4
        let exifIFD = makeAt + make.count
        let note = makerNote()
        let noteAt = exifIFD + 2 + 12 + 4
        var bytes = Array("MM".utf8) + Self.bigEndian(UInt16(42)) + Self.bigEndian(UInt32(ifd0))
        bytes += Self.bigEndian(UInt16(2))
        bytes += Self.entry(0x010F, type: 2, count: make.count, value: UInt32(makeAt))
        bytes += Self.entry(0x8769, type: 4, count: 1, value: UInt32(exifIFD))
        bytes += Self.bigEndian(UInt32(0)) + make
        bytes += Self.bigEndian(UInt16(1)) + Self.entry(0x927C, type: 7, count: note.count, value: UInt32(noteAt)) + Self.bigEndian(UInt32(0))
        return bytes + note
    }

    /// `Apple iOS\0`, version 1, `MM`, then an IFD whose offsets count from the note's start.
    private func makerNote() -> [UInt8] {
        var strings: [(UInt16, [UInt8])] = []
        if let burstIdentifier { strings.append((0x0B, Array(burstIdentifier.utf8) + [0])) }
        strings.append((0x11, Array(identifier.utf8) + [0]))
        var note = Array("Apple iOS\0".utf8) + [0x00, 0x01] + Array("MM".utf8)
        var dataAt = note.count + 2 + strings.count * 12 + 4
        var data: [UInt8] = []
        note += Self.bigEndian(UInt16(strings.count))
        for (tag, value) in strings {
            note += Self.entry(tag, type: 2, count: value.count, value: UInt32(dataAt))
            data += value
            dataAt += value.count
        }
        return note + Self.bigEndian(UInt32(0)) + data
    }

    private static func entry(_ tag: UInt16, type: UInt16, count: Int, value: UInt32) -> [UInt8] {
        bigEndian(tag) + bigEndian(type) + bigEndian(UInt32(count)) + bigEndian(value)
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian, Array.init)
    }
}
