import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import Synchronization

/// One presentation of the picker: the state a presenter shows and changes as the user browses,
/// selects, captures and edits, until Choose or Cancel resolves it.
///
/// ``ImagePickerController`` makes a session and hands it to its ``PickerPresenter``; the web
/// presenter drives it from the browser over HTTP, a ``ScriptedPresenter`` from code. The client
/// only ever sees the ``PickerResult``: the picker needs no library grant, because the client
/// receives only what the user picked.
///
/// ```swift
/// let session = try PickerSession(request: request, library: library, availability: .current(library: library, presenter: nil))
/// let album = try session.selector!.albums()[0]
/// try session.selector!.selectAlbum(album)
/// try await session.select(session.selector!.assets![0].localIdentifier)
/// let result = try await session.confirm()            // .picked([info])
/// ```
///
/// Selection follows the configuration: with a limit of 1 a new choice replaces the old one (and,
/// as in seed 003, choosing another album clears it); with a larger limit selecting past it is an
/// error; with no limit (0) anything goes. Camera captures wait for review (Use Photo / Retake;
/// for movies Choose / Cancel) unless the standard controls are off, in which case each one is
/// delivered at once and the session lasts until ``dismiss()``.
public final class PickerSession: Sendable, Identifiable {
    /// Something that changed, for a presenter to show (the web picker relays these as
    /// server-sent events) and for the controller to tell its delegate.
    public enum Event: Sendable {
        /// The selection now, in the order selected: asset identifiers and capture ids.
        case selectionChanged([String])
        /// The crop or trim of this item (an asset identifier or capture id) changed.
        case editChanged(String)
        /// A capture waits for review.
        case captured(CapturedMedia)
        /// The capture under review was used or retaken.
        case reviewEnded
        /// A movie began recording (``PickerSession/startVideoCapture()``).
        case recordingStarted
        /// The recording stopped: by ``PickerSession/stopVideoCapture()``, or by itself (at
        /// `videoMaximumDuration`, or when the camera fails).
        case recordingStopped
        /// The client asked the presenter's own camera to act (custom controls).
        case command(Command)
        /// With custom camera controls: one picture delivered to the client.
        case delivered(ImagePickerController.Info)
        /// With `.continuous` selection: the current selection, delivered.
        case selectionDelivered([ImagePickerController.Info])
        /// Delivery progress, 0…1 (trims and transcodes take a while).
        case progress(Double)
        /// The session ended, picked or cancelled: the last event, after which the stream ends.
        case finished(PickerResult)
    }

    /// What the client asks the presenter's camera to do.
    public enum Command: String, Sendable, Hashable, Codable {
        /// `takePicture` takes a picture, `startVideoCapture` starts recording a movie and
        /// `stopVideoCapture` stops it, as ``PickerSession/takePicture()``,
        /// ``PickerSession/startVideoCapture()`` and ``PickerSession/stopVideoCapture()`` ask.
        case takePicture, startVideoCapture, stopVideoCapture
    }

    /// An unguessable identifier (128 random bits, hex): the web picker's URL carries it.
    public let id: String
    /// What the session picks: the settings it was made with, validated against the environment.
    public let request: PickerRequest
    /// The library browsed, acting for the user (`nil` for the camera without a library).
    public let library: PhotoLibrary?
    /// The three-pane chooser's model, for the library sources.
    public let selector: PhotoSelector?
    /// Where captures and delivered files go: a folder of the system's temporary directory, private
    /// to this copy of the session.
    public let folder: URL
    /// When the session was first made; a copy restored in another process keeps it.
    public let createdAt: Date
    /// Where this session's camera pictures come from (`nil` for the library sources).
    public let cameraSource: ImagePickerController.CameraSource?
    let camera: PickerCamera?
    let delivery: PickerDelivery

