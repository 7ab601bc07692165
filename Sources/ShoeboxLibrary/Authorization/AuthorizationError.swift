/// Why an authorization request or an access was refused.
public enum AuthorizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client's status for the service does not allow the operation.
    case notAuthorized(client: String, service: Authorization.Service, status: Authorization.Status)
    /// The client asked for a service its manifest has no usage description for (over HTTP; an
    /// in-process client is stopped instead).
    case missingUsageDescription(client: String, key: ClientManifest.UsageDescriptionKey)
    /// No prompter could ask the user (non-interactive); the status stays `notDetermined`.
    case cannotPrompt(client: String, service: Authorization.Service, reason: String)
    /// The client is not registered with this library.
    case unknownClient(String)

    /// A stable, machine-readable name for the case.
    public var code: String {
        switch self {
        case .notAuthorized: "notAuthorized"
        case .missingUsageDescription: "missingUsageDescription"
        case .cannotPrompt: "cannotPrompt"
        case .unknownClient: "unknownClient"
        }
    }

    /// A one-line, human-readable explanation naming the client (``LibraryError/message`` uses it).
    public var message: String {
        switch self {
        case .notAuthorized(let client, let service, let status):
            "\(client) may not use \(service) (status \(status.rawValue))"
        case .missingUsageDescription(let client, let key):
            "\(client) asked for access without \(key.rawValue) in its manifest"
        case .cannotPrompt(let client, let service, let reason):
            "cannot ask the user about \(client) and \(service): \(reason)"
        case .unknownClient(let client):
            "no client \(client) is registered with this library"
        }
    }

    /// The same as ``message``.
    public var description: String { message }
}
