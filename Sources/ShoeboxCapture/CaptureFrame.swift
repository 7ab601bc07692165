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
    /// The sensor's photosites as read, where the frame source was asked for them (a RAW photo).
    let sensor: SensorData?
    /// What the connection did to ``image`` since the sensor read it: a RAW photo records it as
    /// its orientation instead of turning the photosites.
    let sensorTurn: CaptureConnection.Transform

    init(
        image: Image, timestamp: Double, frameNumber: Int, flashFired: Bool, capturedAt: ContinuousClock.Instant = .now,
        sensor: SensorData? = nil, sensorTurn: CaptureConnection.Transform = .identity
    ) {
        self.image = image
        self.timestamp = timestamp
        self.frameNumber = frameNumber
        self.flashFired = flashFired
        self.capturedAt = capturedAt
        self.sensor = sensor
        self.sensorTurn = sensorTurn
    }

    /// The frame's width and height in pixels: ``image``'s, upright.
    public var pixelSize: PixelSize { image.pixelSize }

    /// The same frame with other pixels, time stamp or flash (the sensor data goes along).
    func replacing(
        image: Image? = nil, timestamp: Double? = nil, flashFired: Bool? = nil,
        sensorTurn: CaptureConnection.Transform? = nil
    ) -> CaptureFrame {
        CaptureFrame(
            image: image ?? self.image, timestamp: timestamp ?? self.timestamp, frameNumber: frameNumber,
            flashFired: flashFired ?? self.flashFired, capturedAt: capturedAt, sensor: sensor,
            sensorTurn: sensorTurn ?? self.sensorTurn)
    }
}

/// A sensor's photosites under its colour filter array, as a Bayer format delivers them (or, on
/// the synthetic camera, as its scene would fall on such a sensor).
struct SensorData: Sendable {
    let width: Int
    let height: Int
    /// `width × height` values, row by row.
    let photosites: [UInt16]
    let pattern: RawFileWriter.CFAPattern
    let blackLevel: UInt32
    let whiteLevel: UInt32
}
