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

    /// Writes a session's new state over `version`, the one the writer last read.
    ///
    /// - Returns: The new version, or `nil` when another writer changed the session since
    ///   `version` or it has finished (nothing is written then).
    package func updatePickerSession(id: String, state: Data, finished: Bool, over version: Int) async throws(LibraryError) -> Int? {
        try await catalog.updatePickerSession(id: id, state: state, finished: finished, over: version)
    }
}
