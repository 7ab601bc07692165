import Foundation
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

/// Issue 39 item B: PostgreSQL restarted (2.5 s away) under many callers. Every call ends — with
/// its answer, or with ``LibraryError/Code/catalogUnavailable`` naming the server — instead of
/// waiting forever for a statement postgres-nio wrote to a connection that had just closed; and
/// the same library goes on afterwards. Runs in the PostgreSQL pass of `scripts/test`, on a
/// cluster of its own.
@Suite(.enabled(if: PostgresTestServer.isCatalogUnderTest, "runs in the PostgreSQL pass (SHOEBOX_TEST_CATALOG=postgres)"))
struct PostgresOutageTests {
    final class Calls: Sendable {
        let stopped = Atomic<Bool>(false)
        let outcomes = Mutex<[(took: Duration, code: String)]>([])
        let inFlight = Mutex<[Int: ContinuousClock.Instant]>([:])
    }

    @Test func everyCallEndsWhenTheCatalogRestarts() async throws {
        let cluster = try ThrowawayServer(.postgres, name: "pg-outage")
        defer { cluster.remove() }
        let postgres = try PostgresURL(cluster.url)
        let library = try await PhotoLibrary.create(
            at: cluster.folder.appendingPathComponent("L.shoebox"), configuration: .init(catalog: .postgres(postgres)))

        // Callers that write (an album each time) and read, back to back, until told to stop.
        let calls = Calls()
        let callers = (0..<12).map { caller in
            Task {
                var round = 0
                while !calls.stopped.load(ordering: .relaxed) {
                    round += 1
                    let began = ContinuousClock.now
                    calls.inFlight.withLock { $0[caller] = began }
                    var code = "ok"
                    do {
                        if caller % 3 == 0 {
                            _ = try await library.fetchAssetCollections(with: .album)
                        } else {
                            try await library.performChanges {
                                _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "c\(caller)-\(round)")
                            }
                        }
                    } catch let error as LibraryError {
                        code = error.code.rawValue
                        if error.code == .catalogUnavailable {
                            #expect(error.message.contains("PostgreSQL at 127.0.0.1:\(postgres.port)"), "\(error.message)")
                        }
                    } catch {
                        code = "\(type(of: error))"
                    }
                    let took = ContinuousClock.now - began
                    calls.inFlight.withLock { $0[caller] = nil }
                    calls.outcomes.withLock { $0.append((took, code)) }
                    if code != "ok" { try? await Task.sleep(for: .milliseconds(50)) }
                }
            }
        }
        try await Task.sleep(for: .seconds(2))
        try cluster.halt()
        try await Task.sleep(for: .milliseconds(2_500))
        try cluster.start()
        try await Task.sleep(for: .seconds(3))
        calls.stopped.store(true, ordering: .relaxed)

        // Every caller ends: none waits on a call that never answers. (Before, some waited for ever.)
        let limit = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < limit, !calls.inFlight.withLock({ $0.isEmpty }) {
            try await Task.sleep(for: .milliseconds(200))
        }
        let stuck = calls.inFlight.withLock { $0 }
        #expect(stuck.isEmpty, "\(stuck.count) callers still wait on a call, begun \(stuck.values.map { ContinuousClock.now - $0 }) ago")
        if stuck.isEmpty {
            for caller in callers { await caller.value }
        }
        let outcomes = calls.outcomes.withLock { $0 }
        let failed = outcomes.filter { $0.code != "ok" }
        #expect(!failed.isEmpty, "no call met the outage (\(outcomes.count) calls)")
        #expect(Set(failed.map(\.code)).isSubset(of: ["catalogUnavailable"]), "\(Set(failed.map(\.code)))")
        let longest = outcomes.map(\.took).max() ?? .zero
        #expect(longest < .seconds(40), "the longest call took \(longest)")

        // The same library goes on.
        try await library.performChanges { _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "after") }
        let albums = try await library.fetchAssetCollections(with: .album)
        #expect(try await albums.allObjects().contains { $0.localizedTitle == "after" })
        if stuck.isEmpty { await library.close() }
    }
}
