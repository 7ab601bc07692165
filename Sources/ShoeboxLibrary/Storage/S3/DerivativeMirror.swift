internal import Crypto
import Foundation
import ShoeboxImaging
import Synchronization

/// Derivatives (thumbnails, previews, posters, playback renditions) shared through the library's
/// bucket, as `derivatives/<sha256 of the version>/<key>=<info>` beside the blobs: a server that
/// needs a thumbnail another server made fetches it instead of decoding the original again, and
/// browsers can be sent to it with a presigned URL.
///
/// It is a cache, like the local `derivatives/` folder: losing it loses nothing, and no failure of
/// it fails a request (the derivative is made locally instead). Which names a source has is
/// learnt with one listing and then kept in memory; a listing older than ``relistAfter`` is
/// repeated when a name is missing from it (another server may have added it).
final class DerivativeMirror: Sendable {
    let client: S3Client

    private struct Listing {
        var names: Set<String>
        var listed: ContinuousClock.Instant
        var used: UInt64
    }

    private struct State {
        var listings: [String: Listing] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    /// How many sources' listings are kept in memory.
    static let listingLimit = 50_000
    static let relistAfter: Duration = .seconds(30)

    init(client: S3Client) {
        self.client = client
    }

    func objectKey(source hash: String, name: String) -> String {
        client.url.key("derivatives/\(hash)/\(name)")
    }

    /// The stored name of `key` (`fill-256x256` → `fill-256x256=256x171.jpg`) for a source, if
    /// the bucket has it; `nil` when it has not, or cannot be asked.
    func storedName(of key: String, source hash: String) async -> String? {
        if let names = known(hash), let name = Self.name(of: key, in: names) { return name }
        if let listing = state.withLock({ $0.listings[hash] }), ContinuousClock.now - listing.listed < Self.relistAfter { return nil }
        guard let names = await list(hash) else { return nil }
        return Self.name(of: key, in: names)
    }

    /// Whether `name` is known to be in the bucket (no request is made).
    func isStored(_ name: String, source hash: String) -> Bool {
        known(hash)?.contains(name) ?? false
    }

    /// The names known for a source, without asking the bucket.
    func known(_ hash: String) -> Set<String>? {
        state.withLock { state in
            guard var listing = state.listings[hash] else { return nil }
            state.clock += 1
            listing.used = state.clock
            state.listings[hash] = listing
            return listing.names
        }
    }

    /// Downloads a stored derivative into `destination`.
    func fetch(_ name: String, source hash: String, to destination: URL) async throws(LibraryError) {
        _ = try await client.getObject(objectKey(source: hash, name: name), to: destination)
    }

    /// Uploads a derivative made here (a failure only means other servers make their own).
    func upload(_ file: URL, name: String, source hash: String) async {
        guard !isStored(name, source: hash) else { return }
        let size = BlobCache.size(file)
        guard size > 0, let sha256 = try? await S3BlobStore.sha256(of: file, offset: 0, length: size) else { return }
        let contentType = UTType(filenameExtension: (name as NSString).pathExtension)?.preferredMIMEType ?? "application/octet-stream"
        guard
            (try? await client.putObject(
                objectKey(source: hash, name: name), file: file, size: size, sha256: sha256,
                contentType: contentType)) != nil
        else { return }
        remember(name, source: hash)
    }

    /// Removes every derivative of a source from the bucket (its bytes left the library).
    func removeAll(forSource hash: String) async {
        let prefix = client.url.key("derivatives/\(hash)/")
        guard let objects = try? await client.listObjects(prefix: prefix) else { return }
        for object in objects { try? await client.deleteObject(object.key) }
        _ = state.withLock { $0.listings.removeValue(forKey: hash) }
    }

    /// The hashes of the versions the bucket holds derivatives of.
    func storedSources() async throws(LibraryError) -> [String] {
        let prefix = client.url.key("derivatives/")
        return try await client.listFolders(prefix: prefix).map { String($0.dropFirst(prefix.count).dropLast()) }.filter { !$0.isEmpty }
    }

    /// A presigned URL for a stored derivative (see ``S3BlobStore/presignedURL(for:contentType:downloadName:)``).
    func presignedURL(_ name: String, source hash: String, contentType: String) -> URL {
        S3BlobStore.presign(client, object: objectKey(source: hash, name: name), contentType: contentType, downloadName: nil)
    }

    // MARK: Listings

    private func list(_ hash: String) async -> Set<String>? {
        let prefix = client.url.key("derivatives/\(hash)/")
        guard let objects = try? await client.listObjects(prefix: prefix) else { return nil }
        let names = Set(objects.map { String($0.key.dropFirst(prefix.count)) }.filter { !$0.isEmpty && !$0.contains("/") })
        state.withLock { state in
            state.clock += 1
            state.listings[hash] = Listing(names: names.union(state.listings[hash]?.names ?? []), listed: .now, used: state.clock)
            trim(&state)
        }
        return names
    }

    private func remember(_ name: String, source hash: String) {
        state.withLock { state in
            state.clock += 1
            if var listing = state.listings[hash] {
                listing.names.insert(name)
                listing.used = state.clock
                state.listings[hash] = listing
            } else {
                // Only this name is known: a lookup of another one still lists the bucket.
                state.listings[hash] = Listing(names: [name], listed: .now - Self.relistAfter, used: state.clock)
            }
            trim(&state)
        }
    }

    private func trim(_ state: inout State) {
        guard state.listings.count > Self.listingLimit else { return }
        let oldest = state.listings.sorted { $0.value.used < $1.value.used }.prefix(Self.listingLimit / 4)
        for (hash, _) in oldest { state.listings[hash] = nil }
    }

    static func name(of key: String, in names: Set<String>) -> String? {
        names.first { $0.hasPrefix(key + "=") }
    }
}
