import Foundation
import ShoeboxPicker
import Synchronization

/// The picker sessions this server presents, and who asked for each (a client, or the user).
/// Finished sessions are kept an hour, so their owner can still read the result and files.
final class PickerRegistry: Sendable {
    struct Entry: Sendable {
        let session: PickerSession
        /// The client that created it, `nil` for the user or Shoebox's own tools.
        let owner: String?
    }

    static let retention: TimeInterval = 3_600
    private let entries = Mutex<[String: Entry]>([:])
    private let listeners = Mutex<[UUID: AsyncStream<PickerSession>.Continuation]>([:])

    func add(_ session: PickerSession, owner: String?) {
        entries.withLock { all in
            let now = Date()
            all = all.filter { !$0.value.session.isFinished || now.timeIntervalSince($0.value.session.createdAt) < Self.retention }
            all[session.id] = Entry(session: session, owner: owner)
        }
        for listener in listeners.withLock({ Array($0.values) }) { listener.yield(session) }
    }

    func entry(_ id: String) -> Entry? {
        entries.withLock { $0[id] }
    }

    /// Sessions still open (the web app offers them to the user).
    var open: [PickerSession] {
        entries.withLock { $0.values.map(\.session).filter { !$0.isFinished }.sorted { $0.createdAt < $1.createdAt } }
    }

    /// Sessions as they are presented from now on.
    func presented() -> AsyncStream<PickerSession> {
        let (stream, continuation) = AsyncStream<PickerSession>.makeStream()
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
        return stream
    }
}
