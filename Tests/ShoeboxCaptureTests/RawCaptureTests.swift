import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxCapture

extension CaptureSuites {
    /// RAW photos (issue 22): a Bayer sensor's photosites kept as a DNG — from a replayed V4L2 sensor
    /// that streams 10-bit RGGB, and from the synthetic camera — and read back by LibRaw; a camera
    /// without a Bayer format says so. And `photoQualityPrioritization`: fewer or more frames,
    /// measured as noise.
    @Suite struct RawCaptureTests {
        init() {
            CaptureDevice.isSyntheticCameraEnabled = true
        }

        /// A sensor module as a Raspberry Pi's camera answers (`RG10` 640×480 and `BA81` 320×240),
        /// its frames a four-quadrant scene: red top left, green top right, blue bottom left, grey.
        static func sensorModule() throws -> V4L2Recording {
            func mosaic(_ width: Int, _ height: Int, bits: Int) -> Data {
                let full = Double((1 << bits) - 1)
                var bytes: [UInt8] = []
                for y in 0..<height {
                    for x in 0..<width {
                        let colour: (Double, Double, Double) =
                            switch (x < width / 2, y < height / 2) {
                            case (true, true): (0.8, 0.08, 0.08)
                            case (false, true): (0.08, 0.8, 0.08)
                            case (true, false): (0.08, 0.08, 0.8)
                            case (false, false): (0.3, 0.3, 0.3)
                            }
                        let level =
                            switch (y % 2, x % 2) {
                            case (0, 0): colour.0
                            case (1, 1): colour.2
                            default: colour.1
                            }
                        let value = UInt16(level * full)
                        bytes += bits > 8 ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value)]
                    }
                }
                return Data(bytes)
            }
            let recording = V4L2Recording(
                card: "imx219", bus: "platform:fe801000.csi", capabilities: 0x8400_0001,
                formats: [
                    .init(fourcc: "RG10", sizes: [.init(width: 640, height: 480, intervals: [[1, 30]])]),
                    .init(fourcc: "BA81", sizes: [.init(width: 320, height: 240, intervals: [[1, 30]])]),
                ],
                controls: [],
                frames: ["RG10 640x480": [mosaic(640, 480, bits: 10)], "BA81 320x240": [Data(mosaic(320, 240, bits: 8))]],
                unplugAfterFrames: nil)
            return try JSONDecoder().decode(V4L2Recording.self, from: JSONEncoder().encode(recording))
        }

        /// The quadrant colours at the corners of a displayed picture: red, green / blue, grey.
        static func quadrants(_ image: Image) throws -> [Int?] {
            let bitmap = try image.bitmap()
            return [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)].map { (u, v) in
                let index = (Int(Double(bitmap.height) * v) * bitmap.width + Int(Double(bitmap.width) * u)) * bitmap.channels
                let pixel = (0..<3).map { Int(bitmap.bytes[index + $0]) }
                let sorted = pixel.sorted()
                return sorted[2] - sorted[1] > 40 ? pixel.firstIndex(of: sorted[2]) : nil
            }
        }

        static func corners(_ image: Image) throws -> [[Int]] {
            let bitmap = try image.bitmap()
            return [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)].map { (u, v) in
                let index = (Int(Double(bitmap.height) * v) * bitmap.width + Int(Double(bitmap.width) * u)) * bitmap.channels
                return (0..<3).map { Int(bitmap.bytes[index + $0]) }
            }
        }

        func running(_ camera: CaptureDevice, preset: CaptureSession.Preset = .inputPriority, _ outputs: [CaptureOutput]) async throws -> CaptureSession {
            let session = CaptureSession()
            try session.setSessionPreset(preset)
            try session.addInput(CaptureDeviceInput(device: camera))
            for output in outputs { try session.addOutput(output) }
            try await session.startRunning()
            return session
        }

        @Test("A V4L2 sensor's Bayer formats are offered, previewed demosaiced, and kept as a DNG")
        func v4l2BayerToDNG() async throws {
            let (camera, _) = V4L2CameraTests.device(try Self.sensorModule())
            defer { camera.disconnect() }
            #expect(camera.formats.map { "\($0)" } == ["bayerBGGR8 320×240 @ 30 fps", "bayerRGGB16 (10 bits) 640×480 @ 30 fps"])
            let tenBit = try #require(camera.formats.first { $0.pixelFormat == .bayerRGGB16 })
            #expect(tenBit.bitsPerPhotosite == 10)
            try camera.lockForConfiguration()
            try camera.setActiveFormat(tenBit)
            camera.unlockForConfiguration()
            let photos = PhotoOutput()
            let session = try await running(camera, [photos])
            defer { Task { await session.stopRunning() } }
            #expect(photos.availableRawPhotoPixelFormatTypes == [.bayerRGGB16])
            let photo = try await photos.capturePhoto(with: PhotoSettings(rawPixelFormatType: .bayerRGGB16, processedFormat: .jpeg))
            #expect(photo.isRawPhoto && photo.resolvedSettings.rawPhotoDimensions == PixelSize(width: 640, height: 480))
            // The processed picture: demosaiced, white-balanced, the scene's colours.
            let processedCorners = try Self.corners(photo.image)
            #expect(try Self.quadrants(photo.image) == [0, 1, 2, nil], "\(processedCorners)")
            let processed = try #require(photo.processedFileDataRepresentation())
            #expect(try Image(data: processed).format == .jpeg)
            // The DNG: LibRaw reads the photosites as they were, 10 bits, and develops the scene.
            let dng = try Image(data: photo.fileDataRepresentation())
            #expect(dng.format == .dng && dng.storedPixelSize == PixelSize(width: 640, height: 480))
            #expect(dng.metadata.make == "Shoebox" && dng.metadata.model == "imx219")
            let developedCorners = try Self.corners(try dng.decoded())
            #expect(try Self.quadrants(try dng.decoded()) == [0, 1, 2, nil], "\(developedCorners)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString).dng")
            defer { try? FileManager.default.removeItem(at: file) }
            try photo.fileDataRepresentation().write(to: file)
            let exiftool = try ChildProcess.run("exiftool", ["-s", "-s", "-s", "-WhiteLevel", "-CFAPattern", file.path])
            #expect(exiftool.standardOutput.contains("1023") && exiftool.standardOutput.contains("[Red,Green][Green,Blue]"), "\(exiftool.standardOutput)")
            await session.stopRunning()
        }

        @Test("A camera without a Bayer format refuses a RAW photo, naming what it needs")
        func noBayerNoRaw() async throws {
            let (camera, _) = V4L2CameraTests.device(try V4L2CameraTests.webcam())
            defer { camera.disconnect() }
            let photos = PhotoOutput()
            let session = try await running(camera, preset: .vga640x480, [photos])
            #expect(photos.availableRawPhotoPixelFormatTypes.isEmpty)
            let error = await #expect(throws: CaptureError.self) {
                _ = try await photos.capturePhoto(with: PhotoSettings(rawPixelFormatType: .bayerRGGB16))
            }
            #expect("\(String(describing: error))".contains("a RAW photo needs a Bayer format"), "\(String(describing: error))")
            await session.stopRunning()
        }

        @Test("The synthetic camera's RAW photo develops to the picture it took, turned as the connection turned it")
        func syntheticRawMatchesTheProcessedPhoto() async throws {
            let camera = try #require(await CaptureDevice.default(for: .video))
            let photos = PhotoOutput()
            let session = try await running(camera, preset: .vga640x480, [photos])
            defer { Task { await session.stopRunning() } }
            try #require(photos.connection(with: .video)).videoRotationAngle = 90
            defer { photos.connection(with: .video)?.videoRotationAngle = 0 }
            #expect(photos.availableRawPhotoPixelFormatTypes == [.bayerRGGB16])
            let photo = try await photos.capturePhoto(with: PhotoSettings(rawPixelFormatType: .bayerRGGB16))
            #expect(photo.isRawPhoto && photo.processedFileDataRepresentation() == nil && photo.resolvedSettings.format == .dng)
            let dng = try Image(data: photo.fileDataRepresentation())
            #expect(dng.storedPixelSize == PixelSize(width: 640, height: 480))
            #expect(dng.orientation == .right && dng.pixelSize == PixelSize(width: 480, height: 640), "\(dng.orientation) \(dng.pixelSize)")
            // LibRaw's development against the processed picture, both small: the same scene.
            let developed = try dng.thumbnail(targetSize: PixelSize(square: 64)).bitmap()
            let taken = try photo.image.thumbnail(targetSize: PixelSize(square: 64)).bitmap()
            #expect(developed.width == taken.width && developed.height == taken.height)
            var difference = 0
            for index in developed.bytes.indices { difference += abs(Int(developed.bytes[index]) - Int(taken.bytes[index])) }
            let mean = Double(difference) / Double(developed.bytes.count)
            #expect(mean < 30, "mean difference \(mean) between the development and the processed photo")
            await session.stopRunning()
        }

        /// The noise of a picture: the median of each pixel's difference from the mean of its four
        /// neighbours (the synthetic scene is smooth between its bands, so what is left is noise).
        static func noise(_ image: Image) throws -> Double {
            let bitmap = try image.bitmap()
            var residuals: [Int] = []
            let w = bitmap.width
            let c = bitmap.channels
            for y in stride(from: 40, to: bitmap.height * 3 / 4, by: 3) {
                for x in stride(from: 1, to: w - 1, by: 3) {
                    let at = { (x: Int, y: Int) in Int(bitmap.bytes[(y * w + x) * c + 1]) }
                    residuals.append(abs(4 * at(x, y) - at(x - 1, y) - at(x + 1, y) - at(x, y - 1) - at(x, y + 1)))
                }
            }
            residuals.sort()
            return Double(residuals[residuals.count / 2])
        }

        @Test("Quality averages four frames (less noise), speed takes one; the output's maximum holds")
        func qualityPrioritization() async throws {
            let camera = try #require(await CaptureDevice.default(for: .video))
            let photos = PhotoOutput()
            let session = try await running(camera, preset: .vga640x480, [photos])
            defer { Task { await session.stopRunning() } }
            try camera.lockForConfiguration()
            // ISO 3200 at 1/1920 s: as bright as the scene's auto exposure, eleven levels of noise.
            try camera.setExposureModeCustom(duration: .seconds(1.0 / 1_920), iso: 3_200)
            camera.unlockForConfiguration()
            defer {
                try? camera.lockForConfiguration()
                try? camera.setExposureMode(.continuousAutoExposure)
                camera.unlockForConfiguration()
            }
            let error = await #expect(throws: CaptureError.self) {
                _ = try await photos.capturePhoto(with: PhotoSettings(photoQualityPrioritization: .quality))
            }
            #expect("\(String(describing: error))".contains("maxPhotoQualityPrioritization"))
            photos.maxPhotoQualityPrioritization = .quality
            let fast = try await photos.capturePhoto(with: PhotoSettings(photoQualityPrioritization: .speed))
            let clock = ContinuousClock()
            let started = clock.now
            let careful = try await photos.capturePhoto(with: PhotoSettings(photoQualityPrioritization: .quality))
            let took = clock.now - started
            #expect(fast.resolvedSettings.framesCombined == 1 && careful.resolvedSettings.framesCombined == 4)
            let noisy = try Self.noise(fast.image)
            let quiet = try Self.noise(careful.image)
            print("photoQualityPrioritization at ISO 3200: median residual \(noisy) (speed, 1 frame) → \(quiet) (quality, 4 frames)")
            #expect(noisy > 8, "ISO 3200 should be noisy: \(noisy)")
            #expect(quiet < noisy * 0.65, "four frames averaged: \(noisy) → \(quiet)")
            #expect(took >= .seconds(3.0 / 30), "four frames at 30 fps take at least three frames' time: \(took)")
            await session.stopRunning()
        }
    }
}
