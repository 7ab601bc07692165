import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct ImageLimitTests {
    @Test func pixelBombIsRefusedFromTheHeader() throws {
        let error = #expect(throws: ImageError.self) { try Image(data: PNGBomb.data()) }
        let refusal = try #require(error)
        #expect(refusal.code == .tooLarge, "\(refusal)")
        #expect(refusal.pixelCount == 50_000 * 50_000)
        #expect(refusal.pixelLimit == ImageDecodingOptions.defaultPixelLimit)
    }

    @Test func limitIsConfigurable() throws {
        let data = try SyntheticPhoto(width: 200, height: 200).image().encoded(as: .png)
        let error = #expect(throws: ImageError.self) {
            try Image(data: data, options: ImageDecodingOptions(pixelLimit: 10_000))
        }
        let refusal = try #require(error)
        #expect(refusal.code == .tooLarge && refusal.pixelCount == 40_000 && refusal.pixelLimit == 10_000, "\(refusal)")
        #expect(try Image(data: data, options: ImageDecodingOptions(pixelLimit: 40_000)).pixelWidth == 200)
    }

    @Test func truncatedJPEGFailsInsteadOfGoingGrey() throws {
        let data = try SyntheticPhoto(width: 800, height: 600).image().encoded(as: .jpeg)
        let truncated = data.prefix(data.count / 2)
        // The header is intact, so it opens; the pixels are not.
        let image = try Image(data: Data(truncated))
        #expect(image.pixelSize == PixelSize(width: 800, height: 600))
        for operation in [
            { _ = try image.decoded() },
            { _ = try image.thumbnail(targetSize: PixelSize(square: 64)) },
            { _ = try image.encoded(as: .png) },
        ] as [() throws -> Void] {
            let error = #expect(throws: ImageError.self) { try operation() }
            #expect(error?.code == .corrupt)
        }
    }

    @Test func missingFilesAndDirectoriesAreIOErrors() throws {
        for path in ["/nonexistent/shoebox.jpg", FileManager.default.temporaryDirectory.path] {
            let error = #expect(throws: ImageError.self) { try Image(contentsOfFile: path) }
            #expect(error?.code == .io)
            #expect(error?.message.contains(path) == true)
        }
    }

    @Test func nonFileURLsAreRejected() throws {
        let error = #expect(throws: ImageError.self) { try Image(contentsOf: URL(string: "https://example.com/a.jpg")!) }
        #expect(error?.code == .invalidArgument)
    }
}

/// Every damaged file and every metadata-rich oddity opens or fails with a typed error.
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct ImageMalformedInputTests {
    static let files =
        (corpus?.files(in: "malformed") ?? []) + (corpus?.files(in: "exiftool-t") ?? [])
        + (corpus?.files(in: "pngsuite") ?? []).filter { $0.hasSuffix(".png") }

    @Test func thereAreFilesToTry() {
        #expect(Self.files.count > 60)
    }

    @Test("An image or a typed error, never a crash", arguments: files)
    func imageOrTypedError(_ path: String) throws {
        let url = try #require(corpus).url(path)
        let image: Image
        do {
            image = try Image(contentsOf: url)
        } catch {
            #expect([.unsupportedFormat, .corrupt, .tooLarge].contains(error.code), "\(error)")
            return
        }
        #expect(image.pixelSize.isPositive)
        do {
            let thumbnail = try image.thumbnail(targetSize: PixelSize(square: 64))
            #expect(thumbnail.pixelWidth <= 64 && thumbnail.pixelHeight <= 64)
            _ = try thumbnail.encoded(as: .jpeg)
        } catch {
            #expect(error.code == .corrupt, "\(error)")
        }
    }

    @Test func specificMalformedFiles() throws {
        let corpus = try #require(corpus)
        let empty = #expect(throws: ImageError.self) { try Image(contentsOf: corpus.url("malformed/empty.jpg")) }
        #expect(empty?.code == .corrupt)
        let truncated = #expect(throws: ImageError.self) {
            try Image(contentsOf: corpus.url("malformed/trunc200b-Canon_40D.jpg")).decoded()
        }
        #expect(truncated?.code == .corrupt)
    }
}

@Suite struct PNGChecksumTests {
    @Test func damagedChunkFailsEveryTime() throws {
        var bytes = [UInt8](try SyntheticPhoto(width: 64, height: 64).image().encoded(as: .png))
        // Flip a byte in the middle of the pixel data: the IDAT checksum no longer matches.
        bytes[bytes.count / 2] ^= 0x40
        let image = try Image(data: Data(bytes))
        for _ in 0..<5 {
            let error = #expect(throws: ImageError.self) { try image.thumbnail(targetSize: PixelSize(square: 16)) }
            #expect(error?.code == .corrupt)
            #expect(error?.message.contains("checksum") == true)
        }
    }

    @Test func truncatedPNGFails() throws {
        let data = try SyntheticPhoto(width: 64, height: 64).image().encoded(as: .png)
        let image = try Image(data: data.prefix(data.count - 20))
        let error = #expect(throws: ImageError.self) { try image.decoded() }
        #expect(error?.code == .corrupt)
    }
}
