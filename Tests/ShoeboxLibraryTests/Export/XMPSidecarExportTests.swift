import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Issue 44 item 5: what a person corrected leaves with the photo as an XMP sidecar, which
/// exiftool and Shoebox's own import read back as written.
@Suite struct XMPSidecarExportTests {
    private func described(_ temporary: TemporaryLibrary) async throws -> Asset {
        let url = temporary.folder.appendingPathComponent("IMG_7.JPG")
        try SyntheticPhoto(width: 48, height: 32, seed: 7).image().encoded(as: .jpeg).write(to: url)
        let identifier = try #require(try await temporary.importFiles([url]).first)
        let asset = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
        let rome = try #require(TimeZone(identifier: "Europe/Rome"))
        try await temporary.library.adjustMetadata(
            of: [asset],
            MetadataAdjustment(
                date: .set(.init(year: 2019, month: 6, day: 12, hour: 14, minute: 30, second: 5), timeZone: rome),
                location: .some(.init(latitude: -33.85678, longitude: 151.21527, altitude: -3.5)), title: "Tom & Jerry <3",
                caption: "Opera \"house\"\nat dusk", keywords: .replace(["Places/Australia/Sydney", "holiday", "Sydney"]), rating: 4,
                label: "Red"))
        return try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
    }

    @Test func aSidecarSaysWhatTheCatalogKnowsAndReadsBack() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let asset = try await described(temporary)
        let packet = asset.xmpSidecar()

        // Shoebox's own reader: every field back as it was set.
        let read = try XMPSidecar(data: packet)
        #expect(read.date?.iso8601String == "2019-06-12T14:30:05+02:00")
        #expect(abs((read.location?.latitude ?? 0) + 33.85678) < 1e-6 && abs((read.location?.longitude ?? 0) - 151.21527) < 1e-6)
        #expect(read.location?.altitude == -3.5)
        #expect(read.details.title == "Tom & Jerry <3" && read.details.caption == "Opera \"house\"\nat dusk")
        #expect(read.details.rating == 4 && read.details.label == "Red")
        #expect(Set(read.details.keywords ?? []) == ["Places/Australia/Sydney", "holiday"], "a flat keyword that is a path's leaf is that path")

        // exiftool, the reference reader.
        let file = temporary.folder.appendingPathComponent("IMG_7.JPG.xmp")
        try packet.write(to: file)
        let tags =
            try Exiftool.read(
                [file],
                tags: [
                    "XMP-exif:DateTimeOriginal", "XMP-dc:Title", "XMP-xmp:Rating", "XMP-xmp:Label", "XMP-exif:GPSLatitude#", "XMP-lr:HierarchicalSubject",
                    "XMP-dc:Description",
                ])[file.path] ?? [:]
        #expect(tags["XMP-exif:DateTimeOriginal"] == "2019:06:12 14:30:05+02:00", "\(tags)")
        #expect(tags["XMP-dc:Title"] == "Tom & Jerry <3" && tags["XMP-xmp:Rating"] == "4" && tags["XMP-xmp:Label"] == "Red", "\(tags)")
        #expect(abs((Double(tags["XMP-exif:GPSLatitude#"] ?? "") ?? 0) + 33.85678) < 1e-6, "\(tags)")
        #expect(tags["XMP-lr:HierarchicalSubject"] == "Places|Australia|Sydney" && tags["XMP-dc:Description"] == "Opera \"house\"\nat dusk", "\(tags)")

        // Without its place, the sidecar says nothing of where.
        let placeless = String(decoding: asset.xmpSidecar(includesLocation: false), as: UTF8.self)
        #expect(!placeless.contains("GPS") && placeless.contains("DateTimeOriginal"))
    }

    @Test func anArchiveCarriesEachAssetsSidecarAfterItsFiles() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let asset = try await described(temporary)
        let entries = try ArchiveTests.unpack(
            try await ArchiveTests.zip(temporary.library, [asset], .init(includesLocation: false, includesSidecars: true)), in: temporary.folder)
        #expect(entries.map(\.name) == ["IMG_7.JPG", "IMG_7.JPG.xmp"])
        let read = try XMPSidecar(data: entries[1].data)
        #expect(read.details.title == "Tom & Jerry <3" && read.location == nil, "no place when the archive strips it")
        #expect(try ArchiveTests.unpack(try await ArchiveTests.zip(temporary.library, [asset]), in: temporary.folder).map(\.name) == ["IMG_7.JPG"])
    }
}
