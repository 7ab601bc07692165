import Synchronization

/// Frames as they come, as an `AsyncSequence` (`AVCaptureVideoDataOutput`): the live preview.
///
/// ```swift
/// let preview = VideoDataOutput()
/// try session.addOutput(preview)
/// for await frame in preview.frames { show(frame.image) }
/// ```
///
/// With ``alwaysDiscardsLateVideoFrames`` (the default), a reader that falls behind gets the
/// newest frame, not a backlog: late frames are dropped and counted.
public final class VideoDataOutput: CaptureOutput, @unchecked Sendable {
    private struct State {
        var discardsLate = true
        var readers: [Int: AsyncStream<CaptureFrame>.Continuation] = [:]
        var nextReader = 0
        var delivered = 0
        var dropped = 0
    }

    private let state = Mutex(State())

    /// An output whose ``frames`` sequences get frames once it is in a running session.
    public override init() {}

    /// Drop frames a reader has not taken before the next one arrives (default true).
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { state.withLock { $0.discardsLate } }
        set { state.withLock { $0.discardsLate = newValue } }
    }

    /// Frames handed to readers so far.
    public var deliveredFrameCount: Int { state.withLock { $0.delivered } }
    /// Frames dropped because a reader was late.
    public var droppedFrameCount: Int { state.withLock { $0.dropped } }

    /// A new sequence of frames from now on; it ends when the session stops.
    public var frames: AsyncStream<CaptureFrame> {
        let discards = alwaysDiscardsLateVideoFrames
        let (stream, continuation) = AsyncStream<CaptureFrame>.makeStream(bufferingPolicy: discards ? .bufferingNewest(1) : .unbounded)
        let id = state.withLock { state -> Int in
            state.nextReader += 1
            state.readers[state.nextReader] = continuation
            return state.nextReader
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.readers.removeValue(forKey: id) }
        }
        return stream
    }

    override func receive(_ frame: CaptureFrame, from device: CaptureDevice) async {
        let readers = state.withLock { Array($0.readers.values) }
        var delivered = 0
        var dropped = 0
        for reader in readers {
            switch reader.yield(frame) {
            case .enqueued: delivered += 1
            case .dropped:
                dropped += 1
                delivered += 1
            case .terminated: break
            @unknown default: break
            }
        }
        state.withLock { state in
            state.delivered += delivered
            state.dropped += dropped
        }
    }

    override func sessionDidStop() async { finishReaders() }
    override func sessionDidFail(_ error: CaptureError) { finishReaders() }

    private func finishReaders() {
        let readers = state.withLock { state in
            defer { state.readers.removeAll() }
            return Array(state.readers.values)
        }
        readers.forEach { $0.finish() }
    }
}
