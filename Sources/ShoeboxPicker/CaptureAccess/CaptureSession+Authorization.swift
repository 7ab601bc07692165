import ShoeboxCapture
import ShoeboxLibrary

extension CaptureSession {
    /// A session run by `clientIdentifier`, whose camera and microphone access the photo
    /// library's `authorization` decides (a ``LibraryCaptureAccess``): at
    /// ``CaptureSession/startRunning()`` (asking the user while undecided), before every photo and
    /// recording, and whenever the user changes the decision (a revoked grant stops the running
    /// session with a runtime error).
    ///
    /// - Parameter missingUsageDescription: What a client without the usage description for a
    ///   device it uses gets: `.terminate` (the default, as iOS stops such an app) stops the
    ///   process with a message naming the key; `.throw` makes ``CaptureSession/startRunning()``
    ///   throw ``CaptureError/Code/notAuthorized`` naming it.
    public convenience init(
        authorization: Authorization, clientIdentifier: String,
        missingUsageDescription: Authorization.MissingUsageDescription = .terminate
    ) {
        self.init(
            access: LibraryCaptureAccess(authorization: authorization, missingUsageDescription: missingUsageDescription),
            clientIdentifier: clientIdentifier)
    }
}
