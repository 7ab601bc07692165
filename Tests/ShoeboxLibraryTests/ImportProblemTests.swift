import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Issue 18 item 9: an import's error says in plain words what is wrong with that file, and only
/// that file, however many fail at once.
@Suite struct ImportProblemTests {
    /// Damaged files of several kinds, each with the words its error must have.
    static func damagedFiles(in folder: URL, round: Int) throws -> [(URL, String)] {
        let jpeg = try SyntheticPhoto(width: 320, height: 240, seed: UInt64(round)).image().encoded(as: .jpeg)
        let png = try SyntheticPhoto(width: 320, height: 240, seed: UInt64(round) + 100).image().encoded(as: .png)
        let movie = try SyntheticMovie(duration: 1, width: 160, height: 120).write(to: folder.appendingPathComponent("whole-\(round).mp4"))
        let movieBytes = try Data(contentsOf: movie)
        var files: [(String, Data, String)] = [
            ("cut-\(round).jpg", jpeg.prefix(jpeg.count / 2), "the file is damaged: it ends early"),
            ("cut-\(round).png", png.prefix(png.count / 3), "the file is damaged: it ends early"),
            ("cut-\(round).mp4", movieBytes.prefix(movieBytes.count / 2), "the file is damaged: it ends early"),
            ("letter-\(round).jpg", Data("Dear Ada,\nthe photos are attached.\n".utf8), "a text file, not a photo or movie"),
            ("noise-\(round).jpg", Data((0..<4_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ round) }), "not a photo or movie"),
        ]
        // A PNG whose pixel data is zeroed after its header: damaged, not short.
        var scrambled = [UInt8](png)
        for index in 60..<(scrambled.count - 12) { scrambled[index] = 0 }
        files.append(("scrambled-\(round).png", Data(scrambled), "the file is damaged: its picture cannot be read"))
        try FileManager.default.removeItem(at: movie)
        return try files.map { name, bytes, words in
            let url = folder.appendingPathComponent(name)
            try bytes.write(to: url)
            return (url, words)
        }
    }

    @Test func eachFailureSaysWhatIsWrongWithItsOwnFile() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        var files: [(URL, String)] = []
        for round in 0..<4 { files += try Self.damagedFiles(in: temporary.folder, round: round) }
        // All at once: libvips's one error buffer sees every failure.
        let outcomes = await withTaskGroup(of: (URL, String, LibraryError?).self) { group in
            for (url, words) in files {
                group.addTask {
                    do {
                        _ = try await temporary.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
                        return (url, words, nil)
                    } catch let error as LibraryError {
                        return (url, words, error)
                    } catch {
                        return (url, words, .storage("\(error)"))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == files.count)
        for (url, words, error) in outcomes {
            let message = error?.message ?? "imported"
            #expect(message == "cannot import \(url.path): \(words)", "\(url.lastPathComponent): \(message)")
            for jargon in ["Vips", "vips", "ffprobe", "VipsForeign", "Invalid data"] {
                #expect(!message.contains(jargon), "\(url.lastPathComponent) shows internals: \(message)")
            }
        }
        #expect(try await temporary.library.fetchAssets(with: FetchOptions()).count == 0, "nothing damaged became an asset")
    }

    @Test func sidecarsAreSkippedNotFailed() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        for name in ["IMG_0001.xmp", "IMG_0001.AAE", "metadata.json", "readme.txt", "Thumbs.db"] {
            let url = temporary.folder.appendingPathComponent(name)
            try Data("<sidecar/>".utf8).write(to: url)
            await #expect {
                _ = try await temporary.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
            } throws: { error in
                (error as? LibraryError)?.code == .sidecar && (error as? LibraryError)?.message.contains("not a photo or movie: skipped") == true
            }
        }
        // A photo misnamed as a sidecar is still a photo.
        let misnamed = temporary.folder.appendingPathComponent("photo.json")
        try SyntheticPhoto(width: 40, height: 30).image().encoded(as: .jpeg).write(to: misnamed)
        let result = try await temporary.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: misnamed) }
        #expect(result.created.count == 1)
    }
}
