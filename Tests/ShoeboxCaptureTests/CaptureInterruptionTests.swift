import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxCapture

extension CaptureSuites {
    /// Interruptions with the synthetic cameras: a device streams to one running session at a time,
    /// the one that holds it keeps it, and others wait for it interrupted.
    @Suite struct CaptureInterruptionTests {
        init() {
            CaptureDevice.isSyntheticCameraEnabled = true
        }

        var back: CaptureDevice { get throws { try #require(CaptureDevice.default(for: .video)) } }
        var front: CaptureDevice {
            get throws {
                try #require(CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .front).devices.first)
            }
        }

        func session(_ devices: [CaptureDevice], outputs: [CaptureOutput]) throws -> CaptureSession {
            let session = CaptureSession()
            session.beginConfiguration()
            try session.setSessionPreset(.vga640x480)
            for device in devices { try session.addInput(CaptureDeviceInput(device: device)) }
            for output in outputs { try session.addOutput(output) }
            try session.commitConfiguration()
            return session
        }

        @Test func aSessionStartedOnAHeldCameraWaitsInterruptedThenResumes() async throws {
            let holderOutput = VideoDataOutput()
            let holderFrames = EventRecorder(holderOutput.frames)
            let holder = try session([back], outputs: [holderOutput])
            try await holder.startRunning()
            let preview = VideoDataOutput()
            let waiter = try session([back], outputs: [preview])
            let log = EventRecorder(waiter.events)
            let frames = EventRecorder(preview.frames)
            try await waiter.startRunning()
            #expect(waiter.isRunning && waiter.isInterrupted && waiter.interruptionReason == .videoDeviceInUseByAnotherClient)
            #expect(holder.isRunning && !holder.isInterrupted)
            #expect(await log.first(2) == [.started, .wasInterrupted(.videoDeviceInUseByAnotherClient)])
            // The window is the camera's own: nine frames go to the session that holds it.
            #expect(await holderFrames.waitFor(holderFrames.count + 9), "the holder's frames stopped")
            #expect(frames.elements.isEmpty, "an interrupted session gets no frames")

            await holder.stopRunning()
            #expect(await frames.waitFor(3), "frames flow once the camera is free")
            #expect(await log.first(3) == [.started, .wasInterrupted(.videoDeviceInUseByAnotherClient), .interruptionEnded])
            #expect(!waiter.isInterrupted && waiter.interruptionReason == nil)
            #expect(frames.elements.allSatisfy { $0.pixelSize == PixelSize(width: 640, height: 480) })
            await waiter.stopRunning()
            #expect(await log.first(4) == [.started, .wasInterrupted(.videoDeviceInUseByAnotherClient), .interruptionEnded, .stopped])
        }

        @Test func switchingToAHeldCameraInterruptsARunningSession() async throws {
            let holderOutput = VideoDataOutput()
            let holderFrames = EventRecorder(holderOutput.frames)
            let holder = try session([front], outputs: [holderOutput])
            try await holder.startRunning()
            let preview = VideoDataOutput()
            let switcher = try session([back], outputs: [preview])
            let log = EventRecorder(switcher.events)
            let frames = EventRecorder(preview.frames)
            try await switcher.startRunning()
            #expect(await frames.waitFor(2))

            // Over to the front camera, which the holder has.
            switcher.beginConfiguration()
            for input in switcher.inputs { switcher.removeInput(input) }
            try switcher.addInput(CaptureDeviceInput(device: try front))
            try switcher.commitConfiguration()
            #expect(await log.first(2) == [.started, .wasInterrupted(.videoDeviceInUseByAnotherClient)])
            #expect(switcher.isRunning && switcher.isInterrupted)
            // Frames already on their way are in once the holder has had three more; then, while
            // the holder gets nine, the interrupted session gets none.
            #expect(await holderFrames.waitFor(holderFrames.count + 3))
            let before = frames.elements.count
            #expect(await holderFrames.waitFor(holderFrames.count + 9), "the holder's frames stopped")
            #expect(frames.elements.count == before, "no frames while interrupted")

            // It let the back camera go: another session runs on it at once.
            let other = try session([back], outputs: [VideoDataOutput()])
            try await other.startRunning()
            #expect(!other.isInterrupted)
            await other.stopRunning()

            await holder.stopRunning()
            #expect(await frames.waitFor(before + 2))
            #expect(await log.first(3) == [.started, .wasInterrupted(.videoDeviceInUseByAnotherClient), .interruptionEnded])
            // Each frame carries its own picture. The frames are read once: the session still
            // runs, and `frames.elements.last` read twice may be two frames (under load, the
            // next one arrives while the first is decoded).
            let received = frames.elements
            #expect(received.count >= before + 2)
            for frame in received {
                #expect(SyntheticCamera.decodeStrip(try frame.image.bitmap()).frame == frame.frameNumber)
            }
            await switcher.stopRunning()
            #expect(await log.first(4).last == .stopped)
        }

        @Test func waitingSessionsGetTheCameraInTheOrderTheyAsked() async throws {
            let holder = try session([back], outputs: [VideoDataOutput()])
            try await holder.startRunning()
            let secondOutput = VideoDataOutput()
            let secondFrames = EventRecorder(secondOutput.frames)
            let second = try session([back], outputs: [secondOutput])
            let third = try session([back], outputs: [VideoDataOutput()])
            let secondLog = EventRecorder(second.events)
            let thirdLog = EventRecorder(third.events)
            try await second.startRunning()
            try await third.startRunning()
            #expect(second.isInterrupted && third.isInterrupted)
            await holder.stopRunning()
            #expect(await secondLog.first(3).last == .interruptionEnded)
            // While the second streams six frames, the third still waits.
            #expect(await secondFrames.waitFor(secondFrames.count + 6), "the second session's frames do not flow")
            #expect(third.isInterrupted, "the third waits for the second")
            await second.stopRunning()
            #expect(await thirdLog.first(3).last == .interruptionEnded)
            #expect(!third.isInterrupted)
            await third.stopRunning()
        }

        @Test func waitingUntilUninterruptedEndsWithTheInterruption() async throws {
            let holder = try session([back], outputs: [VideoDataOutput()])
            try await holder.startRunning()
            let waiter = try session([back], outputs: [VideoDataOutput()])
            try await waiter.startRunning()
            do {
                try await waiter.waitUntilUninterrupted(timeout: .milliseconds(100))
                Issue.record("the camera is held: the wait should time out")
            } catch {
                #expect(error.code == .deviceUnavailable && error.message.contains("videoDeviceInUseByAnotherClient"), "\(error)")
            }
            let waiting = Task { try await waiter.waitUntilUninterrupted(timeout: .seconds(60)) }
            await holder.stopRunning()
            try await waiting.value  // ends with the interruption, not the time limit
            #expect(waiter.isRunning && !waiter.isInterrupted)

            // A session stopped while it waits is told so.
            let third = try session([back], outputs: [VideoDataOutput()])
            try await third.startRunning()
            #expect(third.isInterrupted)
            let quitting = Task { () -> CaptureError? in
                do {
                    try await third.waitUntilUninterrupted(timeout: .seconds(60))
                    return nil
                } catch {
                    return error as? CaptureError
                }
            }
            await third.stopRunning()
            #expect(await quitting.value?.code == .notRunning)
            await waiter.stopRunning()
        }

        @Test func stoppingAWaitingSessionGivesUpItsTurn() async throws {
            let holder = try session([back], outputs: [VideoDataOutput()])
            try await holder.startRunning()
            let quitter = try session([back], outputs: [VideoDataOutput()])
            let log = EventRecorder(quitter.events)
            try await quitter.startRunning()
            await quitter.stopRunning()
            #expect(!quitter.isRunning && !quitter.isInterrupted)
            #expect(await log.first(3) == [.started, .wasInterrupted(.videoDeviceInUseByAnotherClient), .stopped])
            await holder.stopRunning()
            // Nobody waits for the camera any more: the next session has it at once.
            let next = try session([back], outputs: [VideoDataOutput()])
            try await next.startRunning()
            #expect(!next.isInterrupted)
            await next.stopRunning()
        }

        @Test func aHeldMicrophoneInterruptsForAudio() async throws {
            let microphone = try #require(await CaptureDevice.default(for: .audio))
            let holderOutput = VideoDataOutput()
            let holderFrames = EventRecorder(holderOutput.frames)
            let holder = try session([front, microphone], outputs: [holderOutput])
            try await holder.startRunning()
            let preview = VideoDataOutput()
            let waiter = try session([back, microphone], outputs: [preview])
            let log = EventRecorder(waiter.events)
            let frames = EventRecorder(preview.frames)
            try await waiter.startRunning()
            #expect(waiter.interruptionReason == .audioDeviceInUseByAnotherClient)
            #expect(await log.first(2) == [.started, .wasInterrupted(.audioDeviceInUseByAnotherClient)])
            // While the holder gets six frames, the waiting session (its camera free) gets none.
            #expect(await holderFrames.waitFor(holderFrames.count + 6), "the holder's frames stopped")
            #expect(frames.elements.isEmpty, "the whole session waits, as AV Foundation's does")
            await holder.stopRunning()
            #expect(await frames.waitFor(2))
            #expect(await log.first(3).last == .interruptionEnded)
            await waiter.stopRunning()
        }

        @Test func aPhotoAskedForWhileInterruptedIsTakenWhenTheCameraIsBack() async throws {
            let holderOutput = VideoDataOutput()
            let holderFrames = EventRecorder(holderOutput.frames)
            let holder = try session([back], outputs: [holderOutput])
            try await holder.startRunning()
            let photos = PhotoOutput()
            let waiter = try session([back], outputs: [photos])
            try await waiter.startRunning()
            #expect(waiter.isInterrupted)
            let done = Mutex(false)
            let photo = Task {
                defer { done.withLock { $0 = true } }
                return try await photos.capturePhoto()
            }
            // While the holder gets nine frames, the waiting session has none to take it from.
            #expect(await holderFrames.waitFor(holderFrames.count + 9), "the holder's frames stopped")
            #expect(!done.withLock { $0 }, "no frame to take it from yet")
            await holder.stopRunning()
            let taken = try await photo.value
            #expect(taken.resolvedSettings.photoDimensions == PixelSize(width: 640, height: 480))
            await waiter.stopRunning()
        }

        @Test func anInterruptionFinishesARecordingInProgress() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-interrupted-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let holder = try session([front], outputs: [VideoDataOutput()])
            try await holder.startRunning()
            defer { Task { await holder.stopRunning() } }
            let movies = MovieFileOutput()
            let recorder = try session([back], outputs: [movies])
            try await recorder.startRunning()
            let stream = movies.events
            let finished = Task { () -> MovieFileOutput.Recording? in
                for await event in stream { if case .finished(let recording) = event { return recording } }
                return nil
            }
            let url = folder.appendingPathComponent("cut.mp4")
            let began = EventRecorder(movies.events)
            try await movies.startRecording(to: url)
            // Interrupted once the movie has frames (`started` comes with the first).
            #expect(await began.wait(timeout: .seconds(30)) { $0.contains { if case .started = $0 { true } else { false } } })
            recorder.beginConfiguration()
            for input in recorder.inputs { recorder.removeInput(input) }
            try recorder.addInput(CaptureDeviceInput(device: try front))
            try recorder.commitConfiguration()
            let recording = try #require(await finished.value)
            #expect(recording.reason == .deviceFailed && recording.error?.code == .deviceUnavailable)
            #expect(recording.error?.message.contains("in use by another client") == true)
            #expect(recording.info != nil && FileManager.default.fileExists(atPath: url.path), "the movie so far is kept")
            #expect(recorder.isRunning && recorder.isInterrupted)
            await recorder.stopRunning()
            await holder.stopRunning()
        }
    }
}
