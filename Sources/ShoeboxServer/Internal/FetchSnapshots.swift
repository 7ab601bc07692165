import Foundation
import ShoeboxLibrary
import Synchronization

/// Fetch results the web grid pages through by index: a snapshot per grid, kept up to date by
/// the change events (each event's details are computed against it, then it moves on to the
/// result after the change, and to that change's token). At most 256 are kept; the least
/// recently used go first.
final class FetchSnapshots: Sendable {
    struct Snapshot: Sendable {
        let id: String
        let query: FetchQuery
        /// `user` or `client:` and a client identifier (``Caller/owner``): only its owner may read it.
        let owner: String
        var result: FetchResult<Asset>
        /// The result holds every change up to this token (taken before the fetch ran, so a
        /// change committed while it ran is applied again, which changes nothing).
        var token: PersistentChangeToken
        var lastUsed: Date
    }

    static let capacity = 256
    private let snapshots = Mutex<[String: Snapshot]>([:])

    func add(_ result: FetchResult<Asset>, query: FetchQuery, owner: String, token: PersistentChangeToken) -> Snapshot {
        let snapshot = Snapshot(id: RandomToken.base64URL(), query: query, owner: owner, result: result, token: token, lastUsed: Date())
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

    /// Moves a snapshot on to `result`, the result after the change with `token`; `false` (and
    /// nothing moved) when the snapshot was already there or further.
    func update(_ id: String, to result: FetchResult<Asset>, token: PersistentChangeToken) -> Bool {
        snapshots.withLock { all in
            guard let snapshot = all[id], snapshot.token < token else { return false }
            all[id]?.result = result
            all[id]?.token = token
            all[id]?.lastUsed = Date()
            return true
        }
    }
}