    struct State {
        var selection: [String] = []
        var selectedAssets: [String: Asset] = [:]
        var edits: [String: PickerEdit] = [:]
        var captures: [String: CapturedMedia] = [:]
        var captureCount = 0
        var reviewing: String?
        var recording: (id: String, url: URL)?
        var delivered: [ImagePickerController.Info] = []
        var isDelivering = false
        var result: PickerResult?
        var waiters: [CheckedContinuation<PickerResult, Never>] = []
        /// How many waits with a time limit (``result(waitingAtMost:)``) wait now.
        var timedWaits = 0
        var captureWaiters: [UUID: CheckedContinuation<CapturedMedia, any Error>] = [:]
        /// The recording being turned into a capture (between its end and its review).
        var finishingRecording: String?
        /// How the last recording ended, for a Stop that came after it stopped by itself.
        var stoppedRecording: (id: String, outcome: Result<CapturedMedia, PickerError>)?
        /// A command to the presenter's camera not answered yet: replayed to new listeners.
        var pendingCommand: Command?
        var flashMode: ImagePickerController.CameraFlashMode
        var cameraDevice: ImagePickerController.CameraDevice
        var captureMode: ImagePickerController.CameraCaptureMode
    }

    let state: Mutex<State>
    /// Who listens to ``events`` until the session finishes.
    private let listeners = EventFanOut<Event>()
    /// Notified when the session finishes: what waits with a time limit wait on.
    private let finishing = NotificationBoard()
    /// Who listens to ``timedWaitUpdates``; told under the state lock, so in order.
    private let timedWaitListeners = EventFanOut<Int>()

    /// How many timed waits (``result(waitingAtMost:)``: a client's `?wait=S`) wait now, then
    /// again at each change, until the stream is dropped: for a test to know a client waits.
    var timedWaitUpdates: AsyncStream<Int> {
        state.withLock { state in timedWaitListeners.subscribe(replaying: [state.timedWaits]) }
    }

    private func changeTimedWaits(by change: Int) {
        state.withLock { state in
            state.timedWaits += change
            if timedWaitListeners.hasSubscribers { timedWaitListeners.yield(state.timedWaits) }
        }
    }

    /// Makes a session for `request`.
    ///
    /// - Parameters:
    ///   - request: What to pick; validated against `availability`.
    ///   - library: The library to browse (and to save captures to). A handle opened for a client
    ///     is reopened for the user: the picker shows the user everything, and hands the client
    ///     only what the user picks.
    ///   - availability: What this environment offers (see ``PickerAvailability/current(library:presenter:)``).
    /// - Throws: ``PickerError`` when the request does not fit the environment (see
    ///   ``PickerRequest/validate(in:)``).
    public convenience init(request: PickerRequest, library: PhotoLibrary?, availability: PickerAvailability) async throws(PickerError) {
        try await self.init(request: request, library: library, availability: availability, makeCaptureSession: { CaptureSession() })
    }

    /// A new session whose camera's capture session `makeCaptureSession` makes (on a test's
    /// clock: ``ImagePickerController/setCaptureClock(_:)``).
    convenience init(
        request: PickerRequest, library: PhotoLibrary?, availability: PickerAvailability,
        makeCaptureSession: @escaping @Sendable () -> CaptureSession
    ) async throws(PickerError) {
        try await self.init(
            id: Self.makeIdentifier(), createdAt: Date(), request: request, library: library, availability: availability,
            makeCaptureSession: makeCaptureSession)
        try await applyPreselection()
    }

