import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// The bad-upload battery (issue 17): `shoebox serve`, as a child process on a temporary
/// library, takes everything a careless or hostile uploader sends — the shared corpus's
/// malformed files, good files cut at every sixteenth, bombs, misnamed files, bodies that lie
/// about their length or stop halfway — with no `5xx`, a typed `4xx` for every refusal, no
/// asset for a refused file, nothing left in `staging/`, the uploads' pieces or any temporary
/// folder, `doctor` ok, and the server still answering.
@Suite(.serialized) struct BadUploadBatteryTests {
    /// Without the corpus the battery is skipped, saying so; under CI its absence fails.
    static let corpus = Corpus.locate()
    static var runs: Bool { corpus != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// What a refusal may say, per kind of upload.
    static let typedCodes: Set<String> = ["corrupt", "unsupportedFormat", "tooLarge", "sidecar", "emptyUpload", "incompleteBody"]

    @Test(.enabled(if: runs, "the shared corpus (../shared/corpus or $SHOEBOX_CORPUS) is absent: the bad-upload battery is skipped"))
    func badUploadsAreRefusedWithTypedErrorsAndLeaveNothing() async throws {
        let corpus = try #require(Self.corpus, "the shared corpus is absent (CI=true: the battery must run)")
        let started = Date()
        let server = try await BatteryServer()
        let hashesBefore = try await server.assetHashes()

        // 1. Every file of the shared malformed set, plain and resumable.
        var truncatedNames: Set<String> = []
        for path in corpus.files(in: "malformed") {
            let name = (path as NSString).lastPathComponent
            let data = try Data(contentsOf: corpus.url(path))
            let plain = try await server.upload(data, filename: name, kind: "malformed")
            if !data.isEmpty { try await server.resumableUpload(data, filename: name, kind: "malformed (resumable)") }
            switch name {
            case "empty.jpg":
                #expect(plain.status == 400 && plain.code == "emptyUpload", "\(name): \(plain.status) \(plain.code ?? "")")
            case "text-named.jpg":
                #expect(plain.status == 415 && plain.code == "unsupportedFormat", "\(name): \(plain.status) \(plain.code ?? "")")
            case _ where name.hasPrefix("trunc"):
                truncatedNames.insert(name)
                #expect(plain.status == 422 && plain.code == "corrupt", "the cut file \(name) was \(plain.status) \(plain.code ?? "")")
            default:
                // Bit flips: a clear error, or a picture that decodes (flipped bits in the
                // compressed data decode as other colours).
                #expect(
                    [200, 201].contains(plain.status) || (plain.status == 422 && plain.code == "corrupt"),
                    "\(name): \(plain.status) \(plain.code ?? "") \(plain.message ?? "")")
            }
        }
        #expect(truncatedNames.count >= 40, "the malformed set had only \(truncatedNames.count) cut files")

        // 2. Good files of every decoder, cut at every sixteenth. A cut file is refused as
        //    corrupt; one that is accepted must decode whole, to the original's very pixels (a
        //    TIFF cut inside an ICC profile that follows its pixels).
        for path in BadUploadFixtures.truncationSources {
            let original = try Data(contentsOf: corpus.url(path))
            for cut in BadUploadFixtures.truncations(of: original, name: (path as NSString).lastPathComponent) {
                let answer = try await server.upload(cut.data, filename: cut.name, kind: "truncation")
                if answer.status == 422 {
                    #expect(answer.code == "corrupt", "\(cut.name): \(answer.code ?? "") \(answer.message ?? "")")
                } else {
                    #expect(answer.status == 201 && !path.hasSuffix(".mp4"), "\(cut.name): \(answer.status) \(answer.code ?? "")")
                    #expect(
                        try Self.decodesToTheSamePixels(cut.data, as: original), "\(cut.name) was accepted, yet it does not decode to the original's pixels")
                }
            }
        }

