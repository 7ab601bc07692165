import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxCapture

extension CaptureSuites {
    /// Focus, exposure, white balance, frame rate and zoom set by hand (issue 22), each measured on
    /// the synthetic camera's frames, and on the V4L2 backend as the control writes a recorded
    /// webcam receives.
    @Suite struct ManualControlsTests {
        init() {
            CaptureDevice.isSyntheticCameraEnabled = true
        }

        /// A running 640×480 session on the back camera; the camera is put back as it was (auto
        /// modes settled, zoom 1, the format's frame rate) when `body` ends, for the suites after.
        func withCamera(_ body: (CaptureDevice, VideoDataOutput) async throws -> Void) async throws {
            let camera = try #require(await CaptureDevice.default(for: .video))
            let preview = VideoDataOutput()
            let session = CaptureSession()
            try session.setSessionPreset(.vga640x480)
            try session.addInput(CaptureDeviceInput(device: camera))
            try session.addOutput(preview)
            try await session.startRunning()
            defer {
                let capabilities = camera.capabilities
                camera.update { settings in
                    settings.focusMode = .continuousAutoFocus
                    settings.exposureMode = .continuousAutoExposure
                    settings.whiteBalanceMode = .continuousAutoWhiteBalance
                    settings.lensPosition = capabilities.autoLensPosition
                    (settings.exposureDuration, settings.iso) = capabilities.autoExposure
                    settings.exposureTargetBias = 0
                    settings.whiteBalanceGains = capabilities.autoWhiteBalanceGains
                    settings.isAdjustingFocus = false
                    settings.isAdjustingExposure = false
                    settings.isAdjustingWhiteBalance = false
                    settings.videoZoomFactor = 1
                    settings.zoomRamp = nil
                    settings.minFrameDuration = nil
                    settings.maxFrameDuration = nil
                    settings.isLocked = false
                }
                Task { await session.stopRunning() }
            }
            try await body(camera, preview)
        }

        /// A frame made after now (frames already queued are skipped).
        func freshFrame(_ output: VideoDataOutput, skipping: Int = 2) async throws -> CaptureFrame {
            var seen = 0
            for await frame in output.frames {
                seen += 1
                if seen > skipping { return frame }
            }
            throw CaptureError.notRunning("the preview ended")
        }

        /// Mean brightness (0…255) of the frame's pattern, between the top strip and the digits.
        static func sceneBrightness(_ frame: CaptureFrame) throws -> Double {
            let bitmap = try frame.image.bitmap()
            var sum = 0
            var count = 0
            for y in 32..<(bitmap.height / 2) {
                for x in (bitmap.width / 4)..<(bitmap.width * 3 / 4) {
                    let index = (y * bitmap.width + x) * bitmap.channels
                    sum += Int(bitmap.bytes[index]) + Int(bitmap.bytes[index + 1]) + Int(bitmap.bytes[index + 2])
                    count += 3
                }
            }
            return Double(sum) / Double(count)
        }

        /// The steepest step between horizontal neighbours in the pattern (its bands' edges): lower
        /// is blurrier.
        static func sharpness(_ frame: CaptureFrame) throws -> Double {
            let bitmap = try frame.image.bitmap()
            var steepest = 0
            for y in stride(from: 40, to: bitmap.height / 2, by: 2) {
                for x in (bitmap.width / 8)..<(bitmap.width * 7 / 8) {
                    let index = (y * bitmap.width + x) * bitmap.channels
                    for channel in 0..<3 {
                        steepest = max(steepest, abs(Int(bitmap.bytes[index + channel]) - Int(bitmap.bytes[index + bitmap.channels + channel])))
                    }
                }
            }
            return Double(steepest)
        }

        /// Mean of each channel over the pattern.
        static func channelMeans(_ frame: CaptureFrame) throws -> (red: Double, green: Double, blue: Double) {
            let bitmap = try frame.image.bitmap()
            var sums = [0, 0, 0]
            var count = 0
            for y in 32..<(bitmap.height / 2) {
                for x in 0..<bitmap.width {
                    let index = (y * bitmap.width + x) * bitmap.channels
                    for channel in 0..<3 { sums[channel] += Int(bitmap.bytes[index + channel]) }
                    count += 1
                }
            }
            return (Double(sums[0]) / Double(count), Double(sums[1]) / Double(count), Double(sums[2]) / Double(count))
        }

