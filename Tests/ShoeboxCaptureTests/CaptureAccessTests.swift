import Foundation
import ShoeboxCapture
import Synchronization
import Testing

/// A client's session asks its ``CaptureAccessChecking`` — when it starts, before each photo, and
/// whenever the checker says a decision changed. (The photo library's checker, on real grants, is
/// tested with the picker: `LibraryCaptureAccessTests`.)
extension CaptureSuites {
    @Suite struct CaptureAccessTests {
        /// Decisions kept in memory, changed by the test.
        final class Decisions: CaptureAccessChecking {
            private struct State {
                var allowed: Set<CaptureDevice.MediaType>
                var checks: [(CaptureDevice.MediaType, asking: Bool)] = []
                var watchers: [AsyncStream<Void>.Continuation] = []
            }
            private let state: Mutex<State>

            init(allowing allowed: Set<CaptureDevice.MediaType>) { state = Mutex(State(allowed: allowed)) }

            var checks: [(CaptureDevice.MediaType, asking: Bool)] { state.withLock { $0.checks } }
            var watcherCount: Int { state.withLock { $0.watchers.count } }

            func checkAccess(to mediaType: CaptureDevice.MediaType, client: String, asking: Bool) async throws(CaptureError) {
                let allowed = state.withLock { state -> Bool in
                    state.checks.append((mediaType, asking))
                    return state.allowed.contains(mediaType)
                }
                guard allowed else { throw .notAuthorized("\(client) may not use the \(mediaType.rawValue) device") }
            }

            func accessChanges(client: String) -> AsyncStream<Void> {
                let (stream, continuation) = AsyncStream<Void>.makeStream()
                continuation.yield()
                state.withLock { $0.watchers.append(continuation) }
                return stream
            }

            func set(_ mediaType: CaptureDevice.MediaType, allowed: Bool) {
                let watchers = state.withLock { state in
                    if allowed { state.allowed.insert(mediaType) } else { state.allowed.remove(mediaType) }
                    return state.watchers
                }
                for watcher in watchers { watcher.yield() }
            }
        }

        static func session(_ access: (any CaptureAccessChecking)?, microphone: Bool = false) throws -> (CaptureSession, PhotoOutput) {
            CaptureDevice.isSyntheticCameraEnabled = true
            let session = CaptureSession(access: access, clientIdentifier: "com.example.booth")
            try session.setSessionPreset(.vga640x480)
            try session.addInput(CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .video))))
            if microphone { try session.addInput(CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .audio)))) }
            let photos = PhotoOutput()
            try session.addOutput(photos)
            return (session, photos)
        }

        @Test func startingAsksForEachDeviceAndPhotosCheckWithoutAsking() async throws {
            let decisions = Decisions(allowing: [.video, .audio])
            let (session, photos) = try Self.session(decisions, microphone: true)
            try await session.startRunning()
            _ = try await photos.capturePhoto()
            await session.stopRunning()
            let checks = decisions.checks
            #expect(checks.prefix(2).map(\.0) == [.video, .audio] && checks.prefix(2).allSatisfy(\.asking), "\(checks)")
            // After the start: the watcher's first check and the photo's, never asking.
            #expect(checks.count >= 4 && checks.dropFirst(2).allSatisfy { !$0.asking }, "\(checks)")
        }

        @Test func aRefusedDeviceKeepsTheSessionFromStarting() async throws {
            let (session, _) = try Self.session(Decisions(allowing: [.video]), microphone: true)
            await #expect(throws: CaptureError.notAuthorized("com.example.booth may not use the audio device")) {
                try await session.startRunning()
            }
            #expect(!session.isRunning)
            let (unchecked, _) = try Self.session(nil)
            await #expect { try await unchecked.startRunning() } throws: { error in
                (error as? CaptureError)?.code == .notAuthorized && "\(error)".contains("CaptureAccessChecking")
            }
            #expect(!unchecked.isRunning)
        }

        @Test func aRevokedDecisionStopsTheRunningSession() async throws {
            let decisions = Decisions(allowing: [.video])
            let (session, photos) = try Self.session(decisions)
            let events = session.events
            try await session.startRunning()
            _ = try await photos.capturePhoto()
            let stopped = Task { () -> CaptureSession.Event? in
                for await event in events { if case .runtimeError = event { return event } }
                return nil
            }
            decisions.set(.video, allowed: false)
            let event = await stopped.value
            #expect(event == .runtimeError(.notAuthorized("com.example.booth may not use the video device")))
            #expect(!session.isRunning)
            await #expect(throws: CaptureError.self) { _ = try await photos.capturePhoto() }
            // Allowed again, the session starts again.
            decisions.set(.video, allowed: true)
            try await session.startRunning()
            #expect(session.isRunning)
            await session.stopRunning()
        }
    }
}
