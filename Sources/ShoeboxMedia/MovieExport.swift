import Foundation

/// A running trim or transcode: an `AsyncSequence` of progress events ending with the result.
///
/// Iterating starts `ffmpeg`; the sequence yields ``Event/progress(_:)`` as ffmpeg reports it and
/// ends with ``Event/finished(_:)``. Cancelling the iterating task (or dropping the iterator)
/// stops ffmpeg and removes the partial output, moments later, in the background;
/// ``run(progress:)`` does the same before it returns. A failure also leaves nothing behind. Output is
/// written to a hidden temporary file beside the destination and renamed into place at the end.
///
/// ```swift
/// for try await event in movie.transcoding(to: output, quality: .typeMedium) {
///     switch event {
///     case .progress(let progress): print("\(Int(progress.fractionCompleted * 100)) %")
///     case .finished(let result): print("wrote \(result.info.pixelSize)")
///     }
/// }
/// ```
public struct MovieExport: AsyncSequence, Sendable {
    /// Each step of the export: progress reports, then the result.
    public typealias Element = Event

    /// One step of an export.
    public enum Event: Sendable {
        /// How far ffmpeg has got, as often as it reports it, before
        /// ``MovieExport/Event/finished(_:)``.
        case progress(Progress)
        /// The movie is written and in place: the last event (a failure throws from the iterator
        /// instead).
        case finished(Result)
    }

    /// How far ffmpeg has got.
    public struct Progress: Sendable, Hashable {
        /// Seconds of output written.
        public let processedSeconds: Double
        /// Seconds of output expected.
        public let totalSeconds: Double
        /// `processedSeconds / totalSeconds`, 0…1.
        public var fractionCompleted: Double {
            totalSeconds > 0 ? Swift.min(1, Swift.max(0, processedSeconds / totalSeconds)) : 0
        }
    }

    /// A finished export.
    public struct Result: Sendable {
        /// Where the movie was written.
        public let url: URL
        /// The written movie, probed.
        public let info: MovieInfo
        /// Whether the streams were copied (no re-encoding).
        public let usedStreamCopy: Bool
    }

    let plan: @Sendable () async throws(MediaError) -> FFmpegJob

    init(plan: @escaping @Sendable () async throws(MediaError) -> FFmpegJob) {
        self.plan = plan
    }

    /// Starts the export (ffmpeg runs from now on) and returns its events; the iterator throws a
    /// ``MediaError`` when the export fails, and dropping it cancels the export.
    public func makeAsyncIterator() -> AsyncThrowingStream<Event, any Error>.Iterator {
        let plan = self.plan
        let stream = AsyncThrowingStream<Event, any Error> { continuation in
            let task = Task {
                do {
                    let job = try await plan()
                    let result = try await job.run { continuation.yield(.progress($0)) }
                    continuation.yield(.finished(result))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
        return stream.makeAsyncIterator()
    }

    /// Runs the export to the end in the calling task, reporting progress to `progress`.
    ///
    /// Unlike iterating, this is structured: when the task is cancelled, ffmpeg is killed and the
    /// partial output removed before this returns.
    ///
    /// - Returns: The written movie.
    /// - Throws: ``MediaError``; ``MediaError/Code/cancelled`` when the task is cancelled.
    @discardableResult
    public func run(progress: @Sendable (Progress) -> Void = { _ in }) async throws(MediaError) -> Result {
        let job = try await plan()
        return try await job.run(progress: progress)
    }
}
