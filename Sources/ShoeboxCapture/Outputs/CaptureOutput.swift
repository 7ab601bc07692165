import Synchronization

/// Where a session's frames go: ``PhotoOutput``, ``VideoDataOutput``, ``MovieFileOutput``
/// (`AVCaptureOutput`). Not subclassable outside Shoebox.
public class CaptureOutput: @unchecked Sendable {
    // @unchecked: the only stored state is in a Mutex; subclasses keep theirs in Mutexes too.
    private struct WeakSession: @unchecked Sendable {
        weak var session: CaptureSession?
    }

    private let owner = Mutex(WeakSession())
    /// The link from the session's camera, made with the output and offered while there is one.
    let videoConnection = CaptureConnection()

    init() {
        videoConnection.attach(to: self)
    }

    /// The session it belongs to, if any.
    public var session: CaptureSession? { owner.withLock { $0.session } }

    /// The output's connections (`AVCaptureOutput.connections`): its video connection while it is
    /// in a session with a camera, none otherwise.
    public var connections: [CaptureConnection] { connection(with: .video).map { [$0] } ?? [] }

    /// The connection carrying `mediaType` (`AVCaptureOutput.connection(with:)`): the video
    /// connection while the output is in a session with a camera, `nil` otherwise. The same object
    /// comes back each time, so its settings stay as set across sessions and cameras.
    public func connection(with mediaType: CaptureDevice.MediaType) -> CaptureConnection? {
        guard mediaType == .video, videoConnection.inputDevice != nil else { return nil }
        return videoConnection
    }

    func attach(to session: CaptureSession) { owner.withLock { $0.session = session } }
    func detach() { owner.withLock { $0.session = nil } }

    /// Whether the next frame should be lit by the flash (a photo is waiting for one).
    var wantsFlashOnNextFrame: Bool { false }
    /// Whether the next frame should carry the sensor's photosites (a RAW photo is waiting).
    var wantsSensorDataOnNextFrame: Bool { false }
    /// A frame from the running session.
    func receive(_ frame: CaptureFrame, from device: CaptureDevice) async {}
    /// The session stopped: finish what is in progress.
    func sessionDidStop() async {}
    /// The session failed (device unplugged): fail what is in progress.
    func sessionDidFail(_ error: CaptureError) {}
}
