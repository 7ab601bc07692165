import Foundation
import ShoeboxImaging
import ShoeboxMedia
import Synchronization

/// Records the session to a movie file (`AVCaptureMovieFileOutput`): H.264 in MP4, with AAC sound
/// when the session has a microphone input.
///
/// ```swift
/// let movies = MovieFileOutput()
/// movies.maxRecordedDuration = 10
/// try session.addOutput(movies)
/// try await session.startRunning()
/// try movies.startRecording(to: URL(fileURLWithPath: "clip.mp4"))
/// try await Task.sleep(for: .seconds(3))
/// let recording = await movies.stopRecording()
/// print(recording?.info.duration ?? 0, recording?.reason as Any)
/// ```
///
/// The file appears only when the recording finishes (it is written under a hidden temporary
/// name and renamed), so a crash leaves no half movie.
public final class MovieFileOutput: CaptureOutput, @unchecked Sendable {
    /// Why a recording ended.
    public enum FinishReason: String, Sendable, Hashable {
        /// ``MovieFileOutput/stopRecording()`` was called.
        case stopped
        /// The recording reached ``MovieFileOutput/maxRecordedDuration``
        /// (`AVError.Code.maximumDurationReached`).
        case maximumDurationReached
        /// The movie reached ``MovieFileOutput/maxRecordedFileSize``, as estimated while it is
        /// written (`AVError.Code.maximumFileSizeReached`).
        case maximumFileSizeReached
        /// The session stopped running (``CaptureSession/stopRunning()``); the movie lasts until
        /// the stop.
        case sessionStopped
        /// The session failed, or was interrupted (a device it needs taken by another session or
        /// program), or a frame could not be recorded; ``MovieFileOutput/Recording/error`` says
        /// which.
        case deviceFailed
        /// The movie could not be written (ffmpeg missing or failing, the folder not writable).
        case writeFailed
    }

    /// A finished recording (the delegate's `didFinishRecordingTo` in one value).
    public struct Recording: Sendable {
        /// Where the movie was written (or was to be, when writing failed).
        public let url: URL
        /// Why the recording ended: stopped, a limit reached, the session stopped, a failure.
        public let reason: FinishReason
        /// The written movie, probed; `nil` when writing failed (see ``error``).
        public let info: MovieInfo?
        /// What went wrong (the device failing or taken by another session, the movie not written);
        /// `nil` when the recording ended without trouble.
        public let error: CaptureError?
        /// Frames whose pixels were not kept because the encoder fell behind (the previous frame
        /// is repeated in their place, so the movie keeps its length).
        public let droppedFrames: Int
    }

    /// What happened to recordings.
    public enum Event: Sendable {
        /// Recording to this file began: the first frame after
        /// ``MovieFileOutput/startRecording(to:)`` is in the movie (the delegate's
        /// `didStartRecordingTo`), so a stop from now on finishes a movie with a picture.
        case started(URL)
        /// A recording ended, for any ``MovieFileOutput/FinishReason`` (the delegate's
        /// `didFinishRecordingTo`); a start that fails with
        /// ``MovieFileOutput/FinishReason/writeFailed`` sends only this.
        case finished(Recording)
    }

    private struct State {
        var writer: MovieWriter?
        var audio: MovieWriter.Audio?
        var url: URL?
        var maxDuration: Double?
        var maxFileSize: Int?
        var finishing: Task<Recording?, Never>?
        /// The first recorded frame's time stamp: frames are placed by time, so a camera that
        /// falls behind makes repeated frames, not a shorter movie.
        var firstTimestamp: Double?
        /// When the first recorded frame was made: a stopped recording lasts until the stop.
        var firstCapturedAt: ContinuousClock.Instant?
        /// The session's clock, from the start: the stop is timed on it too.
        var clock = ErasedClock.continuous
        var pendingStart: URL?
        /// When `startRecording` was called: the movie begins then, not when the next frame
        /// happens to arrive (on a busy machine that can be a good part of a second later).
        var requestedAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let listeners = EventFanOut<Event>()

