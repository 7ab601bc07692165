import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import Synchronization

/// Lets the user pick photos and movies from the library or take new ones with a camera:
/// `UIImagePickerController` (and `PHPickerViewController`) for Linux, with its user interface
/// in a ``PickerPresenter`` — the browser, through `shoebox serve`.
///
/// ```swift
/// let picker = ImagePickerController(library: library, presenter: presenter)
/// guard picker.isSourceTypeAvailable(.photoLibrary) else { return }
/// try picker.setMediaTypes([.image, .movie])
/// picker.allowsEditing = true
/// switch try await picker.pick() {
/// case .picked(let infos):
///     for info in infos { print(info.mediaType, info.imageURL ?? info.mediaURL!, info.cropRect as Any) }
/// case .cancelled:
///     print("cancelled")
/// }
/// ```
///
/// Properties with rules have throwing setters instead of UIKit's exceptions and crashes:
/// ``setSourceType(_:)`` (an unavailable source), ``setMediaTypes(_:)`` (empty, or types the
/// source lacks), and the camera options (set while the source is not the camera, or for a
/// camera that does not exist). Availability is asked of the instance — it depends on the library
/// and presenter it was given — and of ``PickerAvailability`` for other environments.
///
/// Editing: photos get a square crop the user moves and scales, delivered as ``Info/editedImage``
/// at most ``maximumEditedImagePixelSize`` (1024 by default) on a side, with ``Info/cropRect`` in
/// the original's pixels; movies get a trimmer bounded by ``videoMaximumDuration`` (600 s by
/// default) and are transcoded to ``videoQuality`` (`.typeMedium` by default, as UIKit). A movie
/// longer than the maximum is trimmed even without editing: to the user's range, or its first
/// ``videoMaximumDuration`` seconds.
///
/// Camera captures are not saved to the library unless ``savesCapturedMedia`` is set (or the
/// client saves them with `PhotoLibrary.saveImage` / `saveVideo`, as in the seeds). With a
/// ``clientIdentifier`` (given, or the library's), the camera needs the client's camera grant
/// (and the microphone's for movies when a microphone exists), asked for when presenting through
/// ``authorization`` (without one, nobody is asked and an undecided grant fails);
/// browsing the library needs no grant, since the client receives only what the user picks.
public final class ImagePickerController: Sendable {
    /// The largest side of an edited image unless set.
    public static let defaultMaximumEditedImagePixelSize = 1024
    /// The smallest ``maximumEditedImagePixelSize`` accepted.
    public static let minimumEditedImagePixelSize = 16

    /// The library the library sources browse; `nil` leaves only the camera.
    public let library: PhotoLibrary?
    /// Shows the picker and lets the user drive it (the web presenter, or a ``ScriptedPresenter``).
    public let presenter: any PickerPresenter
    /// Checks the client's camera and microphone grants, when set with ``clientIdentifier``.
    public let authorization: Authorization?
    /// The client using the picker (`nil`: Shoebox's own tools, acting for the user).
    public let clientIdentifier: String?

    private final class WeakDelegate: @unchecked Sendable {
        // @unchecked: `value` is only read and written under the controller's mutex.
        weak var value: (any ImagePickerControllerDelegate)?
    }

    private struct State {
        var request = PickerRequest()
        var session: PickerSession?
        /// A ``present()`` under way (between its check and its session): a second one is refused.
        var isPresenting = false
        /// Makes the camera's capture session (``setCaptureClock(_:)``).
        var makeCaptureSession: @Sendable () -> CaptureSession = { CaptureSession() }
    }

    private let state = Mutex(State())
    private let delegateBox = WeakDelegate()

    /// Runs the picker's camera on `clock` (`CaptureSession(clock:)`) instead of `ContinuousClock`:
    /// in tests, a clock that moves the synthetic camera's frames only when the test says.
    package func setCaptureClock(_ clock: some Clock<Duration>) {
        state.withLock { $0.makeCaptureSession = { CaptureSession(clock: clock) } }
    }
    private let delegateLock = Mutex(())

