import ShoeboxImaging
import Synchronization

/// The link from a session's camera to one output, and what it does to the frames on the way
/// (`AVCaptureConnection`): a rotation, a mirror image, or nothing at all while disabled.
///
/// Every output has one video connection while it is in a session with a camera:
///
/// ```swift
/// let photos = PhotoOutput()
/// try session.addOutput(photos)
/// if let connection = photos.connection(with: .video) {
///     connection.videoRotationAngle = 90      // portrait photos from a landscape sensor
/// }
/// ```
///
/// Settings apply from the next frame. Rotation turns the frames clockwise by the angle, so a
/// 1280 × 720 camera gives 720 × 1280 frames at 90°; a recording keeps the shape its first frame had.
/// Mirroring flips left to right after the rotation. Connections start unmirrored, as AV
/// Foundation's photo and data outputs deliver a front camera's frames (only its preview layer
/// mirrors them); ``automaticallyAdjustsVideoMirroring`` mirrors front cameras and no others.
public final class CaptureConnection: @unchecked Sendable {
    /// Where a device sits, for ``videoOrientation`` (AV Foundation's `AVCaptureVideoOrientation`).
    public enum VideoOrientation: String, Sendable, Hashable, CaseIterable {
        /// `portrait` turns frames 90° clockwise, `portraitUpsideDown` 270°, `landscapeRight` not
        /// at all (the sensor's own way) and `landscapeLeft` 180°, as `AVCaptureVideoOrientation`'s
        /// cases (see ``rotationAngle``).
        case portrait, portraitUpsideDown, landscapeRight, landscapeLeft

        /// The clockwise rotation that gives this orientation from a landscape sensor.
        public var rotationAngle: Double {
            switch self {
            case .landscapeRight: 0
            case .portrait: 90
            case .landscapeLeft: 180
            case .portraitUpsideDown: 270
            }
        }
    }

    private struct State {
        var isEnabled = true
        var rotationAngle: Double = 0
        var automaticallyAdjustsMirroring = false
        var isMirrored = false
    }

    private struct WeakOutput: @unchecked Sendable {
        weak var output: CaptureOutput?
    }

    private let state = Mutex(State())
    private let owner = Mutex(WeakOutput())

    init() {}

    /// Made part of `output` (once, as the output is made).
    func attach(to output: CaptureOutput) {
        owner.withLock { $0.output = output }
    }

    private var output: CaptureOutput? { owner.withLock { $0.output } }

    /// The media this connection carries: always `.video`.
    public var mediaType: CaptureDevice.MediaType { .video }

    /// Whether frames flow to the output (default `true`). A photo output whose connection is
    /// disabled refuses `capturePhoto`; a data output's readers get no frames.
    public var isEnabled: Bool {
        get { state.withLock { $0.isEnabled } }
        set { state.withLock { $0.isEnabled = newValue } }
    }

    /// Whether the connection is enabled and its session has a camera and is running.
    public var isActive: Bool {
        guard isEnabled, let session = output?.session else { return false }
        return session.isRunning && session.inputs.contains { $0.device.mediaType == .video }
    }

    /// The camera feeding this connection, if its output is in a session with one.
    public var inputDevice: CaptureDevice? {
        output?.session?.inputs.first { $0.device.mediaType == .video }?.device
    }

    /// Whether frames can be turned by `angle`: 0, 90, 180 and 270 degrees.
    public func isVideoRotationAngleSupported(_ angle: Double) -> Bool {
        [0, 90, 180, 270].contains(angle)
    }

    /// The clockwise rotation applied to every frame, in degrees (default 0). An angle for which
    /// ``isVideoRotationAngleSupported(_:)`` says no is ignored, as it is refused on Apple's
    /// platforms (there with an exception; here the angle stays as it was).
    public var videoRotationAngle: Double {
        get { state.withLock { $0.rotationAngle } }
        set {
            guard isVideoRotationAngleSupported(newValue) else { return }
            state.withLock { $0.rotationAngle = newValue }
        }
    }

    /// The rotation as the device orientation it gives from a landscape sensor.
    public var videoOrientation: VideoOrientation {
        get { VideoOrientation.allCases.first { $0.rotationAngle == videoRotationAngle } ?? .landscapeRight }
        set { videoRotationAngle = newValue.rotationAngle }
    }

    /// Video can always be mirrored.
    public var isVideoMirroringSupported: Bool { true }

    /// Mirror front cameras and no others (default `false` in Shoebox, whose outputs are not
    /// preview layers). Setting ``isVideoMirrored`` turns it off, where AV Foundation would raise an
    /// exception for setting one while the other is on.
    public var automaticallyAdjustsVideoMirroring: Bool {
        get { state.withLock { $0.automaticallyAdjustsMirroring } }
        set { state.withLock { $0.automaticallyAdjustsMirroring = newValue } }
    }

    /// Whether frames are flipped left to right. While ``automaticallyAdjustsVideoMirroring`` is
    /// on it says what the camera's position decides.
    public var isVideoMirrored: Bool {
        get {
            let (automatic, mirrored) = state.withLock { ($0.automaticallyAdjustsMirroring, $0.isMirrored) }
            return automatic ? inputDevice?.position == .front : mirrored
        }
        set {
            state.withLock {
                $0.automaticallyAdjustsMirroring = false
                $0.isMirrored = newValue
            }
        }
    }

    /// What this connection does to a frame from `device`: `nil` while disabled.
    func transform(for device: CaptureDevice) -> Transform? {
        state.withLock { state in
            guard state.isEnabled else { return nil }
            let mirrored = state.automaticallyAdjustsMirroring ? device.position == .front : state.isMirrored
            return Transform(quarterTurns: Int(state.rotationAngle / 90), mirrored: mirrored)
        }
    }

    /// A rotation and mirroring of frames; outputs with equal transforms share one copy of a frame.
    struct Transform: Hashable, Sendable {
        let quarterTurns: Int
        let mirrored: Bool

        static let identity = Transform(quarterTurns: 0, mirrored: false)

        /// The EXIF orientation that shows the untouched picture as this transform leaves it:
        /// quarter turns clockwise, then a left-right mirror.
        var orientation: ImageOrientation {
            let exif = mirrored ? [2, 5, 4, 7][((quarterTurns % 4) + 4) % 4] : [1, 6, 3, 8][((quarterTurns % 4) + 4) % 4]
            return ImageOrientation(rawValue: exif) ?? .up
        }

        func apply(to frame: CaptureFrame) throws(CaptureError) -> CaptureFrame {
            guard quarterTurns != 0 || mirrored else { return frame }
            do {
                var image = frame.image
                if quarterTurns != 0 { image = try image.rotated(byQuarterTurns: quarterTurns) }
                if mirrored { image = try image.mirrored() }
                // The photosites stay as the sensor read them; the turn goes with them.
                return frame.replacing(image: image, sensorTurn: self)
            } catch {
                throw .captureFailed("cannot turn a frame: \(error.message)", underlying: error)
            }
        }
    }
}
