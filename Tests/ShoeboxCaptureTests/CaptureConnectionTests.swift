import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxCapture

extension CaptureSuites {
    /// Capture connections (issue 22): each output's frames turned, mirrored or stopped on their own,
    /// measured on the synthetic camera's pixels.
    @Suite struct CaptureConnectionTests {
        init() {
            CaptureDevice.isSyntheticCameraEnabled = true
        }

        /// A running 640×480 session on `position`'s camera with two previews.
        func withSession(
            _ position: CaptureDevice.Position = .back,
            _ body: (CaptureSession, VideoDataOutput, VideoDataOutput) async throws -> Void
        ) async throws {
            let camera = try #require(await CaptureDevice.device(withUniqueID: position == .front ? "synthetic-front" : "synthetic-back"))
            let session = CaptureSession()
            try session.setSessionPreset(.vga640x480)
            try session.addInput(CaptureDeviceInput(device: camera))
            let plain = VideoDataOutput()
            let changed = VideoDataOutput()
            try session.addOutput(plain)
            try session.addOutput(changed)
            try await session.startRunning()
            // Stopped before the next test starts: a session left running holds the camera, and the
            // next suite's sessions would start interrupted.
            do {
                try await body(session, plain, changed)
            } catch {
                await session.stopRunning()
                throw error
            }
            await session.stopRunning()
        }

        /// The first frame number both previews delivered, with both copies of it.
        func sameFrame(_ a: VideoDataOutput, _ b: VideoDataOutput) async throws -> (CaptureFrame, CaptureFrame) {
            let first = Task {
                var frames: [Int: CaptureFrame] = [:]
                for await frame in a.frames {
                    frames[frame.frameNumber] = frame
                    if frames.count >= 8 { break }
                }
                return frames
            }
            let second = Task {
                var frames: [Int: CaptureFrame] = [:]
                for await frame in b.frames {
                    frames[frame.frameNumber] = frame
                    if frames.count >= 8 { break }
                }
                return frames
            }
            let (x, y) = (await first.value, await second.value)
            let number = try #require(Set(x.keys).intersection(y.keys).min(), "the previews shared no frame")
            return (x[number]!, y[number]!)
        }

        @Test func connectionsExistOnlyBetweenACameraAndAnOutput() throws {
            let output = PhotoOutput()
            #expect(output.connection(with: .video) == nil && output.connections.isEmpty)
            let session = CaptureSession()
            try session.addOutput(output)
            #expect(output.connection(with: .video) == nil, "no camera yet")
            try session.addInput(CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .video))))
            let connection = try #require(output.connection(with: .video))
            #expect(output.connection(with: .audio) == nil)
            #expect(output.connections.count == 1 && connection.mediaType == .video && !connection.isActive)
            connection.videoRotationAngle = 45
            #expect(connection.videoRotationAngle == 0, "45° is not a supported angle")
            connection.videoOrientation = .portrait
            #expect(connection.videoRotationAngle == 90)
        }

        @Test func aRotatedConnectionTurnsItsOwnOutputsFramesOnly() async throws {
            try await withSession { session, plain, turned in
                let connection = try #require(turned.connection(with: .video))
                connection.videoRotationAngle = 90
                #expect(connection.isActive)
                let (original, rotated) = try await sameFrame(plain, turned)
                #expect(original.pixelSize == PixelSize(width: 640, height: 480))
                #expect(rotated.pixelSize == PixelSize(width: 480, height: 640))
                #expect(try rotated.image.bitmap() == original.image.rotated(byQuarterTurns: 1).bitmap())

                connection.videoRotationAngle = 270
                let (again, back) = try await sameFrame(plain, turned)
                #expect(try back.image.bitmap() == again.image.rotated(byQuarterTurns: 3).bitmap())
            }
        }

        @Test func framesAreMirroredWhenAskedOrAutomaticallyForFrontCameras() async throws {
            try await withSession(.front) { session, plain, mirrored in
                let plainConnection = try #require(plain.connection(with: .video))
                let connection = try #require(mirrored.connection(with: .video))
                #expect(!connection.automaticallyAdjustsVideoMirroring && !connection.isVideoMirrored, "outputs start unmirrored")
                connection.automaticallyAdjustsVideoMirroring = true
                #expect(connection.isVideoMirrored, "a front camera is mirrored automatically")
                let (original, flipped) = try await sameFrame(plain, mirrored)
                #expect(try flipped.image.bitmap() == original.image.mirrored().bitmap())
                #expect(try flipped.image.bitmap() != original.image.bitmap())

                plainConnection.automaticallyAdjustsVideoMirroring = true
                plainConnection.isVideoMirrored = false
                #expect(!plainConnection.automaticallyAdjustsVideoMirroring, "setting a mirror turns the automatic one off")
                let (unmirrored, _) = try await sameFrame(plain, mirrored)
                #expect(SyntheticCamera.decodeStrip(try unmirrored.image.bitmap()).frame == unmirrored.frameNumber)
            }
            try await withSession(.back) { _, plain, mirrored in
                let automatic = try #require(plain.connection(with: .video))
                automatic.automaticallyAdjustsVideoMirroring = true
                #expect(!automatic.isVideoMirrored, "a back camera is not mirrored automatically")
                let connection = try #require(mirrored.connection(with: .video))
                connection.isVideoMirrored = true
                let (original, flipped) = try await sameFrame(plain, mirrored)
                #expect(try flipped.image.bitmap() == original.image.mirrored().bitmap())
            }
        }

        @Test func aDisabledConnectionStopsItsOutputOnly() async throws {
            try await withSession { session, plain, stopped in
                let connection = try #require(stopped.connection(with: .video))
                connection.isEnabled = false
                #expect(!connection.isActive)
                let listener = Task {
                    var count = 0
                    for await _ in stopped.frames { count += 1 }
                    return count
                }
                var seen = 0
                for await _ in plain.frames {
                    seen += 1
                    if seen == 6 { break }
                }
                listener.cancel()
                #expect(await listener.value == 0, "a disabled connection delivered frames")

                let photos = PhotoOutput()
                try session.addOutput(photos)
                try #require(photos.connection(with: .video)).isEnabled = false
                await #expect(throws: CaptureError.self) { _ = try await photos.capturePhoto() }
                try #require(photos.connection(with: .video)).isEnabled = true
                try #require(photos.connection(with: .video)).videoRotationAngle = 90
                let photo = try await photos.capturePhoto()
                #expect(photo.resolvedSettings.photoDimensions == PixelSize(width: 480, height: 640))
            }
        }
    }
}