        // 3. Bombs: sizes past the pixel limit (refused from the header), pictures a thousand
        //    times their file (within the limit: kept, with memory bounded), nothing, noise.
        let bombs: [(String, Data, Set<Int>, String?)] = [
            ("bomb-50000x50000.png", PNGBomb.data(), [413], "tooLarge"),
            ("bomb-60000x60000.jpg", try BadUploadFixtures.jpegDeclaring(width: 60_000, height: 60_000), [413], "tooLarge"),
            ("bomb-60000x60000.heic", try BadUploadFixtures.heicDeclaring(width: 60_000, height: 60_000), [413], "tooLarge"),
            ("deflate-10000x10000.png", try BadUploadFixtures.blackPNG(width: 10_000, height: 10_000, interlaced: false), [201], nil),
            ("deflate-10000x10000-interlaced.png", try BadUploadFixtures.blackPNG(width: 10_000, height: 10_000, interlaced: true), [201], nil),
            ("zero.jpg", Data(), [400], "emptyUpload"),
            ("noise.jpg", BadUploadFixtures.randomBytes(count: 100_000, seed: 17), [415], "unsupportedFormat"),
        ]
        for (name, data, statuses, code) in bombs {
            let answer = try await server.upload(data, filename: name, kind: "bomb")
            #expect(statuses.contains(answer.status) && answer.code == code, "\(name): \(answer.status) \(answer.code ?? "") \(answer.message ?? "")")
            if answer.status >= 400, !data.isEmpty {
                let resumable = try await server.resumableUpload(data, filename: name, kind: "bomb (resumable)")
                #expect(resumable.status == answer.status && resumable.code == code, "\(name), resumable: \(resumable.status) \(resumable.code ?? "")")
            }
        }

        // 4. Wrong names: the content decides, never the name.
        let jpeg = try SyntheticPhoto(width: 320, height: 240, seed: 71).image().encoded(as: .jpeg)
        let movie = try Data(contentsOf: corpus.url("generated-video/rotated90-h264.mov"))
        let misnamed: [(String, Data, Int, String?, String?)] = [
            ("letter.jpg", Data("Dear Ada,\nthe photos are attached.\n".utf8), 415, "unsupportedFormat", nil),
            ("notes.txt", Data("shopping list\n".utf8), 422, "sidecar", nil),
            ("photo.mov", jpeg, 201, nil, "image"),
            ("clip.png", movie, 201, nil, "video"),
        ]
        for (name, data, status, code, mediaType) in misnamed {
            let answer = try await server.upload(data, filename: name, kind: "wrong type")
            #expect(answer.status == status && answer.code == code, "\(name): \(answer.status) \(answer.code ?? "") \(answer.message ?? "")")
            if let mediaType {
                let asset = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["asset"] as? [String: Any]
                #expect(asset?["mediaType"] as? String == mediaType, "\(name) became \(asset?["mediaType"] ?? "nothing")")
            }
        }

        // 5. Bodies that lie about their length, and clients that hang up halfway.
        try await lyingAndHangingUp(server, corpus: corpus)

