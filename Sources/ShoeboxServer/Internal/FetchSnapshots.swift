import Foundation
import ShoeboxLibrary
import Synchronization

/// Fetch results the web grid pages through by index: a snapshot per grid, kept up to date by
/// the change events (each event's details are computed against it, then it moves on to the
/// result after the change). At most 256 are kept; the least recently used go first.
final class FetchSnapshots: Sendable {
    struct Snapshot: Sendable {
        let id: String
        let query: FetchQuery
        /// `user` or a client identifier: only its owner may read it.
        let owner: String
        var result: FetchResult<Asset>
        var lastUsed: Date
    }

    static let capacity = 256
    private let snapshots = Mutex<[String: Snapshot]>([:])

    func add(_ result: FetchResult<Asset>, query: FetchQuery, owner: String) -> Snapshot {
        let snapshot = Snapshot(id: ServerState.randomToken(), query: query, owner: owner, result: result, lastUsed: Date())
        snapshots.withLock { all in
            all[snapshot.id] = snapshot
            if all.count > Self.capacity, let oldest = all.values.min(by: { $0.lastUsed < $1.lastUsed }) {
                all[oldest.id] = nil
            }
        }
        return snapshot
    }

    func snapshot(_ id: String, owner: String) -> Snapshot? {
        snapshots.withLock { all in
            guard var snapshot = all[id], snapshot.owner == owner else { return nil }
            snapshot.lastUsed = Date()
            all[id] = snapshot
            return snapshot
        }
    }

    /// Moves a snapshot on to `result` (after a change).
    func update(_ id: String, to result: FetchResult<Asset>) {
        snapshots.withLock { all in
            all[id]?.result = result
            all[id]?.lastUsed = Date()
        }
    }
}
