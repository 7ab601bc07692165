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

    static let cameraTags = [
        "Make", "Model", "ExposureTime", "FNumber", "ISO", "FocalLength", "DateTimeOriginal",
        "OffsetTimeOriginal", "GPSLatitude", "GPSLongitude",
    ]

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

    @Test("creationRequestForAsset(from:metadata:) writes the caller's fields into JPEG and PNG bytes, pixels untouched")
    func creationFromBytesWritesTheCallersFields() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        var metadata = ImageMetadata()
        (metadata.make, metadata.model, metadata.lensModel) = ("Shoebox", "Kiosk Camera", "Fixed 4 mm")
        (metadata.exposureTime, metadata.fNumber, metadata.isoSpeed, metadata.focalLength) = (1.0 / 60, 2, 800, 4)
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2022, month: 12, day: 24, hour: 20, minute: 0, second: 1, utcOffset: -18_000)
        (metadata.latitude, metadata.longitude) = (40.7484, -73.9857)
        let tags = [
            "Make", "Model", "LensModel", "ExposureTime", "FNumber", "ISO", "FocalLength", "DateTimeOriginal",
            "OffsetTimeOriginal", "GPSLatitude", "GPSLongitude", "Orientation", "ExifImageWidth", "ExifImageHeight",
        ]

        // A JPEG whose EXIF says another camera and a turn: the caller's fields win, the turn and
        // the picture's size stay, the compressed picture is the same bytes.
        var own = ImageMetadata()
        (own.make, own.model, own.software) = ("Other", "Old Model", "Editor 1.0")
        let photo = try SyntheticPhoto(width: 96, height: 64, seed: 5).image()
        let jpegURL = fixture.folder.appendingPathComponent("given.jpg")
        try photo.writingMetadata(own).encoded(as: .jpeg).write(to: jpegURL)
        _ = try ChildProcess.run("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", jpegURL.path])
        let jpeg = try Data(contentsOf: jpegURL)
        // A PNG without any EXIF.
        let png = try photo.encoded(as: .png, options: ImageEncodingOptions(keepsMetadata: false))
        for (given, name) in [(jpeg, "given.jpg"), (png, "given.png")] {
            let result = try await fixture.library.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(from: given, metadata: metadata, filename: name)
            }
            let asset = try #require(try await fixture.library.fetchAssets(withLocalIdentifiers: [result.created[0].localIdentifier]).firstObject)
            let stored = try await fixture.library.originalURL(for: asset)
            let read = try Self.exiftool(stored, tags)
            #expect(read["Make"] == "Shoebox" && read["Model"] == "Kiosk Camera" && read["LensModel"] == "Fixed 4 mm", "\(name): \(read)")
            #expect(read["ExposureTime"] == "0.01666666667" || read["ExposureTime"]?.hasPrefix("0.0166") == true, "\(name): \(read)")
            #expect(read["FNumber"] == "2" && read["ISO"] == "800" && read["FocalLength"] == "4", "\(name): \(read)")
            #expect(read["DateTimeOriginal"] == "2022:12:24 20:00:01" && read["OffsetTimeOriginal"] == "-05:00", "\(name): \(read)")
            #expect(abs((Double(read["GPSLatitude"] ?? "") ?? 0) - 40.7484) < 1e-5, "\(name): \(read)")
            #expect(abs((Double(read["GPSLongitude"] ?? "") ?? 0) + 73.9857) < 1e-5, "\(name): \(read)")
            #expect(read["ExifImageWidth"] == "96" && read["ExifImageHeight"] == "64", "\(name): the picture's own size, \(read)")
            let storedBytes = try Data(contentsOf: stored)
            if name.hasSuffix(".jpg") {
                #expect(read["Orientation"] == "6", "the file's turn stays: \(read)")
                #expect(try Self.exiftool(stored, ["Software"])["Software"] == "Editor 1.0", "the file's other fields stay")
                // Everything from the start of scan on is the given bytes.
                let scan = try #require(jpeg.range(of: Data([0xFF, 0xDA])))
                #expect(storedBytes.suffix(from: try #require(storedBytes.range(of: Data([0xFF, 0xDA]))).lowerBound) == jpeg.suffix(from: scan.lowerBound))
            } else {
                let idat = try #require(png.range(of: Data("IDAT".utf8)))
                #expect(storedBytes.suffix(from: try #require(storedBytes.range(of: Data("IDAT".utf8))).lowerBound) == png.suffix(from: idat.lowerBound))
            }
            #expect(try meanDifferenceOfPixels(Data(contentsOf: stored), given) == 0)
            // The catalog has the caller's date and place.
            #expect(asset.creationDate == ISO8601DateFormatter().date(from: "2022-12-25T01:00:01Z"))
        }
        // Bytes that already say it all are stored as given (what saveImage hands over).
        let saved = try photo.writingMetadata(metadata).encoded(as: .jpeg)
        #expect(try Image.embeddingMetadata(metadata, in: saved) == saved)
        // A HEIC is stored as given; its date and place still reach the catalog.
        let heic = try photo.encoded(as: .heic)
        #expect(try Image.embeddingMetadata(metadata, in: heic) == heic)
    }

    /// Mean difference of two encoded pictures' pixels (0 for the same picture).
    func meanDifferenceOfPixels(_ a: Data, _ b: Data) throws -> Double {
        let left = try Image(data: a).bitmap()
        let right = try Image(data: b).bitmap()
        guard left.bytes.count == right.bytes.count else { return .infinity }
        return Double(zip(left.bytes, right.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(left.bytes.count)
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
        let exiftool = try ChildProcess.run(
            "exiftool",
            [
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
