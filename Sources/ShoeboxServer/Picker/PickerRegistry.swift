import Foundation
import HTTPTypes
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxPicker
import Synchronization

/// The picker sessions of the library, kept in its catalog so that every server of it answers
/// for every session: one made on server A is shown, changed and resolved through server B, and
/// outlives A. Each server holds the sessions it serves in memory and brings them up to date from
/// the catalog before each use; changes are written back at once (``save(_:)``).
///
/// While anyone here waits on a session or listens for new ones, a watcher waits for other
/// servers' writes of sessions — woken by their `NOTIFY` on PostgreSQL, or reading the change
/// log's end every ``watchInterval`` on SQLite, whose other processes cannot wake it — so a change
/// made on another server reaches this one's browsers and waiting clients. Finished sessions are
/// kept an hour, so their owner can still read the result and files. A camera picker is not
/// transferable: it is served by the server that opened it.
final class PickerRegistry: Sendable {
    struct Entry: Sendable {
        let session: PickerSession
        /// The client that created it, `nil` for the user or Shoebox's own tools.
        let owner: String?
        /// The row id of the person whose library the picker shows: only they answer it, and
        /// only they and their client read it.
        var personID: Int64 { PickerRegistry.personID(of: session) }
    }

    /// The row id of the person whose library `session` shows (the first admin's for a picker
    /// without a library, which shows only the camera).
    static func personID(of session: PickerSession) -> Int64 {
        session.library?.catalog.owner ?? Person.adminRowID
    }

    private struct Held {
        let session: PickerSession
        let owner: String?
        /// The catalog version this server's copy reflects.
        var version: Int
        /// Saves of this copy under way: until they are recorded, a newer version in the
        /// catalog may be this server's own write.
        var saving = 0
    }

    let library: PhotoLibrary
    /// How often the watcher reads the change log's end on SQLite (250 ms). Internal and
    /// settable: a test that needs a server not to see another's change yet lengthens it.
    var watchInterval: Duration {
        get { interval.withLock { $0 } }
        set { interval.withLock { $0 = newValue } }
    }
    private let interval = Mutex<Duration>(.milliseconds(250))
    private let held = Mutex<[String: Held]>([:])
    private let listeners = EventFanOut<PickerSession>()
    /// Sessions being restored, so that concurrent requests restore each once.
    private let restoring = Mutex<[String: Task<Held?, any Error>]>([:])
    private let watcher = Mutex<Task<Void, Never>?>(nil)

    init(library: PhotoLibrary) {
        self.library = library
    }

    // MARK: Adding and finding

    /// Records a new session in the catalog and serves it from this server.
    func add(_ session: PickerSession, owner: String?) async throws(APIError) {
        let record = PickerSessionRecord(
            id: session.id, owner: owner, personID: Self.personID(of: session), request: try Self.encode(session.request),
            state: try Self.encode(session.snapshot), createdDate: session.createdAt)
        do {
            try await library.addPickerSession(record)
        } catch {
            throw APIError(.serviceUnavailable, "catalogUnavailable", "the picker session could not be stored: \(error.message)")
        }
        hold(Held(session: session, owner: owner, version: 1))
        announce(session)
    }

    /// The session, up to date with changes other servers made; `nil` when the catalog knows no
    /// such session (or it was forgotten an hour after it finished). With `refreshing` false, a
    /// copy held here answers as it is (the watcher brings it up to date within
    /// ``watchInterval``): for reads that need no newer state, such as the grid's thumbnails.
    ///
    /// - Throws: ``APIError`` 409 `pickerElsewhere` for a camera picker another server serves.
    func entry(_ id: String, refreshing: Bool = true) async throws(APIError) -> Entry? {
        if !refreshing, let local = held.withLock({ $0[id] }) { return Entry(session: local.session, owner: local.owner) }
        let record: PickerSessionRecord?
        do {
            record = try await library.pickerSession(id: id)
        } catch {
            // The catalog is away for a moment: what this server holds still serves.
            guard let local = held.withLock({ $0[id] }) else {
                throw APIError(.serviceUnavailable, "catalogUnavailable", "the picker session cannot be read now: \(error.message)")
            }
            return Entry(session: local.session, owner: local.owner)
        }
        guard let record else {
            held.withLock { _ = $0.removeValue(forKey: id) }
            return nil
        }
        guard let current = try await bringUpToDate(record) else { return nil }
        return Entry(session: current.session, owner: current.owner)
    }

    /// Writes a session's state to the catalog after this server changed it.
    ///
    /// - Throws: ``APIError`` 409 `pickerChanged` when another server changed the session in
    ///   the meantime: this server's copy takes on that change, and the caller may try again.
    func save(_ session: PickerSession) async throws(APIError) {
        let snapshot = session.snapshot
        let state = try Self.encode(snapshot)
        guard
            let version = held.withLock({ all -> Int? in
                all[session.id]?.saving += 1
                return all[session.id]?.version
            })
        else { return }
        let written: Int?
        do {
            written = try await library.updatePickerSession(id: session.id, state: state, finished: snapshot.outcome != .pending, over: version)
        } catch {
            held.withLock { $0[session.id]?.saving -= 1 }
            throw APIError(.serviceUnavailable, "catalogUnavailable", "the picker's change could not be stored: \(error.message)")
        }
        // The save is over (recorded, or refused) before another server's change is taken on.
        held.withLock { all in
            all[session.id]?.saving -= 1
            if let written { all[session.id]?.version = written }
        }
        if written != nil { return }
        let record = try? await library.pickerSession(id: session.id)
        if let record { _ = try? await bringUpToDate(record) }
        if snapshot.outcome != .pending, record?.isFinished == true {
            return  // Finished on both sides: the outcome stands where it was written first.
        }
        throw APIError(.conflict, "pickerChanged", "the picker changed in another window at the same time: look again and retry")
    }

