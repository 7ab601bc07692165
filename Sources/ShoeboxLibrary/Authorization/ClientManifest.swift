import Foundation

/// Who a client is and why it wants what it asks for: the part of an iOS app's Info.plist the
/// privacy prompts read.
///
/// ```json
/// {
///   "identifier": "com.example.booth",
///   "displayName": "Photo Booth",
///   "usageDescriptions": {
///     "NSCameraUsageDescription": "Takes your picture for the badge.",
///     "NSPhotoLibraryAddUsageDescription": "Saves the badge photo to your library."
///   }
/// }
/// ```
public struct ClientManifest: Sendable, Hashable, Codable {
    /// The Info.plist keys for usage descriptions.
    public enum UsageDescriptionKey: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable {
        /// Why the client wants the camera: shown when it asks for ``Authorization/Service/camera``.
        case camera = "NSCameraUsageDescription"
        /// Why the client wants the microphone: shown when it asks for ``Authorization/Service/microphone``.
        case microphone = "NSMicrophoneUsageDescription"
        /// Why the client wants to read and change the library: shown when it asks for read-write
        /// access.
        case photoLibrary = "NSPhotoLibraryUsageDescription"
        /// Why the client wants to add to the library: shown when it asks for add-only access.
        case photoLibraryAdd = "NSPhotoLibraryAddUsageDescription"
    }

    /// Reverse-DNS, unique per library.
    public var identifier: String
    /// The name prompts and the Privacy page show.
    public var displayName: String
    /// Why the client wants each service, shown in its prompt.
    public var usageDescriptions: [UsageDescriptionKey: String]

    /// A manifest from its parts, unchecked: ``validate()`` checks it (``Authorization/register(_:)``
    /// does).
    public init(identifier: String, displayName: String, usageDescriptions: [UsageDescriptionKey: String] = [:]) {
        self.identifier = identifier
        self.displayName = displayName
        self.usageDescriptions = usageDescriptions
    }

    /// Reads a manifest from a JSON file.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` naming what is wrong.
    public init(contentsOf url: URL) throws(LibraryError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .invalidArgument("cannot read the client manifest \(url.path): \(error.localizedDescription)")
        }
        do {
            self = try JSONDecoder().decode(ClientManifest.self, from: data)
        } catch {
            throw .invalidArgument("\(url.lastPathComponent) is not a client manifest: \(error)")
        }
        try validate()
    }

    /// Checks the identifier and name: non-empty, printable, the identifier without spaces.
    public func validate() throws(LibraryError) {
        guard !identifier.isEmpty, identifier.count <= 200, !identifier.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw .invalidArgument("a client identifier must be 1…200 characters without spaces, not “\(identifier)”")
        }
        guard !displayName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .invalidArgument("client \(identifier) needs a display name")
        }
        let lowered = identifier.lowercased()
        // `person:N` and `user:N` name people where clients and people stand side by side (an
        // upload's uploader, a request's owner): a client named so would pass for one.
        guard !Self.reservedIdentifiers.contains(lowered), !lowered.hasPrefix("shoebox."), !lowered.hasPrefix("person:"), !lowered.hasPrefix("user:")
        else {
            throw .invalidArgument("“\(identifier)” is reserved for Shoebox and the user: choose another client identifier")
        }
        guard displayName.count <= 100 else {
            throw .invalidArgument("client \(identifier)'s display name is over 100 characters")
        }
    }

    /// Identifiers no client may take: the names Shoebox uses for the user and itself.
    public static let reservedIdentifiers: Set<String> = ["user", "shoebox", "admin", "root", "system", "anonymous"]

    /// The usage description a service's prompt shows, if the manifest has it.
    public func usageDescription(for service: Authorization.Service) -> String? {
        usageDescriptions[service.usageDescriptionKey].flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
    }
}
