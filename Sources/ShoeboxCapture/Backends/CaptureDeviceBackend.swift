import Foundation
import ShoeboxImaging

/// Where a device's frames come from: V4L2, the synthetic camera, or (in the web issue) the
/// browser.
protocol CaptureDeviceBackend: Sendable {
    /// Starts delivering frames in `format`, paced (where the backend paces them) and stamped on
    /// `clock`, the session's.
    func open(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double, clock: ErasedClock) throws(CaptureError) -> any FrameSource
    /// Starts delivering frames in `format`, telling a device that another program streams from
    /// (V4L2's `EBUSY`) apart from one that fails: a session waits for the first, interrupted.
    /// By default, ``open(_:format:frameRate:clock:)``.
    func openStream(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double, clock: ErasedClock) throws(CaptureError) -> StreamOpening
    /// Pushes changed settings to the hardware (V4L2 controls); the synthetic camera reads them
    /// from the device per frame instead.
    func apply(_ settings: CaptureDevice.Settings, to device: CaptureDevice) throws(CaptureError)
    /// Whether `.auto` flash fires now (the scene is dark and the torch is off).
    func sceneNeedsFlash(_ device: CaptureDevice) -> Bool
    /// Whether another program streams from the device now, asked without disturbing it. By
    /// default, no.
    func isInUseByAnotherProgram(_ device: CaptureDevice) -> Bool
    /// Whether a torch in `.auto` is lit: the scene is dark without it. By default, no.
    func autoTorchLights(_ device: CaptureDevice) -> Bool
    /// The Bayer formats a RAW photo may take while the device streams `format`. By default, the
    /// format's own when it is a Bayer format.
    func rawPixelFormats(for format: CaptureDevice.Format) -> [CaptureDevice.Format.PixelFormat]
}

/// What opening a device for streaming came to.
enum StreamOpening {
    /// Frames come from here.
    case opened(any FrameSource)
    /// Another program holds the device; it may be free later.
    case inUseByAnotherClient(String)
}

extension CaptureDeviceBackend {
    func isInUseByAnotherProgram(_ device: CaptureDevice) -> Bool { false }
    func autoTorchLights(_ device: CaptureDevice) -> Bool { false }
    func rawPixelFormats(for format: CaptureDevice.Format) -> [CaptureDevice.Format.PixelFormat] {
        format.pixelFormat.isBayer ? [format.pixelFormat] : []
    }

    func openStream(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double, clock: ErasedClock) throws(CaptureError) -> StreamOpening {
        .opened(try open(device, format: format, frameRate: frameRate, clock: clock))
    }

    /// Opens the device on the process's continuous clock.
    func open(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double) throws(CaptureError) -> any FrameSource {
        try open(device, format: format, frameRate: frameRate, clock: .continuous)
    }
}

/// An open stream of frames.
protocol FrameSource: Sendable {
    /// The next frame, paced to the frame rate. `flash` lights it (a photo with the flash);
    /// `sensor` asks for the sensor's photosites with it (a RAW photo), where the camera has them.
    func nextFrame(flash: Bool, sensor: Bool) async throws(CaptureError) -> CaptureFrame
    func close()
}
