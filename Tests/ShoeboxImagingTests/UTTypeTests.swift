import Foundation
import ShoeboxImaging
import Testing

@Suite struct UTTypeTests {
    @Test func lookupsAgree() throws {
        #expect(UTType(filenameExtension: "JPG") == .jpeg)
        #expect(UTType(filenameExtension: ".mts") == .mpeg2TransportStream)
        #expect(UTType(filenameExtension: "ARW")?.identifier == "com.sony.arw-raw-image")
        #expect(UTType(mimeType: "video/mp4; codecs=avc1") == .mpeg4Movie)
        #expect(UTType("public.avi")?.preferredFilenameExtension == "avi")
        #expect(UTType(filenameExtension: "exe") == nil && UTType("com.example.nothing") == nil)
        #expect(UTType.filenameExtension(for: "com.example.nothing") == "bin")
        #expect(UTType.mimeType(for: "com.example.nothing") == "application/octet-stream")
        // Every known type is found again by its identifier, each of its extensions and MIME types.
        for type in UTType.allKnown {
            #expect(UTType(type.identifier) == type)
            #expect(type.preferredFilenameExtension != nil && type.preferredMIMEType != nil, "\(type)")
            for ext in type.filenameExtensions { #expect(UTType(filenameExtension: ext) == type, "\(ext)") }
            for mime in type.mimeTypes { #expect(UTType(mimeType: mime) == type, "\(mime)") }
        }
    }

    @Test func kindsConform() {
        #expect(UTType.nikonNEF.conforms(to: .rawImage) && UTType.nikonNEF.conforms(to: .image) && UTType.nikonNEF.isImage)
        #expect(UTType.jpeg.isImage && !UTType.jpeg.conforms(to: .rawImage) && !UTType.jpeg.isMovie)
        #expect(UTType.avi.isMovie && !UTType.avi.isImage && UTType.avi.conforms(to: .avi) && !UTType.avi.conforms(to: .mpeg4Movie))
        #expect(UTType.allKnown.filter(\.isMovie).count + UTType.allKnown.filter(\.isImage).count == UTType.allKnown.count)
    }

    @Test func imageFormatsTakeTheirNamesFromTheTable() throws {
        for format in ImageFormat.allCases {
            #expect(format.uniformTypeIdentifier == format.uniformType.identifier)
            #expect(format.mimeType == format.uniformType.preferredMIMEType)
            #expect(ImageFormat(name: format.fileExtension) == format, "\(format)")
        }
        #expect(ImageFormat.dng.mimeType == "image/x-adobe-dng" && ImageFormat.cr2.fileExtension == "cr2")
        #expect(ImageFormat(name: "jfif") == .jpeg)
    }

    @Test func codableAsTheIdentifier() throws {
        let data = try JSONEncoder().encode([UTType.heic])
        #expect(String(decoding: data, as: UTF8.self) == #"["public.heic"]"#)
        #expect(try JSONDecoder().decode([UTType].self, from: data) == [.heic])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([UTType].self, from: Data(#"["x.y"]"#.utf8)) }
    }

    @Test("A file handed over is named by what its bytes are, keeping its base name")
    func namesFollowTheBytes() {
        #expect(UTType.filename("clip.mov", forType: UTType.png.identifier) == "clip.png", "a PNG named as a movie")
        #expect(UTType.filename("IMG_0001.MOV", forType: UTType.jpeg.identifier) == "IMG_0001.JPG", "in the case it was written in")
        #expect(UTType.filename("IMG_0001.JPEG", forType: UTType.jpeg.identifier) == "IMG_0001.JPEG", "one of the type's own")
        #expect(UTType.filename("scan", forType: UTType.png.identifier) == "scan.png")
        #expect(UTType.filename("holiday.2019", forType: UTType.heic.identifier) == "holiday.2019.heic", "not a media extension: kept")
        #expect(UTType.filename(".hidden", forType: UTType.gif.identifier) == ".hidden.gif")
        #expect(UTType.filename("trip.mp4", forType: UTType.quickTimeMovie.identifier) == "trip.mp4", "one container, two names")
        #expect(UTType.filename("IMG_1.HEIF", forType: UTType.heic.identifier) == "IMG_1.HEIF")
        #expect(UTType.filename("movie.png", forType: UTType.mpeg4Movie.identifier) == "movie.mp4")
        #expect(UTType.filename("x.jpg", forType: "com.example.nothing") == "x.jpg", "a type Shoebox does not know")
    }
}
