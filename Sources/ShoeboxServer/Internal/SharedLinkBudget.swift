import Foundation
import HTTPTypes
import Synchronization

/// What strangers holding shared links may cost the server, apart from the user's own work:
/// renders (thumbnails, images, playback renditions) for every link together run at most
/// ``renders`` at a time and at most ``waiting`` more wait; a link request beyond that is
/// `503 busy` with `Retry-After`, so a link's audience never queues in front of the user.
/// Visits are counted once per address per ``visitInterval``.
final class SharedLinkBudget: Sendable {
    let renders: Int
    let waiting: Int
    /// One look at a link from one address within this time is one visit.
    static let visitInterval: TimeInterval = 30 * 60

    private enum Entry { case now, wait, refuse }

    private struct State {
        var running = 0
        var queue: [CheckedContinuation<Void, Never>] = []
        var visits: [String: Date] = [:]
    }

    private let state = Mutex(State())

    init(renders: Int, waiting: Int) {
        self.renders = max(1, renders)
        self.waiting = max(0, waiting)
    }

    /// Runs `body` in a render slot, waiting for one if the queue has room.
    /// - Throws: `503 busy` when every slot is taken and the queue is full.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let entry = state.withLock { state -> Entry in
            if state.running < renders {
                state.running += 1
                return .now
            }
            return state.queue.count < waiting ? .wait : .refuse
        }
        switch entry {
        case .refuse:
            var busy = APIError(.serviceUnavailable, "busy", "this shared link is busy: try again in a moment")
            busy.headers[.retryAfter] = "2"
            throw busy
        case .wait:
            // The slot is handed over by the one that ends (running stays counted).
            await withCheckedContinuation { continuation in
                let handedNow = state.withLock { state -> Bool in
                    if state.running < renders {
                        state.running += 1
                        return true
                    }
                    state.queue.append(continuation)
                    return false
                }
                if handedNow { continuation.resume() }
            }
        case .now:
            break
        }
        defer { release() }
        return try await body()
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.queue.isEmpty {
                state.running -= 1
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.resume()
    }

    /// Whether a look at `link` from `address` now starts a visit (none from there in the last
    /// ``visitInterval``). Old entries are forgotten as new ones come.
    func startsVisit(link: String, address: String, now: Date = Date()) -> Bool {
        state.withLock { state in
            let key = link + " " + address
            if let last = state.visits[key], now.timeIntervalSince(last) < Self.visitInterval { return false }
            if state.visits.count > 10_000 { state.visits = state.visits.filter { now.timeIntervalSince($0.value) < Self.visitInterval } }
            state.visits[key] = now
            return true
        }
    }
}
