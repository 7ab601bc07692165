import Foundation
import ShoeboxImaging

/// Camera raw files made for tests, as cameras lay them out: a 12-bit Bayer (RGGB) mosaic of a
/// known scene, uncompressed, in a TIFF structure — a DNG, or the raw of a camera LibRaw knows
/// (a Nikon D700 NEF, a Sony α900 ARW, a Pentax K-5 PEF) — with the camera's JPEG preview in
/// IFD0, the sensor data in a SubIFD, and EXIF (date, exposure, f-number, ISO, focal length).
///
/// The scene has four quadrants: red top left, green top right, blue bottom left, grey bottom
/// right, so a decoder's colours and turn can be checked by looking at the corners.
///
/// ```swift
/// var raw = SyntheticRaw(kind: .nef)
/// raw.orientation = .right             // a camera held upright
/// try raw.write(to: URL(fileURLWithPath: "/tmp/DSC_0001.NEF"))
/// ```
public struct SyntheticRaw: Sendable {
    /// The kind of file, and so the camera it claims to come from.
    public enum Kind: String, Sendable, CaseIterable {
        case dng, nef, arw, pef

        /// The camera's make and model as its EXIF has them.
        public var camera: (make: String, model: String) {
            switch self {
            case .dng: ("Shoebox", "Synthetic Raw")
            case .nef: ("NIKON CORPORATION", "NIKON D700")
            case .arw: ("SONY", "DSLR-A900")
            case .pef: ("PENTAX Corporation", "PENTAX K-5")
            }
        }

        /// The format Shoebox should recognise.
        public var format: ImageFormat {
            switch self {
            case .dng: .dng
            case .nef: .nef
            case .arw: .arw
            case .pef: .pef
            }
        }

        /// The usual file name extension.
        public var fileExtension: String { format.fileExtension.uppercased() }
    }

    /// One quadrant's colour on the sensor, in 12-bit linear values.
    public enum Quadrant: CaseIterable, Sendable {
        case red, green, blue, grey

        var linear: (red: UInt16, green: UInt16, blue: UInt16) {
            switch self {
            case .red: (3000, 250, 250)
            case .green: (250, 3000, 250)
            case .blue: (250, 250, 3000)
            case .grey: (1200, 1200, 1200)
            }
        }
    }

    public var kind: Kind
    /// The sensor's size; both sides even.
    public var width: Int
    public var height: Int
    /// The EXIF orientation the camera recorded.
    public var orientation: ImageOrientation
    /// The embedded JPEG preview's size as stored (the camera's own orientation), or `nil` for none.
    public var previewSize: PixelSize?
    /// `DateTimeOriginal`.
    public var dateTimeOriginal: String
    public var exposureTime: (numerator: UInt32, denominator: UInt32)
    public var fNumber: Double
    public var isoSpeed: Int
    public var focalLength: Double
    /// Shifts every photosite by a few levels, so that files made with different seeds differ.
    public var seed: UInt64

    public init(kind: Kind, width: Int = 600, height: Int = 400, seed: UInt64 = 0) {
        self.kind = kind
        self.width = width
        self.height = height
        self.orientation = .up
        self.previewSize = PixelSize(width: width / 2, height: height / 2)
        self.dateTimeOriginal = "2024:05:01 10:11:12"
        self.exposureTime = (1, 250)
        self.fNumber = 5.6
        self.isoSpeed = 400
        self.focalLength = 35
        self.seed = seed
    }

    /// The quadrant at stored (unturned) position `x`, `y`.
    public func quadrant(x: Int, y: Int) -> Quadrant {
        switch (x < width / 2, y < height / 2) {
        case (true, true): .red
        case (false, true): .green
        case (true, false): .blue
        case (false, false): .grey
        }
    }

    /// Writes the file.
    public func write(to url: URL) throws {
        try data().write(to: url)
    }

