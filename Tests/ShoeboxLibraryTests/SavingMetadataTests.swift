import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

/// `saveImage(_:metadata:)` writes what the caller passes into the saved file, where exiftool
/// reads it, and into the catalog.
@Suite struct SavingMetadataTests {
    /// What exiftool reads of `tags` in `file` (numbers as numbers).
    static func exiftool(_ file: URL, _ tags: [String]) throws -> [String: String] {
        let result = try ChildProcess.run("exiftool", ["-n", "-s"] + tags.map { "-\($0)" } + [file.path])
        var read: [String: String] = [:]
        for line in result.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { read[parts[0]] = parts[1] }
        }
        return read
    }

    static let cameraTags = ["Make", "Model", "ExposureTime", "FNumber", "ISO", "FocalLength", "DateTimeOriginal",
                             "OffsetTimeOriginal", "GPSLatitude", "GPSLongitude"]

    @Test("What was saved survives an edit: the render the export writes carries the same fields")
    func savedMetadataSurvivesAnEditAndExport() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        var metadata = ImageMetadata()
        (metadata.make, metadata.model) = ("FUJIFILM", "X-T4")
        (metadata.exposureTime, metadata.fNumber, metadata.isoSpeed, metadata.focalLength) = (1.0 / 500, 8, 160, 23)
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2021, month: 9, day: 4, hour: 9, minute: 15, second: 0, utcOffset: 3_600)
        (metadata.latitude, metadata.longitude) = (51.5007, -0.1246)
        let id = try await fixture.library.saveImage(try SyntheticPhoto(width: 90, height: 60, seed: 4).image(), metadata: metadata, filename: "saved.jpg")
        let asset = try #require(try await fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        let saved = try Self.exiftool(try await fixture.library.originalURL(for: asset), Self.cameraTags)
        let edited = try await fixture.library.applyAdjustments(Adjustments(rotation: 90), to: asset)
        let render = try await fixture.library.currentURL(for: edited)
        #expect(render != (try await fixture.library.originalURL(for: edited)))
        let exported = try Self.exiftool(render, Self.cameraTags)
        #expect(saved.count == Self.cameraTags.count, "\(saved)")
        #expect(exported == saved)
    }

    @Test("A raw's camera, exposure and date reach the JPEG its edit renders")
    func aRawsMetadataReachesItsRender() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let url = fixture.folder.appendingPathComponent("DSC_0100.NEF")
        try SyntheticRaw(kind: .nef).write(to: url)
        let id = try await fixture.importFiles([url])[0]
        let asset = try #require(try await fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        let edited = try await fixture.library.applyAdjustments(Adjustments(rotation: 180), to: asset)
        let tags = ["Make", "Model", "ExposureTime", "FNumber", "ISO", "FocalLength", "DateTimeOriginal"]
        let fromRaw = try Self.exiftool(url, tags)
        let fromRender = try Self.exiftool(try await fixture.library.currentURL(for: edited), tags)
        #expect(fromRaw["Model"] == "NIKON D700" && fromRaw.count == tags.count, "\(fromRaw)")
        #expect(fromRender == fromRaw)
    }

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
