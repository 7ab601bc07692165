import Foundation

/// The people of the library (``Person``) and what their libraries hold.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
/// People are the library's, not one person's: these read and write every person whoever the
/// store acts for (the routes that call them check the caller is an admin).
package protocol PeopleCatalog: Sendable {
    /// Everyone, in the order they were added.
    func people() async throws(LibraryError) -> [Person]
    /// The person with sign-in name `name`, or with identifier `name`.
    func person(named name: String) async throws(LibraryError) -> Person?
    /// The person with row id `rowID`.
    func person(rowID: Int64) async throws(LibraryError) -> Person?
    /// Adds a person; ``LibraryError/Code/constraint`` when the name is taken.
    func addPerson(name: String, displayName: String, role: Person.Role, passwordHash: String?, quota: Int64?) async throws(LibraryError) -> Person
    /// Changes a person's fields (each `nil` leaves one as it is; `quota: .some(nil)` removes the
    /// limit). A change of state or password ends the person's sessions (``sessionEpoch(of:)``
    /// grows). Returns the person as changed.
    func updatePerson(
        rowID: Int64, name: String?, displayName: String?, role: Person.Role?, state: Person.State?, quota: Int64??, passwordHash: String?
    ) async throws(LibraryError) -> Person
    /// The password hash kept for a person, if any.
    func passwordHash(of rowID: Int64) async throws(LibraryError) -> String?
    /// A number that grows whenever the person's sessions must end (disabled, password changed,
    /// signed out everywhere).
    func sessionEpoch(of rowID: Int64) async throws(LibraryError) -> Int64
    /// Ends every session the person has (``sessionEpoch(of:)`` grows).
    func endSessions(of rowID: Int64) async throws(LibraryError)
    /// Removes a person who owns no asset and no album any more.
    func removePerson(rowID: Int64) async throws(LibraryError)
    /// What each person's library holds.
    func usage() async throws(LibraryError) -> [Int64: PersonUsage]
}
