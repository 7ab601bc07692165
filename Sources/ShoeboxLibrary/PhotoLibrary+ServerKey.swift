import Foundation

extension PhotoLibrary {
    /// The setting that holds ``sharedServerKey(rotating:)``.
    static let serverKeySetting = "serverKey"

    /// The key every server of this library signs the user in with when it is given none: kept
    /// in the catalog, made (256 random bits, hex) by the first server to ask, so servers on
    /// several machines sharing a PostgreSQL catalog sign in the same browsers without being told
    /// a key. With `rotating`, a new key replaces it: browsers signed in with the old one must
    /// sign in again (servers already running keep theirs until restarted).
    ///
    /// Anyone who can read the catalog can read this key, as they can read the library itself.
    ///
    /// - Throws: ``LibraryError/Code/storage`` if the catalog cannot be read or written.
    package func sharedServerKey(rotating: Bool = false) async throws(LibraryError) -> String {
        let fresh = RandomToken.hex(words: 4)
        if rotating {
            try await catalog.setSetting(Self.serverKeySetting, to: fresh)
            return fresh
        }
        return try await catalog.setting(Self.serverKeySetting, default: fresh)
    }
}