        /// What a stream of values says until `done` is true of what it said (at most `seconds`).
        static func collect<Value: Sendable>(_ stream: AsyncStream<Value>, seconds: Double = 10, until done: @escaping @Sendable ([Value]) -> Bool) async
            -> [Value]
        {
            // At the limit the stream ends (its task is cancelled): what it said so far.
            (try? await withTimeLimit(.seconds(seconds)) {
                var values: [Value] = []
                for await value in stream {
                    values.append(value)
                    if done(values) { break }
                }
                return values
            }) ?? []
        }

        @Test func customExposureBrightensInProportionToTimeAndISO() async throws {
            try await withCamera { camera, preview in
                try camera.lockForConfiguration()
                #expect(camera.activeFormat?.minISO == 50 && camera.activeFormat?.maxISO == 3_200)
                try camera.setExposureModeCustom(duration: .seconds(1.0 / 60), iso: 50)
                let dim = try Self.sceneBrightness(try await freshFrame(preview))
                try camera.setExposureModeCustom(duration: nil, iso: 100)
                let twice = try Self.sceneBrightness(try await freshFrame(preview))
                try camera.setExposureModeCustom(duration: .seconds(1.0 / 120), iso: nil)
                let halfTime = try Self.sceneBrightness(try await freshFrame(preview))
                #expect(camera.exposureMode == .custom && camera.iso == 100 && camera.exposureDuration == .seconds(1.0 / 120))
                #expect(abs(twice / dim - 2) < 0.15, "ISO 50 → 100: \(dim) → \(twice)")
                #expect(abs(halfTime - dim) / dim < 0.08, "1/60 s at ISO 50 is 1/120 s at ISO 100: \(dim) vs \(halfTime)")
                #expect(throws: CaptureError.self) { try camera.setExposureModeCustom(duration: nil, iso: 6_400) }
                #expect(throws: CaptureError.self) { try camera.setExposureModeCustom(duration: .seconds(1), iso: nil) }
                #expect(throws: CaptureError.self) { try camera.setExposureMode(.custom) }
                camera.unlockForConfiguration()
                #expect(throws: CaptureError.notLockedForConfiguration(device: camera.localizedName)) {
                    try camera.setExposureModeCustom(duration: nil, iso: 200)
                }
            }
        }

        @Test func aBiasMovesTheAutoExposureWhichSaysWhileItAdjusts() async throws {
            try await withCamera { camera, preview in
                let before = try Self.sceneBrightness(try await freshFrame(preview))
                let adjusting = camera.updates(of: \.isAdjustingExposure)
                try camera.lockForConfiguration()
                try camera.setExposurePointOfInterest(NormalizedPoint(x: 0.2, y: 0.8))
                try camera.setExposureTargetBias(-1)
                try camera.setExposureMode(.autoExpose)
                camera.unlockForConfiguration()
                // It starts with the value before (not adjusting), then adjusts, then settles.
                let seen = await Self.collect(adjusting) { $0.contains(true) && $0.last == false }
                #expect(seen.contains(true) && seen.last == false, "\(seen)")
                #expect(camera.exposureMode == .locked, "auto exposure locks once settled")
                #expect(abs(camera.exposureDuration.seconds - 1.0 / 120) < 0.0005 && camera.iso == 100)
                #expect(camera.exposurePointOfInterest == NormalizedPoint(x: 0.2, y: 0.8))
                let after = try Self.sceneBrightness(try await freshFrame(preview))
                #expect(abs(after / before - 0.5) < 0.08, "−1 EV: \(before) → \(after)")
                try camera.lockForConfiguration()
                #expect(throws: CaptureError.self) { try camera.setExposureTargetBias(4) }
                #expect(throws: CaptureError.self) { try camera.setExposurePointOfInterest(NormalizedPoint(x: 1.5, y: 0)) }
                camera.unlockForConfiguration()
            }
        }

