import Foundation
import Synchronization

extension PhotoLibrary {
    /// Settles what processes that died left in the library, as SQLite rolls back a hot journal:
    /// every ``open(at:clientIdentifier:)`` does it before the library is used, and
    /// ``doctor(deep:repair:)`` before it looks. Work of live processes is left alone (they hold
    /// locks and claims).
    ///
    /// - Staging files and folders (imports, uploads and captures in flight) that no process
    ///   holds any more are removed: their changes never committed, and the user's files are
    ///   where they came from.
    /// - Blob removals a purge decided but did not finish are finished.
    /// - An import that died after filing its original and before committing leaves a claim that
    ///   names the record it would have written: that asset is adopted (whole, as probed). An
    ///   edit that died leaves a render no asset uses: it is removed.
    ///
    /// - Returns: What was done, one entry per item (empty when the library was clean).
    @discardableResult
    func recover() async throws(LibraryError) -> [DoctorReport.Problem] {
        var done: [DoctorReport.Problem] = []
        for url in staging.leftovers() where staging.removeLeftover(url) {
            done.append(
                .init(
                    kind: "stagingLeftover", path: url.path, localIdentifier: nil,
                    message: "removed \(url.lastPathComponent), left in staging by a change that never finished"))
        }
        for key in await removeMarkedBlobs(nil) {
            done.append(
                .init(
                    kind: "pendingRemoval", path: key.description, localIdentifier: nil,
                    message: "finished removing a purged \(key.kind.rawValue)"))
        }
        for claim in try await catalog.blobClaims() where !claim.isLive {
            let exists = try await blobs.contains(claim.key)
            let settled = try await catalog.settleStaleClaim(claim, adopt: exists)
            if let adopted = settled.adopted {
                done.append(
                    .init(
                        kind: "orphanOriginal", path: claim.key.description, localIdentifier: adopted,
                        message: "adopted \(claim.pendingRecord?.originalFilename ?? claim.key.hash), filed by an import that never committed"))
            }
            for key in await removeMarkedBlobs(settled.removals) where exists {
                done.append(
                    .init(
                        kind: key.kind == .original ? "orphanOriginal" : "orphanRender", path: key.description, localIdentifier: nil,
                        message: "removed a \(key.kind.rawValue) filed by a change that never committed"))
            }
        }
        if !done.isEmpty { recoveries.withLock { $0 += done } }
        return done
    }
}
