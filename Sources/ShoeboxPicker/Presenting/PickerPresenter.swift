import Foundation

/// Shows a ``PickerSession`` to the user and lets the user drive it: the part of
/// `UIImagePickerController` that is user interface.
///
/// Shoebox has two: the web presenter of `ShoeboxServer` (the picker page in a browser, which can
/// also offer the browser's camera), and ``ScriptedPresenter``, which drives a session from code
/// for tests and automation.
public protocol PickerPresenter: Sendable {
    /// The presenter's own cameras (a browser's front and rear), if it offers any.
    var cameras: [ImagePickerController.CameraDevice: PickerAvailability.Camera] { get }

    /// Shows the session. Returns once it is on screen, not when it finishes: the session's
    /// ``PickerSession/result()`` says that.
    ///
    /// - Throws: ``PickerError`` when it cannot be shown.
    func present(_ session: PickerSession) async throws(PickerError)

    /// Takes a finished session off screen (the delegate's dismissal).
    func dismiss(_ session: PickerSession) async
}

extension PickerPresenter {
    /// None: a presenter offers no camera unless it says so.
    public var cameras: [ImagePickerController.CameraDevice: PickerAvailability.Camera] { [:] }
    /// Does nothing.
    public func dismiss(_ session: PickerSession) async {}
}
