import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct ImageWritingMetadataTests {
    @Test("Camera fields reach the written EXIF", arguments: [ImageFormat.jpeg, .webp])
    func cameraFieldsAreWritten(_ format: ImageFormat) throws {
        var metadata = ImageMetadata()
        metadata.make = "Shoebox"
        metadata.model = "Synthetic Camera"
        metadata.software = "shoebox 0.1"
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2026, month: 11, day: 22, hour: 9, minute: 41, second: 5)
        metadata.flashFired = true
        metadata.exposureTime = 1.0 / 60
        metadata.fNumber = 2.8
        metadata.isoSpeed = 200
        metadata.focalLength = 4.2
        let image = try SyntheticPhoto(width: 64, height: 48, seed: 3).image().writingMetadata(metadata)
        let data = try image.encoded(as: format)
        let read = try Image(data: data).metadata
        #expect(read.make == "Shoebox" && read.model == "Synthetic Camera" && read.software == "shoebox 0.1")
        #expect(read.dateTimeOriginal?.exifString == "2026:11:22 09:41:05")
        #expect(read.flashFired == true)
        #expect(read.isoSpeed == 200)
        #expect(abs((read.exposureTime ?? 0) - 1.0 / 60) < 1e-6 && abs((read.fNumber ?? 0) - 2.8) < 1e-6 && abs((read.focalLength ?? 0) - 4.2) < 1e-6)
        #expect(read.orientation == nil || read.orientation == .up)
        // Exposures that are not 1/N of a second, sub-seconds and an offset; values no camera
        // records are left out rather than written wrong.
        for (exposure, fNumber) in [(2.5, 1.75), (1.0 / 3.2, 22.0), (30.0, 0.95)] {
            var long = metadata
            long.exposureTime = exposure
            long.fNumber = fNumber
            long.dateTimeOriginal?.fractionalSecond = 0.25
            long.dateTimeOriginal?.utcOffset = -5 * 3600
            let back = try Image(data: try SyntheticPhoto(width: 8, height: 8).image().writingMetadata(long).encoded(as: format)).metadata
            #expect(abs((back.exposureTime ?? 0) - exposure) < 1e-6 && back.fNumber == fNumber, "\(exposure) s at f/\(fNumber)")
            #expect(back.dateTimeOriginal?.fractionalSecond == 0.25 && back.dateTimeOriginal?.iso8601String == "2026-11-22T09:41:05-05:00")
        }
        var absurd = metadata
        absurd.exposureTime = 1e300
        absurd.fNumber = .infinity
        absurd.focalLength = 1e20
        let sane = try Image(data: try SyntheticPhoto(width: 8, height: 8).image().writingMetadata(absurd).encoded(as: format)).metadata
        #expect(sane.exposureTime == nil && sane.fNumber == nil && sane.focalLength == nil && sane.make == "Shoebox")
        // Not fired is written as such.
        metadata.flashFired = false
        let unlit = try Image(data: try SyntheticPhoto(width: 8, height: 8).image().writingMetadata(metadata).encoded(as: format)).metadata
        #expect(unlit.flashFired == false)
    }

    /// The place is written as EXIF GPS, read back by Shoebox and by exiftool, in all four
    /// hemispheres; an altitude below sea level is left out (libvips cannot write its sign).
    @Test(arguments: [(48.858222, 2.2945, 35.5), (-33.856784, 151.215297, 4.0), (40.748817, -73.985428, 0.0), (-22.951916, -43.210487, -12.25)])
    func placeIsWritten(_ place: (Double, Double, Double)) throws {
        var metadata = ImageMetadata()
        (metadata.latitude, metadata.longitude, metadata.altitude) = place
        let data = try SyntheticPhoto(width: 32, height: 24, seed: 5).image().writingMetadata(metadata).encoded(as: .jpeg)
        let read = try Image(data: data).metadata
        #expect(abs((read.latitude ?? 999) - place.0) < 1e-5 && abs((read.longitude ?? 999) - place.1) < 1e-5)
        let altitude: Double? = place.2 >= 0 ? place.2 : nil
        #expect(read.altitude.map { abs($0 - place.2) < 0.01 } ?? (altitude == nil), "altitude \(String(describing: read.altitude))")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-gps-\(UUID().uuidString).jpg")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let exiftool = try ChildProcess.run("exiftool", ["-n", "-s3", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", file.path])
        let values = exiftool.standardOutput.split(separator: "\n").compactMap { Double($0) }
        try #require(values.count == (altitude == nil ? 2 : 3), "exiftool read \(exiftool.standardOutput)")
        #expect(abs(values[0] - place.0) < 1e-5 && abs(values[1] - place.1) < 1e-5)
        if let altitude { #expect(abs(values[2] - altitude) < 0.01) }
    }
}
