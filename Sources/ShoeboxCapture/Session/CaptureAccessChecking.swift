/// Who decides whether a client may use the camera or the microphone — what
/// `AVCaptureDevice.authorizationStatus(for:)` and `requestAccess(for:)` answer on iOS.
///
/// A ``CaptureSession`` run for a client asks its checker when it starts (``checkAccess(to:client:asking:)``
/// with `asking: true`: an undecided client's user is asked then), again before every photo and
/// recording, and whenever ``accessChanges(client:)`` says a decision changed — a revoked grant
/// stops the running session with a runtime error.
///
/// Capture knows nothing of where decisions are kept. The photo library's `Authorization`
/// keeps them in the catalog; `ShoeboxPicker`'s `LibraryCaptureAccess` is this protocol on top of
/// it, and `CaptureSession(authorization:clientIdentifier:missingUsageDescription:)` (also in
/// `ShoeboxPicker`) makes a session with it.
public protocol CaptureAccessChecking: Sendable {
    /// Returns when `client` may use devices of `mediaType`; throws
    /// ``CaptureError/Code/notAuthorized`` saying why not.
    ///
    /// - Parameter asking: `true` when a session starts: a client whose decision is not made yet
    ///   is asked about now (and one without the usage description for the device is stopped or
    ///   refused, naming the key). `false` checks the decision as it stands, never asking.
    func checkAccess(to mediaType: CaptureDevice.MediaType, client: String, asking: Bool) async throws(CaptureError)

    /// Yields once as soon as it watches (a check made then misses no later change), then
    /// whenever a decision about `client` may have changed (it may yield when none did); ends
    /// when the task iterating it is cancelled.
    func accessChanges(client: String) -> AsyncStream<Void>
}
