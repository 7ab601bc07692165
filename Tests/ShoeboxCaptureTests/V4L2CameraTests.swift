import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxCapture

extension CaptureSuites {
    /// The V4L2 backend against recorded answers. No camera is attached to the machines this runs on,
    /// so the recording is modelled on a UVC webcam's answers (a Logitech C920: YUYV and MJPEG at
    /// 640×480, 1280×720 and 1920×1080, focus, exposure, white balance and zoom controls), with
    /// frames generated here. It goes through JSON, the format `V4L2Recording.record(from:)` writes.
    @Suite struct V4L2CameraTests {
        static func webcam(unplugAfter: Int? = nil, led: Bool = false) throws -> V4L2Recording {
            func jpeg(_ width: Int, _ height: Int, seed: UInt64) throws -> Data {
                try SyntheticPhoto(width: width, height: height, seed: seed).image().encoded(
                    as: .jpeg, options: ImageEncodingOptions(quality: 0.8, keepsMetadata: false))
            }
            let yuyvGrey = Data((0..<(640 * 480 / 2)).flatMap { _ in [UInt8(126), 128, 126, 128] })
            var controls = [
                V4L2Control(id: 0x009a_090c, minimum: 0, maximum: 1, step: 1, defaultValue: 1),
                V4L2Control(id: 0x009a_0901, minimum: 0, maximum: 3, step: 1, defaultValue: 3),
                V4L2Control(id: 0x0098_090c, minimum: 0, maximum: 1, step: 1, defaultValue: 1),
                V4L2Control(id: 0x009a_090d, minimum: 100, maximum: 500, step: 1, defaultValue: 100),
            ]
            if led { controls.append(V4L2Control(id: 0x009c_0901, minimum: 0, maximum: 2, step: 1, defaultValue: 0)) }
            let recording = V4L2Recording(
                card: "HD Pro Webcam C920", bus: "usb-0000:00:14.0-1", capabilities: 0x8400_0001,
                formats: [
                    .init(
                        fourcc: "YUYV",
                        sizes: [
                            .init(width: 640, height: 480, intervals: [[1, 30], [1, 15]]),
                            .init(width: 1280, height: 720, intervals: [[1, 10]]),
                        ]),
                    .init(
                        fourcc: "MJPG",
                        sizes: [
                            .init(width: 640, height: 480, intervals: [[1, 30]]),
                            .init(width: 1280, height: 720, intervals: [[1, 30], [1, 24]]),
                        ]),
                    .init(fourcc: "H264", sizes: [.init(width: 1920, height: 1080, intervals: [[1, 30]])]),
                ],
                controls: controls,
                frames: [
                    "MJPG 1280x720": [try jpeg(1280, 720, seed: 1), try jpeg(1280, 720, seed: 2)],
                    "MJPG 640x480": [try jpeg(640, 480, seed: 3)],
                    "YUYV 640x480": [yuyvGrey],
                ],
                unplugAfterFrames: unplugAfter)
            return try JSONDecoder().decode(V4L2Recording.self, from: JSONEncoder().encode(recording))
        }

        /// A camera answering as `recording` does, registered for discovery until it is disconnected
        /// (each test disconnects its own, so the suites after this one, the picker's among them, do
        /// not find it).
        static func device(_ recording: V4L2Recording, _ id: String = UUID().uuidString) -> (CaptureDevice, V4L2Replay) {
            let replay = V4L2Replay(recording)
            let device = V4L2Camera.device(uniqueIDPrefix: "replay-\(id):", path: "/dev/video0") { replay }!
            CaptureDevice.register(device)
            return (device, replay)
        }

        @Test func capabilitiesFormatsAndControls() throws {
            let (camera, _) = Self.device(try Self.webcam())
            defer { camera.disconnect() }
            #expect(camera.localizedName == "HD Pro Webcam C920" && camera.deviceType == .external && camera.uniqueID.hasSuffix("usb-0000:00:14.0-1"))
            // H.264 is not decoded here, so it is not offered; MJPEG comes before YUYV at one size.
            #expect(
                camera.formats.map { "\($0.pixelFormat.rawValue) \($0.dimensions)" } == [
                    "mjpeg 640×480", "yuyv 640×480", "mjpeg 1280×720", "yuyv 1280×720",
                ])
            #expect(camera.formats[2].frameRates == [30, 24] && camera.formats[3].frameRates == [10])
            #expect(camera.isFocusModeSupported(.continuousAutoFocus) && !camera.isFocusModeSupported(.autoFocus))
            #expect(camera.minAvailableVideoZoomFactor == 1 && camera.maxAvailableVideoZoomFactor == 5)
            #expect(!camera.hasTorch && !camera.hasFlash)
            #expect(CaptureDevice.device(withUniqueID: camera.uniqueID) === camera, "discoverable")
        }

