import ShoeboxImaging
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
        var delivered = 0
        var dropped = 0
    }

    private let state = Mutex(State())
    private let readers = EventFanOut<CaptureFrame>()

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
        readers.subscribe(bufferingPolicy: alwaysDiscardsLateVideoFrames ? .bufferingNewest(1) : .unbounded)
    }

    override func receive(_ frame: CaptureFrame, from device: CaptureDevice) async {
        let (delivered, dropped) = readers.yield(frame)
        state.withLock { state in
            state.delivered += delivered
            state.dropped += dropped
        }
    }

    override func sessionDidStop() async { readers.endSubscriptions() }
    override func sessionDidFail(_ error: CaptureError) { readers.endSubscriptions() }
}
