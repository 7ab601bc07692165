/// One change applied to many assets at once: what the web app's selection bar, the batch API
/// (`POST /api/assets/batch`) and the CLI's `favorite`, `hide`, `delete` and `restore` do, with
/// ``PhotoLibrary/perform(_:on:album:)``.
public enum AssetBatchAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Marks them as favorites.
    case favorite
    /// Takes the favorite mark off.
    case unfavorite
    /// Hides them (they show only in the Hidden album).
    case hide
    /// Shows them again.
    case unhide
    /// Moves them to Recently Deleted.
    case delete
    /// Brings them back from Recently Deleted.
    case restore
    /// Deletes them for good (they must be in Recently Deleted).
    case purge
    /// Appends them to an album.
    case addToAlbum
    /// Takes them out of an album (not out of the library).
    case removeFromAlbum

    /// Whether a burst's key photo takes the burst's other frames with it
    /// (``PhotoLibrary/withWholeBursts(_:)``): hiding, deleting or filing a burst is of all of
    /// it; a favorite mark belongs to the photo that stands for it.
    public var appliesToWholeBursts: Bool {
        switch self {
        case .delete, .hide, .unhide, .addToAlbum, .removeFromAlbum: true
        case .favorite, .unfavorite, .restore, .purge: false
        }
    }

    /// Whether the action needs an album.
    public var needsAlbum: Bool { self == .addToAlbum || self == .removeFromAlbum }

    /// Whether the action deletes (to Recently Deleted or for good): a client's deletion waits
    /// for the user's consent.
    public var deletes: Bool { self == .delete || self == .purge }
}
