import ArgumentParser
import Foundation
import ShoeboxCapture
import ShoeboxImaging

struct CaptureBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Synthetic camera: photo latency at 1080p and sustained frame rate at 720p.",
        discussion: """
            (a) --photos captures from a running 1920×1080 session, one after another: the time from \
            capturePhoto to the encoded JPEG (waiting for the next frame included), p50 and p99. \
            (b) A 1280×720 session for --seconds with one VideoDataOutput reader that keeps up: frames \
            delivered per second, and frames the camera made that no reader got (late frames dropped).
            """)
    @Option(help: "Photos to time.") var photos = 40
    @Option(help: "Seconds of video frames to count.") var seconds = 10.0
    @Flag(help: "Print JSON.") var json = false

    struct Result: Encodable {
        var photoP50Milliseconds = 0.0
        var photoP99Milliseconds = 0.0
        var videoSeconds = 0.0
        var videoFramesPerSecond = 0.0
        var videoFramesDropped = 0
        var videoFramesExpected = 0
    }

    func run() async throws {
        CaptureDevice.isSyntheticCameraEnabled = true
        guard let camera = await CaptureDevice.default(for: .video) else { throw ValidationError("no synthetic camera") }
        var result = Result()

        let photoOutput = PhotoOutput()
        let photoSession = try await Self.session(camera, preset: .hd1920x1080, output: photoOutput)
        var latencies: [Double] = []
        for _ in 0..<photos {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await photoOutput.capturePhoto()
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        await photoSession.stopRunning()
        latencies.sort()
        result.photoP50Milliseconds = latencies[latencies.count / 2]
        result.photoP99Milliseconds = latencies[Swift.min(latencies.count - 1, Int(Double(latencies.count - 1) * 0.99 + 0.5))]

        let preview = VideoDataOutput()
        let videoSession = try await Self.session(camera, preset: .hd1280x720, output: preview)
        var count = 0
        var first: Double?
        var last = 0.0
        var firstNumber = 0
        var lastNumber = 0
        for await frame in preview.frames {
            if first == nil {
                first = frame.timestamp
                firstNumber = frame.frameNumber
            }
            last = frame.timestamp
            lastNumber = frame.frameNumber
            count += 1
            if last - (first ?? 0) >= seconds { break }
        }
        await videoSession.stopRunning()
        result.videoSeconds = last - (first ?? 0)
        result.videoFramesPerSecond = Double(count - 1) / Swift.max(result.videoSeconds, 1e-9)
        result.videoFramesExpected = Int((result.videoSeconds * 30).rounded()) + 1
        result.videoFramesDropped = (lastNumber - firstNumber + 1) - count

        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        } else {
            print(
                String(
                    format: "(a) capturePhoto at 1920×1080: p50 %.1f ms, p99 %.1f ms (%d photos)", result.photoP50Milliseconds, result.photoP99Milliseconds,
                    photos))
            print(
                String(
                    format: "(b) VideoDataOutput at 1280×720: %.2f fps over %.1f s, %d frames dropped, %d expected at 30 fps (target 30 fps, no drops)",
                    result.videoFramesPerSecond, result.videoSeconds, result.videoFramesDropped, result.videoFramesExpected))
        }
    }

    static func session(_ camera: CaptureDevice, preset: CaptureSession.Preset, output: CaptureOutput) async throws -> CaptureSession {
        let session = CaptureSession()
        session.beginConfiguration()
        try session.setSessionPreset(preset)
        try session.addInput(CaptureDeviceInput(device: camera))
        try session.addOutput(output)
        try session.commitConfiguration()
        try await session.startRunning()
        return session
    }
}
