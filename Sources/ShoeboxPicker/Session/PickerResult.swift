import Foundation

/// How a picker presentation ended: what `pick()` returns (the delegate's
/// `didFinishPickingMediaWithInfo` or `imagePickerControllerDidCancel`).
public enum PickerResult: Sendable {
    /// The user picked these items (in the configuration's order). With custom camera controls:
    /// every picture taken before the picker was dismissed.
    case picked([ImagePickerController.Info])
    /// The user cancelled (or, with custom controls, dismissed without taking a picture).
    case cancelled

    /// The picked items; empty when cancelled.
    public var infos: [ImagePickerController.Info] {
        if case .picked(let infos) = self { return infos }
        return []
    }

    /// Whether the presentation ended without a pick (``cancelled``).
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
