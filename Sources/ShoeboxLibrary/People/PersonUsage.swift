/// What one person's library holds, as their quota counts it (``Person/quota``).
public struct PersonUsage: Sendable, Hashable, Codable {
    /// The person's ``Person/id``.
    public let person: String
    /// Photos and movies, Recently Deleted included.
    public let assetCount: Int
    /// Albums and folders.
    public let albumCount: Int
    /// Bytes of originals, paired files and edited versions, Recently Deleted included.
    public let byteCount: Int64

    package init(person: String, assetCount: Int, albumCount: Int, byteCount: Int64) {
        self.person = person
        self.assetCount = assetCount
        self.albumCount = albumCount
        self.byteCount = byteCount
    }
}
