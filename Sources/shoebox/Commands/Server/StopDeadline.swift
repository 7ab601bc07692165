import Foundation
import Synchronization

/// Makes a stopping `shoebox serve` end, whatever it waits for: once SIGTERM or SIGINT came, the
/// process exits (status 1, saying so) after `grace`, or at once at a second signal. A graceful
/// stop answers what is in progress first; a request waiting on a catalog or object store that
/// does not answer has a deadline of its own, and this is the backstop if one did not.
final class StopDeadline {
    private let sources: [any DispatchSourceSignal]

    init(grace: Duration) {
        let signals = SignalCount()
        sources = [SIGINT, SIGTERM].map { number in
            // The server's own handlers (swift-service-lifecycle) watch the same signals through
            // dispatch sources of their own: each source is told.
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if signals.value.add(1, ordering: .relaxed).newValue > 1 {
                    Terminal.standardError("error: a second signal: stopping now, without waiting for requests in progress")
                    exit(1)
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(grace.components.seconds * 1_000_000_000))) {
                    Terminal.standardError(
                        "error: stopping took more than \(grace.components.seconds) s (requests still waited, for the catalog or the object store); stopped without them"
                    )
                    exit(1)
                }
            }
            source.resume()
            return source
        }
    }

    /// Stops watching (the server stopped in time).
    func cancel() {
        sources.forEach { $0.cancel() }
    }
}

private final class SignalCount: Sendable {
    let value = Atomic<Int>(0)
}
