import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxCapture

/// The synthetic camera end to end. Serialized: the device registry is process-wide (only the
/// front camera is unplugged here; other suites use the back camera).
extension CaptureSuites {
    @Suite struct SyntheticCaptureTests {
        init() {
            CaptureDevice.isSyntheticCameraEnabled = true
        }

        func session(
            _ preset: CaptureSession.Preset, camera: CaptureDevice? = CaptureDevice.default(for: .video),
            outputs: [CaptureOutput], clock: some Clock<Duration> = ContinuousClock()
        ) throws -> CaptureSession {
            let session = CaptureSession(clock: clock)
            session.beginConfiguration()
            try session.setSessionPreset(preset)
            try session.addInput(CaptureDeviceInput(device: try #require(camera)))
            for output in outputs { try session.addOutput(output) }
            try session.commitConfiguration()
            return session
        }

        func frames(_ output: VideoDataOutput, count: Int) async -> [CaptureFrame] {
            var collected: [CaptureFrame] = []
            for await frame in output.frames {
                collected.append(frame)
                if collected.count == count { break }
            }
            return collected
        }

        @Test func discovery() throws {
            let back = try #require(CaptureDevice.default(for: .video))
            #expect(back.position == .back && back.uniqueID == "synthetic-back" && back.hasFlash && back.hasTorch)
            let front = CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front).devices
            #expect(front.map(\.uniqueID) == ["synthetic-front"])
            #expect(front.first?.hasTorch == false)
            #expect(
                back.formats.map(\.dimensions) == [
                    PixelSize(width: 640, height: 480), PixelSize(width: 1280, height: 720),
                    PixelSize(width: 1920, height: 1080), PixelSize(width: 3840, height: 2160),
                ])
            #expect(CaptureDevice.default(for: .video) === back, "the same device object each time")
            #expect(CaptureSession.Preset.photo.format(on: back)?.dimensions == PixelSize(width: 3840, height: 2160))
            #expect(CaptureSession.Preset.high.format(on: back)?.dimensions == PixelSize(width: 1920, height: 1080))
            #expect(CaptureDevice.default(for: .audio)?.uniqueID == "synthetic-microphone")
            // Without the synthetic camera this machine has no camera: see CaptureCommandTests.
        }

        @Test func settingsNeedTheLockAndSupportedValues() throws {
            let back = try #require(CaptureDevice.default(for: .video))
            let front = try #require(CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front).devices.first)
            #expect(throws: CaptureError.notLockedForConfiguration(device: back.localizedName)) { try back.setTorchMode(.on) }
            try back.lockForConfiguration()
            defer { back.unlockForConfiguration() }
            try back.setVideoZoomFactor(2)
            #expect(back.videoZoomFactor == 2)
            #expect(throws: CaptureError.self) { try back.setVideoZoomFactor(9) }
            #expect(throws: CaptureError.self) { try back.setVideoZoomFactor(.nan) }
            try back.setFocusMode(.autoFocus)
            #expect(back.focusMode == .autoFocus)
            try back.setVideoZoomFactor(1)
            try front.lockForConfiguration()
            defer { front.unlockForConfiguration() }
            #expect(throws: CaptureError.self) { try front.setTorchMode(.on) }
            #expect(throws: CaptureError.self) {
                try back.setActiveFormat(CaptureDevice.Format(pixelFormat: .mjpeg, dimensions: PixelSize(width: 10, height: 10), frameRates: [5]))
            }
        }

        @Test func framesFlowInOrderAtThePresetsSize() async throws {
            let preview = VideoDataOutput()
            let session = try session(.vga640x480, outputs: [preview])
            try await session.startRunning()
            #expect(session.isRunning)
            let got = await frames(preview, count: 6)
            await session.stopRunning()
            #expect(!session.isRunning)
            #expect(got.allSatisfy { $0.pixelSize == PixelSize(width: 640, height: 480) })
            let decoded = try got.map { SyntheticCamera.decodeStrip(try $0.image.bitmap()) }
            #expect(decoded.map(\.frame) == got.map(\.frameNumber), "the strip carries the frame number")
            #expect(zip(got, got.dropFirst()).allSatisfy { $0.frameNumber < $1.frameNumber && $0.timestamp < $1.timestamp })
            #expect(decoded.allSatisfy { $0.milliseconds >= 0 })
        }

        @Test func smallPresetsScaleDown() async throws {
            let preview = VideoDataOutput()
            let session = try session(.low, outputs: [preview])
            try await session.startRunning()
            let got = await frames(preview, count: 2)
            await session.stopRunning()
            #expect(got.map(\.pixelSize) == [PixelSize(width: 192, height: 144), PixelSize(width: 192, height: 144)])
        }