    /// The file's bytes.
    public func data() throws -> Data {
        precondition(width >= 4 && height >= 4 && width % 2 == 0 && height % 2 == 0, "an even sensor of at least 4 × 4")
        var file = TIFFWriter()
        var preview: (data: Data, size: PixelSize)?
        if let previewSize {
            preview = (try previewJPEG(previewSize), previewSize)
        }
        let previewOffset = preview.map { file.append($0.data) }
        let sensorOffset = file.append(mosaic())
        let sensorLength = width * height * 2

        let sensor = file.appendDirectory([
            .long(254, [0]),  // NewSubfileType: the full-resolution image
            .long(256, [UInt32(width)]), .long(257, [UInt32(height)]),
            .short(258, [16]), .short(259, [1]), .short(262, [32803]),  // 16 bits, uncompressed, CFA
            .long(273, [UInt32(sensorOffset)]), .short(277, [1]), .long(278, [UInt32(height)]),
            .long(279, [UInt32(sensorLength)]),
            .short(33421, [2, 2]), .bytes(33422, [0, 1, 1, 2]),  // CFARepeatPatternDim, CFAPattern: RGGB
            .long(50714, [0]), .long(50717, [4095]),  // BlackLevel, WhiteLevel (12 bits)
        ])
        let exif = file.appendDirectory([
            .rational(33434, [(exposureTime.numerator, exposureTime.denominator)]),
            .rational(33437, [(UInt32(fNumber * 10), 10)]),
            .short(34855, [UInt16(isoSpeed)]),
            .ascii(36867, dateTimeOriginal),
            .rational(37386, [(UInt32(focalLength * 10), 10)]),
        ])
        let (make, model) = kind.camera
        var first: [TIFFWriter.Entry] = [
            .long(254, [1]),  // NewSubfileType: a reduced-resolution image
            .ascii(271, make), .ascii(272, model),
            .short(274, [UInt16(orientation.rawValue)]),
            .ascii(306, dateTimeOriginal),
            .long(330, [UInt32(sensor)]),  // SubIFDs
            .long(34665, [UInt32(exif)]),  // ExifIFD
        ]
        if let preview, let previewOffset {
            first += [
                .long(256, [UInt32(preview.size.width)]), .long(257, [UInt32(preview.size.height)]),
                .short(258, [8, 8, 8]), .short(259, [7]), .short(262, [6]),  // 8-bit JPEG, YCbCr
                .long(273, [UInt32(previewOffset)]), .short(277, [3]), .long(278, [UInt32(preview.size.height)]),
                .long(279, [UInt32(preview.data.count)]),
            ]
        } else {
            first += [.long(256, [1]), .long(257, [1]), .short(258, [8]), .short(262, [1])]
        }
        if kind == .dng {
            // Camera RGB is linear sRGB: the colour matrix is XYZ (D65) to linear sRGB, the
            // neutral is equal values, so LibRaw develops the scene's own colours.
            first += [
                .bytes(50706, [1, 4, 0, 0]), .ascii(50708, model),
                .signedRational(50721, [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]),
                .rational(50728, [(1, 1), (1, 1), (1, 1)]),
                .short(50778, [21]),  // CalibrationIlluminant1: D65
            ]
        }
        file.setFirstDirectory(file.appendDirectory(first))
        return file.bytes
    }

    /// The sensor data: rows of 16-bit little-endian photosites under an RGGB filter.
    private func mosaic() -> Data {
        var bytes = [UInt8](repeating: 0, count: width * height * 2)
        for y in 0..<height {
            for x in 0..<width {
                let colour = quadrant(x: x, y: y).linear
                let filtered: UInt16 = switch (y % 2, x % 2) {
                case (0, 0): colour.red
                case (1, 1): colour.blue
                default: colour.green
                }
                let value = filtered + UInt16(seed % 16)
                let index = (y * width + x) * 2
                bytes[index] = UInt8(value & 0xFF)
                bytes[index + 1] = UInt8(value >> 8)
            }
        }
        return Data(bytes)
    }

