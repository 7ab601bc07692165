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
    ].map {
        CaptureDevice.Format(
            pixelFormat: .rgb, dimensions: $0, frameRates: [30, 15], isoRange: 50...3_200,
            exposureDurationRange: .seconds(1.0 / 8_000) ... .seconds(1.0 / 15))
    }

    /// How bright the scene is without torch or flash (0…1): dim, so `.auto` flash fires.
    static let sceneBrightness = 0.35
    /// The exposure the auto modes choose for the scene without bias; frames exposed for longer
    /// or at a higher ISO are brighter in proportion.
    static let autoExposure = (duration: Duration.seconds(1.0 / 60), iso: Float(100))
    /// The scene's light, which the auto white balance makes neutral.
    static let sceneLight = CaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 5_500, tint: 0)
    /// Where the lens brings the (flat) scene into focus; away from it frames blur, by 24 pixels
    /// of box blur per unit of lens travel at 640 pixels wide.
    static let sharpLensPosition: Float = 0.5

    static func devices() -> [CaptureDevice] {
        let capabilities = CaptureDevice.Capabilities(
            formats: formats, hasFlash: true, hasTorch: true,
            focusModes: [.locked, .autoFocus, .continuousAutoFocus],
            exposureModes: [.locked, .autoExpose, .continuousAutoExposure, .custom],
            whiteBalanceModes: [.locked, .autoWhiteBalance, .continuousAutoWhiteBalance],
            zoomRange: 1...8, lockingFocusWithCustomLensPosition: true, focusPointOfInterest: true, exposurePointOfInterest: true,
            exposureTargetBiasRange: -3...3, lockingWhiteBalanceWithCustomGains: true, maxWhiteBalanceGain: 8,
            autoExposure: autoExposure, autoLensPosition: sharpLensPosition,
            autoWhiteBalanceGains: CaptureDevice.gains(for: sceneLight), reportsAdjustments: true)
        var front = capabilities
        front.hasFlash = false
        front.hasTorch = false
        front.zoomRange = 1...4
        return [
            CaptureDevice(
                uniqueID: "synthetic-back", localizedName: "Synthetic Back Camera", position: .back,
                deviceType: .builtInWideAngleCamera, mediaType: .video, capabilities: capabilities, backend: SyntheticCamera()),
            CaptureDevice(
                uniqueID: "synthetic-front", localizedName: "Synthetic Front Camera", position: .front,
                deviceType: .builtInWideAngleCamera, mediaType: .video, capabilities: front, backend: SyntheticCamera()),
        ]
    }

    func open(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double, clock: ErasedClock) throws(CaptureError) -> any FrameSource {
        guard device.isConnected else { throw .deviceUnavailable("\(device.localizedName) is disconnected") }
        return Source(device: device, size: format.dimensions, interval: 1 / Swift.max(1, Swift.min(frameRate, format.maxFrameRate)), clock: clock)
    }

    func apply(_ settings: CaptureDevice.Settings, to device: CaptureDevice) throws(CaptureError) {}

    /// Whether the scene, unlit, is dim enough for `.auto` flash and torch.
    static var sceneIsDim: Bool { sceneBrightness < 0.5 }

    func sceneNeedsFlash(_ device: CaptureDevice) -> Bool {
        device.hasFlash && !device.isTorchActive && Self.sceneIsDim
    }

    func autoTorchLights(_ device: CaptureDevice) -> Bool { Self.sceneIsDim }

    /// Every format: the scene as a 12-bit RGGB sensor would read it (``sensorData(of:)``).
    func rawPixelFormats(for format: CaptureDevice.Format) -> [CaptureDevice.Format.PixelFormat] { [.bayerRGGB16] }

    final class Source: FrameSource {
        let device: CaptureDevice
        let size: PixelSize
        let interval: Double
        /// The session's clock: frames are due and stamped on it.
        private let clock: ErasedClock
        private let start: ContinuousClock.Instant
        private let counter = Mutex(0)

        init(device: CaptureDevice, size: PixelSize, interval: Double, clock: ErasedClock) {
            self.device = device
            self.size = size
            self.interval = interval
            self.clock = clock
            start = clock.now()
        }

        func nextFrame(flash: Bool, sensor: Bool) async throws(CaptureError) -> CaptureFrame {
            let number = counter.withLock { value -> Int in
                defer { value += 1 }
                return value
            }
            // Pace: frame n is due at n × interval after the start.
            let due = start.advanced(by: .seconds(Double(number) * interval))
            if due > clock.now() {
                do {
                    try await clock.sleep(until: due)
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
            let capturedAt = clock.now()
            let elapsed = capturedAt - start
            let timestamp = elapsed.seconds
            let settings = SyntheticCamera.settle(device)
            var light = SyntheticCamera.sceneBrightness
            if device.isTorchActive { light += 0.35 }
            if flash { light += 0.6 }
            let exposure =
                settings.exposureDuration.seconds / SyntheticCamera.autoExposure.duration.seconds
                * Double(settings.iso / SyntheticCamera.autoExposure.iso)
            let auto = device.capabilities.autoWhiteBalanceGains
            let balance = (
                Double(settings.whiteBalanceGains.redGain / auto.redGain), Double(settings.whiteBalanceGains.greenGain / auto.greenGain),
                Double(settings.whiteBalanceGains.blueGain / auto.blueGain)
            )
            let blur = Int((Double(abs(settings.lensPosition - SyntheticCamera.sharpLensPosition)) * 24 * Double(size.width) / 640).rounded())
            let size = self.size
            let zoom = settings.videoZoomFactor
            let noise = SyntheticCamera.noise(iso: settings.iso)
            let brightness = Swift.min(light, 1) * exposure
            do {
                // Drawing takes the frame's time on a core: off the task's executor (an event loop
                // in `shoebox serve`).
                let (image, sensorData) = try await BlockingPool.shared.run { () throws(ImageError) -> (Image, SensorData?) in
                    let bitmap = SyntheticCamera.render(
                        size: size, frame: number, milliseconds: Int(timestamp * 1000), light: brightness,
                        zoom: zoom, balance: balance, blurRadius: blur, noise: noise)
                    return (try Image(bitmap: bitmap), sensor ? SyntheticCamera.sensorData(of: bitmap) : nil)
                }
                return CaptureFrame(
                    image: image, timestamp: timestamp, frameNumber: number, flashFired: flash, capturedAt: capturedAt,
                    sensor: sensorData)
            } catch {
                throw .captureFailed("cannot wrap a synthetic frame: \(error.message)", underlying: error)
            }
        }

        func close() {}
    }

    // MARK: Sensor

    /// The sensor noise of a frame at `iso`, as a standard deviation in 8-bit levels: none at the
    /// base sensitivity (ISO 100) and below, then growing with the square root of the extra gain
    /// (3.5 levels at ISO 400, 11 at ISO 3200), as amplified shot noise does on a real sensor.
    static func noise(iso: Float) -> Double {
        2 * Swift.max(0, Double(iso) / 100 - 1).squareRoot()
    }

    /// The photosites a 12-bit sensor under an RGGB filter would read of `bitmap` (its sRGB values
    /// made linear again): what a RAW photo of the synthetic camera holds.
    static func sensorData(of bitmap: Bitmap) -> SensorData {
        let width = bitmap.width / 2 * 2
        let height = bitmap.height / 2 * 2
        let linear: [UInt16] = (0..<256).map { value in
            let encoded = Double(value) / 255
            let level = encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
            return UInt16((level * 4_095).rounded())
        }
        var values = [UInt16](repeating: 0, count: width * height)
        let pattern = RawFileWriter.CFAPattern.rggb
        bitmap.bytes.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    values[y * width + x] = linear[Int(pixels[(y * bitmap.width + x) * bitmap.channels + pattern.colour(x: x, y: y)])]
                }
            }
        }
        return SensorData(width: width, height: height, photosites: values, pattern: pattern, blackLevel: 0, whiteLevel: 4_095)
    }

    /// A fixed table of normally distributed values (mean 0, standard deviation 1), read at a
    /// frame's own offset: noise that differs from frame to frame and costs a lookup a pixel.
    private static let gaussian: [Float] = {
        var state: UInt64 = 0x5EED_5EED
        return (0..<65_536).map { _ in
            // Box–Muller on a fixed sequence (SplitMix64), so frames are repeatable.
            func next() -> Double {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
            }
            let u1 = Swift.max(next(), 1e-12)
            let u2 = next()
            return Float((-2 * log(u1)).squareRoot() * cos(2 * .pi * u2))
        }
    }()

    // MARK: Auto modes

    /// Moves the auto modes one frame's step toward what they choose for the scene, as a real
    /// camera's do over a few frames, and returns the settings for this frame. Focus goes to
    /// ``sharpLensPosition``; exposure to ``autoExposure`` times 2^bias (longer first, then a
    /// higher ISO past the longest exposure); white balance to the gains of ``sceneLight``.
    /// While one moves its `isAdjusting…` is true; `.autoFocus`, `.autoExpose` and
    /// `.autoWhiteBalance` lock once there.
    static func settle(_ device: CaptureDevice) -> CaptureDevice.Settings {
        let capabilities = device.capabilities
        return device.update { settings in
            if settings.focusMode != .locked {
                let target = capabilities.autoLensPosition
                let gap = target - settings.lensPosition
                settings.lensPosition = abs(gap) <= 0.1 ? target : settings.lensPosition + (gap > 0 ? 0.1 : -0.1)
                if settings.lensPosition == target, settings.isAdjustingFocus {
                    settings.isAdjustingFocus = false
                    if settings.focusMode == .autoFocus { settings.focusMode = .locked }
                } else if settings.lensPosition != target {
                    settings.isAdjustingFocus = true
                }
            }
            if settings.exposureMode == .autoExpose || settings.exposureMode == .continuousAutoExposure, let format = settings.activeFormat {
                let wanted = autoExposure.duration.seconds * Double(autoExposure.iso) * pow(2, Double(settings.exposureTargetBias))
                let duration = Swift.min(format.maxExposureDuration.seconds, Swift.max(format.minExposureDuration.seconds, wanted / Double(autoExposure.iso)))
                let iso = Float(Swift.min(Double(format.maxISO), Swift.max(Double(format.minISO), wanted / duration)))
                // Halfway there each frame, then there.
                let current = settings.exposureDuration.seconds
                let nextDuration = abs(current - duration) <= duration * 0.02 ? duration : (current + duration) / 2
                let nextISO = abs(settings.iso - iso) <= iso * 0.02 ? iso : (settings.iso + iso) / 2
                settings.exposureDuration = .seconds(nextDuration)
                settings.iso = nextISO
                let settled = nextDuration == duration && nextISO == iso
                if settled, settings.isAdjustingExposure {
                    settings.isAdjustingExposure = false
                    if settings.exposureMode == .autoExpose { settings.exposureMode = .locked }
                } else if !settled {
                    settings.isAdjustingExposure = true
                }
            }
            if settings.whiteBalanceMode != .locked {
                let target = capabilities.autoWhiteBalanceGains
                func step(_ value: Float, _ goal: Float) -> Float { abs(goal - value) <= 0.05 ? goal : value + (goal - value) / 2 }
                settings.whiteBalanceGains = .init(
                    redGain: step(settings.whiteBalanceGains.redGain, target.redGain),
                    greenGain: step(settings.whiteBalanceGains.greenGain, target.greenGain),
                    blueGain: step(settings.whiteBalanceGains.blueGain, target.blueGain))
                let settled = settings.whiteBalanceGains == target
                if settled, settings.isAdjustingWhiteBalance {
                    settings.isAdjustingWhiteBalance = false
                    if settings.whiteBalanceMode == .autoWhiteBalance { settings.whiteBalanceMode = .locked }
                } else if !settled {
                    settings.isAdjustingWhiteBalance = true
                }
            }
        }
    }

    // MARK: Drawing

    /// Draws one frame: diagonal colour bands 256 pixels apart moving with the frame number (zoom
    /// crops around the centre, so they widen), lit by `light` (0.5: as bright as the pattern is)
    /// times `balance` per channel, blurred by `blurRadius` (out of focus), with sensor noise of
    /// standard deviation `noise` levels (a different draw each frame); then a 48-block binary
    /// strip along the top and the frame number as seven-segment digits, always sharp and
    /// black and white.
    static func render(
        size: PixelSize, frame: Int, milliseconds: Int, light: Double, zoom: Double,
        balance: (red: Double, green: Double, blue: Double) = (1, 1, 1), blurRadius: Int = 0, noise: Double = 0
    ) -> Bitmap {
        let width = size.width
        let height = size.height
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        let scale = light * 2  // 0.35 → 0.7 of full brightness; 1 → 2 (clipped)
        let scales = (scale * balance.red, scale * balance.green, scale * balance.blue)
        let period = 256
        let centre = (x: Double(width) / 2, y: Double(height) / 2)
        bytes.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let row = y * width * 3
                // Zoom: the scene point this pixel shows.
                let sceneY = zoom == 1 ? y : Int((centre.y + (Double(y) - centre.y) / zoom).rounded(.down))
                for x in 0..<width {
                    let sceneX = zoom == 1 ? x : Int((centre.x + (Double(x) - centre.x) / zoom).rounded(.down))
                    let position = ((sceneX + sceneY + frame * 4) % (period * 3) + period * 3) % (period * 3)
                    let phase = position % period
                    let band = position / period
                    let value = 80 + phase * 160 / period
                    var r = 40
                    var g = 40
                    var b = 40
                    switch band {
                    case 0: r = value
                    case 1: g = value
                    default: b = value
                    }
                    let index = row + x * 3
                    pixels[index] = UInt8(Swift.min(255, Double(r) * scales.0))
                    pixels[index + 1] = UInt8(Swift.min(255, Double(g) * scales.1))
                    pixels[index + 2] = UInt8(Swift.min(255, Double(b) * scales.2))
                }
            }
            if blurRadius > 0 { boxBlur(pixels, width: width, height: height, radius: blurRadius) }
            // Sensor noise over the scene (not over the strip and digits drawn below).
            if noise > 0 {
                let table = gaussian
                let offset = (frame &* 7_919) & 0xFFFF
                let sigma = Float(noise)
                for index in 0..<pixels.count {
                    let value = Float(pixels[index]) + table[(index &+ offset) & 0xFFFF] * sigma
                    pixels[index] = UInt8(Swift.min(255, Swift.max(0, value.rounded())))
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
            drawDigits(
                String(frame), into: pixels, width: width, height: height, origin: (16, height - Swift.max(40, height / 8) - 16),
                digitHeight: Swift.max(40, height / 8))
        }
        // `Bitmap` validates the byte count, which is right by construction.
        return try! Bitmap(width: width, height: height, channels: 3, bytes: bytes)
    }

    /// Blurs 8-bit RGB in place with a box of `radius` pixels each way, across then down (each
    /// pass a running sum: the cost does not grow with the radius).
    static func boxBlur(_ pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, radius: Int) {
        var line = [Int](repeating: 0, count: Swift.max(width, height) * 3)
        func pass(count: Int, lines: Int, index: (_ line: Int, _ position: Int) -> Int) {
            for lineNumber in 0..<lines {
                for position in 0..<count {
                    let at = index(lineNumber, position)
                    for channel in 0..<3 { line[position * 3 + channel] = Int(pixels[at + channel]) }
                }
                for channel in 0..<3 {
                    var sum = 0
                    // The window over positions −radius…radius, edges repeated.
                    for offset in -radius...radius { sum += line[Swift.min(count - 1, Swift.max(0, offset)) * 3 + channel] }
                    let size = 2 * radius + 1
                    for position in 0..<count {
                        pixels[index(lineNumber, position) + channel] = UInt8(sum / size)
                        let leaving = Swift.max(0, position - radius)
                        let entering = Swift.min(count - 1, position + radius + 1)
                        sum += line[entering * 3 + channel] - line[leaving * 3 + channel]
                    }
                }
            }
        }
        pass(count: width, lines: height) { ($0 * width + $1) * 3 }
        pass(count: height, lines: width) { ($1 * width + $0) * 3 }
    }

    /// Seven-segment digits in white.
    static func drawDigits(
        _ text: String, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
        origin: (x: Int, y: Int), digitHeight: Int
    ) {
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
            let x = bit * block + block / 2
            let y = 8
            let index = (y * bitmap.width + x) * bitmap.channels
            if bitmap.bytes[index] > 127 { code |= 1 << UInt64(bit) }
        }
        return (Int(code & 0xFF_FFFF), Int(code >> 24 & 0xFF_FFFF))
    }
}
