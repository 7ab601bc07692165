import Foundation
import ShoeboxCapture
import ShoeboxLibrary

extension PickerRequest {
    /// The grants a camera pick needs of its client: the camera, and the microphone too when
    /// movies may be recorded and a microphone exists. Library picks need none (the client gets
    /// only what the user picks).
    public var requiredCaptureServices: [Authorization.Service] {
        guard sourceType == .camera else { return [] }
        var services: [Authorization.Service] = [.camera]
        if mediaTypes.contains(.movie), CaptureDevice.default(for: .audio) != nil { services.append(.microphone) }
        return services
    }

    /// Asks for ``requiredCaptureServices`` on behalf of `client` (prompting once when not yet
    /// decided, as iOS does when the camera picker first appears) and fails unless each is
    /// authorized. The in-process picker and the server's picker API both come through here.
    ///
    /// - Parameter missingUsageDescription: `.terminate` in process (a client without the
    ///   usage description is stopped, naming the key), `.throw` over HTTP.
    /// - Throws: ``PickerError/Code/notAuthorized`` naming the service and its status, or the
    ///   missing usage description's key.
    public func authorizeCapture(
        client: String, authorization: Authorization,
        missingUsageDescription: Authorization.MissingUsageDescription = .terminate
    ) async throws(PickerError) {
        for service in requiredCaptureServices {
            let status: Authorization.Status
            do {
                status = try await authorization.requestAccess(for: service, client: client, missingUsageDescription: missingUsageDescription)
            } catch let error as AuthorizationError {
                throw PickerError(.notAuthorized, error.message, underlying: error)
            } catch let error as LibraryError {
                throw PickerError(.notAuthorized, error.message, underlying: error)
            } catch {
                throw PickerError(.notAuthorized, "\(error)", underlying: error)
            }
            guard status == .authorized else {
                throw PickerError(.notAuthorized, "\(client) may not use the \(service) (\(status.rawValue))")
            }
        }
    }
}
