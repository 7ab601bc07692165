import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Finds blocking work that a request runs on an event loop, where ``BlockingPool`` should have
/// run it: the library's and libvips's blocking primitives (file reads and writes, decodes and
/// encodes) call ``note(_:fileID:line:)``, and a note made while a request is answered
/// (``request`` set, by the server's middleware) on one of NIO's event loops is kept as a
/// ``Violation``.
///
/// Under `shoebox serve` NIO's event loops are Swift Concurrency's executor, so such a call holds
/// every request that event loop carries. The check is off unless `SHOEBOX_CHECK_BLOCKING=1`
/// (scripts/test's first pass, which also installs NIO's event loops as the executor): then the
/// server suites fail on every violation their requests reach, wherever in the modules below the
/// server the call is. Off, a note costs one load of a constant.
package enum BlockingCheck {
    /// Whether notes are checked: `SHOEBOX_CHECK_BLOCKING=1` in the environment.
    package static let isEnabled: Bool = {
        guard let value = getenv("SHOEBOX_CHECK_BLOCKING") else { return false }
        return String(cString: value) == "1"
    }()

    /// The request being answered (its method and path), set by the server for its handlers and
    /// response bodies while the check is on; `nil` elsewhere (start-up, jobs, tests' own code).
    @TaskLocal package static var request: String?

    /// A blocking call made for a request on an event loop.
    package struct Violation: Sendable, CustomStringConvertible {
        /// What blocked (`"a file read"`, `"a libvips decode"`, …).
        package let call: String
        /// The request it was made for.
        package let request: String
        /// Where the primitive was called.
        package let fileID: String
        /// The line of that call.
        package let line: UInt

        package var description: String { "\(fileID):\(line): \(call) on an event loop, answering \(request)" }
    }

    private static let found = Mutex<[Violation]>([])

    /// Called by a blocking primitive before it blocks: keeps a violation when the check is on,
    /// a request is being answered and the calling thread is one of NIO's event loops.
    @inline(__always)
    package static func note(_ call: @autoclosure () -> String, fileID: StaticString = #fileID, line: UInt = #line) {
        guard isEnabled else { return }
        record(call(), fileID: fileID, line: line)
    }

    private static func record(_ call: String, fileID: StaticString, line: UInt) {
        guard let request, MultiThreadedEventLoopGroup.currentEventLoop != nil else { return }
        let violation = Violation(call: call, request: request, fileID: "\(fileID)", line: line)
        found.withLock { $0.append(violation) }
    }

    /// The violations kept so far whose request passes `isIncluded` (all of them by default),
    /// forgotten once taken.
    package static func takeViolations(where isIncluded: (String) -> Bool = { _ in true }) -> [Violation] {
        found.withLock { found in
            let taken = found.filter { isIncluded($0.request) }
            found.removeAll { isIncluded($0.request) }
            return taken
        }
    }
}
