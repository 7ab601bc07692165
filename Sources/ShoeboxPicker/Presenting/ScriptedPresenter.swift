import Foundation
import Synchronization

/// A presenter whose "user" is a script: tests and automation drive every picker flow with it.
///
/// ```swift
/// let presenter = ScriptedPresenter { session in
///     try await session.selectAlbum(withIdentifier: session.selector!.albums()[0].id)
///     try await session.select(session.selector!.assets![0].localIdentifier)
///     try await session.confirm()
/// }
/// let picker = ImagePickerController(library: library, presenter: presenter)
/// let result = try await picker.pick()
/// ```
///
/// The script runs in its own task once the session is presented. If it throws, the session is
/// cancelled and the error is kept in ``errors``.
public final class ScriptedPresenter: PickerPresenter {
    /// What the "user" does with a presented session; throwing cancels the session.
    public typealias Script = @Sendable (PickerSession) async throws -> Void

    /// The cameras the presenter pretends to offer (see ``init(cameras:script:)``).
    public let cameras: [ImagePickerController.CameraDevice: PickerAvailability.Camera]
    private let script: Script
    private let state = Mutex<(presented: [String], dismissed: [String], errors: [any Error])>(([], [], []))

    /// - Parameters:
    ///   - cameras: Cameras the presenter pretends to offer (its ``PickerSession/addCapture(contentsOf:)``
    ///     answers them); none by default.
    ///   - script: What the user does.
    public init(cameras: [ImagePickerController.CameraDevice: PickerAvailability.Camera] = [:], script: @escaping Script) {
        self.cameras = cameras
        self.script = script
    }

    /// Records the session and runs the script on it in a new task; returns at once, never
    /// throwing.
    public func present(_ session: PickerSession) async throws(PickerError) {
        state.withLock { $0.presented.append(session.id) }
        let script = self.script
        Task {
            do {
                try await script(session)
            } catch {
                state.withLock { $0.errors.append(error) }
                await session.cancel()
            }
        }
    }

    /// Records the session as dismissed (see ``dismissedSessions``).
    public func dismiss(_ session: PickerSession) async {
        state.withLock { $0.dismissed.append(session.id) }
    }

    /// Sessions presented and dismissed so far (identifiers), and the errors scripts threw.
    public var presentedSessions: [String] { state.withLock { $0.presented } }
    /// The identifiers of the sessions dismissed so far, in order.
    public var dismissedSessions: [String] { state.withLock { $0.dismissed } }
    /// The errors scripts threw so far, in order; each cancelled its session.
    public var errors: [any Error] { state.withLock { $0.errors } }
}
