import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

/// `saveImage(_:metadata:)` writes what the caller passes into the saved file, where exiftool
/// reads it, and into the catalog.
@Suite struct SavingMetadataTests {
    @Test func everyFieldACallerPassesIsInTheSavedFile() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        var metadata = ImageMetadata()
        metadata.make = "Canon"
        metadata.model = "Canon EOS 5D Mark IV"
        metadata.lensMake = "Canon"
        metadata.lensModel = "EF24-70mm f/2.8L II USM"
        metadata.exposureTime = 1.0 / 250
        metadata.fNumber = 5.6
        metadata.isoSpeed = 400
        metadata.focalLength = 35
        metadata.flashFired = false
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2019, month: 6, day: 21, hour: 18, minute: 30, second: 5, utcOffset: 7_200)
        (metadata.latitude, metadata.longitude, metadata.altitude) = (43.7696, 11.2558, 50)
        // The image's own fields are overwritten where the caller says otherwise.
        let image = try SyntheticPhoto(width: 64, height: 48, seed: 9).image()
        let id = try await fixture.library.saveImage(image, metadata: metadata, filename: "saved.jpg")
        let asset = try #require(try await fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        let file = try await fixture.library.originalURL(for: asset)
        let exiftool = try ChildProcess.run("exiftool", [
            "-n", "-s", "-Make", "-Model", "-LensMake", "-LensModel", "-ExposureTime", "-FNumber", "-ISO", "-FocalLength", "-Flash",
            "-DateTimeOriginal", "-OffsetTimeOriginal", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-Orientation", file.path,
        ])
        var read: [String: String] = [:]
        for line in exiftool.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { read[parts[0]] = parts[1] }
        }
        #expect(read["Make"] == "Canon" && read["Model"] == "Canon EOS 5D Mark IV", "\(read)")
        #expect(read["LensMake"] == "Canon" && read["LensModel"] == "EF24-70mm f/2.8L II USM", "\(read)")
        #expect(read["ExposureTime"] == "0.004" && read["FNumber"] == "5.6" && read["ISO"] == "400" && read["FocalLength"] == "35", "\(read)")
        #expect(read["Flash"] == "0", "\(read)")
        #expect(read["DateTimeOriginal"] == "2019:06:21 18:30:05" && read["OffsetTimeOriginal"] == "+02:00", "\(read)")
        let latitude = try #require(Double(read["GPSLatitude"] ?? ""), "\(read)")
        let longitude = try #require(Double(read["GPSLongitude"] ?? ""), "\(read)")
        #expect(abs(latitude - 43.7696) < 1e-5 && abs(longitude - 11.2558) < 1e-5)
        #expect(read["GPSAltitude"] == "50", "\(read)")
        #expect(read["Orientation"] == nil || read["Orientation"] == "1", "\(read)")
        // The catalog has the date (with its offset) and the place.
        #expect(asset.creationDate == ISO8601DateFormatter().date(from: "2019-06-21T16:30:05Z"))
        #expect(asset.location.map { abs($0.latitude - 43.7696) < 1e-5 && abs($0.longitude - 11.2558) < 1e-5 } == true)
    }
}