        @Test func photosCarryEXIFAndTheFlash() async throws {
            let photos = PhotoOutput()
            let camera = try #require(await CaptureDevice.default(for: .video))
            let session = try session(.hd1280x720, camera: camera, outputs: [photos])
            try await session.startRunning()
            defer { Task { await session.stopRunning() } }
            #expect(photos.supportedFlashModes == [.off, .on, .auto])

            let plain = try await photos.capturePhoto(with: PhotoSettings(flashMode: .off))
            let lit = try await photos.capturePhoto(with: PhotoSettings(flashMode: .on))
            let auto = try await photos.capturePhoto(with: PhotoSettings(flashMode: .auto))
            for photo in [plain, lit, auto] {
                let decoded = try Image(data: photo.fileDataRepresentation())
                #expect(decoded.format == .jpeg && decoded.pixelSize == PixelSize(width: 1280, height: 720))
                #expect(decoded.metadata.make == "Shoebox" && decoded.metadata.model == "Synthetic Back Camera")
                #expect(decoded.metadata.dateTimeOriginal != nil)
                #expect(decoded.metadata.flashFired == photo.resolvedSettings.flashFired)
            }
            #expect(!plain.resolvedSettings.flashFired && lit.resolvedSettings.flashFired && auto.resolvedSettings.flashFired, "the synthetic scene is dim")
            #expect(try Self.meanBrightness(lit.image) > Self.meanBrightness(plain.image) + 20)
            #expect(lit.resolvedSettings.uniqueID != plain.resolvedSettings.uniqueID)
            #expect(plain.metadata.latitude == nil, "no place unless the caller gives one")

            // A caller-given place is written as GPS (issue 22); a place off the Earth is refused.
            let placed = try await photos.capturePhoto(with: PhotoSettings(location: .init(latitude: 59.3293, longitude: 18.0686, altitude: 28)))
            let read = try Image(data: placed.fileDataRepresentation()).metadata
            #expect(abs((read.latitude ?? 0) - 59.3293) < 1e-5 && abs((read.longitude ?? 0) - 18.0686) < 1e-5 && abs((read.altitude ?? 0) - 28) < 0.01)
            await #expect(throws: CaptureError.self) { try await photos.capturePhoto(with: PhotoSettings(location: .init(latitude: 91, longitude: 0))) }

            // With the torch on the scene is bright enough: auto does not fire.
            try camera.lockForConfiguration()
            try camera.setTorchMode(.on)
            camera.unlockForConfiguration()
            let torchlit = try await photos.capturePhoto(with: PhotoSettings(flashMode: .auto))
            #expect(!torchlit.resolvedSettings.flashFired)
            #expect(try Self.meanBrightness(torchlit.image) > Self.meanBrightness(plain.image) + 10)

            // An automatic torch lights in the dim scene too (issue 22: movies with flash .auto).
            try camera.lockForConfiguration()
            try camera.setTorchMode(.auto)
            camera.unlockForConfiguration()
            #expect(camera.isTorchActive)
            let autoTorch = try await photos.capturePhoto(with: PhotoSettings(flashMode: .auto))
            #expect(!autoTorch.resolvedSettings.flashFired, "the lit torch is light enough")
            #expect(try Self.meanBrightness(autoTorch.image) > Self.meanBrightness(plain.image) + 10)
            try camera.lockForConfiguration()
            try camera.setTorchMode(.off)
            camera.unlockForConfiguration()
            #expect(!camera.isTorchActive)
            await session.stopRunning()  // before the next test, which may want this camera
        }

