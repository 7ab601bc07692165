import Foundation
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// A Swift program that embeds `PhotoLibraryServer` gets what `shoebox serve` has from a library
/// opened with its work queued and the server's configuration: a worker in the server, the
/// repeating jobs, and the library's `server.json`, all started and stopped with the server.
@Suite struct ServerServicesTests {
    @Test func anEmbeddedServerRunsItsWorkerRepeatingJobsAndDiscovery() async throws {
        var configuration = PhotoLibraryServer.Configuration(port: 0)
        configuration.worker = JobWorker.Options(concurrency: 2, pollInterval: .milliseconds(100), name: "embedded")
        configuration.writesDiscoveryFile = true
        let test = try await TestServer.start(photos: 0, configuration: configuration, backgroundWork: .queued)
        defer { test.stop() }
        let discoveryFile = ServerDiscovery.fileURL(forLibraryAt: test.library.url)

        // Discovery: written before the server said it was ready, naming this server.
        let entry = try #require(ServerDiscovery.find(forLibraryAt: test.library.url), "no server.json while serving")
        #expect(entry.port == test.port && entry.key == test.server.userKey && entry.pid == getpid())
        // The repeating jobs were queued as the server started.
        let kinds = Set(try await test.library.jobs(limit: 100).map(\.kind))
        #expect(kinds.isSuperset(of: [.purgeExpired, .sweep]), "\(kinds)")

        // An import queues its derivatives as jobs, and the server's worker makes them.
        let id = try await test.addPhoto(seed: 7)
        let deadline = ContinuousClock.now + .seconds(60)
        var pending = 1
        while pending > 0, ContinuousClock.now < deadline {
            let jobs = try await test.library.jobs(in: [.queued, .running], limit: 100)
            pending = jobs.filter { $0.kind == .derivatives }.count
            if pending > 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(pending == 0, "the worker did not run the import's derivatives job")
        #expect(try await test.library.jobs(in: [.failed], limit: 100).isEmpty)
        _ = id

        // Stopping the server stops its worker and removes its entry.
        await test.server.stop()
        try await test.waitUntilStopped()
        #expect(!FileManager.default.fileExists(atPath: discoveryFile.path), "server.json outlived the server")
    }

    @Test func byDefaultAnEmbeddedServerLeavesTheLibraryAsOpened() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        #expect(!FileManager.default.fileExists(atPath: ServerDiscovery.fileURL(forLibraryAt: test.library.url).path))
        #expect(try await test.library.jobs(limit: 100).isEmpty, "repeating jobs were queued without being asked for")
    }
}
