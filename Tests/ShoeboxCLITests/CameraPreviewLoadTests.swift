import Foundation
import ShoeboxTesting
import Testing

/// A capture device's live preview through `shoebox serve` (where SwiftNIO's event loops are the
/// concurrency executor) leaves the server answering: the camera draws, converts and encodes its
/// frames off the event loops. Before, the synthetic camera drew on one, and every other request
/// waited 5 s while a preview ran.
@Suite(.serialized) struct CameraPreviewLoadTests {
    @Test("While a camera preview streams, /api/health answers within a second every time")
    func aPreviewLeavesTheEventLoopsFree() async throws {
        let server = try await BatteryServer(extraArguments: ["--synthetic-camera"])
        let created = try await server.http.send(
            "POST", "/api/picker/sessions",
            json: ["sourceType": "camera", "camera": ["source": "captureDevice"]],
            headers: server.authorization)
        try #require(created.status == 201, "\(created.text)")
        let id = try #require(try created.object()["id"] as? String)
        let preview = try server.http.open("/api/picker/sessions/\(id)/ui/camera/preview", headers: server.authorization)
        let first = await preview.read(until: "--shoebox-frame", timeout: 60)
        try #require(first.contains("--shoebox-frame"), "the preview sent no frame")
        // Keep reading (frames keep coming) to the twelfth frame, and ask the server meanwhile,
        // one request after another, until then (twelve requests at least).
        let readEnough = EventRecorder<Bool>()
        let reading = Task {
            defer { readEnough.append(true) }
            return await preview.read(until: "--shoebox-frame", occurrences: 12, timeout: 60)
        }
        var slowest = Duration.zero
        var asked = 0
        let clock = ContinuousClock()
        while asked < 12 || readEnough.elements.isEmpty {
            let started = clock.now
            let health = try await server.http.send("GET", "/api/health", timeout: 10)
            #expect(health.status == 200)
            slowest = max(slowest, clock.now - started)
            asked += 1
        }
        let streamed = await reading.value
        let frames = streamed.components(separatedBy: "--shoebox-frame").count - 1
        #expect(frames >= 12, "the preview kept streaming: \(frames) frames")
        #expect(slowest < .seconds(1), "the slowest of \(asked) /api/health requests took \(slowest) while the preview streamed")
        _ = try await server.http.send("DELETE", "/api/picker/sessions/\(id)", headers: server.authorization)
    }
}