    /// A picker browsing `library` (if any) and shown by `presenter`.
    ///
    /// - Parameters:
    ///   - library: The library for the library sources (`nil`: camera only).
    ///   - presenter: Shows the picker (the web presenter, or a ``ScriptedPresenter``).
    ///   - authorization: Checks the client's camera and microphone grants.
    ///   - clientIdentifier: The client using the picker; shown to the user, recorded in the
    ///     access log for what it receives.
    public init(library: PhotoLibrary?, presenter: any PickerPresenter, authorization: Authorization? = nil, clientIdentifier: String? = nil) {
        self.library = library
        self.presenter = presenter
        self.authorization = authorization
        self.clientIdentifier = clientIdentifier ?? library?.clientIdentifier
        state.withLock { $0.request.clientIdentifier = self.clientIdentifier }
    }

    // MARK: Availability

    /// What this picker's environment offers, asked now.
    public var availability: PickerAvailability { .current(library: library, presenter: presenter) }

    /// `isSourceTypeAvailable(_:)`: the library sources need a library; the camera needs a capture
    /// device or a presenter with a camera.
    public func isSourceTypeAvailable(_ sourceType: SourceType) -> Bool { availability.isSourceTypeAvailable(sourceType) }

    /// `availableMediaTypes(for:)`: `nil` when the source is not available.
    public func availableMediaTypes(for sourceType: SourceType) -> [MediaType]? {
        let types = availability.availableMediaTypes(for: sourceType)
        return types.isEmpty ? nil : types
    }

    /// `isCameraDeviceAvailable(_:)`: whether this machine or the presenter has the rear or front
    /// camera.
    public func isCameraDeviceAvailable(_ device: CameraDevice) -> Bool { availability.isCameraDeviceAvailable(device) }

    /// `availableCaptureModes(for:)`: `nil` when there is no such camera.
    public func availableCaptureModes(for device: CameraDevice) -> [CameraCaptureMode]? {
        let modes = availability.availableCaptureModes(for: device)
        return modes.isEmpty ? nil : modes
    }

    /// `isFlashAvailable(for:)`: whether `device`, here or in the presenter, has a flash.
    public func isFlashAvailable(for device: CameraDevice) -> Bool { availability.isFlashAvailable(for: device) }

    // MARK: Configuration

    /// The whole configuration as a value.
    public var request: PickerRequest { state.withLock { $0.request } }

    /// Sets the whole configuration at once — what a client sends a server, what `shoebox pick`
    /// builds from its options — checked as a server checks a client's request
    /// (``PickerRequest/validate(in:)``, against this picker's ``availability``). The client
    /// identifier stays this controller's.
    ///
    /// - Throws: What ``PickerRequest/validate(in:)`` throws; the configuration is then unchanged.
    public func setRequest(_ request: PickerRequest) throws(PickerError) {
        var request = request
        request.clientIdentifier = clientIdentifier
        try request.validate(in: availability)
        state.withLock { $0.request = request }
    }

    /// Where the picker gets media (`sourceType`); `.photoLibrary` by default. Set with
    /// ``setSourceType(_:)``.
    public var sourceType: SourceType { state.withLock { $0.request.sourceType } }

    /// Sets the source. Choosing the camera where the current ``cameraDevice`` does not exist
    /// (only a front camera) switches ``cameraDevice`` to the camera there is.
    ///
    /// - Throws: ``PickerError/Code/sourceTypeUnavailable`` when it is not available here.
    public func setSourceType(_ sourceType: SourceType) throws(PickerError) {
        let availability = self.availability
        guard availability.isSourceTypeAvailable(sourceType) else {
            throw PickerError(.sourceTypeUnavailable, "source type \(sourceType.rawValue) is not available: \(availability.reasonUnavailable(sourceType))")
        }
        state.withLock { state in
            state.request.sourceType = sourceType
            // The rear camera is the default; where there is only a front one (a laptop's
            // browser), that one is the camera, as UIKit shows the only camera a device has.
            if sourceType == .camera, !availability.isCameraDeviceAvailable(state.request.camera.device),
                let only = [CameraDevice.rear, .front].first(where: availability.isCameraDeviceAvailable)
            {
                state.request.camera.device = only
            }
        }
    }

    /// The media types offered; images only by default.
    public var mediaTypes: [MediaType] { state.withLock { $0.request.mediaTypes } }

    /// Sets the media types.
    ///
    /// - Throws: ``PickerError/Code/invalidMediaTypes`` when `types` is empty or names a type the
    ///   current source does not offer (see ``availableMediaTypes(for:)``) — the seeds' exception.
    public func setMediaTypes(_ types: [MediaType]) throws(PickerError) {
        let source = sourceType
        try PickerRequest.validate(mediaTypes: types, for: source, in: availability)
        state.withLock { $0.request.mediaTypes = types }
    }

