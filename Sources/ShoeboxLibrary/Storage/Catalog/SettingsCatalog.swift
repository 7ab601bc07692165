import Foundation

/// Library-wide settings.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol SettingsCatalog: Sendable {
    /// A library-wide setting.
    func setting(_ key: String) async throws(LibraryError) -> String?
    /// Stores a library-wide setting, or removes it for `nil`.
    func setSetting(_ key: String, to value: String?) async throws(LibraryError)
    /// The setting, stored as `value` first if it has none: of several processes doing this at
    /// once, every one gets the first one's value.
    func setting(_ key: String, default value: String) async throws(LibraryError) -> String
}
