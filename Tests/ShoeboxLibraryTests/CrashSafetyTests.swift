import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CrashSafetyTests {
    @Test func doctorFindsAndRepairsLeftovers() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles([try temporary.photo("kept.jpg", seed: 1), try temporary.photo("lost.jpg", seed: 2)])
        #expect(try await library.doctor(deep: true).ok)

        // A crash mid-import: a staging leftover, and an original whose row was never written.
        let orphanSource = try temporary.photo("orphan.jpg", seed: 3)
        let orphanHash = try #require(await PhotoLibrary.contentHash(of: orphanSource))
        try await temporary.plant(orphanSource, as: BlobKey(kind: .original, hash: orphanHash))
        try Data("half a file".utf8).write(to: library.url.appendingPathComponent("staging/0F0F0F0F"))
        // Junk in originals that will not import, and a damaged and a missing original.
        let junk = temporary.folder.appendingPathComponent("junk")
        try Data("not an image".utf8).write(to: junk)
        let junkHash = try #require(await PhotoLibrary.contentHash(of: junk))
        try await temporary.plant(junk, as: BlobKey(kind: .original, hash: junkHash))
        let assets = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        try await temporary.tamper(BlobKey(kind: .original, hash: assets[0].contentHash), with: Data("tampered".utf8))
        try await temporary.lose(BlobKey(kind: .original, hash: assets[1].contentHash))

        // The staging leftover is healed without asking (as opening the library heals it), and
        // reported; the rest is not what a crash of Shoebox leaves, so it waits for `repair`.
        let report = try await library.doctor(deep: true)
        #expect(Set(report.problems.map(\.kind)) == ["orphanOriginal", "hashMismatch", "missingOriginal"])
        #expect(report.repaired.map(\.kind) == ["stagingLeftover"])
        #expect(report.problems.first { $0.kind == "missingOriginal" }?.localIdentifier == ids[1])

        let repaired = try await library.doctor(deep: true, repair: true)
        #expect(repaired.repaired.count == 2, "\(repaired.repaired)")
        #expect(Set(repaired.problems.map(\.kind)) == ["hashMismatch", "missingOriginal"], "user data is never thrown away")
        await #expect(try library.fetchAssets().allObjects().map(\.originalFilename).contains(orphanHash), "the orphan was re-imported")
        #expect(FileManager.default.fileExists(atPath: library.url.appendingPathComponent("quarantine/\(junkHash)").path))
        #expect(temporary.files(in: "staging").isEmpty)
    }

    /// Kills `shoebox import` at random moments, many times, then proves that `doctor` finds
    /// nothing lost and nothing half-made.
    @Test func killedImportsLeaveNoHalfAssets() async throws {
        let executable = try #require(CLIExecutable.url, "the shoebox executable is built by `swift build`")
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        var sources: [URL] = []
        for index in 0..<12 {
            sources.append(try temporary.photo("photo\(index).jpg", seed: UInt64(500 + index), width: 1600, height: 1200))
        }
        var hashes: [String: URL] = [:]
        for url in sources { hashes[try #require(await PhotoLibrary.contentHash(of: url))] = url }

        // Each import is killed at a change it makes in the library folder (a staged file made or
        // written, an original filed, the catalog written), picked at random among its first
        // 100: the moments of its own work, not a guessed delay.
        var generator = SplitMix64(seed: 2026)
        var kills = 0
        var changesAtKill: [Int] = []
        for _ in 0..<30 {
            let files = sources.shuffled(using: &generator).prefix(6).map(\.path)
            let watch = try FolderWatch(library.url)
            let child = try ChildProcess.spawnWithLifeline(executable.path, ["import", "--library", library.url.path] + files)
            let target = 1 + Int(generator.next() % 100)
            let seen = try await watch.events(count: target, timeout: .seconds(60), lifeline: child.lifeline)
            kill(child.pid, SIGKILL)
            close(child.lifeline)
            var status: Int32 = 0
            waitpid(child.pid, &status, 0)
            // Killed, not ended by itself (a kill of a process that has ended succeeds too).
            if status & 0x7f == SIGKILL {
                kills += 1
                changesAtKill.append(seen.count)
            }
        }
        #expect(kills > 20, "most imports were interrupted: \(kills) of 30, after \(changesAtKill) changes")

        // The library heals itself: the next process to open it settles what the kills left
        // (staging leftovers removed, filed originals adopted), and `doctor` is ok without repair.
        let reopened = try await PhotoLibrary.open(at: library.url)
        let after = try await reopened.doctor(deep: true)
        #expect(after.ok, "\(after.problems)")

        // Every asset is one of the sources, whole, stored once.
        let assets = try await library.fetchAssets(with: FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true)).allObjects()
        #expect(Set(assets.map(\.contentHash)).count == assets.count)
        for asset in assets {
            let source = try #require(hashes[asset.contentHash], "\(asset.originalFilename) is one of the sources")
            await #expect(try Data(contentsOf: library.originalURL(for: asset)) == Data(contentsOf: source))
        }
        #expect(temporary.files(in: "staging").isEmpty)
        // Importing everything once more completes the set: nothing was lost for good.
        _ = try await temporary.importFiles(sources)
        await #expect(try library.fetchAssets().count == sources.count)
    }
}
