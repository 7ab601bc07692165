import Foundation
import ShoeboxImaging
import ShoeboxServer
import ShoeboxTesting
import Testing

/// What an upload brings besides its bytes (found by `scripts/fuzz upload`).
@Suite struct UploadReceiverTests {
    /// Swift's `isHexDigit` takes the fullwidth forms too (`０`…`９`, `ａ`…`ｆ`): such a digest was
    /// accepted, the whole body received, and the upload refused as damaged on the way.
    @Test func aDigestInFullwidthDigitsIsNoDigest() async throws {
        let ascii = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        let fullwidth = String(
            ascii.unicodeScalars.map { scalar in
                Character(Unicode.Scalar(scalar.value + (scalar.properties.numericType != nil ? 0xFF10 - 0x30 : 0xFF41 - 0x61))!)
            })
        #expect(fullwidth.count == 64 && !fullwidth.contains(where: \.isASCII))
        #expect(throws: (any Error).self) { try UploadReceiver.expectedDigest(contentLength: nil, sha256: fullwidth, limit: 1 << 20) }
        let oneWide = String(ascii.dropLast()) + "５"
        #expect(throws: (any Error).self) { try UploadReceiver.expectedDigest(contentLength: nil, sha256: oneWide, limit: 1 << 20) }
        #expect(try UploadReceiver.expectedDigest(contentLength: "10", sha256: ascii.uppercased(), limit: 1 << 20) == ascii)

        // Over HTTP: refused as a bad header before any byte is taken, not as a damaged upload.
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let photo = try SyntheticPhoto(width: 64, height: 48, seed: 1_717).image().encoded(as: .jpeg)
        let response = try await test.user("POST", "/api/assets?filename=a.jpg", body: photo, headers: ["X-Content-SHA256": oneWide])
        #expect(response.status == 400, "\(response.status) \(response.text)")
        #expect(response.text.contains("64 hexadecimal digits"), "\(response.text)")
    }

    /// A character may hold any number of combining marks: an "extension" of one such character
    /// was kept whole past the 240 bytes, and cutting the name for it emptied the name and then
    /// stopped the server. The names stay file names, with nothing cut that need not be.
    @Test func namesOfLongCombiningCharactersAreCutNotFatal() async throws {
        let marks = String(repeating: "\u{301}", count: 300)
        for name in ["photo.e" + marks, "e" + marks, "photo.e" + marks + ".jpg", "x." + marks] {
            let clean = UploadReceiver.sanitize(name)
            #expect(
                !clean.isEmpty && !clean.hasPrefix(".") && clean.count <= 200 && clean.utf8.count <= 240,
                "\(clean.count) characters, \(clean.utf8.count) bytes: \(clean.prefix(12))")
        }
        #expect(UploadReceiver.sanitize("photo.e" + marks + ".jpg").hasSuffix(".jpg"))
        #expect(UploadReceiver.sanitize("IMG_0001.HEIC") == "IMG_0001.HEIC")

        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let photo = try SyntheticPhoto(width: 64, height: 48, seed: 1_718).image().encoded(as: .jpeg)
        let escaped = ("photo.e" + marks).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let response = try await test.user("POST", "/api/assets?filename=\(escaped)", body: photo)
        #expect(response.status == 201, "\(response.status) \(response.text.prefix(300))")
        #expect(try await test.user("GET", "/api/health").status == 200)
    }

    /// Some characters join the one after them (U+0600 ARABIC NUMBER SIGN, U+0D4E MALAYALAM LETTER
    /// DOT REPH, …): "\u{600}/" is one character, which a split by characters did not cut, and
    /// a mark after a "." hid a leading dot. Found by `scripts/fuzz json` (the resumable upload's
    /// file name); the library refused the first, but took the U+0D4E spelling.
    @Test(arguments: [
        "\u{600}/..........\u{7F}.......////", "\u{D4E}/../\u{D4E}/../etc/passwd", "a\u{D4E}/b.jpg",
        ".\u{301}hidden.jpg", "\u{D4E}/.\u{301}x",
    ])
    func aSeparatorOrDotInsideACharacterIsStillOne(_ name: String) {
        let clean = UploadReceiver.sanitize(name)
        #expect(!clean.utf8.contains(UInt8(ascii: "/")), "\(clean.debugDescription)")
        #expect(clean.utf8.first != UInt8(ascii: "."), "\(clean.debugDescription)")
        #expect(!clean.isEmpty)
    }
}