    /// An output that records only when asked: add it to a session, then call
    /// ``startRecording(to:)`` while the session runs.
    public override init() {}

    /// Stop by itself after this many seconds (`maxRecordedDuration`).
    public var maxRecordedDuration: Double? {
        get { state.withLock { $0.maxDuration } }
        set { state.withLock { $0.maxDuration = newValue } }
    }

    /// Stop by itself once the movie would pass this many bytes (estimated from the encoder's
    /// output so far; `maxRecordedFileSize`).
    public var maxRecordedFileSize: Int? {
        get { state.withLock { $0.maxFileSize } }
        set { state.withLock { $0.maxFileSize = newValue } }
    }

    /// Whether a recording is under way: from ``startRecording(to:)`` (before its first frame too)
    /// until it stops.
    public var isRecording: Bool { state.withLock { $0.writer != nil || $0.pendingStart != nil } }
    /// Seconds recorded so far.
    public var recordedDuration: Double { state.withLock { $0.writer?.duration ?? 0 } }

    /// Recording events from now on.
    public var events: AsyncStream<Event> { listeners.subscribe() }

    /// Starts recording to `url` (an `.mp4` or `.mov` path).
    ///
    /// The movie begins now: its first picture is the next frame the camera delivers, shown from
    /// this moment on, so a recording stopped after two seconds lasts two seconds even when the
    /// camera was slow to deliver.
    ///
    /// - Throws: ``CaptureError/Code/notRunning`` when the session is not running;
    ///   ``CaptureError/Code/invalidArgument`` when already recording, or for another extension.
    public func startRecording(to url: URL) async throws(CaptureError) {
        guard let session, session.isRunning else { throw .notRunning("recording needs a running session") }
        try await session.checkStillAuthorized()
        guard ["mp4", "mov", "m4v"].contains(url.pathExtension.lowercased()) else {
            throw .invalidArgument("recordings are MP4 (.mp4, .mov, .m4v), not .\(url.pathExtension)")
        }
        let audio: MovieWriter.Audio? = session.inputs.first { $0.device.mediaType == .audio }.map { input in
            input.device.movieAudio  // ALSA, PulseAudio, or the synthetic tone
        }
        try state.withLock { (state: inout State) throws(CaptureError) in
            guard state.writer == nil, state.pendingStart == nil else { throw .invalidArgument("already recording to \(state.url?.path ?? "a file")") }
            state.pendingStart = url
            state.clock = session.clock
            state.requestedAt = session.clock.now()
            state.audio = audio
        }
    }

    /// Stops recording and waits for the file to be finished.
    ///
    /// - Returns: The recording, or `nil` if none was in progress.
    @discardableResult
    public func stopRecording() async -> Recording? {
        await finish(reason: .stopped, error: nil)
    }

    override func receive(_ frame: CaptureFrame, from device: CaptureDevice) async {
        let (writer, started, failure) = startIfPending(frame)
        if let failure {
            emit(.finished(failure))
            return
        }
        guard let writer else { return }
        do {
            let source = frame.image
            let size = writer.frameSize
            let bitmap = try await BlockingPool.shared.run { () throws(ImageError) -> Bitmap in
                var image = source
                if image.pixelSize != size {
                    image = try image.thumbnail(targetSize: size, contentMode: .aspectFill, cropToFill: true)
                }
                return try image.bitmap()
            }
            let first = state.withLock { state -> Double in
                if state.firstTimestamp == nil {
                    // The timeline starts at the request: a first frame that comes late is shown
                    // from the start (a frozen first moment), so the movie is as long as asked.
                    let requested = state.requestedAt ?? frame.capturedAt
                    let lag = Swift.max(0, (frame.capturedAt - requested).seconds)
                    state.firstTimestamp = frame.timestamp - lag
                    state.firstCapturedAt = frame.capturedAt - .seconds(lag)
                }
                return state.firstTimestamp!
            }
            // Place the frame by its time: copies fill a gap left by late frames, and a frame that
            // comes early (a camera catching up) is skipped.
            let due = Int(((frame.timestamp - first) * writer.frameRate).rounded()) + 1
            // Frames the movie has (a dropped frame is still there: the last one repeated).
            let appended = writer.frameCounts.appended
            for _ in 0..<Swift.max(0, due - appended) {
                try writer.append(bitmap)
            }
        } catch {
            _ = await finish(reason: .deviceFailed, error: .captureFailed("cannot record a frame: \(error)", underlying: error))
            return
        }
        // Started once the first frame is in the movie: a stop from then on finishes a movie
        // with a picture in it.
        if let started { emit(.started(started)) }
        let (maxDuration, maxSize) = state.withLock { ($0.maxDuration, $0.maxFileSize) }
        if let maxDuration, writer.duration >= maxDuration - 0.5 / writer.frameRate {
            _ = await finish(reason: .maximumDurationReached, error: nil)
        } else if let maxSize, estimatedSize(of: writer) >= maxSize {
            _ = await finish(reason: .maximumFileSizeReached, error: nil)
        }
    }