        @Test func settingsBecomeControlWrites() throws {
            let (camera, replay) = Self.device(try Self.webcam(led: true))
            defer { camera.disconnect() }
            #expect(camera.hasTorch)
            try camera.lockForConfiguration()
            try camera.setFocusMode(.locked)
            try camera.setVideoZoomFactor(2.5)
            try camera.setTorchMode(.on)
            camera.unlockForConfiguration()
            let last = Dictionary(replay.controlWrites.map { ($0.id, $0.value) }, uniquingKeysWith: { _, new in new })
            #expect(last[V4L2Camera.focusAuto] == 0 && last[V4L2Camera.zoomAbsolute] == 250 && last[V4L2Camera.ledMode] == 2)
            #expect(last[V4L2Camera.exposureAuto] == 3, "exposure stays automatic (aperture priority)")
        }

        @Test func streamsRecordedMJPEGFrames() async throws {
            let recording = try Self.webcam()
            let (camera, _) = Self.device(recording)
            defer { camera.disconnect() }
            let session = CaptureSession()
            let preview = VideoDataOutput()
            session.beginConfiguration()
            try session.setSessionPreset(.hd1280x720)
            try session.addInput(CaptureDeviceInput(device: camera))
            try session.addOutput(preview)
            try session.commitConfiguration()
            #expect(camera.activeFormat?.pixelFormat == .mjpeg)
            // Listening before starting, every frame kept: the first frame may come at once.
            preview.alwaysDiscardsLateVideoFrames = false
            let stream = preview.frames
            try await session.startRunning()
            var frames: [CaptureFrame] = []
            for await frame in stream {
                frames.append(frame)
                if frames.count == 3 { break }
            }
            await session.stopRunning()
            #expect(frames.allSatisfy { $0.pixelSize == PixelSize(width: 1280, height: 720) })
            let recorded = try Image(data: recording.frames["MJPG 1280x720"]![0]).bitmap()
            #expect(try frames[0].image.bitmap().bytes == recorded.bytes, "the first frame is the recorded one")
            #expect(frames.map(\.frameNumber) == [0, 1, 2])
        }

