import Foundation
import ShoeboxImaging
import Synchronization

/// Real cameras through Video4Linux2: capabilities, formats, sizes and frame intervals, controls
/// for focus, exposure, white balance, zoom and the LED (torch and flash), and mmap streaming of
/// MJPEG and YUYV frames. Everything goes through the ``V4L2Interface`` seam.
///
/// The LED: `V4L2_CID_FLASH_LED_MODE` with the torch item (2) gives a torch. A flash also needs
/// the flash item (1) and `V4L2_CID_FLASH_STROBE`, which drivers offer only for LEDs that can
/// flash (a torch-only LED has no strobe). A photo with the flash sets the LED to flash mode,
/// strobes, takes the next frame the camera makes, and puts the LED back (torch or off). `.auto`
/// fires when the last frame delivered is dark: its mean brightness below ``darkScene``.
struct V4L2Camera: CaptureDeviceBackend {
    /// Opens the interface for streaming (the device file again, or the same replay).
    let connect: @Sendable () throws(V4L2Error) -> any V4L2Interface
    /// The controls the device has, by id.
    let controls: [UInt32: V4L2Control]
    /// How bright the last frame was, for `.auto` flash.
    let scene = SceneMeter()

    static let focusAuto: UInt32 = 0x009a_090c
    static let exposureAuto: UInt32 = 0x009a_0901
    static let whiteBalanceAuto: UInt32 = 0x0098_090c
    static let zoomAbsolute: UInt32 = 0x009a_090d
    static let focusAbsolute: UInt32 = 0x009a_090a
    /// In units of 100 µs.
    static let exposureAbsolute: UInt32 = 0x009a_0902
    /// In thousandths of an EV.
    static let exposureBias: UInt32 = 0x009a_0913
    static let isoSensitivity: UInt32 = 0x009a_0917
    /// V4L2_ISO_SENSITIVITY_MANUAL = 0, _AUTO = 1.
    static let isoSensitivityAuto: UInt32 = 0x009a_0918
    /// In kelvin.
    static let whiteBalanceTemperature: UInt32 = 0x0098_091a
    /// The controls Shoebox reads and sets.
    static let knownControls = [
        focusAuto, exposureAuto, whiteBalanceAuto, zoomAbsolute, ledMode, flashStrobeSource, flashStrobe, flashStrobeStop,
        focusAbsolute, exposureAbsolute, exposureBias, isoSensitivity, isoSensitivityAuto, whiteBalanceTemperature,
    ]
    static let ledMode: UInt32 = 0x009c_0901
    static let flashStrobeSource: UInt32 = 0x009c_0902
    static let flashStrobe: UInt32 = 0x009c_0903
    static let flashStrobeStop: UInt32 = 0x009c_0904
    /// V4L2_FLASH_LED_MODE_NONE, _FLASH, _TORCH.
    static let ledModeNone: Int32 = 0, ledModeFlash: Int32 = 1, ledModeTorch: Int32 = 2
    /// `.auto` flash fires below this mean frame brightness (0…1).
    static let darkScene = 0.3
    static let captureCapability: UInt32 = 0x0000_0001
    static let streamingCapability: UInt32 = 0x0400_0000