        // Nothing answered 5xx; every refusal is typed; no refused file is an asset.
        let answers = server.allAnswers
        let failures = answers.filter { $0.status >= 500 }
        #expect(failures.isEmpty, "5xx: \(failures.map { "\($0.name) \($0.status) \($0.message ?? "")" })")
        let untyped = answers.filter { $0.status >= 400 && !Self.typedCodes.contains($0.code ?? "") }
        #expect(untyped.isEmpty, "refusals without a code naming the problem: \(untyped.map { "\($0.name) \($0.status) \($0.code ?? "none")" })")
        let hashesAfter = try await server.assetHashes()
        let kept = Set(hashesAfter)
        #expect(kept.isDisjoint(with: server.refusedHashes), "refused files became assets: \(kept.intersection(server.refusedHashes))")
        let created = answers.filter { $0.status == 201 }.count
        #expect(
            hashesAfter.count == hashesBefore.count + created,
            "\(hashesAfter.count) assets after, \(hashesBefore.count) before and \(created) uploads answered 201")
        try await server.waitForJobs()
        try await server.stopAndCheckNothingIsLeft()
        print(
            "bad-upload battery: \(answers.count) answers in \(String(format: "%.1f", Date().timeIntervalSince(started))) s; \(server.tally); \(hashesAfter.count) assets"
        )
    }

    /// Content-Length longer than the body (then the client closes its side), shorter than the
    /// body, and connections closed in the middle of the body, plain and resumable.
    private func lyingAndHangingUp(_ server: BatteryServer, corpus: Corpus) async throws {
        let photo = try Data(contentsOf: corpus.url("exif-samples/jpg/Reconyx_HC500_Hyperfire.jpg"))
        let path = "/api/assets?filename=lying.jpg"

        // Longer than the body, then the client's side closes: the body can never be whole.
        let longer = try await server.exchange(server.head("POST", path, contentLength: photo.count + 10_000) + photo, shutdownWrite: true)
        let longerAnswer = try BatteryServer.firstResponse(longer).orThrow("no answer to a body shorter than its Content-Length")
        await server.record(longerAnswer.status, longerAnswer.body, kind: "lying length", name: "longer", sent: photo)
        #expect(
            longerAnswer.status == 400, "a body shorter than its Content-Length: \(longerAnswer.status) \(String(decoding: longerAnswer.body, as: UTF8.self))")

        // Shorter than the body: the server takes the announced bytes — a cut JPEG — and the
        // rest is not a request.
        let shorter = try await server.exchange(server.head("POST", path, contentLength: photo.count / 2) + photo, shutdownWrite: true)
        let shorterAnswer = try BatteryServer.firstResponse(shorter).orThrow("no answer to a body longer than its Content-Length")
        await server.record(shorterAnswer.status, shorterAnswer.body, kind: "lying length", name: "shorter", sent: photo.prefix(photo.count / 2))
        #expect(
            shorterAnswer.status == 422, "a JPEG cut by a short Content-Length: \(shorterAnswer.status) \(String(decoding: shorterAnswer.body, as: UTF8.self))")

        // Hung up halfway, at several points, small and larger bodies.
        let large = try SyntheticPhoto(width: 3_000, height: 2_000, seed: 72).image().encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.95))
        for (body, fraction) in [(photo, 0.1), (photo, 0.5), (photo, 0.99), (large, 0.3), (large, 0.8)] {
            let sent = Int(Double(body.count) * fraction)
            _ = try await server.exchange(server.head("POST", path, contentLength: body.count) + body.prefix(sent), hangUp: true)
        }

        // The same on a resumable upload: nothing of a cut piece is kept, and the upload stays
        // where it was.
        let begun = try await server.http.send("POST", "/api/uploads", json: ["filename": "cut-piece.jpg", "size": large.count], headers: server.authorization)
        #expect(begun.status == 201)
        let id = try (try begun.object()["id"] as? String).orThrow("no upload id")
        let upload = "/api/uploads/" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
        _ = try await server.exchange(server.head("PUT", upload + "?offset=0", contentLength: large.count) + large.prefix(large.count / 3), hangUp: true)
        let lying = try await server.exchange(
            server.head("PUT", upload + "?offset=0", contentLength: large.count) + large.prefix(large.count / 2),
            shutdownWrite: true)
        let lyingAnswer = try BatteryServer.firstResponse(lying).orThrow("no answer to a cut piece")
        await server.record(lyingAnswer.status, lyingAnswer.body, kind: "lying length", name: "resumable piece", sent: nil)
        #expect(lyingAnswer.status == 400)
        // What hung up is dropped once the server notices the closed connection (each piece is
        // staged while it comes in); then the upload stands where it will stay: it never moved on.
        let staging = server.libraryURL.appendingPathComponent("staging")
        let dropped = try await FolderWatch(staging).wait(timeout: .seconds(10)) { [server] in server.entries(in: staging).isEmpty }
        #expect(dropped, "what hung up is still staged: \(server.entries(in: staging))")
        let state = try await server.http.send("GET", upload, headers: server.authorization)
        #expect((try? state.object()["offset"] as? Int) == 0, "a cut piece moved the upload on: \(state.text)")
        let deleted = try await server.http.send("DELETE", upload, headers: server.authorization)
        #expect(deleted.status == 204)
    }

    /// Whether `data` decodes whole, to exactly the pixels of `original`.
    static func decodesToTheSamePixels(_ data: Data, as original: Data) throws -> Bool {
        guard let cut = try? Image(data: data).decoded().bitmap() else { return false }
        let whole = try Image(data: original).decoded().bitmap()
        return cut.width == whole.width && cut.height == whole.height && cut.bytes == whole.bytes
    }

    // The server's peak memory while very large photos are uploaded at once (the decode memory
    // budget at work) is a benchmark, not a test: `shoebox-bench upload-memory` (BENCHMARKS.md);
    // DecodeMemoryBudgetTests prove the budget's admission rules.
}
