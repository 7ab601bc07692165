import Foundation

extension PhotoLibrary {
    /// A setting the server keeps for every server of this library (kept in the catalog, so a
    /// restarted server or another one on the same catalog finds it), under `server.KEY`.
    package func serverSetting(_ key: String) async throws(LibraryError) -> String? {
        try await catalog.setting("server." + key)
    }

    /// Sets (or, with `nil`, removes) a server setting: see ``serverSetting(_:)``.
    package func setServerSetting(_ key: String, to value: String?) async throws(LibraryError) {
        try await catalog.setSetting("server." + key, to: value)
    }
}
