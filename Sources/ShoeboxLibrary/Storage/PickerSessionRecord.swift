import Foundation

/// A picker session as the catalog keeps it, so that every server of a library can show it, change
/// it and resolve it: what the client asked for and where the user is (selection, edits, outcome),
/// as the picker encodes them. The library stores both as opaque JSON.
///
/// Each change writes a new ``version``, and only over the version the writer read: two servers
/// changing one session at once cannot silently undo each other.
package struct PickerSessionRecord: Sendable, Hashable {
    /// The session's unguessable identifier (128 random bits, hex).
    package let id: String
    /// The client that asked for the pick; `nil` for the user or Shoebox's own tools.
    package let owner: String?
    /// The row id of the person whose library the picker shows (the client's person, or the
    /// person who asked): only they see and answer it.
    package let personID: Int64
    /// The picker's request, JSON.
    package let request: Data
    /// The picker's state (selection, edits, outcome), JSON.
    package var state: Data
    /// 1 when made, one more with each change.
    package var version: Int
    /// Whether the session has ended (picked or cancelled): its state changes no more.
    package var isFinished: Bool
    /// When the session was made.
    package let createdDate: Date
    /// When it last changed; finished and abandoned sessions are forgotten by it.
    package var updatedDate: Date

    /// The kind of the change-log entry each write of a session adds (its `localIdentifier` is
    /// the session's identifier): servers watching for other servers' writes wake on it. Asset
    /// and album observers skip it.
    static let changeKind = "picker"

    /// A session record: a new session is version 1, unfinished, made and changed now.
    package init(
        id: String, owner: String?, personID: Int64 = Person.adminRowID, request: Data, state: Data, version: Int = 1, isFinished: Bool = false,
        createdDate: Date = Date(), updatedDate: Date = Date()
    ) {
        self.id = id
        self.owner = owner
        self.personID = personID
        self.request = request
        self.state = state
        self.version = version
        self.isFinished = isFinished
        self.createdDate = createdDate
        self.updatedDate = updatedDate
    }

    /// Finished sessions stay this long (their owner may still read the result), then go.
    package static let finishedRetention: TimeInterval = 3_600
    /// Sessions nobody finished are forgotten after this long.
    package static let abandonedRetention: TimeInterval = 86_400
}
