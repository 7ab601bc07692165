import Foundation
import ShoeboxLibrary

/// The assets a batch names: by identifier, or every asset of a fetch but those excepted (the
/// web app's Select All, however many it has loaded).
enum AssetSelection {
    /// The assets of `named`, or of the fetch `fetch` but those in `except`; a partner's photos
    /// in a fetch (Recents with theirs) are left out, theirs to change. With `wholeBursts`, a
    /// burst's key photo brings every frame of its burst.
    ///
    /// - Throws: `400` for both, `404` for none, for a fetch that expired or a named asset the
    ///   library lacks.
    static func assets(
        named: [String]?, fetch: String?, except: [String]?, wholeBursts: Bool, in library: PhotoLibrary, state: ServerState,
        context: ServerRequestContext
    ) async throws -> [Asset] {
        var assets: [Asset]
        if let fetch {
            guard named == nil else { throw APIError.badRequest("name the assets or a fetch, not both") }
            guard let snapshot = state.fetches.snapshot(fetch, owner: context.caller.owner) else {
                throw APIError.notFound("no fetch \(fetch) (fetches expire: make a new one)")
            }
            let excepted = Set(except ?? [])
            assets = try await snapshot.result.allObjects().filter { !excepted.contains($0.localIdentifier) && !library.isSomeoneElses($0) }
            guard !assets.isEmpty else { return [] }
        } else {
            let named = named ?? []
            assets = try await library.fetchAssets(withLocalIdentifiers: named).allObjects()
            guard !assets.isEmpty, assets.count == Set(named).count else {
                throw APIError.notFound("name assets that are in the library (\(assets.count) of \(Set(named).count) found)")
            }
        }
        if wholeBursts { assets = try await library.withWholeBursts(assets) }
        return assets
    }
}
