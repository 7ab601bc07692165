import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import ShoeboxImaging
import Testing

@testable import ShoeboxServer

/// With `SHOEBOX_CHECK_BLOCKING=1` (scripts/test's first pass) every test server fails its test
/// on a blocking call one of its requests made on an event loop (TestServer.stop). These prove
/// that check can fail: a libvips read on an event loop for a request is kept, naming both; on
/// the pool, or for no request, it is not; and the server's middleware marks both a handler's
/// work and its response body's.
@Suite struct BlockingCheckTests {
    /// What this suite's own requests start with (TestServer leaves their violations alone).
    static let selfTest = "GET /blocking-check-self-test"

    static let jpeg: Data = {
        let pixels = [UInt8](repeating: 128, count: 8 * 8 * 3)
        return (try? Image(bitmap: Bitmap(width: 8, height: 8, channels: 3, bytes: pixels)).encoded(as: .jpeg)) ?? Data()
    }()

    @Test(.enabled(if: BlockingCheck.isEnabled, "only with SHOEBOX_CHECK_BLOCKING=1"))
    func aCallOnAnEventLoopForARequestIsKeptAndOneOnThePoolIsNot() async throws {
        let jpeg = Self.jpeg
        #expect(!jpeg.isEmpty)
        let label = Self.selfTest + "-direct/" + UUID().uuidString
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        try await loop.submit { BlockingCheck.$request.withValue(label) { _ = try? Image(data: jpeg) } }.get()
        await BlockingPool.shared.run { BlockingCheck.$request.withValue(label) { _ = try? Image(data: jpeg) } }
        try await loop.submit { _ = try? Image(data: jpeg) }.get()
        let kept = BlockingCheck.takeViolations { $0 == label }
        #expect(kept.map(\.call) == ["a libvips header read"], "\(kept)")
        #expect(kept.first.map { "\($0)".contains(label) && "\($0)".contains("Image.swift") } == true, "\(kept)")
    }

    @Test(.enabled(if: BlockingCheck.isEnabled && TestServer.servesOnEventLoops, "only with SHOEBOX_CHECK_BLOCKING=1, on NIO's event loops"))
    func theMiddlewareMarksAHandlerAndItsResponseBody() async throws {
        let jpeg = Self.jpeg
        let router = Router()
        router.add(middleware: BlockingCheckMiddleware())
        router.get("blocking-check-self-test/handler") { _, _ -> String in
            _ = try? Image(data: jpeg)
            return "ok"
        }
        router.get("blocking-check-self-test/body") { _, _ -> Response in
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    _ = try? Image(data: jpeg)
                    try await writer.write(ByteBuffer(string: "ok"))
                    try await writer.finish(nil)
                })
        }
        router.get("blocking-check-self-test/pooled") { _, _ -> String in
            await BlockingPool.shared.run { _ = try? Image(data: jpeg) }
            return "ok"
        }
        try await Application(router: router).test(.router) { client in
            for path in ["handler", "body", "pooled"] {
                try await client.execute(uri: "/blocking-check-self-test/\(path)", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == "ok")
                }
            }
        }
        let kept = BlockingCheck.takeViolations { $0.hasPrefix(Self.selfTest + "/") }
        #expect(Set(kept.map(\.request)) == [Self.selfTest + "/handler", Self.selfTest + "/body"], "\(kept)")
    }
}