        @Test func theLensPositionBlursAndAutoFocusFindsTheScene() async throws {
            try await withCamera { camera, preview in
                try camera.lockForConfiguration()
                try camera.setFocusModeLocked(lensPosition: 0.5)
                let sharp = try Self.sharpness(try await freshFrame(preview))
                try camera.setFocusModeLocked(lensPosition: 1)
                let blurred = try Self.sharpness(try await freshFrame(preview))
                #expect(camera.focusMode == .locked && camera.lensPosition == 1)
                #expect(blurred < sharp * 0.6, "sharpness at the scene's lens position \(sharp), at 1: \(blurred)")
                let adjusting = camera.updates(of: \.isAdjustingFocus)
                try camera.setFocusPointOfInterest(NormalizedPoint(x: 0.3, y: 0.3))
                try camera.setFocusMode(.autoFocus)
                camera.unlockForConfiguration()
                let seen = await Self.collect(adjusting) { $0.contains(true) && $0.last == false }
                #expect(seen.contains(true) && seen.last == false, "\(seen)")
                #expect(camera.lensPosition == 0.5 && camera.focusMode == .locked, "\(camera.lensPosition) \(camera.focusMode)")
                let refocused = try Self.sharpness(try await freshFrame(preview))
                #expect(abs(refocused - sharp) / sharp < 0.1, "\(sharp) → \(refocused)")
                try camera.lockForConfiguration()
                #expect(throws: CaptureError.self) { try camera.setFocusModeLocked(lensPosition: 1.2) }
                camera.unlockForConfiguration()
            }
        }

        @Test func whiteBalanceGainsTintTheFramesAndConvertToTemperatures() async throws {
            try await withCamera { camera, preview in
                let neutral = try Self.channelMeans(try await freshFrame(preview))
                // Balancing for tungsten under daylight: the frames turn blue.
                let tungsten = camera.deviceWhiteBalanceGains(for: .init(temperature: 3_000, tint: 0))
                #expect(tungsten.blueGain > tungsten.redGain && min(tungsten.redGain, tungsten.greenGain, tungsten.blueGain) == 1)
                try camera.lockForConfiguration()
                try camera.setWhiteBalanceModeLocked(with: tungsten)
                camera.unlockForConfiguration()
                let blue = try Self.channelMeans(try await freshFrame(preview))
                #expect(blue.blue / blue.red > neutral.blue / neutral.red * 1.5, "neutral \(neutral), balanced for 3,000 K \(blue)")
                #expect(camera.whiteBalanceMode == .locked && camera.deviceWhiteBalanceGains == tungsten)
                for (kelvin, tint) in [(3_000, 0), (5_500, 5), (8_000, -10)] as [(Float, Float)] {
                    let back = camera.temperatureAndTintValues(for: camera.deviceWhiteBalanceGains(for: .init(temperature: kelvin, tint: tint)))
                    #expect(abs(back.temperature - kelvin) <= kelvin * 0.01 && abs(back.tint - tint) <= 0.5, "\(kelvin) K, \(tint) → \(back)")
                }
                try camera.lockForConfiguration()
                #expect(throws: CaptureError.self) { try camera.setWhiteBalanceModeLocked(with: .init(redGain: 9, greenGain: 1, blueGain: 1)) }
                #expect(throws: CaptureError.self) { try camera.setWhiteBalanceModeLocked(with: .init(redGain: 0.5, greenGain: 1, blueGain: 1)) }
                camera.unlockForConfiguration()
            }
        }

