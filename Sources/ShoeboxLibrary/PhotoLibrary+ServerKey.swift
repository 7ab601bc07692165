import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension PhotoLibrary {
    /// The setting that holds ``sharedServerKey(rotating:)``.
    static let serverKeySetting = "serverKey"

    /// The file in the library folder that holds ``storedServerKey(rotating:)``.
    package static let serverKeyFileName = "server.key"

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

    /// The key a server of this (embedded) library signs the user in with when it is given none,
    /// kept in the library folder's `server.key` (mode 0600: only the library's owner reads it),
    /// so a browser signed in stays signed in when the server restarts. The first server to ask
    /// makes it (256 random bits, hex); servers starting at once agree on one (it is linked into
    /// place, never overwritten by a second maker). With `rotating`, a new key replaces it:
    /// browsers signed in with the old one must sign in again.
    ///
    /// ```swift
    /// let key = try library.storedServerKey()   // the same on every start
    /// ```
    ///
    /// A file with no key in it (emptied by hand) is replaced by a new key; a file others could
    /// read is made private again.
    ///
    /// - Throws: ``LibraryError/Code/storage`` if the file cannot be read or written.
    package func storedServerKey(rotating: Bool = false) throws(LibraryError) -> String {
        let file = url.appendingPathComponent(Self.serverKeyFileName)
        if !rotating, let kept = try Self.readServerKey(at: file) { return kept }
        let fresh = RandomToken.hex(words: 4)
        let temporary = url.appendingPathComponent(".\(Self.serverKeyFileName).\(RandomToken.hex(words: 1))")
        defer { unlink(temporary.path) }
        try Self.writePrivately(fresh + "\n", to: temporary)
        if rotating {
            guard rename(temporary.path, file.path) == 0 else { throw Self.keyFileError("cannot replace", file) }
            return fresh
        }
        // Linked, not renamed: a key another server put there meanwhile stays, and both use it.
        if link(temporary.path, file.path) == 0 { return fresh }
        guard errno == EEXIST else { throw Self.keyFileError("cannot create", file) }
        if let kept = try Self.readServerKey(at: file) { return kept }
        // There, but holding no key: this one replaces it.
        guard rename(temporary.path, file.path) == 0 else { throw Self.keyFileError("cannot replace", file) }
        return fresh
    }

    /// The key in `file`, made private (0600) if it was not; `nil` when there is no file or no
    /// key in it.
    private static func readServerKey(at file: URL) throws(LibraryError) -> String? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw .storage("cannot read the server key in \(file.path)", underlying: error)
        }
        var status = stat()
        if stat(file.path, &status) == 0, status.st_mode & 0o077 != 0, chmod(file.path, 0o600) != 0 {
            throw keyFileError("cannot make private", file)
        }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return key.isEmpty ? nil : key
    }

    /// Writes `text` to a new file made 0600 before any byte is in it, and syncs it.
    private static func writePrivately(_ text: String, to file: URL) throws(LibraryError) {
        let descriptor = Glibc.open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw keyFileError("cannot create", file) }
        defer { Glibc.close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else { throw keyFileError("cannot write", file) }
    }

    private static func keyFileError(_ what: String, _ file: URL) -> LibraryError {
        .storage("\(what) the server key file \(file.path): \(String(cString: strerror(errno)))")
    }
}
