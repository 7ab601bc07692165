import Foundation
import ShoeboxImaging
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
}
