import Foundation

/// What the user is asked: one client, one service, with the client's own words.
public struct AuthorizationPrompt: Sendable, Hashable {
    /// The client asking, as registered: its ``ClientManifest/displayName`` is what the user is shown.
    public let client: ClientManifest
    /// What the client asks to use.
    public let service: Authorization.Service
    /// The manifest's usage description for the service.
    public let usageDescription: String
    /// Whether "Select Photos…" (limited access) may be offered: library read-write only.
    public var offersLimitedAccess: Bool { service == .photoLibrary(.readWrite) }
}

/// The user's answer to a prompt.
public enum AuthorizationAnswer: Sendable, Hashable {
    /// Allow: the status becomes ``Authorization/Status/authorized`` (for the library's
    /// read-write access: every photo).
    case allow
    /// Don't Allow: the status becomes ``Authorization/Status/denied``, and later requests get it
    /// without asking.
    case deny
    /// Limited access to these assets (library read-write only).
    case selectPhotos([String])
}

/// Shows authorization prompts to the user: a terminal, the web app, or nobody.
public protocol AuthorizationPrompter: Sendable {
    /// Asks the user; throws ``AuthorizationError/Code/cannotPrompt`` when it
    /// cannot (the status then stays `notDetermined`).
    func prompt(_ prompt: AuthorizationPrompt) async throws(AuthorizationError) -> AuthorizationAnswer
}

/// Asks nobody: every request for an undetermined service fails clearly and the status stays
/// `notDetermined` (for servers and scripts).
public struct NonInteractivePrompter: AuthorizationPrompter {
    /// A prompter that asks nobody.
    public init() {}

    /// Always throws ``AuthorizationError/Code/cannotPrompt``, pointing at
    /// `shoebox privacy grant|deny`.
    public func prompt(_ prompt: AuthorizationPrompt) async throws(AuthorizationError) -> AuthorizationAnswer {
        throw .cannotPrompt(
            client: prompt.client.identifier, service: prompt.service,
            reason: "no one to ask (non-interactive); decide with `shoebox privacy grant|deny`")
    }
}
