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
        /// `dng`: an Adobe DNG from no real camera (make `Shoebox`); `nef`, `arw` and `pef`: the raw
        /// of a Nikon D700, a Sony α900 and a Pentax K-5.
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
        /// `red` (top left), `green` (top right) and `blue` (bottom left), each strong in its own
        /// channel, and a neutral `grey` (bottom right).
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

    /// The format, and so the camera the file claims to come from (``Kind/camera``).
    public var kind: Kind
    /// The sensor's size; both sides even.
    public var width: Int
    /// The sensor's height in photosites: even, and at least 4 (``data()`` traps otherwise).
    public var height: Int
    /// The EXIF orientation the camera recorded.
    public var orientation: ImageOrientation
    /// The embedded JPEG preview's size as stored (the camera's own orientation), or `nil` for none.
    public var previewSize: PixelSize?
    /// `DateTimeOriginal`.
    public var dateTimeOriginal: String
    /// The exposure time in seconds, as a fraction (1/250 by default). Like the f-number, ISO and
    /// focal length, it goes into EXIF only: the photosites do not depend on it.
    public var exposureTime: (numerator: UInt32, denominator: UInt32)
    /// The recorded f-number (5.6 by default).
    public var fNumber: Double
    /// The recorded ISO speed (400 by default).
    public var isoSpeed: Int
    /// The recorded focal length in millimetres (35 by default).
    public var focalLength: Double
    /// Shifts every photosite by a few levels, so that files made with different seeds differ.
    public var seed: UInt64

    /// A `kind` file of a `width × height` sensor (600 × 400 photosites by default), upright, with a
    /// preview of half the sensor's size, taken on 1 May 2024 at 10:11:12.
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
        var metadata = ImageMetadata()
        metadata.dateTimeOriginal = ImageMetadata.DateTime(exif: dateTimeOriginal)
        metadata.exposureTime = Double(exposureTime.numerator) / Double(exposureTime.denominator)
        (metadata.fNumber, metadata.isoSpeed, metadata.focalLength) = (fNumber, isoSpeed, focalLength)
        let (make, model) = kind.camera
        var writer = RawFileWriter(
            width: width, height: height, photosites: photosites(), pattern: .rggb, whiteLevel: 4_095,
            make: make, model: model, orientation: orientation, metadata: metadata, isDNG: kind == .dng)
        if let previewSize { writer.preview = (try previewJPEG(previewSize), previewSize) }
        return writer.data()
    }

    /// The photosites under an RGGB filter, row by row, 12-bit values.
    private func photosites() -> [UInt16] {
        var values = [UInt16](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let colour = quadrant(x: x, y: y).linear
                let filtered: UInt16 =
                    switch (y % 2, x % 2) {
                    case (0, 0): colour.red
                    case (1, 1): colour.blue
                    default: colour.green
                    }
                values[y * width + x] = filtered + UInt16(seed % 16)
            }
        }
        return values
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
