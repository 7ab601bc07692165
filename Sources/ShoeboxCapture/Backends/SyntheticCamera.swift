import Foundation
import ShoeboxImaging
import Synchronization

/// A deterministic camera for demos and tests: a moving colour pattern with the frame number and
/// time stamp drawn as digits and encoded in a strip of black and white blocks along the top,
/// front and back, 640×480 to 3840×2160 at up to 30 fps, with a simulated flash and torch.
///
/// Enabled with `SHOEBOX_SYNTHETIC_CAMERA=1` or ``CaptureDevice/isSyntheticCameraEnabled``.
///
/// The top strip: 48 blocks of `width / 48` pixels, 16 rows high; block *i* is white when bit
/// *i* (least significant first) of `frameNumber | timestampMilliseconds << 24` is set.
struct SyntheticCamera: CaptureDeviceBackend {
    static let formats = [
        PixelSize(width: 640, height: 480), PixelSize(width: 1280, height: 720),
        PixelSize(width: 1920, height: 1080), PixelSize(width: 3840, height: 2160),
    ].map { CaptureDevice.Format(pixelFormat: .rgb, dimensions: $0, frameRates: [30, 15]) }

    /// How bright the scene is without torch or flash (0…1): dim, so `.auto` flash fires.
    static let sceneBrightness = 0.35

    static func devices() -> [CaptureDevice] {
        let capabilities = CaptureDevice.Capabilities(
            formats: formats, hasFlash: true, hasTorch: true,
            focusModes: [.locked, .autoFocus, .continuousAutoFocus],
            exposureModes: [.locked, .autoExpose, .continuousAutoExposure],
            whiteBalanceModes: [.locked, .autoWhiteBalance, .continuousAutoWhiteBalance],
            zoomRange: 1...8)
        var front = capabilities
        front.hasFlash = false
        front.hasTorch = false
        front.zoomRange = 1...4
        return [
            CaptureDevice(uniqueID: "synthetic-back", localizedName: "Synthetic Back Camera", position: .back,
                          deviceType: .builtInWideAngleCamera, mediaType: .video, capabilities: capabilities, backend: SyntheticCamera()),
            CaptureDevice(uniqueID: "synthetic-front", localizedName: "Synthetic Front Camera", position: .front,
                          deviceType: .builtInWideAngleCamera, mediaType: .video, capabilities: front, backend: SyntheticCamera()),
        ]
    }

    func open(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double) throws(CaptureError) -> any FrameSource {
        guard device.isConnected else { throw .deviceUnavailable("\(device.localizedName) is disconnected") }
        return Source(device: device, size: format.dimensions, interval: 1 / Swift.max(1, Swift.min(frameRate, format.maxFrameRate)))
    }

    func apply(_ settings: CaptureDevice.Settings, to device: CaptureDevice) throws(CaptureError) {}

    func sceneNeedsFlash(_ device: CaptureDevice) -> Bool {
        device.hasFlash && device.torchMode != .on && Self.sceneBrightness < 0.5
    }

    final class Source: FrameSource {
        let device: CaptureDevice
        let size: PixelSize
        let interval: Double
        private let clock = ContinuousClock()
        private let start: ContinuousClock.Instant
        private let counter = Mutex(0)

        init(device: CaptureDevice, size: PixelSize, interval: Double) {
            self.device = device
            self.size = size
            self.interval = interval
            start = clock.now
        }

        func nextFrame(flash: Bool) async throws(CaptureError) -> CaptureFrame {
            let number = counter.withLock { value -> Int in
                defer { value += 1 }
                return value
            }
            // Pace: frame n is due at n × interval after the start.
            let due = start.advanced(by: .seconds(Double(number) * interval))
            if due > clock.now {
                do {
                    try await Task.sleep(until: due, clock: clock)
                } catch {
                    throw .notRunning("stopped")
                }
            } else {
                // Behind (drawing is slow on a busy machine): let other tasks run before drawing
                // the next, or sessions that fall behind would hold every thread of the
                // cooperative pool and nothing else, stopping them included, would run.
                await Task.yield()
                if Task.isCancelled { throw .notRunning("stopped") }
            }
            guard device.isConnected else { throw .deviceUnavailable("\(device.localizedName) was disconnected") }
            let capturedAt = clock.now
            let elapsed = capturedAt - start
            let timestamp = elapsed.seconds
            let settings = device.settings
            var light = SyntheticCamera.sceneBrightness
            if settings.torchMode == .on { light += 0.35 }
            if flash { light += 0.6 }
            let bitmap = SyntheticCamera.render(size: size, frame: number, milliseconds: Int(timestamp * 1000),
                                                light: Swift.min(light, 1), zoom: settings.videoZoomFactor)
            do {
                return CaptureFrame(image: try Image(bitmap: bitmap), timestamp: timestamp, frameNumber: number, flashFired: flash, capturedAt: capturedAt)
            } catch {
                throw .captureFailed("cannot wrap a synthetic frame: \(error.message)")
            }
        }