    /// Sessions as they are presented from now on, here or on another server, anyone's: the
    /// listener keeps those of its person (``personID(of:)``).
    func presented() -> AsyncStream<PickerSession> {
        let stream = listeners.subscribe()
        startWatching()
        return stream
    }

    // MARK: Keeping up with the catalog

    private func hold(_ entry: Held) {
        held.withLock { all in
            let now = Date()
            all = all.filter { held in
                let age = now.timeIntervalSince(held.value.session.createdAt)
                return age < (held.value.session.isFinished ? PickerSessionRecord.finishedRetention : PickerSessionRecord.abandonedRetention)
            }
            all[entry.session.id] = entry
        }
        startWatching()
    }

    private func announce(_ session: PickerSession) {
        listeners.yield(session)
    }

    /// This server's copy of the session in `record`: made from it if this server has none,
    /// brought up to it if it is older.
    private func bringUpToDate(_ record: PickerSessionRecord) async throws(APIError) -> Held? {
        if let local = held.withLock({ $0[record.id] }) {
            guard record.version > local.version, local.saving == 0 else { return local }
            let snapshot = try Self.decode(PickerSession.Snapshot.self, record.state)
            do {
                // A snapshot this server wrote itself (read before its save recorded the new
                // version) changes nothing here: applying it would only undo what came after.
                if snapshot != local.session.snapshot { try await local.session.apply(snapshot) }
            } catch {
                throw APIError(.internalServerError, "pickerFailed", "the picker could not take on another server's change: \(error.message)")
            }
            return held.withLock { all in
                if let current = all[record.id], current.version < record.version { all[record.id]?.version = record.version }
                return all[record.id]
            }
        }
        let task = restoring.withLock { tasks in
            if let running = tasks[record.id] { return running }
            let task = Task<Held?, any Error> { try await self.restore(record) }
            tasks[record.id] = task
            return task
        }
        defer { restoring.withLock { _ = $0.removeValue(forKey: record.id) } }
        do {
            return try await task.value
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.internalServerError, "pickerFailed", "the picker session could not be restored: \(error)")
        }
    }

    private func restore(_ record: PickerSessionRecord) async throws -> Held? {
        if let local = held.withLock({ $0[record.id] }) { return local }
        let request = try Self.decode(PickerRequest.self, record.request)
        guard request.isTransferable else {
            throw APIError(.conflict, "pickerElsewhere", "this camera picker is served by the server that opened it (its camera and captures are there)")
        }
        let snapshot = try Self.decode(PickerSession.Snapshot.self, record.state)
        let session: PickerSession
        do {
            session = try await PickerSession.restore(
                id: record.id, createdAt: record.createdDate, request: request, snapshot: snapshot,
                library: library.scoped(to: record.personID), availability: PickerAvailability(hasLibrary: true))
        } catch {
            throw APIError(.internalServerError, "pickerFailed", "the picker session could not be restored: \(error.message)")
        }
        let entry = Held(session: session, owner: record.owner, version: record.version)
        let kept = held.withLock { all -> Held in
            if let raced = all[record.id] { return raced }
            all[record.id] = entry
            return entry
        }
        startWatching()
        return kept
    }

    /// Reads the catalog while something here waits: open sessions held here (a client waits for
    /// the result, a browser for the state) or listeners for new sessions.
    private func startWatching() {
        watcher.withLock { task in
            guard task == nil else { return }
            task = Task { [weak self] in await self?.watch() }
        }
    }

    /// Whether anything here waits: an open session held here, or a listener for new ones.
    private var hasWatchers: Bool {
        held.withLock { $0.values.contains { !$0.session.isFinished } } || listeners.hasSubscribers
    }

    private func watch() async {
        var seen = Set<String>()
        // Where the change log ends before the first read: a write after it wakes the wait.
        var end = try? await library.changeLogEnd()
        var records =
            (try? await library.pickerSessions(updatedAfter: Date().addingTimeInterval(-PickerSessionRecord.abandonedRetention))) ?? []
        // On PostgreSQL a `NOTIFY` wakes the wait, and the timeout only lets the watcher notice
        // that nothing here waits any more.
        let timeout = library.notifiesOtherProcessesCommits ? .seconds(2) : watchInterval
        while hasWatchers {
            for record in records {
                let firstSight = seen.insert(record.id).inserted
                if held.withLock({ $0[record.id] != nil }) {
                    _ = try? await bringUpToDate(record)
                } else if firstSight, !record.isFinished, listeners.hasSubscribers,
                    let restored = try? await bringUpToDate(record)
                {
                    announce(restored.session)  // opened on another server
                }
            }
            records = []
            guard let after = end else {
                // The catalog could not be read: try again after the interval.
                try? await Task.sleep(for: watchInterval)
                end = try? await library.changeLogEnd()
                continue
            }
            guard let writes = try? await library.pickerSessionWrites(after: after, timeout: timeout) else {
                try? await Task.sleep(for: watchInterval)
                continue
            }
            end = writes.end
            for id in writes.identifiers {
                if let record = try? await library.pickerSession(id: id) { records.append(record) }
            }
        }
        watcher.withLock { $0 = nil }
        if hasWatchers { startWatching() }  // something began between the last check and now
    }

    // MARK: Coding

    private static func encode(_ value: some Encodable) throws(APIError) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw APIError(.internalServerError, "pickerFailed", "cannot encode the picker session: \(error)")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws(APIError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw APIError(.internalServerError, "pickerFailed", "the stored picker session cannot be read by this version: \(error)")
        }
    }
}
