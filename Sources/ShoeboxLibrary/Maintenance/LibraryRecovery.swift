import Foundation

extension PhotoLibrary {
    /// Settles what processes that died left in the library, as SQLite rolls back a hot journal:
    /// every ``open(at:clientIdentifier:)`` does it before the library is used, and ``doctor(deep:repair:)``
    /// before it looks. Work of live processes is left alone (they hold locks and claims).
    ///
    /// - Staging files and folders (imports, uploads and captures in flight) that no process
    ///   holds any more are removed: their changes never committed, and the user's files are
    ///   where they came from.
    /// - Blob removals a purge decided but did not finish are finished.
    /// - An import that died after filing its original and before committing leaves a claim that
    ///   names the row it would have written: that asset is adopted (whole, as probed). An edit
    ///   that died leaves a render no asset uses: it is removed.
    ///
    /// - Returns: What was done, one entry per item (empty when the library was clean).
    @discardableResult
    func recover() throws(LibraryError) -> [DoctorReport.Problem] {
        var done: [DoctorReport.Problem] = []
        for url in blobs.stagingLeftovers() where blobs.removeLeftover(url) {
            done.append(.init(kind: "stagingLeftover", path: url.path, localIdentifier: nil,
                              message: "removed \(url.lastPathComponent), left in staging by a change that never finished"))
        }
        let blobs = self.blobs
        for key in try catalog.completeDeletions(nil, remove: { key throws(LibraryError) in try blobs.remove(key) }) {
            derivatives.removeAll(forSource: key.hash)
            done.append(.init(kind: "pendingRemoval", path: blobs.fileURL(forHash: key.hash, kind: key.kind).path, localIdentifier: nil,
                              message: "finished removing a purged \(key.kind.rawValue)"))
        }
        for claim in try catalog.blobClaims() where !claim.isLive {
            let exists = blobs.contains(claim.key)
            let settled = try catalog.settleStaleClaim(claim, adopt: exists)
            let path = blobs.fileURL(forHash: claim.key.hash, kind: claim.key.kind).path
            if let adopted = settled.adopted {
                done.append(.init(kind: "orphanOriginal", path: path, localIdentifier: adopted,
                                  message: "adopted \(claim.pendingRow?.originalFilename ?? claim.key.hash), filed by an import that never committed"))
            }
            for key in try catalog.completeDeletions(settled.deletions, remove: { key throws(LibraryError) in try blobs.remove(key) }) where exists {
                derivatives.removeAll(forSource: key.hash)
                done.append(.init(kind: key.kind == .original ? "orphanOriginal" : "orphanRender", path: path, localIdentifier: nil,
                                  message: "removed a \(key.kind.rawValue) filed by a change that never committed"))
            }
        }
        if !done.isEmpty { recoveries.withLock { $0 += done } }
        return done
    }
}
