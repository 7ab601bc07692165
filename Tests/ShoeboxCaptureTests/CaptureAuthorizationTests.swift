import Foundation
import ShoeboxCapture
import ShoeboxLibrary
import Synchronization
import Testing

/// Starting a client's capture session asks its user while undecided, as iOS does, and a client
/// without a device's usage description is stopped naming the key (issue 17 item 16).
extension CaptureSuites {
    @Suite struct CaptureAuthorizationTests {
        /// Answers every prompt with `answer`, recording the services asked about.
        final class Answering: AuthorizationPrompter {
            let answer: AuthorizationAnswer
            private let asked = Mutex<[Authorization.Service]>([])
            init(_ answer: AuthorizationAnswer) { self.answer = answer }
            var services: [Authorization.Service] { asked.withLock { $0 } }
            func prompt(_ prompt: AuthorizationPrompt) async throws(AuthorizationError) -> AuthorizationAnswer {
                asked.withLock { $0.append(prompt.service) }
                return answer
            }
        }

        static func library() async throws -> (PhotoLibrary, URL) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-capture-ask-\(UUID().uuidString)")
            return (try await PhotoLibrary.open(at: folder.appendingPathComponent("L.shoebox")), folder)
        }

        init() {
            CaptureDevice.isSyntheticCameraEnabled = true
        }

        static func session(_ authorization: Authorization, client: String, microphone: Bool = false,
                            missingUsageDescription: Authorization.MissingUsageDescription = .terminate) throws -> CaptureSession {
            CaptureDevice.isSyntheticCameraEnabled = true
            let session = CaptureSession(authorization: authorization, clientIdentifier: client, missingUsageDescription: missingUsageDescription)
            try session.setSessionPreset(.vga640x480)
            try session.addInput(CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .video))))
            if microphone { try session.addInput(CaptureDeviceInput(device: try #require(CaptureDevice.default(for: .audio)))) }
            try session.addOutput(PhotoOutput())
            return session
        }

        @Test func anUndecidedClientIsAskedAndItsSessionStartsWhenAllowed() async throws {
            let (library, folder) = try await Self.library()
            defer { try? FileManager.default.removeItem(at: folder) }
            let prompter = Answering(.allow)
            let authorization = Authorization(library: library, prompter: prompter)
            try await authorization.register(ClientManifest(identifier: "com.example.vlog", displayName: "Vlog",
                                                            usageDescriptions: [.camera: "Films you.", .microphone: "Records you."]))
            let session = try Self.session(authorization, client: "com.example.vlog", microphone: true)
            try await session.startRunning()
            #expect(session.isRunning)
            await session.stopRunning()
            #expect(prompter.services == [.camera, .microphone])
            #expect(try await authorization.status(for: .camera, client: "com.example.vlog") == .authorized)
            #expect(try await authorization.status(for: .microphone, client: "com.example.vlog") == .authorized)
            try await session.startRunning()
            await session.stopRunning()
            #expect(prompter.services.count == 2, "a decided client is not asked again")
        }

        @Test func aClientTheUserRefusesDoesNotStartAndIsNotAskedAgain() async throws {
            let (library, folder) = try await Self.library()
            defer { try? FileManager.default.removeItem(at: folder) }
            let prompter = Answering(.deny)
            let authorization = Authorization(library: library, prompter: prompter)
            try await authorization.register(ClientManifest(identifier: "com.example.spy", displayName: "Spy", usageDescriptions: [.camera: "Watches."]))
            let session = try Self.session(authorization, client: "com.example.spy")
            for _ in 0..<2 {
                await #expect {
                    try await session.startRunning()
                } throws: { error in
                    (error as? CaptureError)?.code == "notAuthorized" && "\(error)".contains("denied")
                }
                #expect(!session.isRunning)
            }
            #expect(prompter.services == [.camera])
            #expect(try await authorization.status(for: .camera, client: "com.example.spy") == .denied)
        }

        @Test func aMissingUsageDescriptionIsRefusedNamingTheKey() async throws {
            let (library, folder) = try await Self.library()
            defer { try? FileManager.default.removeItem(at: folder) }
            let prompter = Answering(.allow)
            let authorization = Authorization(library: library, prompter: prompter)
            try await authorization.register(ClientManifest(identifier: "com.example.mute", displayName: "Mute", usageDescriptions: [.camera: "Films."]))
            // Allowed the camera in Settings, but it records sound without saying why.
            try await authorization.setStatus(.authorized, for: .camera, client: "com.example.mute")
            try await authorization.setStatus(.authorized, for: .microphone, client: "com.example.mute")
            let session = try Self.session(authorization, client: "com.example.mute", microphone: true, missingUsageDescription: .throw)
            await #expect {
                try await session.startRunning()
            } throws: { error in
                "\(error)".contains("NSMicrophoneUsageDescription")
            }
            #expect(!session.isRunning && prompter.services.isEmpty)
        }

        @Test func aClientUsingTheCameraWithoutItsUsageDescriptionIsStopped() async throws {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let (library, folder) = try await Self.library()
                defer { try? FileManager.default.removeItem(at: folder) }
                let authorization = Authorization(library: library, prompter: Answering(.allow))
                try await authorization.register(ClientManifest(identifier: "com.example.bare", displayName: "Bare",
                                                                usageDescriptions: [.photoLibrary: "Shows."]))
                try await Self.session(authorization, client: "com.example.bare").startRunning()
            }
            let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(standardError.contains("NSCameraUsageDescription"), "\(standardError.suffix(400))")
        }
    }
}