    /// Every `video*` device in `folder` (`/dev`) that captures and streams.
    static func devices(in folder: String = "/dev") -> [CaptureDevice] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("video") }.sorted()
        return names.compactMap { name in
            let path = folder + "/" + name
            return device(uniqueIDPrefix: "v4l2:", path: path) { () throws(V4L2Error) -> any V4L2Interface in try V4L2DeviceFile(path: path) }
        }
    }

    /// Builds a device from what the interface answers, or `nil` if it does not capture video.
    static func device(uniqueIDPrefix: String, path: String, connect: @escaping @Sendable () throws(V4L2Error) -> any V4L2Interface) -> CaptureDevice? {
        guard let probe = try? connect() else { return nil }
        defer { probe.close() }
        guard case .success(let capabilities) = probe.queryCapabilities(),
            capabilities.capabilities & captureCapability != 0, capabilities.capabilities & streamingCapability != 0
        else { return nil }
        var controls: [UInt32: V4L2Control] = [:]
        for id in knownControls {
            if case .success(let control) = probe.queryControl(id: id) { controls[id] = control }
        }
        let isoRange = controls[isoSensitivity].map { Float(Swift.max(1, $0.minimum))...Float(Swift.max(1, $0.maximum)) } ?? 100...100
        let exposureRange = controls[exposureAbsolute].map {
            Duration.microseconds(Int64(Swift.max(1, $0.minimum)) * 100)...Duration.microseconds(Int64(Swift.max(1, $0.maximum)) * 100)
        }
        var formats: [CaptureDevice.Format] = []
        var index: UInt32 = 0
        while case .success(let fourcc) = probe.enumerateFormat(index: index) {
            index += 1
            let pixelFormat: CaptureDevice.Format.PixelFormat
            var bits: Int?
            switch fourcc {
            case FourCC.mjpeg: pixelFormat = .mjpeg
            case FourCC.yuyv: pixelFormat = .yuyv
            default:
                guard let bayer = FourCC.bayer[fourcc] else { continue }  // formats Shoebox does not decode
                (pixelFormat, bits) = (bayer.0, bayer.1)
            }
            var sizeIndex: UInt32 = 0
            while case .success(let size) = probe.enumerateSize(fourcc: fourcc, index: sizeIndex) {
                sizeIndex += 1
                var rates: [Double] = []
                var intervalIndex: UInt32 = 0
                while case .success(let interval) = probe.enumerateInterval(fourcc: fourcc, width: size.width, height: size.height, index: intervalIndex) {
                    intervalIndex += 1
                    if interval.numerator > 0 { rates.append(Double(interval.denominator) / Double(interval.numerator)) }
                }
                formats.append(
                    CaptureDevice.Format(
                        pixelFormat: pixelFormat, dimensions: PixelSize(width: Int(size.width), height: Int(size.height)),
                        frameRates: rates.isEmpty ? [30] : rates, isoRange: isoRange, exposureDurationRange: exposureRange,
                        bitsPerPhotosite: bits))
            }
        }
        guard !formats.isEmpty else { return nil }
        // MJPEG first at each size: it reaches higher frame rates over USB; Bayer last (a RAW
        // photo asks for it; previews would demosaic every frame).
        func rank(_ format: CaptureDevice.Format) -> Int { format.pixelFormat == .mjpeg ? 0 : format.pixelFormat.isBayer ? 2 : 1 }
        formats.sort { ($0.dimensions.pixelCount, rank($0)) < ($1.dimensions.pixelCount, rank($1)) }
        var model = CaptureDevice.Capabilities(formats: formats)
        if controls[focusAuto] != nil { model.focusModes = [.locked, .continuousAutoFocus] }
        if controls[exposureAuto] != nil { model.exposureModes = [.locked, .continuousAutoExposure] }
        if controls[whiteBalanceAuto] != nil { model.whiteBalanceModes = [.locked, .continuousAutoWhiteBalance] }
        if let focus = controls[focusAbsolute], focus.maximum > focus.minimum {
            model.lockingFocusWithCustomLensPosition = true
            model.autoLensPosition = lensPosition(focus.defaultValue, of: focus)
        }
        if controls[exposureAuto] != nil, let exposure = controls[exposureAbsolute] {
            model.exposureModes.insert(.custom)
            model.autoExposure = (
                .microseconds(Int64(Swift.max(1, exposure.defaultValue)) * 100),
                Float(controls[isoSensitivity].map { Swift.max(1, $0.defaultValue) } ?? 100)
            )
        }
        if let bias = controls[exposureBias] { model.exposureTargetBiasRange = Float(bias.minimum) / 1_000...Float(bias.maximum) / 1_000 }
        if let temperature = controls[whiteBalanceTemperature], temperature.maximum > temperature.minimum {
            model.lockingWhiteBalanceWithCustomGains = true
            // Gains go to the camera as the temperature they make neutral.
            model.maxWhiteBalanceGain = 8
            model.autoWhiteBalanceGains = CaptureDevice.gains(for: .init(temperature: Float(temperature.defaultValue), tint: 0))
        }
        if let zoom = controls[zoomAbsolute], zoom.maximum > zoom.minimum {
            model.zoomRange = 1...(Double(zoom.maximum) / Double(Swift.max(zoom.minimum, 1)))
        }
        if let led = controls[ledMode], led.maximum >= ledModeTorch { model.hasTorch = true }
        model.hasFlash = hasFlash(controls)
        let id = uniqueIDPrefix + (capabilities.bus.isEmpty ? path : capabilities.bus)
        let name = capabilities.card.isEmpty ? path : capabilities.card
        return CaptureDevice(
            uniqueID: id, localizedName: name, position: .unspecified, deviceType: .external, mediaType: .video,
            capabilities: model, backend: V4L2Camera(connect: connect, controls: controls))
    }

    /// Whether the LED can flash: the flash item in the LED mode's range, and a strobe.
    static func hasFlash(_ controls: [UInt32: V4L2Control]) -> Bool {
        guard let led = controls[ledMode], (led.minimum...led.maximum).contains(ledModeFlash) else { return false }
        return controls[flashStrobe] != nil
    }

    func open(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double, clock: ErasedClock) throws(CaptureError) -> any FrameSource {
        switch try openStream(device, format: format, frameRate: frameRate, clock: clock) {
        case .opened(let source): return source
        case .inUseByAnotherClient(let detail): throw .deviceUnavailable(detail)
        }
    }

    /// The V4L2 pixel format a session's format streams as.
    static func fourcc(_ format: CaptureDevice.Format) -> UInt32 {
        switch format.pixelFormat {
        case .mjpeg: return FourCC.mjpeg
        case .yuyv, .rgb: return FourCC.yuyv
        default:
            return FourCC.bayer.first { $0.value.0 == format.pixelFormat && $0.value.1 == format.bitsPerPhotosite }?.key ?? FourCC.yuyv
        }
    }

    /// Opens the node and sets the format the device has now, as a session would first: a
    /// device streaming to another file handle answers EBUSY (setting its own format again changes
    /// nothing on a free one).
    func isInUseByAnotherProgram(_ device: CaptureDevice) -> Bool {
        guard let format = device.activeFormat ?? device.formats.first else { return false }
        let interface: any V4L2Interface
        do {
            interface = try connect()
        } catch {
            return error.isBusy
        }
        defer { interface.close() }
        let fourcc = Self.fourcc(format)
        if case .failure(let error) = interface.setFormat(fourcc: fourcc, width: UInt32(format.dimensions.width), height: UInt32(format.dimensions.height)) {
            return error.isBusy
        }
        return false
    }

    func openStream(_ device: CaptureDevice, format: CaptureDevice.Format, frameRate: Double, clock: ErasedClock) throws(CaptureError) -> StreamOpening {
        let busy = StreamOpening.inUseByAnotherClient("\(device.localizedName) is in use by another program")
        let interface: any V4L2Interface
        do {
            interface = try connect()
        } catch {
            if error.isBusy { return busy }
            device.disconnect()
            throw .deviceUnavailable("\(device.localizedName): \(error.message)")
        }
        let fourcc = Self.fourcc(format)
        let size: (width: UInt32, height: UInt32)
        switch interface.setFormat(fourcc: fourcc, width: UInt32(format.dimensions.width), height: UInt32(format.dimensions.height)) {
        case .success(let set): size = set
        case .failure(let error):
            interface.close()
            if error.isBusy { return busy }
            throw Self.captureError(error, device)
        }
        _ = interface.setFrameInterval(numerator: 1, denominator: UInt32(Swift.max(1, frameRate.rounded())))
        if case .failure(let error) = interface.startStreaming(buffers: 4) {
            interface.close()
            if error.isBusy { return busy }
            throw Self.captureError(error, device)
        }
        return .opened(
            Source(
                device: device, interface: interface, fourcc: fourcc, size: PixelSize(width: Int(size.width), height: Int(size.height)),
                controls: controls, scene: scene, format: format, clock: clock))
    }

    /// The control writes that put the camera in `settings`: each auto switch before the values it
    /// guards (drivers refuse an absolute value while their auto mode runs).
    func controlWrites(for settings: CaptureDevice.Settings) -> [(UInt32, Int32)] {
        var writes: [(UInt32, Int32)] = []
        if controls[Self.focusAuto] != nil { writes.append((Self.focusAuto, settings.focusMode == .locked ? 0 : 1)) }
        if settings.focusMode == .locked, let focus = controls[Self.focusAbsolute] {
            writes.append((Self.focusAbsolute, Self.value(Double(settings.lensPosition), of: focus)))
        }
        // V4L2_EXPOSURE_MANUAL = 1, V4L2_EXPOSURE_APERTURE_PRIORITY = 3 (what UVC cameras call auto).
        let manualExposure = settings.exposureMode == .locked || settings.exposureMode == .custom
        if controls[Self.exposureAuto] != nil { writes.append((Self.exposureAuto, manualExposure ? 1 : 3)) }
        if settings.exposureMode == .custom {
            if let exposure = controls[Self.exposureAbsolute] {
                let units = (settings.exposureDuration.seconds * 10_000).rounded()
                writes.append((Self.exposureAbsolute, Int32(Swift.min(Double(exposure.maximum), Swift.max(Double(exposure.minimum), units)))))
            }
            if let iso = controls[Self.isoSensitivity] {
                if controls[Self.isoSensitivityAuto] != nil { writes.append((Self.isoSensitivityAuto, 0)) }
                writes.append((Self.isoSensitivity, Swift.min(iso.maximum, Swift.max(iso.minimum, Int32(settings.iso.rounded())))))
            }
        } else if !manualExposure, controls[Self.isoSensitivity] != nil, controls[Self.isoSensitivityAuto] != nil {
            writes.append((Self.isoSensitivityAuto, 1))
        }
        if let bias = controls[Self.exposureBias] {
            writes.append((Self.exposureBias, Swift.min(bias.maximum, Swift.max(bias.minimum, Int32((settings.exposureTargetBias * 1_000).rounded())))))
        }
        if controls[Self.whiteBalanceAuto] != nil { writes.append((Self.whiteBalanceAuto, settings.whiteBalanceMode == .locked ? 0 : 1)) }
        if settings.whiteBalanceMode == .locked, let temperature = controls[Self.whiteBalanceTemperature] {
            let kelvin = Double(CaptureDevice.temperatureAndTint(for: settings.whiteBalanceGains).temperature)
            writes.append((Self.whiteBalanceTemperature, Self.value(kelvin, clampedTo: temperature)))
        }
        if let zoom = controls[Self.zoomAbsolute], zoom.maximum > zoom.minimum {
            let value = Int32((settings.videoZoomFactor * Double(Swift.max(zoom.minimum, 1))).rounded())
            writes.append((Self.zoomAbsolute, Swift.min(zoom.maximum, Swift.max(zoom.minimum, value))))
        }
        if controls[Self.ledMode] != nil {
            // `.auto` decides from the last frame when the mode is set, and keeps that decision:
            // the lit frames after it must not switch the torch off again.
            let lit: Bool
            if settings.torchMode == .auto {
                lit = scene.decideAutoTorch(dark: Self.darkScene)
            } else {
                scene.forgetAutoTorch()
                lit = settings.torchMode == .on
            }
            writes.append((Self.ledMode, lit ? Self.ledModeTorch : Self.ledModeNone))
        }
        return writes
    }

    /// The lens position (0…1) a focus control's value stands for.
    static func lensPosition(_ value: Int32, of control: V4L2Control) -> Float {
        Float(Double(value - control.minimum) / Double(Swift.max(1, control.maximum - control.minimum)))
    }

    /// The value of a 0…1 fraction of a control's range, on its steps.
    static func value(_ fraction: Double, of control: V4L2Control) -> Int32 {
        let raw = Double(control.minimum) + fraction * Double(control.maximum - control.minimum)
        return value(raw, clampedTo: control)
    }

    /// `raw` rounded to the control's steps, within its range.
    static func value(_ raw: Double, clampedTo control: V4L2Control) -> Int32 {
        let step = Double(Swift.max(1, control.step))
        let stepped = Double(control.minimum) + ((raw - Double(control.minimum)) / step).rounded() * step
        return Int32(Swift.min(Double(control.maximum), Swift.max(Double(control.minimum), stepped)))
    }

    func apply(_ settings: CaptureDevice.Settings, to device: CaptureDevice) throws(CaptureError) {
        let writes = controlWrites(for: settings)
        guard !writes.isEmpty else { return }
        let interface: any V4L2Interface
        do {
            interface = try connect()
        } catch {
            device.disconnect()
            throw .deviceUnavailable("\(device.localizedName): \(error.message)")
        }
        defer { interface.close() }
        for (id, value) in writes {
            if case .failure(let error) = interface.setControl(id: id, value: value) { throw Self.captureError(error, device) }
        }
    }

    /// Whether `.auto` fires: the camera can flash and the last frame it delivered (unlit by a
    /// flash) is darker than ``darkScene`` on average. Before any frame, it does not fire.
    func sceneNeedsFlash(_ device: CaptureDevice) -> Bool {
        guard device.hasFlash, !device.isTorchActive, let brightness = scene.meanBrightness() else { return false }
        return brightness < Self.darkScene
    }

    func autoTorchLights(_ device: CaptureDevice) -> Bool { scene.isAutoTorchLit }

    static func captureError(_ error: V4L2Error, _ device: CaptureDevice) -> CaptureError {
        if error.isUnplug {
            device.disconnect()
            return .deviceUnavailable("\(device.localizedName) was unplugged")
        }
        return .unsupported("\(device.localizedName): \(error.message)")
    }

    final class Source: FrameSource {
        let device: CaptureDevice
        let interface: any V4L2Interface
        let fourcc: UInt32
        let size: PixelSize
        let controls: [UInt32: V4L2Control]
        let scene: SceneMeter
        /// The format streamed (a Bayer one's pattern and bits decode its frames).
        let format: CaptureDevice.Format?
        private let counter = Mutex(0)
        /// The session's clock: frames are stamped on it when they are dequeued (the camera
        /// paces them itself).
        private let clock: ErasedClock
        private let start: ContinuousClock.Instant

        init(
            device: CaptureDevice, interface: any V4L2Interface, fourcc: UInt32, size: PixelSize,
            controls: [UInt32: V4L2Control] = [:], scene: SceneMeter = SceneMeter(), format: CaptureDevice.Format? = nil,
            clock: ErasedClock = .continuous
        ) {
            self.clock = clock
            start = clock.now()
            self.device = device
            self.interface = interface
            self.fourcc = fourcc
            self.size = size
            self.controls = controls
            self.scene = scene
            self.format =
                format
                ?? FourCC.bayer[fourcc].map {
                    CaptureDevice.Format(pixelFormat: $0.0, dimensions: size, frameRates: [30], bitsPerPhotosite: $0.1)
                }
        }

        /// The next frame; with `flash` (on a camera that has one), the first frame made after
        /// the LED is strobed in flash mode; with `sensor`, a Bayer format's photosites with it.
        func nextFrame(flash: Bool, sensor: Bool) async throws(CaptureError) -> CaptureFrame {
            let fires = flash && V4L2Camera.hasFlash(controls)
            if fires { try strobe() }
            let frame: CaptureFrame
            do {
                frame = try await readFrame(keepingSensorData: sensor)
            } catch {
                if fires { restoreLED() }
                throw error
            }
            guard fires else {
                scene.record(frame.image)
                return frame
            }
            restoreLED()
            return frame.replacing(flashFired: true)
        }

        /// Drops frames made before the flash, then fires it: LED mode flash, software strobe.
        private func strobe() throws(CaptureError) {
            for _ in 0..<8 {
                guard case .success = interface.nextFrame(timeoutMilliseconds: 0) else { break }
            }
            var writes: [(UInt32, Int32)] = []
            if controls[V4L2Camera.flashStrobeSource] != nil { writes.append((V4L2Camera.flashStrobeSource, 0)) }  // software
            writes.append((V4L2Camera.ledMode, V4L2Camera.ledModeFlash))
            if let strobe = controls[V4L2Camera.flashStrobe] {
                // A button: the value is ignored (drivers report 0…0 or 0…1).
                writes.append((V4L2Camera.flashStrobe, Swift.min(Swift.max(1, strobe.minimum), strobe.maximum)))
            }
            for (id, value) in writes {
                if case .failure(let error) = interface.setControl(id: id, value: value) {
                    restoreLED()
                    throw V4L2Camera.captureError(error, device)
                }
            }
        }

        /// Ends the flash and puts the LED back as the device's settings have it.
        private func restoreLED() {
            if let stop = controls[V4L2Camera.flashStrobeStop] {
                _ = interface.setControl(id: V4L2Camera.flashStrobeStop, value: Swift.min(Swift.max(1, stop.minimum), stop.maximum))
            }
            _ = interface.setControl(id: V4L2Camera.ledMode, value: device.isTorchActive ? V4L2Camera.ledModeTorch : V4L2Camera.ledModeNone)
        }

        private func readFrame(keepingSensorData: Bool) async throws(CaptureError) -> CaptureFrame {
            // Poll without blocking a thread of the cooperative pool; give up after 5 s.
            let deadline = ContinuousClock.now.advanced(by: .seconds(5))
            while true {
                switch interface.nextFrame(timeoutMilliseconds: 0) {
                case .success(let data):
                    let capturedAt = clock.now()
                    let elapsed = capturedAt - start
                    let number = counter.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    let (image, sensor) = try await BlockingPool.shared.run { () throws(CaptureError) -> (Image, SensorData?) in
                        try self.decode(data, keepingSensorData: keepingSensorData)
                    }
                    return CaptureFrame(
                        image: image, timestamp: elapsed.seconds,
                        frameNumber: number, flashFired: false, capturedAt: capturedAt, sensor: sensor)
                case .failure(let error) where error == .timedOut:
                    guard ContinuousClock.now < deadline else { throw .deviceUnavailable("\(device.localizedName) sent no frame for 5 s") }
                    do {
                        try await Task.sleep(for: .milliseconds(2))
                    } catch {
                        throw .notRunning("stopped")
                    }
                case .failure(let error):
                    throw V4L2Camera.captureError(error, device)
                }
            }
        }

        /// MJPEG frames decode as JPEG; YUYV is converted to RGB here; a Bayer frame is
        /// demosaiced (``BayerFrame``), its photosites kept when `keepingSensorData`.
        func decode(_ data: Data, keepingSensorData: Bool = false) throws(CaptureError) -> (Image, SensorData?) {
            do {
                if fourcc == FourCC.mjpeg {
                    return (try Image(data: data).decoded(), nil)
                }
                if let format, let pattern = format.pixelFormat.cfaPattern {
                    let sensor = try BayerFrame.photosites(
                        data, size: size, pattern: pattern, bytesPerPhotosite: format.pixelFormat.bytesPerPhotosite,
                        bits: format.bitsPerPhotosite ?? 8)
                    return (try Image(bitmap: BayerFrame.demosaiced(sensor)), keepingSensorData ? sensor : nil)
                }
                return (try Image(bitmap: try Self.rgb(fromYUYV: data, size: size)), nil)
            } catch {
                throw .captureFailed("\(device.localizedName) sent a frame that does not decode: \(error.message)", underlying: error)
            }
        }

        /// BT.601 limited-range YUYV (Y0 U Y1 V) to 8-bit RGB.
        static func rgb(fromYUYV data: Data, size: PixelSize) throws(ImageError) -> Bitmap {
            let pixels = size.width * size.height
            guard data.count >= pixels * 2 else { throw .corrupt(reason: "a YUYV frame of \(data.count) bytes is short of \(pixels * 2)") }
            var rgb = [UInt8](repeating: 0, count: pixels * 3)
            data.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
                rgb.withUnsafeMutableBufferPointer { out in
                    for pair in 0..<(pixels / 2) {
                        let y0 = Int(source[pair * 4]) - 16
                        let u = Int(source[pair * 4 + 1]) - 128
                        let y1 = Int(source[pair * 4 + 2]) - 16
                        let v = Int(source[pair * 4 + 3]) - 128
                        for (offset, y) in [(0, y0), (1, y1)] {
                            let c = 298 * y
                            let index = (pair * 2 + offset) * 3
                            out[index] = UInt8(clamping: (c + 409 * v + 128) >> 8)
                            out[index + 1] = UInt8(clamping: (c - 100 * u - 208 * v + 128) >> 8)
                            out[index + 2] = UInt8(clamping: (c + 516 * u + 128) >> 8)
                        }
                    }
                }
            }
            return try Bitmap(width: size.width, height: size.height, channels: 3, bytes: rgb)
        }

        func close() {
            interface.close()
        }
    }
}

