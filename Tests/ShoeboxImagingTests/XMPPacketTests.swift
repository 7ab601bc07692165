import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// XMP values are held to what ``ImageMetadata`` promises of text (found by `scripts/fuzz xmp`).
@Suite struct XMPPacketTests {
    @Test func textWithControlCharactersReadsAsNil() {
        let packet = #"<rdf:Description tiff:Make="Apple" tiff:Model="iPhone 13" exifEX:LensModel="back came\#u{15}ra"/>"#
        var metadata = ImageMetadata()
        metadata.mergeXMP(Data(packet.utf8))
        #expect(metadata.make == "Apple" && metadata.model == "iPhone 13")
        #expect(metadata.lensModel == nil, "\(metadata.lensModel ?? "")")
    }

    @Test func elementsAndAttributesAreRead() {
        let packet = """
            <x:xmpmeta><rdf:Description tiff:Orientation="6"><tiff:Model> EOS 5D </tiff:Model>
            <exif:DateTimeOriginal>2004-08-27T13:52:55.25+02:00</exif:DateTimeOriginal></rdf:Description></x:xmpmeta>
            """
        var metadata = ImageMetadata()
        metadata.mergeXMP(Data(packet.utf8))
        #expect(metadata.model == "EOS 5D")
        #expect(metadata.orientation == .right)
        #expect(metadata.dateTimeOriginal?.iso8601String == "2004-08-27T13:52:55+02:00")
        #expect(metadata.dateTimeOriginal?.fractionalSecond == 0.25)
    }

    /// A packet that is not UTF-8 reads as Latin-1; a property without its closing quote or tag
    /// reads as nothing.
    @Test func latin1PacketsAndPartialNames() {
        var latin1 = Data("<rdf:Description tiff:Make=\"Soci".utf8)
        latin1.append(contentsOf: [0xE9, 0x74, 0xE9])  // "été" in Latin-1
        latin1.append(contentsOf: Data("\" tiff:Model=\"QV-10\"/>".utf8))
        let packet = XMPPacket(latin1)
        #expect(packet.value("tiff:Make") == "Société")
        #expect(packet.value("tiff:Model") == "QV-10")

        let partial = XMPPacket(Data(#"<tiff:Model>Unclosed <tiff:Make>Yes</tiff:Make>"#.utf8))
        #expect(partial.value("tiff:Make") == "Yes")
        #expect(partial.value("tiff:Model") == nil)
        #expect(XMPPacket(Data("tiff:Make=\"".utf8)).value("tiff:Make") == nil)
        #expect(XMPPacket(Data()).value("tiff:Make") == nil)
    }

    /// Found by `scripts/fuzz xmp`: twenty nines after the point rounded to a whole second.
    @Test func longSubsecondsStayBelowOneSecond() throws {
        let date = try #require(ImageMetadata.DateTime(iso8601: "2021-05-11T15:47:53." + String(repeating: "9", count: 60) + "253"))
        let fraction = try #require(date.fractionalSecond)
        #expect(fraction < 1 && fraction > 0.999_999_998)
        #expect(date.second == 53)
        #expect(ImageMetadata.DateTime(iso8601: "2021-05-11T15:47:53.25")?.fractionalSecond == 0.25)
    }

    @Test func placeSpellings() {
        var metadata = ImageMetadata()
        metadata.mergeXMP(Data(#"<rdf:Description exif:GPSLatitude="37,46.8N" exif:GPSLongitude="122,25,9.6W" exif:GPSAltitude="-" />"#.utf8))
        #expect(metadata.latitude == 37.78)
        #expect(abs((metadata.longitude ?? 0) + 122.4193333) < 1e-6)
        #expect(metadata.altitude == nil)

        var exif = ImageMetadata()
        exif.latitude = 1
        exif.longitude = 2
        exif.mergeXMP(Data(#"<x exif:GPSLatitude="37,46.8N" exif:GPSLongitude="122,25W"/>"#.utf8))
        #expect(exif.latitude == 1 && exif.longitude == 2, "EXIF's place stands")

        for wrong in ["91,0N", "37,46.8X", "37,,N", "N", "1,2,3,4N", "nan,0N", "37.5"] {
            var read = ImageMetadata()
            read.mergeXMP(Data(#"<x exif:GPSLatitude="\#(wrong)" exif:GPSLongitude="1,0E"/>"#.utf8))
            #expect(read.latitude == nil && read.longitude == nil, "\(wrong)")
        }
    }

    /// A place written only in XMP (as exiftool writes it: degrees and decimal minutes, below sea
    /// level as a reference of 1) reads as exiftool reads it.
    @Test func placeOnlyInXMPAgreesWithExiftool() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-xmp-gps-\(UUID().uuidString).jpg")
        try SyntheticPhoto(width: 16, height: 16).image().encoded(as: .jpeg).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try ChildProcess.run(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-exif:GPSLatitude=-33.856784",
                "-XMP-exif:GPSLongitude=-43.210487", "-XMP-exif:GPSAltitude=12.25",
                "-XMP-exif:GPSAltitudeRef#=1", file.path,
            ])
        let exiftool = try ChildProcess.run("exiftool", ["-n", "-s3", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSAltitudeRef", file.path])
        let values = exiftool.standardOutput.split(separator: "\n").compactMap { Double($0) }
        try #require(values.count == 4, "exiftool read \(exiftool.standardOutput)")
        let metadata = try Image(contentsOf: file).metadata
        #expect(abs((metadata.latitude ?? 0) - values[0]) < 1e-6 && abs((metadata.longitude ?? 0) - values[1]) < 1e-6)
        // exiftool's composite altitude is signed already: -12.25, with the reference 1.
        #expect(values[3] == 1 && metadata.altitude == values[2] && metadata.altitude == -12.25)
    }
}
