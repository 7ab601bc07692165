import Foundation
import ShoeboxImaging

/// One video frame (`CMSampleBuffer`'s role): upright pixels and when they were taken.
public struct CaptureFrame: Sendable {
    /// The pixels, upright, in memory.
    public let image: Image
    /// Seconds since the session started (the presentation time).
    public let timestamp: Double
    /// The device's frame counter: 0, 1, 2, … since the source opened.
    public let frameNumber: Int
    /// Whether the flash lit this frame (photo captures).
    public let flashFired: Bool
    /// When the pixels were made, on the process's continuous clock.
    let capturedAt: ContinuousClock.Instant

    init(image: Image, timestamp: Double, frameNumber: Int, flashFired: Bool, capturedAt: ContinuousClock.Instant = .now) {
        self.image = image
        self.timestamp = timestamp
        self.frameNumber = frameNumber
        self.flashFired = flashFired
        self.capturedAt = capturedAt
    }

    public var pixelSize: PixelSize { image.pixelSize }
}
