import Foundation

/// Picker sessions in the catalog (``PickerSessionRecord``): the picker's server keeps them here
/// so that every server of the library shows, changes and resolves each one.
extension PhotoLibrary {
    /// Stores a new session (and forgets finished ones past an hour, abandoned ones past a day).
    package func addPickerSession(_ record: PickerSessionRecord) async throws(LibraryError) {
        try await catalog.addPickerSession(record)
    }

    /// The session with `id`, or `nil` when the catalog has none (never made, or forgotten).
    package func pickerSession(id: String) async throws(LibraryError) -> PickerSessionRecord? {
        try await catalog.pickerSession(id: id)
    }

    /// Sessions changed after `date`, oldest first.
    package func pickerSessions(updatedAfter date: Date) async throws(LibraryError) -> [PickerSessionRecord] {
        try await catalog.pickerSessions(updatedAfter: date)
    }

    /// The end of the catalog's change log now: where ``pickerSessionWrites(after:timeout:)``
    /// starts.
    package func changeLogEnd() async throws(LibraryError) -> Int64 {
        try await catalog.latestChangeSequence()
    }

    /// Whether other processes' commits wake ``pickerSessionWrites(after:timeout:)`` (PostgreSQL's
    /// `NOTIFY`); on SQLite they are found only when its timeout passes.
    package var notifiesOtherProcessesCommits: Bool {
        catalog.hearsOtherProcessesCommits
    }

    /// Waits until a session is written after `sequence` (a position in the change log) — woken
    /// at once by this process's writes and, on PostgreSQL, by any server's — or `timeout`
    /// passes; returns the identifiers of the sessions written, and the log's new end to wait
    /// after next.
    package func pickerSessionWrites(after sequence: Int64, timeout: Duration) async throws(LibraryError) -> (identifiers: [String], end: Int64) {
        await catalog.waitForChanges(after: sequence, timeout: timeout)
        let entries = try await catalog.changes(after: sequence)
        var identifiers: [String] = []
        for entry in entries where entry.kind == PickerSessionRecord.changeKind && !identifiers.contains(entry.localIdentifier) {
            identifiers.append(entry.localIdentifier)
        }
        return (identifiers, entries.last?.sequence ?? sequence)
    }

    /// Writes a session's new state over `version`, the one the writer last read.
    ///
    /// - Returns: The new version, or `nil` when another writer changed the session since
    ///   `version` or it has finished (nothing is written then).
    package func updatePickerSession(id: String, state: Data, finished: Bool, over version: Int) async throws(LibraryError) -> Int? {
        try await catalog.updatePickerSession(id: id, state: state, finished: finished, over: version)
    }
}
