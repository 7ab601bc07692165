import Crypto
import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Bytes written through `PendingImport.write(_:)` are hashed as they come and moved into the
/// library on commit: one pass over them, not a second copy and hash in staging.
@Suite struct PendingImportWriteTests {
    @Test func writtenBytesAreHashedOnceAndMovedIn() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let photo = try SyntheticPhoto(width: 640, height: 480, seed: 11).image().encoded(as: .jpeg)
        let pending = try await library.beginImport(filename: "written.jpg")
        // In three pieces, as an upload's body arrives.
        for range in [0..<100, 100..<5_000, 5_000..<photo.count] {
            try photo[range].withUnsafeBytes { try pending.write($0) }
        }
        let written = try pending.finishWriting()
        let expected = SHA256.hash(data: photo).map { String(format: "%02x", $0) }.joined()
        #expect(written == PendingImport.Written(size: photo.count, sha256: expected))
        #expect(try pending.finishWriting() == written, "asking again answers the same")
        #expect(throws: LibraryError.self, "nothing more after the end") { try Data([1]).withUnsafeBytes { try pending.write($0) } }
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: pending.url.path)[.systemFileNumber] as? UInt64)

        let asset = try await pending.commit()
        let original = try #require(asset.resources.first { $0.type == .photo })
        #expect(original.contentHash == expected && original.originalFilename == "written.jpg")
        #expect(!FileManager.default.fileExists(atPath: pending.url.deletingLastPathComponent().path), "the pending folder is gone")
        let report = try await library.sweep(olderThan: 0)
        #expect(report.ok, "staging holds nothing of it: \(report.problems)")
        if !S3TestServer.isBlobStoreUnderTest {
            // The library's original is the very file that was written: renamed, never copied.
            let stored = try #require(
                FileManager.default.enumerator(at: library.url, includingPropertiesForKeys: nil)?
                    .compactMap { $0 as? URL }
                    .first { (try? FileManager.default.attributesOfItem(atPath: $0.path)[.systemFileNumber] as? UInt64) == inode })
            // (A copy would leave the written file's inode number free for any later file: the
            // bytes say whether the file found is the original.)
            #expect(try Data(contentsOf: stored) == photo, "\(stored.path) is not the original")
        }
    }

    @Test func aFileWrittenThroughItsURLIsStillCopiedAndHashed() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let photo = try SyntheticPhoto(width: 64, height: 48, seed: 12).image().encoded(as: .jpeg)
        let pending = try await temporary.library.beginImport(filename: "plain.jpg")
        try photo.write(to: pending.url)
        let asset = try await pending.commit()
        #expect(asset.resources.first?.contentHash == SHA256.hash(data: photo).map { String(format: "%02x", $0) }.joined())
    }

    @Test func nothingWrittenIsAnErrorAndLeavesNothing() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let pending = try await temporary.library.beginImport(filename: "empty.jpg")
        try pending.finishWriting()
        await #expect(throws: LibraryError.self) { _ = try await pending.commit() }
        #expect(try await temporary.library.fetchAssets().count == 0)
        #expect(!FileManager.default.fileExists(atPath: pending.url.deletingLastPathComponent().path))
    }
}