    /// A session with a known identifier: a new one, or one made again from the catalog
    /// (``restore(id:createdAt:request:snapshot:library:availability:)``).
    init(
        id: String, createdAt: Date, request: PickerRequest, library: PhotoLibrary?, availability: PickerAvailability,
        makeCaptureSession: @escaping @Sendable () -> CaptureSession = { CaptureSession() }
    ) async throws(PickerError) {
        try request.validate(in: availability)
        if request.sourceType != .camera, library == nil {
            throw PickerError(.sourceTypeUnavailable, "\(request.sourceType.rawValue) needs a library")
        }
        let userLibrary = library?.forClient(nil)
        self.id = id
        self.request = request
        self.library = userLibrary
        self.createdAt = createdAt
        // One folder per copy of the session: servers on one machine that each deliver a pick
        // made through another (see ``restore(id:createdAt:request:snapshot:library:availability:)``)
        // deliver the same file names, each into its own folder.
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-picker-\(id)-\(RandomToken.hex(words: 1))", isDirectory: true)
        let images = userLibrary.map { ImageManager(library: $0) }
        if request.sourceType == .camera {
            selector = nil
            let device = request.camera.device
            let hasDevice = availability.captureDevices[device] != nil
            let hasPresenter = availability.presenterCameras[device] != nil
            switch request.camera.source {
            case .automatic: cameraSource = hasPresenter ? .presenter : .captureDevice
            case .captureDevice:
                guard hasDevice else { throw PickerError(.cameraUnavailable, "there is no \(device.rawValue) capture device on this machine") }
                cameraSource = .captureDevice
            case .presenter:
                guard hasPresenter else { throw PickerError(.cameraUnavailable, "the presenter offers no \(device.rawValue) camera") }
                cameraSource = .presenter
            }
            camera = cameraSource == .captureDevice ? PickerCamera(request: request, makeCaptureSession: makeCaptureSession) : nil
        } else {
            cameraSource = nil
            camera = nil
            selector = try PhotoSelector(
                library: userLibrary!, mediaTypes: request.mediaTypes, filter: request.configuration.filter,
                scope: request.sourceType == .savedPhotosAlbum ? .recentsOnly : .allAlbums, imageManager: images)
        }
        delivery = PickerDelivery(request: request, library: userLibrary, images: images, folder: folder)
        state = Mutex(State(flashMode: request.camera.flashMode, cameraDevice: request.camera.device, captureMode: request.camera.captureMode))
    }

    static func makeIdentifier() -> String {
        RandomToken.hex(words: 2)
    }

    private func applyPreselection() async throws(PickerError) {
        let wanted = request.configuration.preselectedAssetIdentifiers
        guard !wanted.isEmpty, let library, let selector else { return }
        let found: [Asset]
        do {
            found = try await library.fetchAssets(withLocalIdentifiers: wanted).allObjects()
        } catch {
            throw PickerError(.library, error.message, underlying: error)
        }
        let limit = request.configuration.selectionLimit
        for asset in found where selector.allows(asset) {
            if limit > 0, state.withLock({ $0.selection.count }) >= limit { break }
            state.withLock { state in
                state.selection.append(asset.localIdentifier)
                state.selectedAssets[asset.localIdentifier] = asset
            }
        }
    }

    // MARK: Observing

    /// Events from now on (and a camera command still waiting for the presenter, first). The
    /// stream ends after ``Event/finished(_:)``.
    public var events: AsyncStream<Event> {
        state.withLock { state in
            let pending = state.pendingCommand.map { [Event.command($0)] } ?? []
            guard let result = state.result else { return listeners.subscribe(replaying: pending) }
            let (stream, continuation) = AsyncStream<Event>.makeStream()
            for event in pending + [.finished(result)] { continuation.yield(event) }
            continuation.finish()
            return stream
        }
    }

    func emit(_ event: Event) {
        listeners.yield(event)
    }

    /// The result, once the session has finished; `nil` before.
    public var finishedResult: PickerResult? { state.withLock { $0.result } }

    /// What was delivered one by one so far (custom camera controls, continuous selection):
    /// what the delegate's `didFinishPickingMediaWithInfo` heard before the session ends.
    public var deliveredSoFar: [ImagePickerController.Info] { state.withLock { $0.delivered } }

    /// Whether the session has finished, picked or cancelled; nothing more can change then.
    public var isFinished: Bool { finishedResult != nil }

