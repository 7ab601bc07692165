import Foundation

/// Where a device's frames come from: V4L2, the synthetic camera, or (in the web issue) the
/// browser.
protocol CaptureDeviceBackend: Sendable {
    /// Starts delivering frames in `format`.
    func open(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double) throws(CaptureError) -> any FrameSource
    /// Pushes changed settings to the hardware (V4L2 controls); the synthetic camera reads them
    /// from the device per frame instead.
    func apply(_ settings: CaptureDevice.Settings, to device: CaptureDevice) throws(CaptureError)
    /// Whether `.auto` flash fires now (the scene is dark and the torch is off).
    func sceneNeedsFlash(_ device: CaptureDevice) -> Bool
}

/// An open stream of frames.
protocol FrameSource: Sendable {
    /// The next frame, paced to the frame rate. `flash` lights it (a photo with the flash).
    func nextFrame(flash: Bool) async throws(CaptureError) -> CaptureFrame
    func close()
}
