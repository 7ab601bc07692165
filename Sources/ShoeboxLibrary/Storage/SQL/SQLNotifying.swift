import Foundation
import ShoeboxImaging

/// What a driver that hears other processes' commits offers (PostgreSQL's `LISTEN`/`NOTIFY`),
/// asked for with ``SQLDriver/notifier``.
package protocol SQLNotifying: Sendable {
    /// Returns when a notification arrives or `latest` passes `sequence` (checked now and then,
    /// since a notification can be missed), or after `timeout`.
    func waitForNotification(after sequence: Int64, timeout: Duration, latest: @escaping @Sendable () async throws -> Int64) async
    /// Notifies `board` of every notification on `channel` from now on (once per channel; the
    /// listener reconnects after a lost connection).
    func listen(on channel: String, board: NotificationBoard)
}
