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
        // Not fired is written as such.
        metadata.flashFired = false
        let unlit = try Image(data: try SyntheticPhoto(width: 8, height: 8).image().writingMetadata(metadata).encoded(as: format)).metadata
        #expect(unlit.flashFired == false)
    }
}
