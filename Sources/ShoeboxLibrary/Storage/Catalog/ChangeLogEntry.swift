import Foundation

/// One object touched by one commit.
package struct ChangeLogEntry: Sendable, Hashable {
    /// The entry's number in the log, increasing with each entry
    /// (``ChangeLog/changes(after:)`` reads after one).
    package let sequence: Int64
    /// The commit that wrote it (a UUID): entries of one transaction share it.
    package let commitID: String
    /// When the commit was made, by the clock of the process that made it.
    package let date: Date
    /// `insert`, `update`, `delete` or `album` (naming an asset or an album), or `grant`: a
    /// decision about a client changed (its grants, its limited selection, or its removal), and
    /// ``localIdentifier`` is the client's identifier.
    package let kind: String
    /// The asset or album the entry names, or the client's identifier for `grant`.
    package let localIdentifier: String

    /// The kind of an entry that says only that photos a partner shares with the person
    /// changed (its ``localIdentifier`` is empty): ``ChangeLog/changes(after:)`` reads the
    /// sharer's entries so.
    package static let partnerAssetKind = "partnerAsset"

    /// An entry as ``ChangeLog/changes(after:)`` returns it.
    package init(sequence: Int64, commitID: String, date: Date, kind: String, localIdentifier: String) {
        self.sequence = sequence
        self.commitID = commitID
        self.date = date
        self.kind = kind
        self.localIdentifier = localIdentifier
    }
}
