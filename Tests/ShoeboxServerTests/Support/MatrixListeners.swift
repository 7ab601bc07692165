import Foundation
import ShoeboxTesting

/// Change-event streams held open for the whole authorization matrix: each client identity's
/// `/api/events` (plain, and on its own fetch snapshot) and the user's, so that every event the
/// matrix's changes cause is checked against what the identity may see.
final class MatrixListeners: @unchecked Sendable {
    // @unchecked: one test task reads the streams, one at a time.
    struct Listener {
        let identity: MatrixIdentity
        let path: String
        let stream: RawHTTP.Stream
    }

    private(set) var listeners: [Listener] = []
    /// Streams refused when opened (`403` for a client that may not read), by identity and path.
    private(set) var refused: [(identity: MatrixIdentity, path: String, head: String)] = []

    /// Opens the streams of the user (the browser) and of every client whose token is good.
    static func open(_ fixture: MatrixFixture) async throws -> MatrixListeners {
        let opened = MatrixListeners()
        // The member's stream too: no change of the first admin's may name anything to them.
        for identity in MatrixIdentity.allCases where identity == .browser || identity == .member || identity.isClient {
            var paths = ["/api/events"]
            if let fetch = fixture.owner(of: identity).flatMap({ fixture.owned[$0]?.fetch }) { paths.append("/api/events?fetch=\(fetch)") }
            for path in paths {
                let stream = try fixture.test.http.open(path, headers: fixture.credentials(identity, changing: false))
                let head = await stream.read(until: "\r\n\r\n", timeout: 10)
                if head.hasPrefix("HTTP/1.1 200") {
                    opened.listeners.append(Listener(identity: identity, path: path, stream: stream))
                } else {
                    opened.refused.append((identity, path, String(head.prefix(40))))
                }
            }
        }
        return opened
    }

    /// Reads what arrived, so no stream backs up while the matrix runs.
    func drain() async {
        for listener in listeners { _ = await listener.stream.read(until: "\u{0}", timeout: 0.02) }
    }

    /// Reads each stream until `marker` arrives (or `timeout`); returns the streams it did not reach.
    /// The listeners (of `identities`; `nil`: all) whose stream did not carry `marker` in time.
    func wait(for marker: String, timeout: Double, of identities: Set<MatrixIdentity>? = nil) async -> [Listener] {
        var missed: [Listener] = []
        for listener in listeners where identities?.contains(listener.identity) ?? true {
            guard !(await listener.stream.read(until: marker, timeout: timeout)).contains(marker) else { continue }
            missed.append(listener)
        }
        return missed
    }
}
