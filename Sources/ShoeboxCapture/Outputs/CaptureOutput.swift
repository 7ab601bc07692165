import Synchronization

/// Where a session's frames go: ``PhotoOutput``, ``VideoDataOutput``, ``MovieFileOutput``
/// (`AVCaptureOutput`). Not subclassable outside Shoebox.
public class CaptureOutput: @unchecked Sendable {
    // @unchecked: the only stored state is in a Mutex; subclasses keep theirs in Mutexes too.
    private struct WeakSession: @unchecked Sendable {
        weak var session: CaptureSession?
    }

    private let owner = Mutex(WeakSession())

    init() {}

    /// The session it belongs to, if any.
    public var session: CaptureSession? { owner.withLock { $0.session } }

    func attach(to session: CaptureSession) { owner.withLock { $0.session = session } }
    func detach() { owner.withLock { $0.session = nil } }

    /// Whether the next frame should be lit by the flash (a photo is waiting for one).
    var wantsFlashOnNextFrame: Bool { false }
    /// A frame from the running session.
    func receive(_ frame: CaptureFrame, from device: CaptureDevice) async {}
    /// The session stopped: finish what is in progress.
    func sessionDidStop() async {}
    /// The session failed (device unplugged): fail what is in progress.
    func sessionDidFail(_ error: CaptureError) {}
}