        @Test func yuyvConvertsToRGB() async throws {
            // Limited range: Y 16 is black, Y 235 white; U and V 128 are grey axes.
            let bytes = Data([235, 128, 16, 128, 81, 90, 81, 240])  // white, black, then two red-ish pixels
            let bitmap = try V4L2Camera.Source.rgb(fromYUYV: bytes, size: PixelSize(width: 4, height: 1))
            #expect(Array(bitmap.bytes[0..<6]) == [255, 255, 255, 0, 0, 0])
            #expect(bitmap.bytes[6] > 230 && bitmap.bytes[7] < 20 && bitmap.bytes[8] < 20, "Y 81 U 90 V 240 is red: \(Array(bitmap.bytes[6..<9]))")
            #expect(throws: ImageError.self) { try V4L2Camera.Source.rgb(fromYUYV: Data([1, 2]), size: PixelSize(width: 4, height: 1)) }
            // A YUYV stream end to end.
            let (camera, _) = Self.device(try Self.webcam())
            defer { camera.disconnect() }
            try camera.lockForConfiguration()
            try camera.setActiveFormat(try #require(camera.formats.first { $0.pixelFormat == .yuyv && $0.dimensions.width == 640 }))
            camera.unlockForConfiguration()
            let source = try camera.backend.open(camera, format: camera.activeFormat!, frameRate: 30)
            defer { source.close() }
            let frame = try await source.nextFrame(flash: false, sensor: false)
            #expect(frame.pixelSize == PixelSize(width: 640, height: 480))
            let pixels = try frame.image.bitmap().bytes
            #expect(pixels.prefix(3).allSatisfy { abs(Int($0) - 127) <= 2 }, "Y 126 is mid grey: \(Array(pixels.prefix(3)))")
        }

        @Test func unplugIsARuntimeError() async throws {
            let (camera, _) = Self.device(try Self.webcam(unplugAfter: 3))
            defer { camera.disconnect() }
            let session = CaptureSession()
            let preview = VideoDataOutput()
            try session.setSessionPreset(.vga640x480)
            try session.addInput(CaptureDeviceInput(device: camera))
            try session.addOutput(preview)
            let events = session.events
            preview.alwaysDiscardsLateVideoFrames = false
            let frames = preview.frames  // before starting, every frame kept: the first may come at once
            try await session.startRunning()
            var received = 0
            for await _ in frames { received += 1 }
            var failure: CaptureSession.Event?
            for await event in events {
                if case .runtimeError = event {
                    failure = event
                    break
                }
            }
            #expect(received == 3)
            #expect(failure == .runtimeError(.deviceUnavailable("HD Pro Webcam C920 was unplugged")))
            #expect(!camera.isConnected && !session.isRunning)
            #expect(await CaptureDevice.device(withUniqueID: camera.uniqueID) == nil, "gone from discovery")
        }

        /// A phone-style sensor with an LED (mode none / flash / torch, and a strobe when it can
        /// flash) and one YUYV 640×480 frame of a single luma (16 black … 235 white).
        static func ledCamera(luma: UInt8, strobe: Bool = true) throws -> V4L2Recording {
            let frame = Data((0..<(640 * 480 / 2)).flatMap { _ in [luma, 128, luma, 128] })
            var controls = [V4L2Control(id: V4L2Camera.ledMode, minimum: 0, maximum: 2, step: 1, defaultValue: 0)]
            // V4L2_CID_FLASH_STROBE is a button: its range is 0…0.
            if strobe { controls.append(V4L2Control(id: V4L2Camera.flashStrobe, minimum: 0, maximum: 0, step: 0, defaultValue: 0)) }
            let recording = V4L2Recording(
                card: "Rear Camera", bus: "platform:camera0", capabilities: 0x8400_0001,
                formats: [.init(fourcc: "YUYV", sizes: [.init(width: 640, height: 480, intervals: [[1, 30]])])],
                controls: controls, frames: ["YUYV 640x480": [frame]], unplugAfterFrames: nil)
            return try JSONDecoder().decode(V4L2Recording.self, from: JSONEncoder().encode(recording))
        }

        static func running(_ camera: CaptureDevice, _ outputs: [CaptureOutput]) async throws -> CaptureSession {
            let session = CaptureSession()
            session.beginConfiguration()
            try session.setSessionPreset(.vga640x480)
            try session.addInput(CaptureDeviceInput(device: camera))
            for output in outputs { try session.addOutput(output) }
            try session.commitConfiguration()
            try await session.startRunning()
            return session
        }

        @Test func theLEDFlashFiresForAPhotoAndGoesBack() async throws {
            let (camera, replay) = Self.device(try Self.ledCamera(luma: 60))
            defer { camera.disconnect() }
            #expect(camera.hasFlash && camera.hasTorch)
            let photos = PhotoOutput()
            let session = try await Self.running(camera, [photos])
            #expect(photos.supportedFlashModes == [.off, .on, .auto])
            let plain = try await photos.capturePhoto(with: PhotoSettings(flashMode: .off))
            #expect(!plain.resolvedSettings.flashFired && replay.controlWrites.isEmpty, "no flash unless asked")

            let lit = try await photos.capturePhoto(with: PhotoSettings(flashMode: .on))
            #expect(lit.resolvedSettings.flashFired && lit.metadata.flashFired == true)
            #expect(try Image(data: lit.fileDataRepresentation()).metadata.flashFired == true)
            // LED mode flash, strobe, and back to off once the photo's frame is in.
            #expect(
                replay.controlWrites.map { "\($0.id):\($0.value)" } == [
                    "\(V4L2Camera.ledMode):1", "\(V4L2Camera.flashStrobe):0", "\(V4L2Camera.ledMode):0",
                ])

            // With the torch on, the LED goes back to torch.
            try camera.lockForConfiguration()
            try camera.setTorchMode(.on)
            camera.unlockForConfiguration()
            let before = replay.controlWrites.count
            let torchlit = try await photos.capturePhoto(with: PhotoSettings(flashMode: .on))
            #expect(torchlit.resolvedSettings.flashFired)
            #expect(
                replay.controlWrites.dropFirst(before).map { "\($0.id):\($0.value)" } == [
                    "\(V4L2Camera.ledMode):1", "\(V4L2Camera.flashStrobe):0", "\(V4L2Camera.ledMode):2",
                ])
            await session.stopRunning()
        }

        @Test(arguments: [(luma: UInt8(40), fires: true), (luma: UInt8(200), fires: false)])
        func autoFlashFiresWhenTheFrameIsDark(_ row: (luma: UInt8, fires: Bool)) async throws {
            let (camera, replay) = Self.device(try Self.ledCamera(luma: row.luma))
            defer { camera.disconnect() }
            #expect(!camera.backend.sceneNeedsFlash(camera), "no frame yet: no reason to fire")
            let photos = PhotoOutput()
            let preview = VideoDataOutput()
            let frames = EventRecorder(preview.frames)
            let session = try await Self.running(camera, [photos, preview])
            #expect(await frames.waitFor(1))
            #expect(camera.backend.sceneNeedsFlash(camera) == row.fires)
            let photo = try await photos.capturePhoto(with: PhotoSettings(flashMode: .auto))
            #expect(photo.resolvedSettings.flashFired == row.fires)
            #expect(replay.controlWrites.contains { $0.id == V4L2Camera.flashStrobe } == row.fires)
            await session.stopRunning()
        }

        /// A torch in `.auto` lights the LED when the last frame was dark, and stays lit in its own
        /// light until the mode changes.
        @Test(arguments: [(luma: UInt8(40), lit: true), (luma: UInt8(200), lit: false)])
        func anAutomaticTorchLightsInTheDark(_ row: (luma: UInt8, lit: Bool)) async throws {
            let (camera, replay) = Self.device(try Self.ledCamera(luma: row.luma))
            defer { camera.disconnect() }
            let preview = VideoDataOutput()
            let frames = EventRecorder(preview.frames)
            let session = try await Self.running(camera, [preview])
            #expect(await frames.waitFor(1))
            try camera.lockForConfiguration()
            try camera.setTorchMode(.auto)
            camera.unlockForConfiguration()
            #expect(camera.isTorchActive == row.lit)
            #expect(replay.controlWrites.last.map { "\($0.id):\($0.value)" } == "\(V4L2Camera.ledMode):\(row.lit ? 2 : 0)")
            try camera.lockForConfiguration()
            try camera.setTorchMode(.off)
            camera.unlockForConfiguration()
            #expect(!camera.isTorchActive && replay.controlWrites.last.map { "\($0.id):\($0.value)" } == "\(V4L2Camera.ledMode):0")
            await session.stopRunning()
        }

        @Test func aTorchOnlyLEDHasNoFlash() throws {
            let (camera, _) = Self.device(try Self.ledCamera(luma: 40, strobe: false))
            defer { camera.disconnect() }
            #expect(camera.hasTorch && !camera.hasFlash)
            #expect(!camera.backend.sceneNeedsFlash(camera))
            let (webcam, _) = Self.device(try Self.webcam(led: true))
            defer { webcam.disconnect() }
            #expect(webcam.hasTorch && !webcam.hasFlash, "the LED mode alone is a torch")
        }

        @Test func anotherProgramOnTheCameraInterruptsUntilItLetsGo() async throws {
            let (camera, replay) = Self.device(try Self.webcam())
            defer { camera.disconnect() }
            let preview = VideoDataOutput()
            let session = CaptureSession()
            try session.setSessionPreset(.vga640x480)
            try session.addInput(CaptureDeviceInput(device: camera))
            try session.addOutput(preview)
            let log = EventRecorder(session.events)
            let frames = EventRecorder(preview.frames)
            let refusals = EventRecorder(replay.busyAnswerUpdates)

            // Another program streams from the camera: the session starts, interrupted.
            replay.setHeldByAnotherClient(true)
            try await session.startRunning()
            #expect(await log.first(2) == [.started, .wasInterrupted(.videoDeviceInUseByAnotherClient)])
            #expect(session.isRunning && session.isInterrupted)
            // The window is the session's own: it tries the camera twice more, and is refused.
            #expect(await refusals.wait { ($0.last ?? 0) >= 3 }, "the session did not try the camera again")
            #expect(frames.elements.isEmpty)
            replay.setHeldByAnotherClient(false)
            #expect(await frames.waitFor(2))
            #expect(await log.first(3).last == .interruptionEnded)

            // Reopening for a new format while the other program has it interrupts a running session.
            replay.setHeldByAnotherClient(true)
            try session.setSessionPreset(.hd1280x720)
            #expect(await log.first(4).last == .wasInterrupted(.videoDeviceInUseByAnotherClient))
            // Frames already on their way are in once the session has been refused again; then,
            // while it is refused twice more, none comes.
            let refused = refusals.elements.last ?? 0
            #expect(await refusals.wait { ($0.last ?? 0) >= refused + 1 })
            let before = frames.elements.count
            #expect(await refusals.wait { ($0.last ?? 0) >= refused + 3 }, "the session did not try the camera again")
            #expect(frames.elements.count == before, "no frames while interrupted")
            replay.setHeldByAnotherClient(false)
            #expect(await frames.waitFor(before + 2))
            #expect(frames.elements.last?.pixelSize == PixelSize(width: 1280, height: 720))
            #expect(await log.first(5).last == .interruptionEnded)
            await session.stopRunning()
            #expect(
                await log.first(6) == [
                    .started, .wasInterrupted(.videoDeviceInUseByAnotherClient), .interruptionEnded,
                    .wasInterrupted(.videoDeviceInUseByAnotherClient), .interruptionEnded, .stopped,
                ])
            #expect(camera.isConnected, "busy is not unplugged")
        }

        /// A camera another program streams from answers EBUSY to a format: it is in use, and the
        /// question does not take it (issue 22's availability).
        @Test func aCameraAnotherProgramStreamsFromIsInUse() throws {
            let (camera, replay) = Self.device(try Self.webcam())
            defer { camera.disconnect() }
            #expect(!camera.isInUseByAnotherApplication)
            replay.setHeldByAnotherClient(true)
            #expect(camera.isInUseByAnotherApplication)
            replay.setHeldByAnotherClient(false)
            #expect(!camera.isInUseByAnotherApplication)
            #expect(camera.isConnected)
        }

        @Test func machinesWithoutCamerasListNone() throws {
            // A /dev with no video nodes, and one whose video* entries are not cameras (a plain
            // file, a character device that answers no V4L2 ioctl, a dangling link): none listed.
            let dev = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-dev-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dev, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dev) }
            try Data("not a camera".utf8).write(to: dev.appendingPathComponent("null"))
            #expect(V4L2Camera.devices(in: dev.path).isEmpty, "a /dev without video nodes")
            try Data("not a camera".utf8).write(to: dev.appendingPathComponent("video0"))
            try FileManager.default.createSymbolicLink(atPath: dev.appendingPathComponent("video1").path, withDestinationPath: "/dev/null")
            try FileManager.default.createSymbolicLink(atPath: dev.appendingPathComponent("video2").path, withDestinationPath: "/nonexistent/video9")
            #expect(V4L2Camera.devices(in: dev.path).isEmpty, "video* entries that are not cameras")
            // This machine's own /dev: whatever is there is listed only if it answers as a camera.
            let here = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).filter { $0.hasPrefix("video") }
            if here.isEmpty { #expect(V4L2Camera.devices().isEmpty) }
            #expect(
                V4L2Camera.device(uniqueIDPrefix: "x:", path: "/dev/null") { () throws(V4L2Error) -> any V4L2Interface in try V4L2DeviceFile(path: "/dev/null")
                } == nil)
            #expect(throws: V4L2Error.self) { _ = try V4L2DeviceFile(path: "/nonexistent/video9") }
        }
    }
}

extension CaptureSuites {
    @Suite struct ALSAMicrophoneTests {
        @Test func captureCapablePCMsAreMicrophones() {
            let listing = """
                00-00: ALC3246 Analog : ALC3246 Analog : playback 1 : capture 1
                00-03: HDMI 0 : HDMI 0 : playback 1
                01-00: USB Audio : USB Audio : capture 1
                """
            let devices = ALSAMicrophone.parse(listing)
            #expect(devices.map(\.uniqueID) == ["alsa:hw:0,0", "alsa:hw:1,0"])
            #expect(devices.map(\.localizedName) == ["ALC3246 Analog", "USB Audio"])
            #expect(devices.allSatisfy { $0.mediaType == .audio && $0.deviceType == .microphone })
            #expect(ALSAMicrophone.ffmpegDevice("alsa:hw:1,0") == "hw:1,0" && ALSAMicrophone.ffmpegDevice("synthetic-microphone") == nil)
            #expect(ALSAMicrophone.devices(pcmList: "/nonexistent").isEmpty)
        }
    }
}