        func close() {}
    }

    // MARK: Drawing

    /// Draws one frame: diagonal colour bands moving with the frame number (zoom narrows them),
    /// a 48-block binary strip along the top, and the frame number as seven-segment digits.
    static func render(size: PixelSize, frame: Int, milliseconds: Int, light: Double, zoom: Double) -> Bitmap {
        let width = size.width, height = size.height
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let scale = light * 2  // 0.35 → 0.7 of full brightness; 1 → 2 (clipped)
        let period = Swift.max(8, Int(256 / zoom))
        bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let row = y * width * 3
                for x in 0..<width {
                    let phase = (x + y + frame * 4) % period
                    let band = (x + y + frame * 4) / period % 3
                    let value = 80 + phase * 160 / period
                    var r = 40, g = 40, b = 40
                    switch band {
                    case 0: r = value
                    case 1: g = value
                    default: b = value
                    }
                    let index = row + x * 3
                    pixels[index] = UInt8(Swift.min(255, Double(r) * scale))
                    pixels[index + 1] = UInt8(Swift.min(255, Double(g) * scale))
                    pixels[index + 2] = UInt8(Swift.min(255, Double(b) * scale))
                }
            }
            // The machine-readable strip.
            let code = UInt64(frame & 0xFF_FFFF) | UInt64(milliseconds & 0xFF_FFFF) << 24
            let block = width / 48
            for bit in 0..<48 {
                let on: UInt8 = (code >> UInt64(bit)) & 1 == 1 ? 255 : 0
                for y in 0..<Swift.min(16, height) {
                    for x in (bit * block)..<((bit + 1) * block) {
                        let index = (y * width + x) * 3
                        pixels[index] = on
                        pixels[index + 1] = on
                        pixels[index + 2] = on
                    }
                }
            }
            // Human-readable digits, bottom left.
            drawDigits(String(frame), into: pixels, width: width, height: height, origin: (16, height - Swift.max(40, height / 8) - 16),
                       digitHeight: Swift.max(40, height / 8))
        }
        // `Bitmap` validates the byte count, which is right by construction.
        return try! Bitmap(width: width, height: height, channels: 3, bytes: bytes)
    }

    /// Seven-segment digits in white.
    static func drawDigits(_ text: String, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
                           origin: (x: Int, y: Int), digitHeight: Int) {
        // Segments a b c d e f g as (x, y, w, h) in a 4×7 cell grid.
        let segments: [(Int, Int, Int, Int)] = [(0, 0, 4, 1), (3, 0, 1, 4), (3, 3, 1, 4), (0, 6, 4, 1), (0, 3, 1, 4), (0, 0, 1, 4), (0, 3, 4, 1)]
        let lit: [Character: [Int]] = [
            "0": [0, 1, 2, 3, 4, 5], "1": [1, 2], "2": [0, 1, 6, 4, 3], "3": [0, 1, 6, 2, 3], "4": [5, 6, 1, 2],
            "5": [0, 5, 6, 2, 3], "6": [0, 5, 6, 4, 2, 3], "7": [0, 1, 2], "8": [0, 1, 2, 3, 4, 5, 6], "9": [0, 1, 2, 3, 5, 6],
        ]
        let cell = Swift.max(1, digitHeight / 7)
        var x0 = origin.x
        for character in text {
            for segment in lit[character] ?? [] {
                let (sx, sy, sw, sh) = segments[segment]
                for y in (origin.y + sy * cell)..<(origin.y + (sy + sh) * cell) where y >= 0 && y < height {
                    for x in (x0 + sx * cell)..<(x0 + (sx + sw) * cell) where x >= 0 && x < width {
                        let index = (y * width + x) * 3
                        pixels[index] = 255
                        pixels[index + 1] = 255
                        pixels[index + 2] = 255
                    }
                }
            }
            x0 += cell * 6
        }
    }

    /// Reads the frame number and milliseconds back from a frame's top strip.
    static func decodeStrip(_ bitmap: Bitmap) -> (frame: Int, milliseconds: Int) {
        let block = bitmap.width / 48
        var code: UInt64 = 0
        for bit in 0..<48 {
            let x = bit * block + block / 2, y = 8
            let index = (y * bitmap.width + x) * bitmap.channels
            if bitmap.bytes[index] > 127 { code |= 1 << UInt64(bit) }
        }
        return (Int(code & 0xFF_FFFF), Int(code >> 24 & 0xFF_FFFF))
    }
}
