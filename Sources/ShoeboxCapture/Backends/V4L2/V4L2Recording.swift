import Foundation
import ShoeboxImaging
import Synchronization

/// A device's answers, kept as data: what ``V4L2Replay`` plays back in tests, and what
/// ``record(from:framesPerFormat:)`` writes down from a real device (`shoebox devices
/// --record-v4l2 /dev/video0`).
struct V4L2Recording: Codable, Sendable {
    struct Size: Codable, Sendable, Hashable {
        var width: UInt32
        var height: UInt32
        /// Frame intervals as [numerator, denominator] seconds.
        var intervals: [[UInt32]]
    }

    struct Format: Codable, Sendable, Hashable {
        /// `MJPG` or `YUYV`.
        var fourcc: String
        var sizes: [Size]
    }

    var card: String
    var bus: String
    var capabilities: UInt32
    var formats: [Format]
    var controls: [V4L2Control]
    /// Recorded frames per "FOURCC WxH", cycled during playback.
    var frames: [String: [Data]]
    /// After this many frames the device answers ENODEV, as an unplugged one does.
    var unplugAfterFrames: Int?

    static func frameKey(fourcc: UInt32, width: UInt32, height: UInt32) -> String {
        "\(FourCC.text(fourcc)) \(width)x\(height)"
    }

    /// The controls Shoebox uses (``V4L2Camera/knownControls``).
    static let knownControls = V4L2Camera.knownControls

    /// Writes down a device's answers: capabilities, every format, size and interval, the
    /// controls Shoebox uses, and `framesPerFormat` frames at each format's largest size.
    static func record(from device: any V4L2Interface, framesPerFormat: Int = 3) -> Result<V4L2Recording, V4L2Error> {
        guard case .success(let capabilities) = device.queryCapabilities() else { return .failure(.invalid) }
        var recording = V4L2Recording(
            card: capabilities.card, bus: capabilities.bus, capabilities: capabilities.capabilities,
            formats: [], controls: [], frames: [:], unplugAfterFrames: nil)
        var index: UInt32 = 0
        while case .success(let fourcc) = device.enumerateFormat(index: index) {
            var sizes: [Size] = []
            var sizeIndex: UInt32 = 0
            while case .success(let size) = device.enumerateSize(fourcc: fourcc, index: sizeIndex) {
                var intervals: [[UInt32]] = []
                var intervalIndex: UInt32 = 0
                while case .success(let interval) = device.enumerateInterval(fourcc: fourcc, width: size.width, height: size.height, index: intervalIndex) {
                    intervals.append([interval.numerator, interval.denominator])
                    intervalIndex += 1
                }
                sizes.append(Size(width: size.width, height: size.height, intervals: intervals))
                sizeIndex += 1
            }
            recording.formats.append(Format(fourcc: FourCC.text(fourcc), sizes: sizes))
            if let largest = sizes.max(by: { $0.width * $0.height < $1.width * $1.height }),
                case .success(let set) = device.setFormat(fourcc: fourcc, width: largest.width, height: largest.height),
                case .success = device.startStreaming(buffers: 4)
            {
                var frames: [Data] = []
                while frames.count < framesPerFormat, case .success(let frame) = device.nextFrame(timeoutMilliseconds: 2_000) {
                    frames.append(frame)
                }
                device.stopStreaming()
                recording.frames[frameKey(fourcc: fourcc, width: set.width, height: set.height)] = frames
            }
            index += 1
        }
        recording.controls = knownControls.compactMap { try? device.queryControl(id: $0).get() }
        return .success(recording)
    }
}

/// Plays a ``V4L2Recording`` back through the seam, as the device answered.
final class V4L2Replay: V4L2Interface {
    let recording: V4L2Recording
    private struct State {
        var format: (fourcc: UInt32, width: UInt32, height: UInt32)?
        var streaming = false
        var delivered = 0
        var controlWrites: [(id: UInt32, value: Int32)] = []
        var interval: (UInt32, UInt32) = (1, 30)
        var lastFrame: ContinuousClock.Instant?
        /// Another program streams from the "device": formats and streaming answer EBUSY.
        var heldByAnotherClient = false
        /// How many times it answered EBUSY.
        var busyAnswers = 0
    }
    private let state = Mutex(State())
    /// Who listens to ``busyAnswerUpdates``; told under the state lock, so in order.
    private let busyListeners = EventFanOut<Int>()

    /// How many times the "device" answered EBUSY, now and at each answer: a test measures a
    /// window in the session's tries to open it, not in time.
    var busyAnswerUpdates: AsyncStream<Int> {
        state.withLock { state in busyListeners.subscribe(replaying: [state.busyAnswers]) }
    }

    /// Counts an EBUSY answer (under the state lock) and returns it.
    private func answerBusy(_ state: inout State) -> V4L2Error {
        state.busyAnswers += 1
        busyListeners.yield(state.busyAnswers)
        return .busy
    }

    init(_ recording: V4L2Recording) {
        self.recording = recording
    }

    /// The control writes the backend made, in order.
    var controlWrites: [(id: UInt32, value: Int32)] { state.withLock { $0.controlWrites } }
    /// The frame interval last set (`VIDIOC_S_PARM`), as numerator and denominator of seconds.
    var frameInterval: (numerator: UInt32, denominator: UInt32) { state.withLock { $0.interval } }

    /// Plays another program taking the camera (`true`) or letting it go: while it holds it,
    /// setting a format and starting to stream answer EBUSY, as a device streaming to another
    /// file handle does. A stream already running goes on.
    func setHeldByAnotherClient(_ held: Bool) {
        state.withLock { $0.heldByAnotherClient = held }
    }