    /// Whether the user may crop photos and trim movies before choosing.
    public var allowsEditing: Bool {
        get { state.withLock { $0.request.allowsEditing } }
        set { state.withLock { $0.request.allowsEditing = newValue } }
    }

    /// How many, which, in what order, in which representation (PHPicker's configuration).
    /// Setting it makes the picker behave as PHPicker's where the two differ
    /// (``PickerRequest/Interface/phPicker``: a click on a movie picks it).
    public var configuration: PickerConfiguration {
        get { state.withLock { $0.request.configuration } }
        set {
            state.withLock {
                $0.request.configuration = newValue
                $0.request.interface = .phPicker
            }
        }
    }

    /// The preset movies are transcoded to when edited or recorded.
    public var videoQuality: QualityType {
        get { state.withLock { $0.request.videoQuality } }
        set { state.withLock { $0.request.videoQuality = newValue } }
    }

    /// The longest movie delivered, in seconds (600 by default).
    public var videoMaximumDuration: Double { state.withLock { $0.request.videoMaximumDuration } }

    /// - Throws: ``PickerError/Code/invalidArgument`` unless positive and finite.
    public func setVideoMaximumDuration(_ seconds: Double) throws(PickerError) {
        guard seconds.isFinite, seconds > 0 else {
            throw PickerError(.invalidArgument, "videoMaximumDuration must be a positive number of seconds, not \(seconds)")
        }
        state.withLock { $0.request.videoMaximumDuration = seconds }
    }

    /// The largest side of an edited photo, in pixels (1024 by default).
    public var maximumEditedImagePixelSize: Int { state.withLock { $0.request.maximumEditedImagePixelSize } }

    /// - Throws: ``PickerError/Code/sizeTooSmall`` below ``minimumEditedImagePixelSize``.
    public func setMaximumEditedImagePixelSize(_ pixels: Int) throws(PickerError) {
        guard pixels >= Self.minimumEditedImagePixelSize else {
            throw PickerError(.sizeTooSmall, "maximumEditedImagePixelSize \(pixels) is below the minimum of \(Self.minimumEditedImagePixelSize) pixels")
        }
        state.withLock { $0.request.maximumEditedImagePixelSize = pixels }
    }

    /// Whether camera captures are also saved to the library (off by default, as in the seeds).
    public var savesCapturedMedia: Bool {
        get { state.withLock { $0.request.savesCapturedMedia } }
        set { state.withLock { $0.request.savesCapturedMedia = newValue } }
    }

    /// Who asks, as the picker page names them. By default the client's registered name (with
    /// a ``clientIdentifier`` and an ``authorization``), else none; a tool of the user's own
    /// (`shoebox pick`) names itself.
    public var clientDisplayName: String? {
        get { state.withLock { $0.request.clientDisplayName } }
        set { state.withLock { $0.request.clientDisplayName = newValue } }
    }

    /// Told what the user picked. Held weakly, as UIKit's.
    public var delegate: (any ImagePickerControllerDelegate)? {
        get { delegateLock.withLock { _ in delegateBox.value } }
        set { delegateLock.withLock { _ in delegateBox.value = newValue } }
    }

    // MARK: Camera options

    private func requireCamera(_ property: String) throws(PickerError) {
        guard sourceType == .camera else {
            throw PickerError(.cameraUnavailable, "\(property) applies to the camera, and the source type is \(sourceType.rawValue)")
        }
        guard isSourceTypeAvailable(.camera) else {
            throw PickerError(.cameraUnavailable, "\(property): \(availability.reasonUnavailable(.camera))")
        }
    }

    /// The camera used (`cameraDevice`); `.rear` by default. Set with ``setCameraDevice(_:)``.
    public var cameraDevice: CameraDevice { state.withLock { $0.request.camera.device } }

    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera or there
    ///   is no such camera (`isCameraDeviceAvailable(_:)`).
    public func setCameraDevice(_ device: CameraDevice) throws(PickerError) {
        try requireCamera("cameraDevice")
        guard isCameraDeviceAvailable(device) else { throw PickerError(.cameraUnavailable, "there is no \(device.rawValue) camera") }
        state.withLock { $0.request.camera.device = device }
    }

