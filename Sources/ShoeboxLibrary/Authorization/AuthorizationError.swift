import ShoeboxImaging

/// Why an authorization request or an access was refused.
///
/// An error has a ``code`` to switch on (new codes may come, so switch with a `default`), a
/// ``message`` that names the client, and the ``client``, ``service`` and ``status`` it concerns.
public struct AuthorizationError: ShoeboxError, Hashable {
    /// A kind of refusal. New codes may be added: switch with a `default`.
    public struct Code: ShoeboxErrorCode {
        /// The code's stable name, such as `notAuthorized`: what the HTTP API's errors carry.
        public let rawValue: String
        /// The code of this name; any name is accepted, one this version does not define too.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The client's status for the service does not allow the operation.
        public static let notAuthorized = Code(rawValue: "notAuthorized")
        /// The client asked for a service its manifest has no usage description for (over HTTP;
        /// an in-process client is stopped instead).
        public static let missingUsageDescription = Code(rawValue: "missingUsageDescription")
        /// No prompter could ask the user (non-interactive); the status stays `notDetermined`.
        public static let cannotPrompt = Code(rawValue: "cannotPrompt")
        /// The client is not registered with this library.
        public static let unknownClient = Code(rawValue: "unknownClient")
    }

    /// The kind of refusal, to switch on.
    public let code: Code
    /// A one-line, human-readable explanation naming the client (``LibraryError/message`` uses it).
    public let message: String
    /// The client's bundle identifier.
    public let client: String
    /// The service asked for or used, when the refusal concerns one.
    public let service: Authorization.Service?
    /// The client's status for ``service`` when it was refused (``Code/notAuthorized``).
    public let status: Authorization.Status?

    /// A refusal of `code` for `client`, explained by `message`.
    public init(_ code: Code, _ message: String, client: String, service: Authorization.Service? = nil, status: Authorization.Status? = nil) {
        self.code = code
        self.message = message
        self.client = client
        self.service = service
        self.status = status
    }

    // MARK: Making errors

    /// `client`'s `status` for `service` does not allow the operation.
    public static func notAuthorized(client: String, service: Authorization.Service, status: Authorization.Status) -> AuthorizationError {
        AuthorizationError(
            .notAuthorized, "\(client) may not use \(service) (status \(status.rawValue))",
            client: client, service: service, status: status)
    }

    /// `client` asked for access without the usage description `key` in its manifest.
    public static func missingUsageDescription(client: String, key: ClientManifest.UsageDescriptionKey) -> AuthorizationError {
        AuthorizationError(.missingUsageDescription, "\(client) asked for access without \(key.rawValue) in its manifest", client: client)
    }

    /// Nobody could be asked about `client` and `service`, for `reason`.
    public static func cannotPrompt(client: String, service: Authorization.Service, reason: String) -> AuthorizationError {
        AuthorizationError(.cannotPrompt, "cannot ask the user about \(client) and \(service): \(reason)", client: client, service: service)
    }

    /// `client` is not registered with this library.
    public static func unknownClient(_ client: String) -> AuthorizationError {
        AuthorizationError(.unknownClient, "no client \(client) is registered with this library", client: client)
    }
}
