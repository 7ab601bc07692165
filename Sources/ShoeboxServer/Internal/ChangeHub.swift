import Foundation
import ShoeboxLibrary
import Synchronization

/// Watches the library's changes (from this process and others) once, and hands each to every
/// open event stream.
///
/// The hub keeps the last ``retained`` changes, so a stream can start from a token (the one a
/// fetch was made at, or a browser's `Last-Event-ID` after a dropped connection) and miss
/// nothing committed in between. A token older than what the hub holds cannot be caught up:
/// ``subscribe(after:)`` says so, and the client must load again.
final class ChangeHub: Sendable {
    let library: PhotoLibrary
    /// Changes kept for streams that start from a token.
    let retained: Int

    private struct State {
        /// Each stream, and the token it wants changes after.
        var listeners: [UUID: (continuation: AsyncStream<PhotoLibraryChange>.Continuation, after: PersistentChangeToken?)] = [:]
        /// The most recent changes, oldest first.
        var recent: [PhotoLibraryChange] = []
        /// Every change after this token is in `recent` or not yet relayed; `nil` until the hub
        /// has read where the log starts.
        var floor: PersistentChangeToken?
        /// The last change relayed (or the floor).
        var last: PersistentChangeToken?
    }

    private let state = Mutex(State())

    init(library: PhotoLibrary, retained: Int = 1_024) {
        self.library = library
        self.retained = retained
    }

    /// Relays changes until cancelled. When the catalog cannot be read for a moment, it watches
    /// again from the last change it relayed, so none is skipped.
    func run() async {
        while !Task.isCancelled {
            do {
                let start: PersistentChangeToken
                if let last = state.withLock({ $0.last }) {
                    start = last
                } else {
                    start = try await library.currentChangeToken
                    state.withLock {
                        $0.floor = start
                        $0.last = start
                    }
                }
                for try await change in try await library.changes(since: start, pollingEvery: .milliseconds(150)) {
                    state.withLock { state in
                        state.recent.append(change)
                        if state.recent.count > retained {
                            state.floor = state.recent.removeFirst().token
                        }
                        state.last = change.token
                        // A stream whose token is ahead of what the hub relayed (a change committed
                        // but not yet read) gets only the changes after its token.
                        for (id, listener) in state.listeners where listener.after.map({ change.token > $0 }) ?? true {
                            // A stream too far behind ends rather than skip a change: its client
                            // connects again after the last change it got.
                            if case .dropped = listener.continuation.yield(change) {
                                state.listeners[id] = nil
                                listener.continuation.finish()
                            }
                        }
                    }
                }
            } catch {
                // The catalog could not be read for a moment: start watching again.
            }
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Every change from now on, until the stream is dropped.
    func subscribe() -> AsyncStream<PhotoLibraryChange> {
        let (stream, continuation) = AsyncStream<PhotoLibraryChange>.makeStream(bufferingPolicy: .bufferingOldest(retained))
        register(continuation, after: nil)
        return stream
    }

    /// Changes after `token` (every change the hub still holds after it, then each as it
    /// comes), until the stream is dropped; `nil` when changes after `token` are no longer held
    /// (or the hub has not started), so some would be missed.
    func subscribe(after token: PersistentChangeToken) -> AsyncStream<PhotoLibraryChange>? {
        let (stream, continuation) = AsyncStream<PhotoLibraryChange>.makeStream(bufferingPolicy: .bufferingOldest(retained))
        return register(continuation, after: token) ? stream : nil
    }

    @discardableResult
    private func register(_ continuation: AsyncStream<PhotoLibraryChange>.Continuation, after token: PersistentChangeToken?) -> Bool {
        let id = UUID()
        let registered = state.withLock { state -> Bool in
            if let token {
                guard let floor = state.floor, token >= floor else { return false }
                for change in state.recent where change.token > token { continuation.yield(change) }
            }
            state.listeners[id] = (continuation, token)
            return true
        }
        if registered {
            continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) } }
        }
        return registered
    }
}
