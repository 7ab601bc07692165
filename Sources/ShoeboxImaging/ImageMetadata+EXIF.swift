import Foundation

extension ImageMetadata {
    /// Reads metadata from an EXIF block (`Exif\0\0` + TIFF structure) or from a whole TIFF file.
    ///
    /// Never fails: what cannot be read is left `nil`.
    public init(exif data: Data) {
        self.init()
        guard let reader = TIFFDirectoryReader(data) else { return }
        let ifd0 = reader.directory(at: reader.firstDirectoryOffset)

        make = reader.string(ifd0[0x010F])
        model = reader.string(ifd0[0x0110])
        software = reader.string(ifd0[0x0131])
        orientation = reader.unsigned(ifd0[0x0112]).flatMap { ImageOrientation(rawValue: Int($0)) }

        var visited: Set<Int> = [reader.firstDirectoryOffset]
        // Some writers (paint.net's TIFFs) put EXIF's tags in IFD0 itself, with no Exif IFD;
        // exiftool reads them there, and an Exif IFD's values stand over them.
        if [0x9003, 0x829A, 0x829D, 0x8827, 0x920A, 0x9209, 0xA434].contains(where: { ifd0[$0] != nil }) {
            readExifDirectory(ifd0, in: reader)
        }
        if let exifOffset = reader.pointer(ifd0[0x8769]), visited.insert(exifOffset).inserted {
            var exif = self
            exif.readExifDirectory(reader.directory(at: exifOffset), in: reader)
            takeValues(of: exif)
        }
        if let gpsOffset = reader.pointer(ifd0[0x8825]), visited.insert(gpsOffset).inserted {
            readGPSDirectory(reader.directory(at: gpsOffset), in: reader)
        }
    }

    /// Reads an EXIF directory: the one IFD0 points at, or a CR3's `CMT2` stream.
    mutating func readExifDirectory(_ exif: [UInt16: TIFFDirectoryReader.Entry], in reader: TIFFDirectoryReader) {
        if let text = reader.string(exif[0x9003]) {
            dateTimeOriginal = DateTime(
                exif: text, subseconds: reader.string(exif[0x9291]), offset: reader.string(exif[0x9011]))
        }
        exposureTime = reader.rational(exif[0x829A]).flatMap { $0 > 0 && $0 < 100_000 ? $0 : nil }
        fNumber = reader.rational(exif[0x829D]).flatMap { $0 > 0 && $0 < 1_000 ? $0 : nil }
        isoSpeed = reader.unsigned(exif[0x8827]).flatMap { $0 > 0 ? Int($0) : nil }
        focalLength = reader.rational(exif[0x920A]).flatMap { $0 > 0 && $0 < 100_000 ? $0 : nil }
        lensMake = reader.string(exif[0xA433])
        lensModel = reader.string(exif[0xA434])
        bodySerialNumber = reader.string(exif[0xA431])
        flashFired = reader.unsigned(exif[0x9209]).map { $0 & 1 == 1 }
        // exiftool's priorities: a maker note's value only where the standard tag is missing,
        // but for notes whose exposure exiftool keeps over EXIF's (Kodak's).
        if let entry = exif[0x927C] {
            let note = MakerNote(entry, in: reader, make: make)
            if note.overridesExposure {
                exposureTime = note.exposureTime ?? exposureTime
                fNumber = note.fNumber ?? fNumber
                isoSpeed = note.isoSpeed ?? isoSpeed
            } else {
                isoSpeed = isoSpeed ?? note.isoSpeed
            }
            dateTimeOriginal = dateTimeOriginal ?? note.dateTimeOriginal
            contentIdentifier = note.contentIdentifier
            burstIdentifier = note.burstIdentifier
            bodySerialNumber = bodySerialNumber ?? note.serialNumber
            continuousDrive = note.continuousDrive
        }
    }

    /// Reads a GPS directory: the one IFD0 points at, or a CR3's `CMT4` stream.
    mutating func readGPSDirectory(_ gps: [UInt16: TIFFDirectoryReader.Entry], in reader: TIFFDirectoryReader) {
        latitude = Self.coordinate(reader, value: gps[0x0002], reference: gps[0x0001], negative: "S", bound: 90)
        longitude = Self.coordinate(reader, value: gps[0x0004], reference: gps[0x0003], negative: "W", bound: 180)
        if let metres = reader.rational(gps[0x0006]), metres.isFinite, abs(metres) < 100_000 {
            let below = reader.unsigned(gps[0x0005]) == 1
            altitude = below ? -metres : metres
        }
        // A 0/0 pair with no references is how many cameras say "no fix".
        if latitude == 0, longitude == 0, gps[0x0001] == nil, gps[0x0003] == nil {
            latitude = nil
            longitude = nil
        }
    }

    /// Degrees, minutes, seconds (as three rationals) plus a reference letter to signed degrees.
    private static func coordinate(
        _ reader: TIFFDirectoryReader, value: TIFFDirectoryReader.Entry?, reference: TIFFDirectoryReader.Entry?,
        negative: String, bound: Double
    ) -> Double? {
        guard let value, let degrees = reader.rational(value, index: 0) else { return nil }
        let minutes = value.count > 1 ? reader.rational(value, index: 1) ?? 0 : 0
        let seconds = value.count > 2 ? reader.rational(value, index: 2) ?? 0 : 0
        let magnitude = degrees + minutes / 60 + seconds / 3600
        guard magnitude.isFinite, magnitude >= 0, magnitude <= bound else { return nil }
        let sign = reader.string(reference)?.uppercased().hasPrefix(negative) == true ? -1.0 : 1.0
        return sign * magnitude
    }
}