    private var unplugged: Bool {
        state.withLock { state in recording.unplugAfterFrames.map { state.delivered >= $0 } ?? false }
    }

    func queryCapabilities() -> Result<(card: String, bus: String, capabilities: UInt32), V4L2Error> {
        unplugged ? .failure(.noDevice) : .success((recording.card, recording.bus, recording.capabilities))
    }

    func enumerateFormat(index: UInt32) -> Result<UInt32, V4L2Error> {
        Int(index) < recording.formats.count ? .success(FourCC.code(recording.formats[Int(index)].fourcc)) : .failure(.invalid)
    }

    private func format(_ fourcc: UInt32) -> V4L2Recording.Format? {
        recording.formats.first { FourCC.code($0.fourcc) == fourcc }
    }

    func enumerateSize(fourcc: UInt32, index: UInt32) -> Result<(width: UInt32, height: UInt32), V4L2Error> {
        guard let sizes = format(fourcc)?.sizes, Int(index) < sizes.count else { return .failure(.invalid) }
        return .success((sizes[Int(index)].width, sizes[Int(index)].height))
    }

    func enumerateInterval(fourcc: UInt32, width: UInt32, height: UInt32, index: UInt32) -> Result<(numerator: UInt32, denominator: UInt32), V4L2Error> {
        guard let size = format(fourcc)?.sizes.first(where: { $0.width == width && $0.height == height }),
            Int(index) < size.intervals.count, size.intervals[Int(index)].count == 2
        else { return .failure(.invalid) }
        return .success((size.intervals[Int(index)][0], size.intervals[Int(index)][1]))
    }

    func queryControl(id: UInt32) -> Result<V4L2Control, V4L2Error> {
        recording.controls.first { $0.id == id }.map { .success($0) } ?? .failure(.invalid)
    }

    func setControl(id: UInt32, value: Int32) -> Result<Void, V4L2Error> {
        if unplugged { return .failure(.noDevice) }
        guard let control = recording.controls.first(where: { $0.id == id }) else { return .failure(.invalid) }
        guard (control.minimum...control.maximum).contains(value) else { return .failure(V4L2Error(errno: ERANGE)) }
        state.withLock { $0.controlWrites.append((id, value)) }
        return .success(())
    }

    func setFormat(fourcc: UInt32, width: UInt32, height: UInt32) -> Result<(width: UInt32, height: UInt32), V4L2Error> {
        if let busy = state.withLock({ $0.heldByAnotherClient ? answerBusy(&$0) : nil }) { return .failure(busy) }
        guard format(fourcc)?.sizes.contains(where: { $0.width == width && $0.height == height }) == true else { return .failure(.invalid) }
        state.withLock { $0.format = (fourcc, width, height) }
        return .success((width, height))
    }

    func setFrameInterval(numerator: UInt32, denominator: UInt32) -> Result<Void, V4L2Error> {
        guard numerator > 0, denominator > 0 else { return .failure(.invalid) }
        state.withLock { $0.interval = (numerator, denominator) }
        return .success(())
    }

    func startStreaming(buffers: UInt32) -> Result<Void, V4L2Error> {
        state.withLock { state -> Result<Void, V4L2Error> in
            if state.heldByAnotherClient { return .failure(answerBusy(&state)) }
            guard let format = state.format,
                recording.frames[V4L2Recording.frameKey(fourcc: format.fourcc, width: format.width, height: format.height)]?.isEmpty == false
            else { return .failure(.invalid) }
            state.streaming = true
            return .success(())
        }
    }

    /// The next recorded frame, no sooner than one frame interval after the last.
    func nextFrame(timeoutMilliseconds: Int32) -> Result<Data, V4L2Error> {
        state.withLock { state -> Result<Data, V4L2Error> in
            if let limit = recording.unplugAfterFrames, state.delivered >= limit { return .failure(.noDevice) }
            guard state.streaming, let format = state.format,
                let frames = recording.frames[V4L2Recording.frameKey(fourcc: format.fourcc, width: format.width, height: format.height)]
            else { return .failure(.invalid) }
            let now = ContinuousClock.now
            let interval = Duration.seconds(Double(state.interval.0) / Double(state.interval.1))
            if let last = state.lastFrame, now - last < interval { return .failure(.timedOut) }
            state.lastFrame = now
            defer { state.delivered += 1 }
            return .success(frames[state.delivered % frames.count])
        }
    }

    func stopStreaming() {
        state.withLock { $0.streaming = false }
    }

    /// Nothing to release: the recording stays (the backend opens the "device" for each
    /// control change as it would a file, and the stream must survive that).
    func close() {}
}

extension CaptureDevice {
    /// Records a V4L2 device's answers — capabilities, formats, sizes, frame intervals, the
    /// controls Shoebox uses, and a few frames per format — as JSON, for the backend's tests to
    /// replay (`shoebox devices --record-v4l2 /dev/video0`).
    ///
    /// - Throws: ``CaptureError/Code/deviceUnavailable`` when the device cannot be opened or
    ///   queried.
    public static func recordV4L2Answers(devicePath: String, framesPerFormat: Int = 3) throws(CaptureError) -> Data {
        let device: V4L2DeviceFile
        do {
            device = try V4L2DeviceFile(path: devicePath)
        } catch {
            throw .deviceUnavailable("cannot open \(devicePath): \(error.message)")
        }
        defer { device.close() }
        switch V4L2Recording.record(from: device, framesPerFormat: framesPerFormat) {
        case .success(let recording):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                return try encoder.encode(recording)
            } catch {
                throw .captureFailed("cannot encode the recording: \(error)", underlying: error)
            }
        case .failure(let error):
            throw .deviceUnavailable("\(devicePath) does not answer as a V4L2 camera: \(error.message)")
        }
    }
}
