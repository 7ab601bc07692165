import Foundation
import ShoeboxCapture
import ShoeboxLibrary
import ShoeboxPicker
import Synchronization
import Testing

/// Capture sessions whose access the photo library's `Authorization` decides
/// (``LibraryCaptureAccess``): an undecided client is asked when its session starts, as iOS does;
/// a client without a device's usage description is stopped naming the key; a grant revoked while
/// the camera runs stops it.
@Suite(.serialized, .usesSyntheticCamera) struct LibraryCaptureAccessTests {
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

    /// A new library (and the folder to remove) whose `client` is registered with a camera usage
    /// description and, when `authorized`, allowed the camera; no prompter.
    static func cameraClient(_ client: String, authorized: Bool) async throws -> (PhotoLibrary, Authorization, URL) {
        let (library, folder) = try await Self.library()
        let authorization = Authorization(library: library)
        try await authorization.register(ClientManifest(identifier: client, displayName: "Booth", usageDescriptions: [.camera: "Badges."]))
        if authorized { try await authorization.setStatus(.authorized, for: .camera, client: client) }
        return (library, authorization, folder)
    }

    static func session(
        _ authorization: Authorization, client: String, microphone: Bool = false,
        missingUsageDescription: Authorization.MissingUsageDescription = .terminate
    ) throws -> CaptureSession {
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
        try await authorization.register(
            ClientManifest(
                identifier: "com.example.vlog", displayName: "Vlog",
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
                (error as? CaptureError)?.code == .notAuthorized && "\(error)".contains("denied")
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
            try await authorization.register(
                ClientManifest(
                    identifier: "com.example.bare", displayName: "Bare",
                    usageDescriptions: [.photoLibrary: "Shows."]))
            try await Self.session(authorization, client: "com.example.bare").startRunning()
        }
        let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(standardError.contains("NSCameraUsageDescription"), "\(standardError.suffix(400))")
    }

    @Test func clientsNeedCameraAuthorization() async throws {
        let (_, authorization, folder) = try await Self.cameraClient("com.example.booth", authorized: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try Self.session(authorization, client: "com.example.booth")
        await #expect(throws: CaptureError.self) { try await session.startRunning() }
        #expect(!session.isRunning)
        try await authorization.setStatus(.authorized, for: .camera, client: "com.example.booth")
        try await session.startRunning()
        #expect(session.isRunning)
        await session.stopRunning()
    }

    /// Revoked through the same library (Settings › Privacy in the server that also runs the
    /// camera): the change log's signal reaches the session with no poll at all.
    @Test func revokingTheCameraInThisProcessStopsTheSession() async throws {
        let (_, authorization, folder) = try await Self.cameraClient("com.example.kiosk", authorized: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try Self.session(authorization, client: "com.example.kiosk")
        let events = session.events
        try await session.startRunning()
        let stopped = Task { () -> CaptureSession.Event? in
            for await event in events { if case .runtimeError = event { return event } }
            return nil
        }
        try await authorization.setStatus(nil, for: .camera, client: "com.example.kiosk")  // reset: undecided again
        guard case .runtimeError(let error) = await stopped.value else {
            Issue.record("the session did not stop")
            return
        }
        #expect(error.code == .notAuthorized && error.message.contains("notDetermined"), "\(error)")
        #expect(!session.isRunning)
    }

    @Test func revokingTheCameraStopsARunningClientSession() async throws {
        let (library, authorization, folder) = try await Self.cameraClient("com.example.booth", authorized: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try Self.session(authorization, client: "com.example.booth")
        let photos = try #require(session.outputs.first as? PhotoOutput)
        try await session.startRunning()
        defer { Task { await session.stopRunning() } }
        _ = try await photos.capturePhoto()
        let stream = session.events
        let events = Task { () -> CaptureSession.Event? in
            for await event in stream { if case .runtimeError = event { return event } }
            return nil
        }
        // Revoked from another handle on the same library, as `shoebox privacy deny` would.
        let settings = Authorization(library: try await PhotoLibrary.open(at: library.url))
        try await settings.setStatus(.denied, for: .camera, client: "com.example.booth")
        await #expect(throws: CaptureError.self) { _ = try await photos.capturePhoto() }
        let event = await events.value
        guard case .runtimeError(let error) = event else {
            Issue.record("expected a runtime error, got \(String(describing: event))")
            return
        }
        #expect(error.code == .notAuthorized && error.message.contains("denied"))
        #expect(!session.isRunning)
    }

    /// The authorization matrix's capture column: camera alone, and camera with microphone.
    @Test(
        arguments: [
            (camera: Authorization.Status.authorized, microphone: Authorization.Status.authorized, withMicrophone: true, runs: true),
            (.authorized, .notDetermined, true, false),
            (.authorized, .denied, true, false),
            (.authorized, .notDetermined, false, true),
            (.denied, .authorized, false, false),
            (.notDetermined, .authorized, false, false),
            (.limited, .authorized, false, false),
        ] as [(camera: Authorization.Status, microphone: Authorization.Status, withMicrophone: Bool, runs: Bool)])
    func captureNeedsTheCameraAndTheMicrophoneWhenRecordingSound(
        _ row: (camera: Authorization.Status, microphone: Authorization.Status, withMicrophone: Bool, runs: Bool)
    ) async throws {
        let (library, folder) = try await Self.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let authorization = Authorization(library: library)
        let client = "com.example.recorder"
        try await authorization.register(
            ClientManifest(identifier: client, displayName: "Recorder", usageDescriptions: [.camera: "Films.", .microphone: "Sound."]))
        if row.camera == .limited {
            await #expect(throws: LibraryError.self) { try await authorization.setStatus(.limited, for: .camera, client: client) }
        } else {
            try await authorization.setStatus(row.camera, for: .camera, client: client)
        }
        try await authorization.setStatus(row.microphone, for: .microphone, client: client)
        let session = try Self.session(authorization, client: client, microphone: row.withMicrophone)
        do {
            try await session.startRunning()
            #expect(row.runs, "started without the grants it needs")
            await session.stopRunning()
        } catch {
            #expect(!row.runs && error.code == .notAuthorized)
        }
    }
}