    /// Waits for the session to finish.
    public func result() async -> PickerResult {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> PickerResult? in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Waits at most `timeout` for the session to finish: its result, or `nil` if it is still
    /// open then (or the waiting task is cancelled). A poll over HTTP (`?wait=S`) waits so.
    public func result(waitingAtMost timeout: Duration) async -> PickerResult? {
        // Read before the result: a finish between the two is not missed.
        let seen = finishing.count
        if let result = finishedResult { return result }
        changeTimedWaits(by: 1)
        defer { changeTimedWaits(by: -1) }
        await finishing.wait(beyond: seen, until: .now + timeout)
        return finishedResult
    }

    // MARK: Selecting

    /// The selected items, in the order they were selected: asset identifiers and capture ids.
    public var selection: [String] { state.withLock { $0.selection } }

    /// The edit of an item, if any.
    public func edit(for item: String) -> PickerEdit? { state.withLock { $0.edits[item] } }

    /// A capture of this session.
    public func capture(_ id: String) -> CapturedMedia? { state.withLock { $0.captures[id] } }

    /// The capture waiting for Use / Retake, if any.
    public var reviewing: CapturedMedia? { state.withLock { state in state.reviewing.flatMap { state.captures[$0] } } }

    /// Selects a library asset (or a capture of this session).
    ///
    /// With a selection limit of 1 the new item replaces the old one.
    ///
    /// - Throws: ``PickerError/Code/notFound`` for an unknown item;
    ///   ``PickerError/Code/notAllowed`` for an asset the media types or filter exclude;
    ///   ``PickerError/Code/selectionLimitReached`` past the limit; ``PickerError/Code/finished``.
    public func select(_ item: String) async throws(PickerError) {
        var asset: Asset?
        if state.withLock({ $0.captures[item] }) == nil {
            guard let library, let selector else { throw PickerError(.notFound, "no capture \(item) in this session") }
            do {
                asset = try await library.fetchAssets(withLocalIdentifiers: [item]).firstObject
            } catch {
                throw PickerError(.library, error.message, underlying: error)
            }
            guard let asset else { throw PickerError(.notFound, "no asset \(item)") }
            try selector.checkAllowed(asset)
        }
        let limit = request.configuration.selectionLimit
        let changed = try state.withLock { (state: inout State) throws(PickerError) -> [String]? in
            try Self.requireActive(state)
            if state.selection.contains(item) { return nil }
            if limit == 1 {
                state.selection.removeAll()
            } else if limit > 0, state.selection.count >= limit {
                throw PickerError(.selectionLimitReached, "at most \(limit) items may be picked")
            }
            state.selection.append(item)
            if let asset { state.selectedAssets[item] = asset }
            return state.selection
        }
        if let changed { await selectionDidChange(changed) }
    }

    /// Removes an item from the selection (nothing happens if it is not selected).
    public func deselect(_ item: String) async throws(PickerError) {
        let changed = try state.withLock { (state: inout State) throws(PickerError) -> [String]? in
            try Self.requireActive(state)
            guard let index = state.selection.firstIndex(of: item) else { return nil }
            state.selection.remove(at: index)
            state.selectedAssets[item] = nil
            return state.selection
        }
        if let changed { await selectionDidChange(changed) }
    }

    /// Chooses an album in the ``selector``; with a selection limit of 1 this clears the
    /// selection too (seed 003), with a larger one the selection stays.
    public func selectAlbum(withIdentifier identifier: String) async throws(PickerError) {
        guard let selector else { throw PickerError(.invalidState, "the camera has no albums") }
        try state.withLock { (state: inout State) throws(PickerError) in try Self.requireActive(state) }
        try await selector.selectAlbum(withIdentifier: identifier)
        if request.configuration.selectionLimit == 1 {
            let changed = state.withLock { state -> Bool in
                defer {
                    state.selection.removeAll()
                    state.selectedAssets.removeAll()
                }
                return !state.selection.isEmpty
            }
            if changed { await selectionDidChange([]) }
        }
    }

    private func selectionDidChange(_ selection: [String]) async {
        emit(.selectionChanged(selection))
        guard request.configuration.selection == .continuous else { return }
        if let infos = try? await delivery.deliver(orderedItems(), edits: state.withLock { $0.edits }, progress: { _ in }) {
            emit(.selectionDelivered(infos))
        }
    }

    static func requireActive(_ state: State) throws(PickerError) {
        if state.result != nil { throw PickerError(.finished, "the picker has finished") }
    }

    // MARK: Editing

    /// Sets the square crop of a selected photo (or of the capture under review), in the
    /// photo's upright pixels; `nil` restores the default (the largest centred square).
    ///
    /// - Throws: ``PickerError/Code/invalidState`` when editing is off;
    ///   ``PickerError/Code/invalidArgument`` for a rect that is not a square inside the photo;
    ///   ``PickerError/Code/notFound`` for an item neither selected nor under review.
    public func setCrop(_ rect: PixelRect?, for item: String) throws(PickerError) {
        guard request.allowsEditing else { throw PickerError(.invalidState, "editing is off (allowsEditing is false)") }
        let size = try itemPixelSize(item, expecting: .image)
        if let rect {
            guard rect.width == rect.height, rect.width >= 1 else {
                throw PickerError(.invalidArgument, "the crop \(rect) is not a square")
            }
            guard rect.clamped(to: size) == rect else {
                throw PickerError(.invalidArgument, "the crop \(rect) is not inside the \(size.width)×\(size.height) photo")
            }
        }
        try state.withLock { (state: inout State) throws(PickerError) in
            try Self.requireActive(state)
            state.edits[item, default: PickerEdit()].cropRect = rect
        }
        emit(.editChanged(item))
    }

    /// Sets the trimmed range of a selected movie (or of the recording under review), in seconds
    /// of the movie; `nil` restores the default (from the start, at most `videoMaximumDuration`).
    ///
    /// - Throws: ``PickerError/Code/invalidState`` when editing is off (a movie longer than the
    ///   maximum may always be trimmed); ``PickerError/Code/invalidArgument`` for a range outside
    ///   the movie, empty, or longer than `videoMaximumDuration`.
    public func setTrim(_ range: Range<Double>?, for item: String) throws(PickerError) {
        let duration = try itemDuration(item)
        guard request.allowsEditing || duration > request.videoMaximumDuration else {
            throw PickerError(.invalidState, "editing is off (allowsEditing is false)")
        }
        if let range {
            guard range.lowerBound.isFinite, range.upperBound.isFinite, range.lowerBound >= 0, range.upperBound > range.lowerBound else {
                throw PickerError(.invalidArgument, "the trim \(range) is empty or negative")
            }
            guard range.upperBound <= duration + 0.001 else {
                throw PickerError(.invalidArgument, "the trim ends at \(range.upperBound) s, after the movie's end at \(duration) s")
            }
            guard range.upperBound - range.lowerBound <= request.videoMaximumDuration + 0.001 else {
                throw PickerError(
                    .invalidArgument,
                    "the trim lasts \(range.upperBound - range.lowerBound) s, more than videoMaximumDuration \(request.videoMaximumDuration) s")
            }
        }
        try state.withLock { (state: inout State) throws(PickerError) in
            try Self.requireActive(state)
            var edit = state.edits[item, default: PickerEdit()]
            edit.trimStart = range?.lowerBound
            edit.trimEnd = range?.upperBound
            state.edits[item] = edit
        }
        emit(.editChanged(item))
    }

    private func itemPixelSize(_ item: String, expecting type: ImagePickerController.MediaType) throws(PickerError) -> PixelSize {
        let (asset, capture) = state.withLock { ($0.selectedAssets[item], $0.captures[item]) }
        if let capture {
            guard capture.mediaType == type else { throw PickerError(.invalidArgument, "\(item) is not a \(type == .image ? "photo" : "movie")") }
            return capture.pixelSize
        }
        guard let asset else { throw PickerError(.notFound, "\(item) is not selected") }
        guard (asset.mediaType == .image) == (type == .image) else {
            throw PickerError(.invalidArgument, "\(asset.originalFilename) is not a \(type == .image ? "photo" : "movie")")
        }
        return PixelSize(width: asset.pixelWidth, height: asset.pixelHeight)
    }

    private func itemDuration(_ item: String) throws(PickerError) -> Double {
        _ = try itemPixelSize(item, expecting: .movie)
        let (asset, capture) = state.withLock { ($0.selectedAssets[item], $0.captures[item]) }
        return capture?.duration ?? asset?.duration ?? 0
    }

    // MARK: Finishing

    /// Choose: delivers the selection and finishes the session with it.
    ///
    /// - Returns: `.picked` with one info per selected item.
    /// - Throws: ``PickerError/Code/selectionTooSmall`` below the minimum count;
    ///   ``PickerError/Code/deliveryFailed`` when an item cannot be delivered (the session stays
    ///   open: the user may try again or cancel); ``PickerError/Code/finished``.
    @discardableResult
    public func confirm() async throws(PickerError) -> PickerResult {
        let minimum = request.configuration.minimumSelectionCount
        let edits = try state.withLock { (state: inout State) throws(PickerError) -> [String: PickerEdit] in
            try Self.requireActive(state)
            guard !state.isDelivering else { throw PickerError(.invalidState, "the picks are being delivered already") }
            guard state.selection.count >= max(minimum, 0) else {
                throw PickerError(.selectionTooSmall, "pick at least \(minimum) item\(minimum == 1 ? "" : "s") (\(state.selection.count) selected)")
            }
            state.isDelivering = true
            return state.edits
        }
        do {
            let infos = try await delivery.deliver(orderedItems(), edits: edits) { [weak self] fraction in self?.emit(.progress(fraction)) }
            if let client = request.clientIdentifier, let library {
                await library.logPickerDelivery(of: infos.compactMap(\.asset?.localIdentifier), to: client)
            }
            let result = PickerResult.picked(infos)
            await finish(result)
            return result
        } catch {
            state.withLock { $0.isDelivering = false }
            throw error
        }
    }

    /// Cancel: finishes the session with `.cancelled` (with custom camera controls, pictures
    /// already delivered stay delivered).
    public func cancel() async {
        await finish(.cancelled)
    }

    /// Ends a session whose items were delivered one by one (custom camera controls, continuous
    /// selection): `.picked` with what was delivered, or `.cancelled` when nothing was.
    public func dismiss() async {
        if request.configuration.selection == .continuous, !state.withLock({ $0.selection.isEmpty }) {
            if (try? await confirm()) != nil { return }
        }
        let delivered = state.withLock { $0.delivered }
        await finish(delivered.isEmpty ? .cancelled : .picked(delivered))
    }

    func finish(_ result: PickerResult) async {
        let (waiters, captureWaiters, first) = state.withLock { state in
            guard state.result == nil else { return ([CheckedContinuation<PickerResult, Never>](), [CheckedContinuation<CapturedMedia, any Error>](), false) }
            state.result = result
            defer {
                state.waiters.removeAll()
                state.captureWaiters.removeAll()
            }
            return (state.waiters, Array(state.captureWaiters.values), true)
        }
        guard first else { return }
        finishing.notify()
        await camera?.stop()
        for waiter in captureWaiters { waiter.resume(throwing: PickerError(.finished, "the picker has finished")) }
        listeners.finish(after: .finished(result))
        for waiter in waiters { waiter.resume(returning: result) }
        // Captures that were not delivered are the user's discarded shots: remove them.
        let kept = Set(result.infos.flatMap { [$0.imageURL, $0.mediaURL, $0.editedImageURL].compactMap { $0?.standardizedFileURL.path } })
        let discarded = state.withLock { Array($0.captures.values) }.map(\.fileURL).filter { !kept.contains($0.standardizedFileURL.path) }
        var removals = discarded
        if case .cancelled = result, state.withLock({ $0.delivered.isEmpty }) { removals.append(folder) }
        await BlockingPool.shared.run { [removals] in
            for url in removals { try? FileManager.default.removeItem(at: url) }
        }
    }

    /// The selected items in the order results take: selection order for `.ordered`, else the
    /// grid's (assets by creation date, then captures in the order taken).
    func orderedItems() -> [PickerDelivery.Item] {
        let (selection, assets, captures) = state.withLock { ($0.selection, $0.selectedAssets, $0.captures) }
        var items: [PickerDelivery.Item] = selection.compactMap { id in
            if let capture = captures[id] { return .capture(capture) }
            return assets[id].map { .asset($0) }
        }
        if request.configuration.selection != .ordered {
            let position = Dictionary(uniqueKeysWithValues: selection.enumerated().map { ($1, $0) })
            items.sort { left, right in
                switch (left, right) {
                case (.asset(let a), .asset(let b)):
                    return (a.creationDate, a.localIdentifier) < (b.creationDate, b.localIdentifier)
                case (.asset, .capture): return true
                case (.capture, .asset): return false
                case (.capture(let a), .capture(let b)): return position[a.id]! < position[b.id]!
                }
            }
        }
        return items
    }
}
