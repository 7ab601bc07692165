import ShoeboxCapture
import ShoeboxLibrary

/// The photo library's ``Authorization`` deciding who may use a camera or a microphone: a
/// ``CaptureAccessChecking`` whose decisions are the ones Settings › Privacy and `shoebox privacy`
/// show and change (the camera is ``Authorization/Service/camera``, the microphone
/// ``Authorization/Service/microphone``).
///
/// ```swift
/// let access = LibraryCaptureAccess(authorization: Authorization(library: library, prompter: prompter))
/// let session = CaptureSession(access: access, clientIdentifier: "com.example.booth")
/// ```
///
/// When a session starts, a client whose decision is `notDetermined` is asked through the
/// authorization's prompter; a client whose manifest lacks the usage description for the device
/// is stopped with a message naming the key (`.terminate`, as iOS stops such an app) or refused
/// with ``CaptureError/Code/notAuthorized`` naming it (`.throw`). A decision changed later (by this
/// process, by `shoebox privacy`, by another server of a PostgreSQL catalog) reaches the running
/// session through ``Authorization/decisionChanges(client:)``.
public struct LibraryCaptureAccess: CaptureAccessChecking {
    /// Where the decisions are kept, and who asks the user.
    public let authorization: Authorization
    /// What a client without the usage description for a device it uses gets.
    public let missingUsageDescription: Authorization.MissingUsageDescription

    /// Access decided by `authorization`; `missingUsageDescription` is what a client without the
    /// usage description for a device gets (`.terminate` by default, as iOS stops such an app).
    public init(authorization: Authorization, missingUsageDescription: Authorization.MissingUsageDescription = .terminate) {
        self.authorization = authorization
        self.missingUsageDescription = missingUsageDescription
    }

    /// Returns when `client` is authorized for the camera (for the microphone with `.audio`); with
    /// `asking`, the client's manifest must have the usage description, and an undecided client is
    /// asked through the prompter.
    ///
    /// - Throws: `CaptureError.notAuthorized` naming the status, or why the decision could not be
    ///   read or asked (an unknown client, a missing usage description with `.throw`).
    public func checkAccess(to mediaType: CaptureDevice.MediaType, client: String, asking: Bool) async throws(CaptureError) {
        let service: Authorization.Service = mediaType == .audio ? .microphone : .camera
        let status: Authorization.Status
        do {
            status =
                asking
                ? try await ask(for: service, client: client)
                : try await authorization.status(for: service, client: client)
        } catch let error as CaptureError {
            throw error
        } catch let error as LibraryError {
            throw .notAuthorized("cannot read \(client)'s \(service) authorization: \(error.message)")
        } catch let error as AuthorizationError {
            throw .notAuthorized(error.message)
        } catch {
            throw .notAuthorized("cannot ask the user about \(client)'s \(service): \(error)")
        }
        guard status == .authorized else {
            throw .notAuthorized("\(client) may not use the \(service) (status \(status.rawValue)); ask with Authorization.requestAccess")
        }
    }

    /// The authorization's `decisionChanges(client:)`: yields at once, then whenever a decision
    /// about `client` may have changed (here, through `shoebox privacy`, or on another server of a
    /// PostgreSQL catalog).
    public func accessChanges(client: String) -> AsyncStream<Void> {
        authorization.decisionChanges(client: client)
    }

    /// The client's status for `service` after asking the user, if it was undecided; first, the
    /// client's manifest must have the service's usage description.
    private func ask(for service: Authorization.Service, client: String) async throws -> Authorization.Status {
        guard let manifest = try await authorization.client(client) else { throw AuthorizationError.unknownClient(client) }
        guard manifest.usageDescription(for: service) != nil else {
            let key = service.usageDescriptionKey.rawValue
            switch missingUsageDescription {
            case .terminate:
                fatalError("\(client) used the \(service) but its manifest has no \(key): add a usage description for \(key)")
            case .throw:
                throw CaptureError.notAuthorized("\(client) used the \(service) without \(key) in its manifest")
            }
        }
        return try await authorization.requestAccess(for: service, client: client, missingUsageDescription: missingUsageDescription)
    }
}
