import Foundation

/// A resumable upload as the catalog keeps it: what is coming (a file name and a size), how much
/// has arrived, and where the pieces are. Every server of a library reads and extends it, so an
/// upload begun on one server is carried on, after a dropped connection or a dead server, on any
/// other from the byte it reached (see ``PhotoLibrary/beginUpload(filename:size:album:)``).
package struct UploadRecord: Sendable, Hashable, Codable {
    /// Where an upload is.
    package enum State: String, Sendable, Hashable, Codable {
        /// Bytes are still to come (or all came, and the import is to be made).
        case receiving
        /// Imported: ``assetIdentifier`` names the asset.
        case complete
    }

    /// One received piece: `length` bytes from `offset`, stored under `name`.
    package struct Piece: Sendable, Hashable, Codable {
        /// The name the piece is stored under in the blob store: its offset, 16 digits, and a random
        /// suffix.
        package let name: String
        /// Where the piece starts in the file, in bytes.
        package let offset: Int
        /// The piece's size in bytes.
        package let length: Int
    }

    /// An unguessable identifier (128 random bits, hex).
    package let id: String
    /// The client that uploads; `nil` for the user.
    package let owner: String?
    /// The name the file is imported under (one plain file name, no folders).
    package let filename: String
    /// The file's size in bytes, as announced.
    package let size: Int
    /// The album the new asset goes into, if any.
    package let album: String?
    /// Bytes received and stored so far: the offset the next piece starts at.
    package var received: Int
    /// The pieces received so far, in the order they came; together they cover the file's
    /// bytes from 0 up to ``received``.
    package var pieces: [Piece]
    /// Whether bytes are still coming or the upload was imported.
    package var state: State
    /// The asset the upload became (or the existing one with the same bytes).
    package var assetIdentifier: String?
    /// When the upload was begun.
    package let createdDate: Date
    /// When a piece last came or the upload was imported: the sweeper measures
    /// ``abandonedAfter`` and ``completeRetention`` from it.
    package var updatedDate: Date

    /// A record from its fields; a new upload is ``State/receiving`` with nothing received.
    package init(
        id: String, owner: String?, filename: String, size: Int, album: String?, received: Int = 0, pieces: [Piece] = [],
        state: State = .receiving, assetIdentifier: String? = nil, createdDate: Date = Date(), updatedDate: Date = Date()
    ) {
        self.id = id
        self.owner = owner
        self.filename = filename
        self.size = size
        self.album = album
        self.received = received
        self.pieces = pieces
        self.state = state
        self.assetIdentifier = assetIdentifier
        self.createdDate = createdDate
        self.updatedDate = updatedDate
    }

    /// Whether every byte has arrived.
    package var isWhole: Bool { received == size }

    /// Uploads nobody added to for this long are removed, pieces and all (by the sweeper).
    package static let abandonedAfter: TimeInterval = 86_400
    /// Finished uploads are remembered this long, so a client that missed the answer can ask.
    package static let completeRetention: TimeInterval = 3_600
}
