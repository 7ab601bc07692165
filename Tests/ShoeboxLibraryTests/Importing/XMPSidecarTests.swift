import Foundation
import ShoeboxImaging
import Testing

@testable import ShoeboxLibrary

/// Issue 44 item 2: what Lightroom, darktable, digiKam and Apple's export write in an XMP
/// sidecar, read whatever prefixes and RDF spelling they chose.
@Suite struct XMPSidecarTests {
    static func packet(_ description: String, namespaces: String = "") -> Data {
        Data(
            """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              \(description)
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """.utf8)
    }

    /// Lightroom: properties as attributes, lists as elements, `lr:hierarchicalSubject`.
    static let lightroom = packet(
        """
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
          xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
          xmp:Rating="4" xmp:Label="Red" exif:DateTimeOriginal="2019-06-14T18:30:00" exif:GPSLatitude="41,53.4N"
          exif:GPSLongitude="12,29.5E" exif:GPSAltitude="215/10" exif:GPSAltitudeRef="0">
         <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Colosseum at dusk</rdf:li></rdf:Alt></dc:title>
         <dc:description><rdf:Alt><rdf:li xml:lang="x-default">The arches lit up</rdf:li></rdf:Alt></dc:description>
         <dc:subject><rdf:Bag><rdf:li>Rome</rdf:li><rdf:li>holiday</rdf:li></rdf:Bag></dc:subject>
         <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Italy|Rome</rdf:li></rdf:Bag></lr:hierarchicalSubject>
        </rdf:Description>
        """)

    @Test func lightroomsSidecarIsReadWhole() throws {
        let sidecar = try XMPSidecar(data: Self.lightroom)
        #expect(sidecar.date == ImageMetadata.DateTime(iso8601: "2019-06-14T18:30:00"))
        #expect(sidecar.date?.utcOffset == nil, "a time without a zone stays the clock's")
        let location = try #require(sidecar.location)
        #expect(abs(location.latitude - 41.89) < 1e-9 && abs(location.longitude - 12.491_666_666) < 1e-6 && location.altitude == 21.5)
        #expect(sidecar.details.title == "Colosseum at dusk" && sidecar.details.caption == "The arches lit up")
        #expect(sidecar.details.rating == 4 && sidecar.details.label == "Red")
        #expect(sidecar.details.keywords == ["Places/Italy/Rome", "holiday"], "Rome is the path's leaf; holiday is flat")
    }

    /// darktable and digiKam write elements, other prefixes, `digiKam:TagsList` and a
    /// rejected (-1) rating.
    @Test func elementsAndOtherPrefixesReadTheSame() throws {
        let sidecar = try XMPSidecar(
            data: Self.packet(
                """
                <rdf:Description rdf:about="" xmlns:a="http://ns.adobe.com/xap/1.0/" xmlns:d="http://purl.org/dc/elements/1.1/"
                  xmlns:k="http://www.digikam.org/ns/1.0/" xmlns:ps="http://ns.adobe.com/photoshop/1.0/">
                 <a:Rating>-1</a:Rating>
                 <ps:DateCreated>2021-03-02T08:00:00+09:00</ps:DateCreated>
                 <k:TagsList><rdf:Seq><rdf:li>People/Anna</rdf:li><rdf:li>Events/Wedding</rdf:li></rdf:Seq></k:TagsList>
                 <d:subject><rdf:Bag><rdf:li>Anna</rdf:li><rdf:li>Wedding</rdf:li><rdf:li>film</rdf:li></rdf:Bag></d:subject>
                </rdf:Description>
                """))
        #expect(sidecar.details.rating == 0, "rejected reads as no rating")
        #expect(sidecar.date?.utcOffset == 9 * 3_600 && sidecar.date?.hour == 8)
        #expect(sidecar.details.keywords == ["People/Anna", "Events/Wedding", "film"])
        #expect(sidecar.location == nil && sidecar.details.title == nil)
    }

    /// A property under a namespace Shoebox does not read, spelled like one it does, is not read.
    @Test func namesAreTheirNamespacesNotTheirPrefixes() throws {
        let sidecar = try XMPSidecar(
            data: Self.packet(
                #"<rdf:Description rdf:about="" xmlns:xmp="http://example.com/not-adobe/" xmp:Rating="5" xmp:Label="Blue"/>"#))
        #expect(sidecar.isEmpty)
    }

    @Test func whatIsNotXMPIsNamedAsSuch() {
        for (bytes, reason) in [
            ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF", "not well-formed XML"),
            ("{\"title\": \"a Google Takeout JSON\"}", "not well-formed XML"),
            ("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>", "no RDF description"),
        ] {
            #expect {
                _ = try XMPSidecar(data: Data(bytes.utf8))
            } throws: { error in
                (error as? XMPSidecar.ParseError)?.reason.contains(reason) == true
            }
        }
    }

    @Test func sidecarsAreMatchedByNameInTheirFolder() {
        let files = [
            "a/IMG_1.CR2", "a/IMG_1.JPG", "a/img_1.xmp", "a/IMG_2.jpg", "a/IMG_2.JPG.xmp", "a/IMG_2.xmp", "b/IMG_3.jpg", "a/IMG_3.xmp", "a/IMG_4.CR2.xmp",
        ]
        .map { URL(fileURLWithPath: "/photos/" + $0) }
        let sidecars = ImportSidecars(files)
        #expect(sidecars.sidecarOfFile == [0: 2, 1: 2, 3: 4], "a RAW+JPEG pair shares IMG_1.xmp; IMG_2.JPG.xmp wins over IMG_2.xmp")
        #expect(sidecars.waiting == [5: "a photo or movie named IMG_2 and any extension", 7: "a photo or movie named IMG_3 and any extension", 8: "IMG_4.CR2"])
    }
}