    /// Photos or movies (`cameraCaptureMode`); `.photo` by default. Set with
    /// ``setCameraCaptureMode(_:)``.
    public var cameraCaptureMode: CameraCaptureMode { state.withLock { $0.request.camera.captureMode } }

    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera, the
    ///   camera cannot capture in `mode`, or `mediaTypes` lacks the matching type.
    public func setCameraCaptureMode(_ mode: CameraCaptureMode) throws(PickerError) {
        try requireCamera("cameraCaptureMode")
        guard availability.availableCaptureModes(for: cameraDevice).contains(mode) else {
            throw PickerError(.cameraUnavailable, "the \(cameraDevice.rawValue) camera cannot capture \(mode.rawValue)")
        }
        guard mediaTypes.contains(mode == .photo ? .image : .movie) else {
            throw PickerError(.cameraUnavailable, "capture mode \(mode.rawValue) needs \(mode == .photo ? "public.image" : "public.movie") in mediaTypes")
        }
        state.withLock { $0.request.camera.captureMode = mode }
    }

    /// The flash, or the torch for movies (`cameraFlashMode`); `.auto` by default. Set with
    /// ``setCameraFlashMode(_:)``.
    public var cameraFlashMode: CameraFlashMode { state.withLock { $0.request.camera.flashMode } }

    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera, or for
    ///   `.on` on a camera without a flash (`.auto` is kept and simply never fires).
    public func setCameraFlashMode(_ mode: CameraFlashMode) throws(PickerError) {
        try requireCamera("cameraFlashMode")
        if mode == .on, !isFlashAvailable(for: cameraDevice) {
            throw PickerError(.cameraUnavailable, "the \(cameraDevice.rawValue) camera has no flash")
        }
        state.withLock { $0.request.camera.flashMode = mode }
    }

    /// Where camera pictures come from (the presenter's camera first, by default).
    public var cameraSource: CameraSource { state.withLock { $0.request.camera.source } }

    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera. Whether
    ///   the chosen source has the camera is checked when presenting.
    public func setCameraSource(_ source: CameraSource) throws(PickerError) {
        try requireCamera("cameraSource")
        state.withLock { $0.request.camera.source = source }
    }

    /// Whether the standard camera controls show (default `true`).
    public var showsCameraControls: Bool { state.withLock { $0.request.camera.showsControls } }

    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera.
    public func setShowsCameraControls(_ shows: Bool) throws(PickerError) {
        try requireCamera("showsCameraControls")
        state.withLock { $0.request.camera.showsControls = shows }
    }

    /// Web content drawn over the live preview (`cameraOverlayView`): HTML without scripts;
    /// elements with `data-picker-action="takePicture"` (or `startVideoCapture`,
    /// `stopVideoCapture`, `cancel`, `done`) act when clicked.
    public var cameraOverlay: String? { state.withLock { $0.request.camera.overlay } }

    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera.
    public func setCameraOverlay(_ html: String?) throws(PickerError) {
        try requireCamera("cameraOverlay")
        state.withLock { $0.request.camera.overlay = html }
    }

    /// The live preview's transform (`cameraViewTransform`); the identity by default. Set with
    /// ``setCameraViewTransform(_:)``.
    public var cameraViewTransform: ViewTransform { state.withLock { $0.request.camera.viewTransform } }

    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera;
    ///   ``PickerError/Code/invalidArgument`` for a transform that is not finite.
    public func setCameraViewTransform(_ transform: ViewTransform) throws(PickerError) {
        try requireCamera("cameraViewTransform")
        guard transform.isFinite else { throw PickerError(.invalidArgument, "cameraViewTransform must be finite") }
        state.withLock { $0.request.camera.viewTransform = transform }
    }

    /// The largest photo the camera takes; `nil` (the default) is the camera's largest still size.
    /// See ``PickerRequest/Camera/maxPhotoDimensions``.
    public var cameraMaxPhotoDimensions: PixelSize? { state.withLock { $0.request.camera.maxPhotoDimensions } }

    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera;
    ///   ``PickerError/Code/invalidArgument`` for a size that is not positive.
    public func setCameraMaxPhotoDimensions(_ size: PixelSize?) throws(PickerError) {
        try requireCamera("cameraMaxPhotoDimensions")
        if let size, !size.isPositive { throw PickerError(.invalidArgument, "cameraMaxPhotoDimensions \(size) must be positive") }
        state.withLock { $0.request.camera.maxPhotoDimensions = size }
    }

    // MARK: Presenting

    /// The session being presented, if any.
    public var session: PickerSession? { state.withLock { $0.session } }

