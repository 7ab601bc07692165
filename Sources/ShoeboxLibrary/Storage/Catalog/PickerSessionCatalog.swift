import Foundation

/// Picker sessions kept in the catalog, so any server can answer for one.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol PickerSessionCatalog: Sendable {
    /// Adds a session (and forgets finished ones past ``PickerSessionRecord/finishedRetention``
    /// and abandoned ones past ``PickerSessionRecord/abandonedRetention``).
    func addPickerSession(_ record: PickerSessionRecord) async throws(LibraryError)
    /// The session with this id, finished or not; `nil` when unknown or forgotten.
    func pickerSession(id: String) async throws(LibraryError) -> PickerSessionRecord?
    /// Sessions changed after `date`, oldest first.
    func pickerSessions(updatedAfter date: Date) async throws(LibraryError) -> [PickerSessionRecord]
    /// Writes a session's new state over `version`: the new version, or `nil` when the stored one
    /// is no longer `version` (another server changed it) or the session has finished.
    func updatePickerSession(id: String, state: Data, finished: Bool, over version: Int) async throws(LibraryError) -> Int?
}