/// The last unlit frame a camera delivered, measured on demand: `.auto` flash asks how bright
/// the scene is.
final class SceneMeter: Sendable {
    private let last = Mutex<Image?>(nil)
    private let autoTorch = Mutex(false)

    /// Whether an `.auto` torch was lit when its mode was last set.
    var isAutoTorchLit: Bool { autoTorch.withLock { $0 } }

    /// Decides an `.auto` torch from the last frame (lit below `dark`; not before any frame).
    /// Once lit it stays lit until the mode changes: its own light must not switch it off.
    func decideAutoTorch(dark: Double) -> Bool {
        if isAutoTorchLit { return true }
        let lit = meanBrightness().map { $0 < dark } ?? false
        autoTorch.withLock { $0 = lit }
        return lit
    }

    /// Forgets an `.auto` decision: the mode is `.on` or `.off` now.
    func forgetAutoTorch() {
        autoTorch.withLock { $0 = false }
    }

    func record(_ image: Image) {
        last.withLock { $0 = image }
    }

    /// The last frame's mean brightness, 0 (black) … 1 (white); `nil` before any frame.
    func meanBrightness() -> Double? {
        guard let image = last.withLock({ $0 }),
            let bitmap = try? image.thumbnail(targetSize: PixelSize(square: 32)).bitmap(), !bitmap.bytes.isEmpty
        else { return nil }
        return Double(bitmap.bytes.reduce(0) { $0 + Int($1) }) / Double(bitmap.bytes.count) / 255
    }
}