    /// The camera's preview: the scene as stored (unturned), in sRGB, as a JPEG.
    private func previewJPEG(_ size: PixelSize) throws -> Data {
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 3)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let colour = quadrant(x: x * width / size.width, y: y * height / size.height).linear
                let index = (y * size.width + x) * 3
                for (channel, value) in [colour.red, colour.green, colour.blue].enumerated() {
                    bytes[index + channel] = Self.sRGB(value)
                }
            }
        }
        let image = try Image(bitmap: Bitmap(width: size.width, height: size.height, channels: 3, bytes: bytes))
        return try image.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.9, keepsMetadata: false))
    }

    /// A 12-bit linear value as an 8-bit sRGB one.
    private static func sRGB(_ value: UInt16) -> UInt8 {
        let linear = Double(value) / 4095
        let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8(clamping: Int((encoded * 255).rounded()))
    }
}

/// A little-endian TIFF file written front to back: data blocks, then directories that point at
/// them, then the header's pointer to the first directory.
private struct TIFFWriter {
    enum Entry {
        case short(UInt16, [UInt16])
        case long(UInt16, [UInt32])
        case bytes(UInt16, [UInt8])
        case ascii(UInt16, String)
        case rational(UInt16, [(UInt32, UInt32)])
        case signedRational(UInt16, [Double])

        var tag: UInt16 {
            switch self {
            case .short(let tag, _), .long(let tag, _), .bytes(let tag, _), .ascii(let tag, _), .rational(let tag, _),
                 .signedRational(let tag, _): tag
            }
        }

        /// TIFF's type code, the count and the value's bytes.
        var encoded: (type: UInt16, count: Int, value: [UInt8]) {
            switch self {
            case .short(_, let values): (3, values.count, values.flatMap { TIFFWriter.little($0) })
            case .long(_, let values): (4, values.count, values.flatMap { TIFFWriter.little($0) })
            case .bytes(_, let values): (1, values.count, values)
            case .ascii(_, let text): (2, text.utf8.count + 1, Array(text.utf8) + [0])
            case .rational(_, let values): (5, values.count, values.flatMap { TIFFWriter.little($0.0) + TIFFWriter.little($0.1) })
            case .signedRational(_, let values):
                (10, values.count, values.flatMap { TIFFWriter.little(UInt32(bitPattern: Int32(($0 * 10_000).rounded()))) + TIFFWriter.little(UInt32(10_000)) })
            }
        }
    }

    private(set) var bytes = Data([0x49, 0x49, 0x2A, 0x00, 0, 0, 0, 0])

    static func little(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func little(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// Appends a block at an even offset and returns the offset.
    mutating func append(_ block: Data) -> Int {
        if bytes.count % 2 == 1 { bytes.append(0) }
        let offset = bytes.count
        bytes.append(block)
        return offset
    }

    /// Appends a directory (its values that do not fit in four bytes first) and returns its offset.
    mutating func appendDirectory(_ entries: [Entry]) -> Int {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var values: [Int: Int] = [:]
        for (index, entry) in sorted.enumerated() where entry.encoded.value.count > 4 {
            values[index] = append(Data(entry.encoded.value))
        }
        var directory = Self.little(UInt16(sorted.count))
        for (index, entry) in sorted.enumerated() {
            let (type, count, value) = entry.encoded
            directory += Self.little(entry.tag) + Self.little(type) + Self.little(UInt32(count))
            if let offset = values[index] {
                directory += Self.little(UInt32(offset))
            } else {
                directory += value + [UInt8](repeating: 0, count: 4 - value.count)
            }
        }
        directory += Self.little(UInt32(0))
        return append(Data(directory))
    }

    mutating func setFirstDirectory(_ offset: Int) {
        bytes.replaceSubrange(4..<8, with: Self.little(UInt32(offset)))
    }
}