    /// The partial file's size so far (ffmpeg writes as it goes).
    private func estimatedSize(of writer: MovieWriter) -> Int {
        let folder = writer.url.deletingLastPathComponent()
        let prefix = ".\(writer.url.lastPathComponent).partial-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.compactMap {
            (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size]) as? Int
        }.max() ?? 0
    }

    /// Opens the writer for a pending start: the writer and the URL that started, or the
    /// recording that failed to start (it is over, with its error).
    private func startIfPending(_ frame: CaptureFrame) -> (MovieWriter?, URL?, Recording?) {
        state.withLock { state in
            if let writer = state.writer { return (writer, nil, nil) }
            guard let url = state.pendingStart else { return (nil, nil, nil) }
            state.pendingStart = nil
            // H.264 4:2:0 wants even sides.
            let size = PixelSize(width: frame.pixelSize.width & ~1, height: frame.pixelSize.height & ~1)
            let writer: MovieWriter
            do {
                writer = try MovieWriter(url: url, frameSize: size, frameRate: 30, audio: state.audio)
            } catch {
                state.requestedAt = nil
                return (
                    nil, nil,
                    Recording(
                        url: url, reason: .writeFailed, info: nil,
                        error: .captureFailed("cannot record to \(url.path): \((error as? MediaError)?.message ?? "\(error)")"), droppedFrames: 0)
                )
            }
            state.writer = writer
            state.url = url
            return (writer, url, nil)
        }
    }

    private func finish(reason: FinishReason, error: CaptureError?) async -> Recording? {
        let task = state.withLock { state -> Task<Recording?, Never>? in
            if let finishing = state.finishing { return finishing }
            guard let writer = state.writer, let url = state.url else {
                state.pendingStart = nil
                state.requestedAt = nil
                return nil
            }
            state.writer = nil
            state.firstTimestamp = nil
            // Stopped by the user or with the session: the movie lasts until now, even when the
            // last frames came late (a busy machine) or the stop fell between two frames.
            if reason == .stopped || reason == .sessionStopped, let first = state.firstCapturedAt {
                writer.extend(toDuration: (state.clock.now() - first).seconds)
            }
            state.firstCapturedAt = nil
            state.requestedAt = nil
            let task = Task<Recording?, Never> {
                do throws(MediaError) {
                    let info = try await writer.finish()
                    return Recording(url: url, reason: reason, info: info, error: error, droppedFrames: writer.frameCounts.dropped)
                } catch {
                    return Recording(url: url, reason: reason, info: nil, error: .captureFailed(error.message), droppedFrames: writer.frameCounts.dropped)
                }
            }
            state.finishing = task
            return task
        }
        guard let task else { return nil }
        let recording = await task.value
        state.withLock { $0.finishing = nil }
        if let recording { emit(.finished(recording)) }
        return recording
    }

    private func emit(_ event: Event) {
        listeners.yield(event)
    }

    override func sessionDidStop() async { _ = await finish(reason: .sessionStopped, error: nil) }
    override func sessionDidFail(_ error: CaptureError) {
        Task { _ = await finish(reason: .deviceFailed, error: error) }
    }
}
