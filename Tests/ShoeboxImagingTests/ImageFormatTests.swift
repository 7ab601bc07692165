import Foundation
import ShoeboxImaging
import Testing

@Suite struct ImageFormatTests {
    static let signatures: [([UInt8], ImageFormat?)] = [
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], .jpeg),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .png),
        (Array("GIF89a..".utf8), .gif),
        (Array("GIF87a..".utf8), .gif),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
        ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0], .tiff),
        ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0], .tiff),
        ([0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0, 0x43, 0x52, 2, 0], .cr2),
        ([0, 0, 0, 0x18] + Array("ftypheic\u{0}\u{0}\u{0}\u{0}mif1heic".utf8), .heic),
        ([0, 0, 0, 0x18] + Array("ftypmif1\u{0}\u{0}\u{0}\u{0}mif1heic".utf8), .heic),
        ([0, 0, 0, 0x14] + Array("ftypmif1\u{0}\u{0}\u{0}\u{0}mif1".utf8), .heif),
        ([0, 0, 0, 0x1C] + Array("ftypavif\u{0}\u{0}\u{0}\u{0}avifmif1miaf".utf8), .avif),
        ([0, 0, 0, 0x14] + Array("ftypisom\u{0}\u{0}\u{0}\u{0}isom".utf8), nil),  // an MP4 movie
        (Array("<svg xmlns=".utf8), nil),
        (Array("%PDF-1.7".utf8), nil),
        ([0x42, 0x4D, 0, 0], nil),  // BMP: not accepted
        ([], nil),
    ]

    @Test("Formats are recognised from leading bytes", arguments: signatures)
    func sniffing(bytes: [UInt8], expected: ImageFormat?) {
        #expect(ImageFormat(sniffing: bytes) == expected)
    }

    @Test func unrecognisedDataIsUnsupported() {
        for bytes in [Array("hello, world".utf8), [0x00, 0x01, 0x02, 0x03], Array("%PDF-1.7 ".utf8)] {
            let error = #expect(throws: ImageError.self) { try Image(data: Data(bytes)) }
            #expect(error?.code == "unsupportedFormat")
        }
    }

    @Test func emptyDataIsCorrupt() {
        let error = #expect(throws: ImageError.self) { try Image(data: Data()) }
        #expect(error?.code == "corrupt")
    }

    @Test func namesAndTypes() {
        #expect(ImageFormat(name: "JPG") == .jpeg)
        #expect(ImageFormat(name: "tif") == .tiff)
        #expect(ImageFormat(name: "bmp") == nil)
        #expect(ImageFormat.heic.uniformTypeIdentifier == "public.heic")
        #expect(ImageFormat.jpeg.mimeType == "image/jpeg")
    }
}
