import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

@Suite struct ChangeObservationTests {
    /// Waits (at most 10 s) for the next change that touches `result`.
    static func nextDetails(
        _ iterator: inout AsyncThrowingStream<PhotoLibraryChange, any Error>.Iterator,
        for result: FetchResult<Asset>
    ) async throws -> FetchResult<Asset>.ChangeDetails {
        for _ in 0..<20 {
            guard let change = try await next(&iterator) else { break }
            if let details = try await change.details(for: result) { return details }
        }
        throw ChildProcess.Failure("no change touched the fetch result")
    }

    static func next(_ iterator: inout AsyncThrowingStream<PhotoLibraryChange, any Error>.Iterator) async throws -> PhotoLibraryChange? {
        try await iterator.next()
    }

    /// Runs `body` in a task that is cancelled after `seconds`: a change stream's `next()` then
    /// returns `nil`, so a missing change fails the test instead of hanging it. Generous: the
    /// whole suite runs beside these tests on two cores.
    static func withDeadline(_ seconds: Double = 180, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await withTimeLimit(.seconds(seconds), body)
    }

    @Test func insertsRemovesChangesAndMoves() async throws {
        try await Self.withDeadline {
            let temporary = try await TemporaryLibrary()
            defer { temporary.remove() }
            let library = temporary.library
            let base = Date(timeIntervalSince1970: 1_600_000_000)
            var urls: [URL] = []
            for index in 0..<4 { urls.append(try temporary.photo("p\(index).jpg", seed: UInt64(40 + index))) }
            try await library.performChanges {
                for (index, url) in urls.prefix(3).enumerated() {
                    AssetChangeRequest.creationRequestForAsset(fromImageAt: url).creationDate = base.addingTimeInterval(Double(index) * 60)
                }
            }
            var changes = try await library.changes(pollingEvery: .milliseconds(20)).makeAsyncIterator()
            var result = try await library.fetchAssets()  // p0, p1, p2 by date
            #expect(try await result.allObjects().map(\.originalFilename) == ["p0.jpg", "p1.jpg", "p2.jpg"])

            // Insert p3 between p0 and p1.
            try await library.performChanges {
                AssetChangeRequest.creationRequestForAsset(fromImageAt: urls[3]).creationDate = base.addingTimeInterval(30)
            }
            var details = try await Self.nextDetails(&changes, for: result)
            #expect(details.insertedIndexes == IndexSet([1]) && details.removedIndexes.isEmpty && details.changedIndexes.isEmpty)
            #expect(try await details.insertedObjects().map(\.originalFilename) == ["p3.jpg"])
            result = details.fetchResultAfterChanges
            var objects = try await result.allObjects()
            #expect(objects.map(\.originalFilename) == ["p0.jpg", "p3.jpg", "p1.jpg", "p2.jpg"])

            // Delete p1 (moves it to Recently Deleted: gone from this result) and favorite p2.
            try await library.performChanges {
                AssetChangeRequest.deleteAssets([objects[2]])
                AssetChangeRequest(for: objects[3]).isFavorite = true
            }
            details = try await Self.nextDetails(&changes, for: result)
            #expect(details.removedIndexes == IndexSet([2]))
            #expect(details.insertedIndexes.isEmpty)
            #expect(details.changedIndexes == IndexSet([2]), "p2, now at index 2")
            #expect(try await details.changedObjects().first?.isFavorite == true)
            result = details.fetchResultAfterChanges
            objects = try await result.allObjects()

            // Move p0 last by changing its date.
            try await library.performChanges { AssetChangeRequest(for: objects[0]).creationDate = base.addingTimeInterval(3600) }
            details = try await Self.nextDetails(&changes, for: result)
            #expect(details.hasMoves)
            #expect(details.moves == [.init(from: 0, to: 2)])
            #expect(details.changedIndexes == IndexSet([2]))
            #expect(try await details.fetchResultAfterChanges.allObjects().map(\.originalFilename) == ["p3.jpg", "p2.jpg", "p0.jpg"])
        }
    }

