import Foundation
import ShoeboxImaging
import ShoeboxMedia
import ShoeboxTesting
import Testing

@testable import ShoeboxCapture

extension CaptureSuites {
    @Suite struct MovieCaptureTests {
        let folder: URL

        init() throws {
            CaptureDevice.isSyntheticCameraEnabled = true
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-movie-capture-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        func runningSession(microphone: Bool = false, clock: some Clock<Duration> = ContinuousClock()) async throws -> (CaptureSession, MovieFileOutput) {
            let session = CaptureSession(clock: clock)
            let movies = MovieFileOutput()
            session.beginConfiguration()
            try session.setSessionPreset(.vga640x480)
            try session.addInput(CaptureDeviceInput(device: try #require(await CaptureDevice.default(for: .video))))
            if microphone { try session.addInput(CaptureDeviceInput(device: try #require(await CaptureDevice.default(for: .audio)))) }
            try session.addOutput(movies)
            try session.commitConfiguration()
            try await session.startRunning()
            return (session, movies)
        }

        @Test func recordsForAsLongAsAsked() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            // The session runs on a clock only the test moves: the camera makes a frame each time
            // the clock reaches its next one, and the movie lasts as long as the clock ran.
            let clock = TestClock()
            let (session, movies) = try await runningSession(clock: clock)
            #expect(await clock.waitForSleepers(), "the camera waits for its second frame")
            let url = folder.appendingPathComponent("clip.mp4")
            let stream = movies.events
            let events = Task { () -> [String] in
                var seen: [String] = []
                for await event in stream {
                    switch event {
                    case .started: seen.append("started")
                    case .finished:
                        seen.append("finished")
                        return seen
                    }
                }
                return seen
            }
            let began = clock.now
            try await movies.startRecording(to: url)
            #expect(movies.isRecording)
            await #expect(throws: CaptureError.self) { try await movies.startRecording(to: folder.appendingPathComponent("other.mp4")) }
            // Two seconds, frame by frame: each advance wakes the camera once, and the session
            // hands that frame to the recording before the camera sleeps again.
            let end = began.advanced(by: .seconds(2))
            var frames = 0
            while let next = clock.nextDeadline, next <= end {
                #expect(clock.advance(to: next) == 1)
                frames += 1
                #expect(await clock.waitForSleepers(), "the camera did not ask for its next frame")
            }
            _ = clock.advance(to: end)
            #expect(frames == 60, "30 frames a second for 2 s")
            let recording = try #require(await movies.stopRecording())
            await session.stopRunning()
            #expect(!movies.isRecording && recording.reason == .stopped && recording.error == nil)
            let info = try #require(recording.info)
            #expect(abs(info.duration - 2) <= 0.04, "recorded \(info.duration) s for 2 s on the session's clock")
            #expect(info.container == "mp4" && info.videoCodec == "h264" && info.audioCodec == nil)
            #expect(info.pixelSize == PixelSize(width: 640, height: 480))
            #expect(await events.value == ["started", "finished"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["clip.mp4"], "no partial file left")
        }

        @Test func maximumDurationStopsByItselfWithSound() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let (session, movies) = try await runningSession(microphone: true)
            movies.maxRecordedDuration = 1
            let stream = movies.events
            let finished = Task { () -> MovieFileOutput.Recording? in
                for await event in stream { if case .finished(let recording) = event { return recording } }
                return nil
            }
            try await movies.startRecording(to: folder.appendingPathComponent("short.mp4"))
            let recording = try #require(await finished.value)
            await session.stopRunning()
            #expect(recording.reason == .maximumDurationReached)
            let info = try #require(recording.info)
            #expect(abs(info.duration - 1) <= 0.2, "recorded \(info.duration) s for at most 1 s")
            #expect(info.audioCodec == "aac")
            #expect(await movies.stopRecording() == nil, "nothing left to stop")
        }

        @Test func stoppingTheSessionFinishesTheRecordingAndBadRequestsAreErrors() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let idle = MovieFileOutput()
            await #expect(throws: CaptureError.self) { try await idle.startRecording(to: folder.appendingPathComponent("x.mp4")) }
            let (session, movies) = try await runningSession()
            await #expect(throws: CaptureError.self) { try await movies.startRecording(to: folder.appendingPathComponent("x.avi")) }
            let stream = movies.events
            let finished = Task { () -> MovieFileOutput.Recording? in
                for await event in stream { if case .finished(let recording) = event { return recording } }
                return nil
            }
            let began = EventRecorder(movies.events)
            try await movies.startRecording(to: folder.appendingPathComponent("cut.mp4"))
            // Stopped once the recording has its first frame (`started` comes with it).
            #expect(await began.wait(timeout: .seconds(30)) { $0.contains { if case .started = $0 { true } else { false } } })
            await session.stopRunning()
            let recording = try #require(await finished.value)
            #expect(recording.reason == .sessionStopped && recording.info != nil)
        }

        @Test func aMovieThatCannotBeWrittenFinishesWithItsError() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            let (session, movies) = try await runningSession()
            let stream = movies.events
            let finished = Task { () -> MovieFileOutput.Recording? in
                for await event in stream { if case .finished(let recording) = event { return recording } }
                return nil
            }
            try await movies.startRecording(to: folder.appendingPathComponent("no/such/folder/clip.mp4"))
            let recording = try #require(await finished.value)
            await session.stopRunning()
            #expect(recording.reason == .writeFailed && recording.info == nil)
            #expect(recording.error?.message.contains("folder does not exist") == true, "\(String(describing: recording.error))")
            #expect(!movies.isRecording)
        }

        @Test func maximumFileSizeStopsByItself() async throws {
            defer { try? FileManager.default.removeItem(at: folder) }
            // On a clock the test moves, the camera makes frames as fast as they can be drawn and
            // encoded, not at its own rate. 100 kB proves the same stop as more would (300 kB
            // took 54 s of drawing and encoding in a debug build).
            let clock = TestClock()
            let (session, movies) = try await runningSession(clock: clock)
            movies.maxRecordedFileSize = 100_000
            let stream = movies.events
            try await movies.startRecording(to: folder.appendingPathComponent("capped.mp4"))
            let camera = Task {
                while !Task.isCancelled, await clock.waitForSleepers(), let next = clock.nextDeadline { _ = clock.advance(to: next) }
            }
            // The test fails rather than hangs if the size is never reached. A guard against a
            // hang, not a measure: with a release build running beside the tests on two cores,
            // drawing and encoding 300 kB took more than a minute.
            let finished = try await withTimeLimit(.seconds(180)) { () -> MovieFileOutput.Recording? in
                for await event in stream { if case .finished(let recording) = event { return recording } }
                return nil
            }
            camera.cancel()
            await session.stopRunning()
            let recording = try #require(finished, "the recording did not end within 180 s")
            #expect(recording.reason == .maximumFileSizeReached)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: recording.url.path)[.size] as? Int)
            #expect(size > 0 && (recording.info?.duration ?? 0) > 0)
        }
    }
}
