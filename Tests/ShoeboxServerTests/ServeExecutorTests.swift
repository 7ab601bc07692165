import Foundation
import NIOCore
import NIOPosix
import ShoeboxTesting
import Testing

/// scripts/test's first pass runs the suites the way `shoebox serve` runs: NIO's event loops as
/// the global executor (`SHOEBOX_TEST_NIO_EXECUTOR=1`, installed by the first test server). This
/// proves that pass really does: were the executor not installed, the server suites would run on
/// Swift's cooperative pool and prove nothing about the event loops.
@Suite struct ServeExecutorTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SHOEBOX_TEST_NIO_EXECUTOR"] == "1", "only in the event-loop pass"))
    func theServerSuitesRunOnNIOsEventLoops() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        #expect(TestServer.servesOnEventLoops, "NIO's event loops could not be installed as the global executor")
        let onLoop = await Task.detached { MultiThreadedEventLoopGroup.currentEventLoop != nil }.value
        #expect(onLoop, "a task ran on a thread that is not one of NIO's event loops")
        let health = try await test.http.send("GET", "/api/health")
        #expect(health.status == 200)
    }
}
