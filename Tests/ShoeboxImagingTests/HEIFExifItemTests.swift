import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// A HEIF file's `Exif` items read from the container, as exiftool reads them, where libheif does
/// not hand them over (it hands over only an item whose `cdsc` reference names the primary image).
/// The files are made here: exiftool tags a JPEG, libvips makes it a HEIC (an Exif item that
/// names the primary image), and the test changes what the item names.
@Suite struct HEIFExifItemTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("heif-exif-\(UUID().uuidString)")

    static let tags = [
        "Make=Orphan", "Model=Item", "DateTimeOriginal=2023:04:05 06:07:08", "FNumber=1.8", "ISO=200",
        "GPSLatitude=48.5", "GPSLatitudeRef=N", "GPSLongitude=2.25", "GPSLongitudeRef=W",
    ]

    /// A HEIC whose Exif item holds ``tags``, as libvips writes it, and the offset of its `cdsc`
    /// reference box's type.
    func heicWithExif() throws -> (Data, Int) {
        let jpeg = try exiftoolTaggedJPEG(Self.tags, seed: 4, in: folder)
        let heic = folder.appendingPathComponent("linked.heic")
        _ = try ChildProcess.run("vips", ["copy", jpeg.path, heic.path])
        let data = try Data(contentsOf: heic)
        let reference = try #require(data.firstRange(of: Data("cdsc".utf8)), "libvips wrote no cdsc reference")
        return (data, reference.lowerBound - data.startIndex)
    }

    func check(_ data: Data, name: String) throws {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        let (agreement, exiftool, metadata) = try agreementWithExiftool(url)
        #expect(exiftool["Make"] == "Orphan" && exiftool["GPSPosition#"] == "48.5 -2.25", "exiftool reads the item: \(exiftool)")
        #expect(metadata.make == "Orphan" && metadata.model == "Item" && metadata.fNumber == 1.8 && metadata.isoSpeed == 200)
        #expect(metadata.dateTimeOriginal?.exifString == "2023:04:05 06:07:08")
        #expect(metadata.latitude == 48.5 && metadata.longitude == -2.25)
        #expect(agreement.compared >= 7 && agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    }

    @Test func anExifItemThatNamesNoImageIsRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (linked, at) = try heicWithExif()
        var data = linked
        // Another reference type: the item describes nothing (libheif gives it to no image).
        data.replaceSubrange((data.startIndex + at)..<(data.startIndex + at + 4), with: Data("xdsc".utf8))
        try check(data, name: "orphan.heic")
    }

    @Test func anExifItemOfAnotherImageIsReadWhereTheFileHasNoneOfItsOwn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (linked, at) = try heicWithExif()
        var data = linked
        // cdsc: size, type, from (16 bits), count, to: now item 1, the grid's tile, not the
        // primary image (libvips writes the grid, item 2, as the primary).
        let to = data.startIndex + at + 8
        data.replaceSubrange(to..<(to + 2), with: Data([0x00, 0x01]))
        try check(data, name: "other-image.heic")
    }

    @Test func anExifItemLibheifHandsOverReadsAsBefore() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (data, _) = try heicWithExif()
        try check(data, name: "linked.heic")
    }

    @Test("An Exif item stored with a JPEG APP1 marker and length before `Exif` (as some phones write it) is read")
    func anExifItemWithAnAPP1MarkerIsRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (linked, _) = try heicWithExif()
        var data = linked
        // libvips writes the item as a TIFF-header offset of 6, `Exif\0\0`, then TIFF. Its copy at
        // the end of the file gets an offset of 10 and `FF E1`, a length, before `Exif`; the
        // item's location in `iloc` is pointed at the copy (libvips writes 4-byte fields: a base
        // offset, one extent, its offset 0 from the base, and its length).
        let header = Data([0, 0, 0, 6]) + Data("Exif\0\0".utf8) + Data([0x49, 0x49, 0x2A, 0x00])
        let start = try #require(data.firstRange(of: header)).lowerBound - data.startIndex
        func bigEndian(_ value: Int) -> Data { Data((0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }) }
        let iloc = try #require(data.firstRange(of: Data("iloc".utf8))).lowerBound
        let location = bigEndian(start) + Data([0, 1]) + bigEndian(0)
        let base = try #require(data[iloc...].firstRange(of: location), "no iloc entry at \(start)").lowerBound
        let length = data[(base + 10)..<(base + 14)].reduce(0) { $0 << 8 | Int($1) }
        let tiff = data[(data.startIndex + start + 10)..<(data.startIndex + start + length)]
        var item = Data([0, 0, 0, 10, 0xFF, 0xE1])
        item += Data([UInt8((tiff.count + 8) >> 8), UInt8((tiff.count + 8) & 0xFF)])
        item += Data("Exif\0\0".utf8) + tiff
        data.replaceSubrange(base..<(base + 14), with: bigEndian(data.count) + Data([0, 1]) + bigEndian(0) + bigEndian(item.count))
        data.append(item)
        try check(data, name: "app1-marker.heic")
    }

    @Test("A HEIF's XMP item (a `mime` item of type application/rdf+xml), which libvips does not hand over, is read")
    func anXMPItemIsRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try exiftoolTaggedJPEG(["XMP-exifEX:LensModel=XMP Lens 35mm", "XMP-photoshop:DateCreated=2019:03:04 05:06:07"], seed: 5, in: folder)
        let heic = folder.appendingPathComponent("xmp.heic")
        _ = try ChildProcess.run("vips", ["copy", jpeg.path, heic.path])
        let (agreement, exiftool, metadata) = try agreementWithExiftool(heic)
        #expect(exiftool["LensModel"] == "XMP Lens 35mm", "exiftool reads the item: \(exiftool)")
        #expect(metadata.lensModel == "XMP Lens 35mm")
        #expect(metadata.dateTimeOriginal?.exifString == "2019:03:04 05:06:07")
        #expect(agreement.compared >= 2 && agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    }
}
