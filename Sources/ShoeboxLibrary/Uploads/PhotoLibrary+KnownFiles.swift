import Foundation

extension PhotoLibrary {
    /// The most hashes one call takes.
    public static let maximumKnownFilesQuery = 1000

    /// Which of these SHA-256s (``Asset/contentHash``, lowercase hex) this library's person
    /// holds already, by the rule an import uses to find a duplicate: their own assets and, while
    /// they are in it, the Shared Library's; another person's photos never count. A phone's
    /// backup hashes its files and sends only what is not ``KnownFiles/contains(_:)``.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for more than
    ///   ``maximumKnownFilesQuery`` hashes or one that is not 64 hex digits;
    ///   ``LibraryError/Code/notPermitted`` for a library opened for an app (what a person
    ///   holds is theirs to know, not an app's).
    public func knownFiles(contentHashes: [String]) async throws(LibraryError) -> KnownFiles {
        guard clientIdentifier == nil else {
            throw .notPermitted("which files a library holds is for its person to ask, not for an app")
        }
        guard contentHashes.count <= Self.maximumKnownFilesQuery else {
            throw .invalidArgument("\(contentHashes.count) hashes were asked about; at most \(Self.maximumKnownFilesQuery) are taken at once")
        }
        var hashes: [String] = []
        var seen: Set<String> = []
        for hash in contentHashes {
            let folded = hash.lowercased()
            guard folded.utf8.count == 64, folded.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw .invalidArgument("\"\(hash.prefix(80))\" is not a SHA-256 (64 hexadecimal digits)")
            }
            if seen.insert(folded).inserted { hashes.append(folded) }
        }
        guard !hashes.isEmpty else { return KnownFiles() }
        let found = try await catalog.importMatches(contentHashes: hashes)
        var known = KnownFiles()
        for (hash, isTrashed) in found {
            if isTrashed { known.deleted.insert(hash) } else { known.present.insert(hash) }
        }
        return known
    }
}