        @Test func theFrameDurationPacesFrames() async throws {
            try await withCamera { camera, preview in
                try camera.lockForConfiguration()
                #expect(camera.activeVideoMinFrameDuration == .seconds(1.0 / 30) && camera.activeVideoMaxFrameDuration == .seconds(1.0 / 15))
                try camera.setActiveVideoMinFrameDuration(.seconds(1.0 / 15))
                camera.unlockForConfiguration()
                var frames: [CaptureFrame] = []
                _ = try await freshFrame(preview, skipping: 1)
                for await frame in preview.frames {
                    frames.append(frame)
                    if frames.count == 9 { break }
                }
                let gaps = zip(frames, frames.dropFirst()).map { $1.timestamp - $0.timestamp }.sorted()
                let median = gaps[gaps.count / 2]
                #expect(abs(median - 1.0 / 15) < 0.012, "frames \(gaps) s apart at 15 fps")
                try camera.lockForConfiguration()
                #expect(throws: CaptureError.self) { try camera.setActiveVideoMinFrameDuration(.seconds(1.0 / 20)) }
                #expect(throws: CaptureError.self) { try camera.setActiveVideoMaxFrameDuration(.seconds(1.0 / 30)) }
                try camera.setActiveFormat(try #require(camera.formats.first))
                #expect(camera.activeVideoMinFrameDuration == .seconds(1.0 / 30), "a new format brings its own rate")
                camera.unlockForConfiguration()
            }
        }

        @Test func zoomCropsTheCentreAndRampsAtItsRate() async throws {
            try await withCamera { camera, preview in
                try camera.lockForConfiguration()
                try camera.setVideoZoomFactor(2)
                camera.unlockForConfiguration()
                let zoomed = try await freshFrame(preview)
                let bitmap = try zoomed.image.bitmap()
                // The same frame unzoomed: a pixel d from the centre at 2× shows the scene d/2 from it.
                let number = SyntheticCamera.decodeStrip(bitmap).frame
                let wide = SyntheticCamera.render(
                    size: PixelSize(width: bitmap.width, height: bitmap.height), frame: number, milliseconds: 0,
                    light: SyntheticCamera.sceneBrightness, zoom: 1)
                var matches = 0
                var total = 0
                for d in stride(from: -150, through: 150, by: 10) {
                    let x = bitmap.width / 2 + d
                    let y = bitmap.height / 2 - 60
                    let source = ((bitmap.height / 2 + (y - bitmap.height / 2) / 2) * wide.width + bitmap.width / 2 + d / 2) * 3
                    let index = (y * bitmap.width + x) * bitmap.channels
                    total += 1
                    if (0..<3).allSatisfy({ abs(Int(bitmap.bytes[index + $0]) - Int(wide.bytes[source + $0])) <= 2 }) { matches += 1 }
                }
                #expect(matches >= total - 2, "\(matches) of \(total) points show the scene at half their distance from the centre")

                let zooms = camera.updates(of: \.videoZoomFactor)
                let started = ContinuousClock.now
                try camera.lockForConfiguration()
                try camera.ramp(toVideoZoomFactor: 8, withRate: 2)
                camera.unlockForConfiguration()
                #expect(camera.isRampingVideoZoom)
                let values = await Self.collect(zooms) { $0.last == 8 }
                let took = (ContinuousClock.now - started).seconds
                #expect(values.last == 8 && zip(values, values.dropFirst()).allSatisfy { $0 < $1 } && values.count > 10, "\(values.count) steps")
                // 2 → 8 is two doublings at two a second.
                #expect(took > 0.8 && took < 2.5, "the ramp took \(took) s")
                #expect(!camera.isRampingVideoZoom)
                let down = camera.updates(of: \.videoZoomFactor)
                try camera.lockForConfiguration()
                try camera.ramp(toVideoZoomFactor: 1, withRate: 1)
                // Cancelled on its way down, once it has passed 6.
                let going = await Self.collect(down) { ($0.last ?? 8) < 6 }
                #expect((going.last ?? 8) < 6, "the ramp down did not move: \(going)")
                try camera.cancelVideoZoomRamp()
                let stopped = camera.videoZoomFactor
                // Once the ramp's work has ended, nothing moved the zoom after the cancel.
                await camera.zoomRampTask.withLock { $0 }?.value
                #expect(stopped < 8 && stopped > 1 && camera.videoZoomFactor == stopped, "cancelled at \(stopped)")
                #expect(throws: CaptureError.self) { try camera.ramp(toVideoZoomFactor: 20, withRate: 1) }
                camera.unlockForConfiguration()
            }
        }

        @Test func v4l2ManualControlsBecomeTheirControls() async throws {
            var recording = try V4L2CameraTests.webcam()
            recording.controls += [
                V4L2Control(id: V4L2Camera.focusAbsolute, minimum: 0, maximum: 255, step: 5, defaultValue: 0),
                V4L2Control(id: V4L2Camera.exposureAbsolute, minimum: 3, maximum: 2_047, step: 1, defaultValue: 250),
                V4L2Control(id: V4L2Camera.isoSensitivity, minimum: 100, maximum: 1_600, step: 1, defaultValue: 100),
                V4L2Control(id: V4L2Camera.isoSensitivityAuto, minimum: 0, maximum: 1, step: 1, defaultValue: 1),
                V4L2Control(id: V4L2Camera.exposureBias, minimum: -2_000, maximum: 2_000, step: 1, defaultValue: 0),
                V4L2Control(id: V4L2Camera.whiteBalanceTemperature, minimum: 2_000, maximum: 6_500, step: 1, defaultValue: 4_000),
            ]
            let (camera, replay) = V4L2CameraTests.device(recording)
            defer { camera.disconnect() }
            #expect(
                camera.isLockingFocusWithCustomLensPositionSupported && camera.isExposureModeSupported(.custom)
                    && camera.isLockingWhiteBalanceWithCustomDeviceGainsSupported)
            #expect(camera.activeFormat?.minExposureDuration == .microseconds(300) && camera.activeFormat?.maxISO == 1_600)
            #expect(camera.minExposureTargetBias == -2 && camera.maxExposureTargetBias == 2)
            try camera.lockForConfiguration()
            try camera.setFocusModeLocked(lensPosition: 0.4)
            try camera.setExposureModeCustom(duration: .seconds(0.01), iso: 400)
            try camera.setExposureTargetBias(0.5)
            try camera.setWhiteBalanceModeLocked(with: camera.deviceWhiteBalanceGains(for: .init(temperature: 3_200, tint: 0)))
            camera.unlockForConfiguration()
            let writes = replay.controlWrites.map { ($0.id, $0.value) }
            let last = Dictionary(writes, uniquingKeysWith: { _, new in new })
            #expect(last[V4L2Camera.focusAuto] == 0 && last[V4L2Camera.focusAbsolute] == 100, "0.4 of 0…255 on steps of 5")
            #expect(last[V4L2Camera.exposureAuto] == 1 && last[V4L2Camera.exposureAbsolute] == 100, "10 ms in 100 µs units, manual")
            #expect(last[V4L2Camera.isoSensitivityAuto] == 0 && last[V4L2Camera.isoSensitivity] == 400)
            #expect(last[V4L2Camera.exposureBias] == 500)
            #expect(last[V4L2Camera.whiteBalanceAuto] == 0 && abs(Int(last[V4L2Camera.whiteBalanceTemperature] ?? 0) - 3_200) <= 35)
            // Each auto switch goes off before the value it guards is written.
            let order = writes.map(\.0)
            #expect(order.lastIndex(of: V4L2Camera.exposureAuto)! < order.lastIndex(of: V4L2Camera.exposureAbsolute)!)
            #expect(order.lastIndex(of: V4L2Camera.focusAuto)! < order.lastIndex(of: V4L2Camera.focusAbsolute)!)

            // The frame rate goes to the driver as the frame interval (VIDIOC_S_PARM).
            try camera.lockForConfiguration()
            try camera.setActiveFormat(try #require(camera.formats.first { $0.pixelFormat == .yuyv && $0.dimensions.width == 640 }))
            try camera.setActiveVideoMinFrameDuration(.seconds(1.0 / 15))
            camera.unlockForConfiguration()
            let session = CaptureSession()
            try session.setSessionPreset(.inputPriority)
            try session.addInput(CaptureDeviceInput(device: camera))
            let preview = VideoDataOutput()
            try session.addOutput(preview)
            try await session.startRunning()
            for await _ in preview.frames { break }
            await session.stopRunning()
            #expect(replay.frameInterval == (1, 15))
        }
    }
}
