import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

@testable import ShoeboxServer

/// `GET /api/jobs`, and its long poll (`?wait=S&since=TAG`), which the web app's indicator
/// follows instead of asking every few seconds.
@Suite struct JobsAPITests {
    @Test func aWaitingRequestAnswersWhenTheJobsChange() async throws {
        let test = try await TestServer.start(photos: 0, backgroundWork: .queued)  // as shoebox serve: imports queue their thumbnails
        defer { test.stop() }
        let photo = try SyntheticPhoto(width: 320, height: 240, seed: 7).image().encoded(as: .jpeg)
        #expect(try await test.user("POST", "/api/assets?filename=queued.jpg", body: photo).status == 201)
        let first = try await test.user("GET", "/api/jobs").object()
        let tag = try #require(first["tag"] as? String)
        #expect(first["open"] as? Int == 1 && tag.count == 16, "\(first)")
        // The same jobs: the same tag, and a wait that ends at its seconds with it.
        #expect(try await test.user("GET", "/api/jobs").object()["tag"] as? String == tag)
        let clock = ContinuousClock()
        let started = clock.now
        let unchanged = try await test.user("GET", "/api/jobs?wait=1&since=\(tag)").object()
        #expect(unchanged["tag"] as? String == tag && clock.now - started >= .seconds(1), "answered before its second without a change")
        // A tag the caller has not seen: answered at once.
        #expect(try await test.user("GET", "/api/jobs?wait=30&since=0000000000000000").object()["tag"] as? String == tag)

        // A worker makes the thumbnail meanwhile: the waiting request answers with the new jobs,
        // long before its 30 s.
        let waiting = Task { try await test.user("GET", "/api/jobs?wait=30&since=\(tag)") }
        let worker = JobWorker(library: test.library, options: .init(concurrency: 1))
        let running = Task { await worker.run() }
        let answer = try await waiting.value
        worker.stop()
        await running.value
        let changed = try answer.object()
        #expect(answer.status == 200 && changed["tag"] as? String != tag, "\(answer.text)")
        #expect(clock.now - started < .seconds(25), "answered at the end of its wait, not at the change")
    }
}