        @Test func frontCameraHasNoFlash() async throws {
            let photos = PhotoOutput()
            let front = CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front).devices.first
            let session = try session(.vga640x480, camera: front, outputs: [photos])
            try await session.startRunning()
            await #expect(throws: CaptureError.self) { try await photos.capturePhoto(with: PhotoSettings(flashMode: .on)) }
            let photo = try await photos.capturePhoto()
            #expect(photo.resolvedSettings.photoDimensions == PixelSize(width: 640, height: 480))
            await session.stopRunning()
            await #expect(throws: CaptureError.self) { try await photos.capturePhoto() }
        }

        @Test func reconfiguringWhileRunningNeverStops() async throws {
            let preview = VideoDataOutput()
            let session = try session(.vga640x480, outputs: [preview])
            var events: [CaptureSession.Event] = []
            let listener = Task {
                for await event in session.events { events.append(event) }
                return events
            }
            try await session.startRunning()
            _ = await frames(preview, count: 2)
            session.beginConfiguration()
            try session.setSessionPreset(.hd1280x720)
            #expect(session.sessionPreset == .hd1280x720, "the batch shows its own changes")
            try session.commitConfiguration()
            var sizes: [PixelSize] = []
            for await frame in preview.frames {
                sizes.append(frame.pixelSize)
                if frame.pixelSize == PixelSize(width: 1280, height: 720) { break }
                if sizes.count > 10 { break }
            }
            #expect(sizes.last == PixelSize(width: 1280, height: 720))
            #expect(session.isRunning)
            await session.stopRunning()
            listener.cancel()
            let seen = await listener.value
            #expect(seen.filter { $0 == .stopped }.count <= 1 && !seen.contains { if case .runtimeError = $0 { true } else { false } })
        }

        @Test func aBatchThatDoesNotHoldTogetherChangesNothing() throws {
            let small = CaptureDevice(
                uniqueID: "test-small", localizedName: "Small Camera", position: .unspecified, deviceType: .external, mediaType: .video,
                capabilities: .init(formats: [CaptureDevice.Format(pixelFormat: .rgb, dimensions: PixelSize(width: 640, height: 480), frameRates: [30])]),
                backend: SyntheticCamera())
            let session = CaptureSession()
            try session.addInput(CaptureDeviceInput(device: small))
            #expect(!session.canSetSessionPreset(.hd1920x1080))
            #expect(throws: CaptureError.self) { try session.setSessionPreset(.hd1920x1080) }
            session.beginConfiguration()
            try session.setSessionPreset(.hd4K3840x2160)
            let output = PhotoOutput()
            try session.addOutput(output)
            #expect(throws: CaptureError.self) { try session.commitConfiguration() }
            #expect(session.sessionPreset == .high && session.outputs.isEmpty, "nothing of the batch applied")
            #expect(!session.canAddInput(try CaptureDeviceInput(device: small)))
        }

        @Test func aCameraStreamsToOneSessionAtATime() async throws {
            // The session that holds the camera keeps it; one started after waits for it, interrupted.
            let firstPreview = VideoDataOutput()
            let secondPreview = VideoDataOutput()
            let first = try session(.vga640x480, outputs: [firstPreview])
            let second = try session(.vga640x480, outputs: [secondPreview])
            let firstFrames = EventRecorder(firstPreview.frames)
            let secondFrames = EventRecorder(secondPreview.frames)
            try await first.startRunning()
            try await second.startRunning()
            #expect(second.isRunning && second.isInterrupted && !first.isInterrupted)
            #expect(await firstFrames.waitFor(5))
            #expect(secondFrames.elements.isEmpty)
            await first.stopRunning()
            #expect(await secondFrames.waitFor(2))
            #expect(!second.isInterrupted)
            await second.stopRunning()
        }

        @Test func lateReadersGetTheNewestFrame() async throws {
            // On a clock only the test moves, the reader is late by four frames each time: while
            // it works on one, the camera makes four more.
            let clock = TestClock()
            let preview = VideoDataOutput()
            let session = try session(.vga640x480, outputs: [preview], clock: clock)
            var frames = preview.frames.makeAsyncIterator()
            try await session.startRunning()
            var got: [Int] = []
            while got.count < 4 {
                for _ in 0..<4 {
                    #expect(await clock.waitForSleepers(), "the camera did not ask for its next frame")
                    _ = clock.advance(to: try #require(clock.nextDeadline))
                }
                #expect(await clock.waitForSleepers(), "the camera did not hand over its frame")
                guard let frame = await frames.next() else { break }
                got.append(frame.frameNumber)
            }
            await session.stopRunning()
            #expect(got == [4, 8, 12, 16], "the newest frame each time, not a backlog")
            #expect(preview.droppedFrameCount == 13, "frames 0–3, then three of each four dropped: \(preview.droppedFrameCount)")
        }

        @Test func unplugIsARuntimeError() async throws {
            let camera = try #require(CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front).devices.first)
            let preview = VideoDataOutput()
            let session = try session(.vga640x480, camera: camera, outputs: [preview])
            try await session.startRunning()
            #expect(session.isRunning)

            let events = Task { () -> CaptureSession.Event? in
                for await event in session.events { if case .runtimeError = event { return event } }
                return nil
            }
            _ = await frames(preview, count: 1)
            camera.disconnect()
            let event = await events.value
            #expect(event == .runtimeError(.deviceUnavailable("Synthetic Front Camera was disconnected")))
            #expect(!session.isRunning)
            #expect(throws: CaptureError.self) { try camera.lockForConfiguration() }
            // The registry offers a fresh device once this one is gone.
            #expect(await CaptureDevice.device(withUniqueID: "synthetic-front")?.isConnected == true)
        }

        static func meanBrightness(_ image: Image) throws -> Double {
            let bitmap = try image.thumbnail(targetSize: PixelSize(square: 64)).bitmap()
            return Double(bitmap.bytes.reduce(0) { $0 + Int($1) }) / Double(bitmap.bytes.count)
        }
    }
}
