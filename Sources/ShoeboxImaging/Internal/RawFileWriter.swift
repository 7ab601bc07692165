import Foundation

/// A camera raw file written as cameras lay out a TIFF-structured raw: the camera's JPEG preview
/// (or a 1 × 1 placeholder) in IFD0, the sensor's colour-filter-array photosites (16 bits each,
/// uncompressed) in a SubIFD, EXIF and GPS directories — with DNG's tags (`DNGVersion`, the colour
/// matrix, the neutral) it is an Adobe DNG, which LibRaw, exiftool and every raw developer read.
///
/// The photo output writes the DNGs of RAW captures with it; `ShoeboxTesting.SyntheticRaw` writes
/// its test files with it.
package struct RawFileWriter {
    /// The colour filter array's 2 × 2 tile, top left first.
    package enum CFAPattern: String, Sendable, CaseIterable {
        case rggb, bggr, grbg, gbrg

        /// DNG's `CFAPattern` (0 red, 1 green, 2 blue), row by row.
        var colours: [UInt8] {
            switch self {
            case .rggb: [0, 1, 1, 2]
            case .bggr: [2, 1, 1, 0]
            case .grbg: [1, 0, 2, 1]
            case .gbrg: [1, 2, 0, 1]
            }
        }

        /// The colour (0 red, 1 green, 2 blue) of the photosite at `x`, `y`.
        package func colour(x: Int, y: Int) -> Int { Int(colours[(y % 2) * 2 + x % 2]) }
    }

    /// XYZ (D65) to linear sRGB: a camera whose raw values are linear sRGB.
    package static let sRGBColorMatrix: [Double] = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]

    package var width: Int
    package var height: Int
    /// `width × height` photosites, row by row.
    package var photosites: [UInt16]
    package var pattern: CFAPattern
    package var blackLevel: UInt32
    package var whiteLevel: UInt32
    package var make: String
    package var model: String
    /// The turn the camera recorded (the photosites are stored as the sensor reads them).
    package var orientation: ImageOrientation
    /// The capture date, exposure, f-number, ISO, focal length and place written into EXIF and GPS.
    package var metadata: ImageMetadata
    /// With DNG's tags; without, a maker's raw layout (LibRaw then knows the camera by its model).
    package var isDNG: Bool
    /// DNG's `ColorMatrix1`: XYZ (D65) to the camera's raw colours, row by row.
    package var colorMatrix: [Double]
    /// DNG's `AsShotNeutral`: the raw values of a neutral grey under the shot's light.
    package var asShotNeutral: [Double]
    /// The camera's JPEG preview and its size as stored, if any.
    package var preview: (jpeg: Data, size: PixelSize)?

    package init(
        width: Int, height: Int, photosites: [UInt16], pattern: CFAPattern, blackLevel: UInt32 = 0, whiteLevel: UInt32,
        make: String, model: String, orientation: ImageOrientation = .up, metadata: ImageMetadata = ImageMetadata(),
        isDNG: Bool = true, colorMatrix: [Double] = RawFileWriter.sRGBColorMatrix, asShotNeutral: [Double] = [1, 1, 1],
        preview: (jpeg: Data, size: PixelSize)? = nil
    ) {
        precondition(photosites.count == width * height, "\(photosites.count) photosites for \(width) × \(height)")
        self.width = width
        self.height = height
        self.photosites = photosites
        self.pattern = pattern
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.make = make
        self.model = model
        self.orientation = orientation
        self.metadata = metadata
        self.isDNG = isDNG
        self.colorMatrix = colorMatrix
        self.asShotNeutral = asShotNeutral
        self.preview = preview
    }

    /// The file's bytes.
    package func data() -> Data {
        var file = TIFFWriter()
        let previewOffset = preview.map { file.append($0.jpeg) }
        var sensor = [UInt8](repeating: 0, count: photosites.count * 2)
        for (index, value) in photosites.enumerated() {
            sensor[index * 2] = UInt8(value & 0xFF)
            sensor[index * 2 + 1] = UInt8(value >> 8)
        }
        let sensorOffset = file.append(Data(sensor))
        let sensorDirectory = file.appendDirectory([
            .long(254, [0]),  // NewSubfileType: the full-resolution image
            .long(256, [UInt32(width)]), .long(257, [UInt32(height)]),
            .short(258, [16]), .short(259, [1]), .short(262, [32803]),  // 16 bits, uncompressed, CFA
            .long(273, [UInt32(sensorOffset)]), .short(277, [1]), .long(278, [UInt32(height)]),
            .long(279, [UInt32(sensor.count)]),
            .short(33421, [2, 2]), .bytes(33422, pattern.colours),  // CFARepeatPatternDim, CFAPattern
            .long(50714, [blackLevel]), .long(50717, [whiteLevel]),  // BlackLevel, WhiteLevel
        ])
        var exif: [TIFFWriter.Entry] = [.bytes(36864, Array("0232".utf8))]  // ExifVersion
        if let date = metadata.dateTimeOriginal {
            exif.append(.ascii(36867, date.exifString))
            if let offset = date.offsetString { exif.append(.ascii(36881, offset)) }
        }
        if let exposure = metadata.exposureTime, exposure > 0, exposure < 100_000 {
            let reciprocal = 1 / exposure
            let whole = exposure < 1 && abs(reciprocal - reciprocal.rounded()) < 0.001 * reciprocal
            let fraction: (UInt32, UInt32) = whole ? (1, UInt32(reciprocal.rounded())) : (UInt32((exposure * 1_000_000).rounded()), 1_000_000)
            exif.append(.rational(33434, [fraction]))
        }
        if let number = metadata.fNumber, number > 0, number < 1_000 { exif.append(.rational(33437, [(UInt32((number * 100).rounded()), 100)])) }
        if let iso = metadata.isoSpeed, iso > 0, iso < 65_536 { exif.append(.short(34855, [UInt16(iso)])) }
        if let focal = metadata.focalLength, focal > 0, focal < 100_000 { exif.append(.rational(37386, [(UInt32((focal * 10).rounded()), 10)])) }
        if let fired = metadata.flashFired { exif.append(.short(37385, [fired ? 1 : 0])) }
        let exifDirectory = file.appendDirectory(exif)
        var gpsDirectory: Int?
        if let latitude = metadata.latitude, let longitude = metadata.longitude, abs(latitude) <= 90, abs(longitude) <= 180 {
            func arc(_ value: Double) -> [(UInt32, UInt32)] {
                let hundredths = UInt32((abs(value) * 360_000).rounded())
                return [(hundredths / 360_000, 1), (hundredths / 6_000 % 60, 1), (hundredths % 6_000, 100)]
            }
            var gps: [TIFFWriter.Entry] = [
                .bytes(0, [2, 3, 0, 0]), .ascii(1, latitude < 0 ? "S" : "N"), .rational(2, arc(latitude)),
                .ascii(3, longitude < 0 ? "W" : "E"), .rational(4, arc(longitude)),
            ]
            if let altitude = metadata.altitude, altitude.isFinite, abs(altitude) < 100_000 {
                gps += [.bytes(5, [altitude < 0 ? 1 : 0]), .rational(6, [(UInt32((abs(altitude) * 100).rounded()), 100)])]
            }
            gpsDirectory = file.appendDirectory(gps)
        }
        var first: [TIFFWriter.Entry] = [
            .long(254, [1]),  // NewSubfileType: a reduced-resolution image
            .ascii(271, make), .ascii(272, model),
            .short(274, [UInt16(orientation.rawValue)]),
            .long(330, [UInt32(sensorDirectory)]),  // SubIFDs
            .long(34665, [UInt32(exifDirectory)]),  // ExifIFD
        ]
        if let date = metadata.dateTimeOriginal { first.append(.ascii(306, date.exifString)) }
        if let software = metadata.software { first.append(.ascii(305, software)) }
        if let gpsDirectory { first.append(.long(34853, [UInt32(gpsDirectory)])) }
        if let preview, let previewOffset {
            first += [
                .long(256, [UInt32(preview.size.width)]), .long(257, [UInt32(preview.size.height)]),
                .short(258, [8, 8, 8]), .short(259, [7]), .short(262, [6]),  // 8-bit JPEG, YCbCr
                .long(273, [UInt32(previewOffset)]), .short(277, [3]), .long(278, [UInt32(preview.size.height)]),
                .long(279, [UInt32(preview.jpeg.count)]),
            ]
        } else {
            first += [.long(256, [1]), .long(257, [1]), .short(258, [8]), .short(262, [1])]
        }
        if isDNG {
            first += [
                .bytes(50706, [1, 4, 0, 0]), .ascii(50708, "\(make) \(model)"),  // DNGVersion, UniqueCameraModel
                .signedRational(50721, colorMatrix), .rational(50728, asShotNeutral.map { (UInt32(($0 * 10_000).rounded()), 10_000) }),
                .short(50778, [21]),  // CalibrationIlluminant1: D65
            ]
        }
        file.setFirstDirectory(file.appendDirectory(first))
        return file.bytes
    }
}
