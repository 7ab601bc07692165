import Foundation

extension PhotoLibrary {
    /// The server setting a person's browser's cameras are kept under (the first admin's under
    /// this key, another person's under `KEY.ROWID`).
    package static let browserCamerasSetting = "browserCameras"

    /// The key of a person's own setting `base`: the first admin's is `base` itself (the key a
    /// library kept before people existed), another person's `base.ROWID`.
    package static func personSettingKey(_ base: String, of rowID: Int64) -> String {
        rowID == Person.adminRowID ? base : "\(base).\(rowID)"
    }

    /// The full keys of the settings a person (not the first admin) has of their own, which go
    /// when they are removed: the memories they hid and their browser's cameras.
    static func personSettings(of rowID: Int64) -> [String] {
        [personSettingKey(hiddenMemoriesSetting, of: rowID), "server." + personSettingKey(browserCamerasSetting, of: rowID)]
    }

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