    /// Shows the picker and returns its session at once; results reach the ``delegate``.
    ///
    /// - Throws: ``PickerError`` when the configuration does not fit the environment, when the
    ///   picker is already presented (``PickerError/Code/invalidState``), or when the client may
    ///   not use the camera (``PickerError/Code/notAuthorized``).
    @discardableResult
    public func present() async throws(PickerError) -> PickerSession {
        // Checked and claimed in one step: two calls at once present one picker, not two.
        try state.withLock { (state: inout State) throws(PickerError) in
            if state.isPresenting || state.session.map({ !$0.isFinished }) == true {
                throw PickerError(.invalidState, "the picker is presented already")
            }
            state.isPresenting = true
        }
        defer { state.withLock { $0.isPresenting = false } }
        var request = self.request
        if request.clientDisplayName == nil, let clientIdentifier, let authorization {
            request.clientDisplayName = (try? await authorization.client(clientIdentifier))?.displayName
        }
        let session = try await PickerSession(
            request: request, library: library, availability: availability, makeCaptureSession: state.withLock { $0.makeCaptureSession })
        try await authorizeCamera(for: request)
        state.withLock { $0.session = session }
        let events = session.events
        Task { [self] in await relay(events, of: session) }
        do {
            try await presenter.present(session)
        } catch {
            await session.cancel()
            throw error
        }
        return session
    }

    /// Shows the picker and waits until the user picks or cancels.
    ///
    /// - Returns: `.picked` with one ``Info`` per item, or `.cancelled`.
    /// - Throws: As ``present()``.
    public func pick() async throws(PickerError) -> PickerResult {
        let session = try await present()
        let result = await session.result()
        await presenter.dismiss(session)
        return result
    }

    /// Tells the delegate what the session does, until it finishes.
    private func relay(_ events: AsyncStream<PickerSession.Event>, of session: PickerSession) async {
        for await event in events {
            switch event {
            case .delivered(let info):
                await delegate?.imagePickerController(self, didFinishPickingMediaWithInfo: info)
            case .selectionDelivered(let infos):
                await delegate?.imagePickerController(self, didFinishPicking: infos)
            case .finished(let result):
                switch result {
                case .cancelled:
                    await delegate?.imagePickerControllerDidCancel(self)
                case .picked(let infos):
                    let oneByOne = !session.request.camera.showsControls && session.request.sourceType == .camera
                    if !oneByOne {
                        for info in infos { await delegate?.imagePickerController(self, didFinishPickingMediaWithInfo: info) }
                    }
                    await delegate?.imagePickerController(self, didFinishPicking: infos)
                }
            default:
                break
            }
        }
    }

    private func authorizeCamera(for request: PickerRequest) async throws(PickerError) {
        guard let clientIdentifier else { return }
        // A client's picker always asks for its grants: given no Authorization, one over the
        // library that asks nobody (an undecided grant then fails clearly, nothing is captured).
        guard let authorization = authorization ?? library.map({ Authorization(library: $0) }) else { return }
        try await request.authorizeCapture(client: clientIdentifier, authorization: authorization)
    }

    // MARK: Custom controls

    private func presentedSession() throws(PickerError) -> PickerSession {
        guard let session, !session.isFinished else { throw PickerError(.invalidState, "the picker is not presented") }
        return session
    }

    /// Takes a picture (`takePicture()`): with custom controls, several may be taken before
    /// ``dismiss()``; each reaches the delegate as it is delivered.
    ///
    /// - Returns: The capture.
    /// - Throws: ``PickerError/Code/invalidState`` when the picker is not presented; see
    ///   ``PickerSession/takePicture()``.
    @discardableResult
    public func takePicture() async throws(PickerError) -> CapturedMedia {
        try await presentedSession().takePicture()
    }

    /// Starts recording (`startVideoCapture()`).
    public func startVideoCapture() async throws(PickerError) {
        try await presentedSession().startVideoCapture()
    }

    /// Stops recording (`stopVideoCapture()`).
    @discardableResult
    public func stopVideoCapture() async throws(PickerError) -> CapturedMedia {
        try await presentedSession().stopVideoCapture()
    }

    /// Ends the presentation: what was delivered stays delivered (custom controls), anything
    /// else is cancelled.
    public func dismiss() async {
        guard let session else { return }
        await session.dismiss()
        await presenter.dismiss(session)
    }
}