    @Test func unrelatedChangesGiveNoDetails() async throws {
        try await Self.withDeadline {
            let temporary = try await TemporaryLibrary()
            defer { temporary.remove() }
            let library = temporary.library
            _ = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1)])
            let videos = try await library.fetchAssets(with: FetchOptions(predicate: .mediaType(.video)))
            var changes = try await library.changes(pollingEvery: .milliseconds(20)).makeAsyncIterator()
            _ = try await temporary.importFiles([try temporary.photo("b.jpg", seed: 2)])
            let change = try #require(try await Self.next(&changes))
            #expect(change.insertedAssetIdentifiers.count == 1)
            await #expect(try change.details(for: videos) == nil)
        }
    }

    /// A commit through the library wakes its observers at once: with an hour between looks for
    /// other processes' commits, only that signal can deliver the change before the deadline.
    @Test func aCommitInThisProcessWakesObserversAtOnce() async throws {
        try await Self.withDeadline(60) {
            let temporary = try await TemporaryLibrary()
            defer { temporary.remove() }
            let library = temporary.library
            let all = try await library.fetchAssets()
            var changes = try await library.changes(pollingEvery: .seconds(3600)).makeAsyncIterator()
            _ = try await temporary.importFiles([try temporary.photo("here.jpg", seed: 78)])
            let details = try await Self.nextDetails(&changes, for: all)
            #expect(try await details.insertedObjects().map(\.originalFilename) == ["here.jpg"])
        }
    }

    /// A change of a client's decisions is no asset or album change; the client's own
    /// `decisionChanges` stream says so, once when it starts watching and then per change.
    @Test func decisionsChangeWithoutChangingAssets() async throws {
        try await Self.withDeadline(60) {
            let temporary = try await TemporaryLibrary()
            defer { temporary.remove() }
            let library = temporary.library
            let authorization = Authorization(library: library)
            for client in ["com.example.a", "com.example.b"] {
                try await authorization.register(ClientManifest(identifier: client, displayName: client, usageDescriptions: [.camera: "Films."]))
            }
            var changes = try await library.changes(pollingEvery: .seconds(3600)).makeAsyncIterator()
            var decisions = authorization.decisionChanges(client: "com.example.a", pollingEvery: .seconds(3600)).makeAsyncIterator()
            #expect(await decisions.next() != nil, "the first element comes when it watches")
            try await authorization.setStatus(.authorized, for: .camera, client: "com.example.b")  // another client's: not told
            try await authorization.setStatus(.denied, for: .camera, client: "com.example.a")
            #expect(await decisions.next() != nil)
            #expect(try await authorization.status(for: .camera, client: "com.example.a") == .denied)
            // The grants made no library change: the next change is the import.
            _ = try await temporary.importFiles([try temporary.photo("after.jpg", seed: 79)])
            let change = try #require(try await Self.next(&changes))
            #expect(change.insertedAssetIdentifiers.count == 1 && change.changedAssetIdentifiers.isEmpty && change.changedCollectionIdentifiers.isEmpty)
            try await authorization.removeClient("com.example.a")
            #expect(await decisions.next() != nil, "removing the client is a change of its decisions")
        }
    }

    @Test func changesFromAnotherProcessArrive() async throws {
        try await Self.withDeadline {
            let temporary = try await TemporaryLibrary()
            defer { temporary.remove() }
            let library = temporary.library
            let all = try await library.fetchAssets()
            var changes = try await library.changes.makeAsyncIterator()  // the property: PhotoKit's observer, polled every 200 ms
            // Another process (the shoebox CLI) imports a photo into the same library.
            let url = try temporary.photo("other.jpg", seed: 77)
            let executable = try #require(CLIExecutable.url, "the shoebox executable is built by `swift build`")
            let result = try ChildProcess.run(executable.path, ["import", url.path, "--library", library.url.path])
            #expect(result.status == 0, "\(result.standardError)")
            let details = try await Self.nextDetails(&changes, for: all)
            #expect(try await details.insertedObjects().map(\.originalFilename) == ["other.jpg"])
        }
    }
}

/// The `shoebox` executable next to the test bundle.
enum CLIExecutable {
    static let url = ChildProcess.builtExecutable(named: "shoebox")
}
