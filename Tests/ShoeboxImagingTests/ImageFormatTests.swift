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
        (Array("IIRO".utf8) + [8, 0, 0, 0], .orf),
        (Array("MMOR".utf8) + [0, 0, 0, 8], .orf),
        ([0x49, 0x49, 0x55, 0x00, 0x18, 0, 0, 0], .rw2),
        (Array("FUJIFILMCCD-RAW 0201FF383501".utf8), .raf),
        ([0x49, 0x49, 0x1A, 0, 0, 0] + Array("HEAPCCDR".utf8), .crw),
        (Array("FOVb".utf8) + [0, 0, 0, 0], .x3f),
        ([0x00, 0x4D, 0x52, 0x4D, 0, 0, 0, 0], .mrw),
        ([0, 0, 0, 0x18] + Array("ftypcrx \u{0}\u{0}\u{0}\u{1}crx isom".utf8), .cr3),
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
            #expect(error?.code == .unsupportedFormat)
        }
    }

    @Test func emptyDataIsCorrupt() {
        let error = #expect(throws: ImageError.self) { try Image(data: Data()) }
        #expect(error?.code == .corrupt)
    }

    @Test func namesAndTypes() {
        #expect(ImageFormat(name: "JPG") == .jpeg)
        #expect(ImageFormat(name: "tif") == .tiff)
        #expect(ImageFormat(name: "bmp") == nil)
        #expect(ImageFormat.heic.uniformTypeIdentifier == "public.heic")
        #expect(ImageFormat.jpeg.mimeType == "image/jpeg")
    }

    @Test("Every raw format has its own type, extension and MIME type, never an octet stream")
    func rawFormatsHaveTheirTypes() {
        let raw = ImageFormat.allCases.filter(\.isRaw)
        #expect(raw.count == 17)
        for format in raw {
            #expect(format.uniformType.conforms(to: .rawImage))
            #expect(format.mimeType != "application/octet-stream" && format.mimeType.hasPrefix("image/"))
            #expect(format.fileExtension != "bin")
            #expect(ImageFormat(name: format.fileExtension) == format)
        }
        #expect(ImageFormat.arw.mimeType == "image/x-sony-arw")
        #expect(ImageFormat.cr3.fileExtension == "cr3")
        #expect(!ImageFormat.tiff.isRaw && !ImageFormat.jpeg.isRaw)
    }
}
