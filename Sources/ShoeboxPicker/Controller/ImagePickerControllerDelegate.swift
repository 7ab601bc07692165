import Foundation

/// Told what the user picked (`UIImagePickerControllerDelegate`). Every method has a default that
/// does nothing, as the seeds' optional methods.
///
/// Unlike UIKit, the delegate does not dismiss the picker: the controller does when the session
/// ends (with custom camera controls, the client ends it with ``ImagePickerController/dismiss()``).
public protocol ImagePickerControllerDelegate: AnyObject, Sendable {
    /// One picked item (`imagePickerController(_:didFinishPickingMediaWithInfo:)`): called once
    /// per item, and with custom camera controls once per picture as it is taken.
    func imagePickerController(_ picker: ImagePickerController, didFinishPickingMediaWithInfo info: ImagePickerController.Info) async

    /// Every item of a finished pick at once (PHPicker's `picker(_:didFinishPicking:)`); with
    /// `.continuous` selection, called again at each change with the whole selection.
    func imagePickerController(_ picker: ImagePickerController, didFinishPicking infos: [ImagePickerController.Info]) async

    /// The user cancelled (`imagePickerControllerDidCancel(_:)`).
    func imagePickerControllerDidCancel(_ picker: ImagePickerController) async
}

extension ImagePickerControllerDelegate {
    /// Does nothing.
    public func imagePickerController(_ picker: ImagePickerController, didFinishPickingMediaWithInfo info: ImagePickerController.Info) async {}
    /// Does nothing.
    public func imagePickerController(_ picker: ImagePickerController, didFinishPicking infos: [ImagePickerController.Info]) async {}
    /// Does nothing.
    public func imagePickerControllerDidCancel(_ picker: ImagePickerController) async {}
}
