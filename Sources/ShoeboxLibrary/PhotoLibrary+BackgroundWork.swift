import Foundation

extension PhotoLibrary {
    /// How a library object does the work a change calls for after it commits: the standard
    /// derivatives of new and edited assets (the 256-pixel grid thumbnail, the 1024-pixel
    /// preview, a movie's poster and playback rendition). Chosen when the library is opened
    /// (``Configuration/backgroundWork``, ``PhotoLibrary/open(at:clientIdentifier:backgroundWork:)``)
    /// and kept by every object ``PhotoLibrary/forClient(_:prompter:)`` makes from it.
    ///
    /// ```swift
    /// let library = try await PhotoLibrary.open(at: url, backgroundWork: .queued)  // as `shoebox serve`
    /// let worker = JobWorker(library: library, options: .init(name: "my-app"))
    /// ```
    public enum BackgroundWork: String, Sendable, Hashable, CaseIterable {
        /// None after the change: each derivative is made when it is first asked for (tools that
        /// import and leave, benchmarks, tests).
        case onDemand
        /// In this process's tasks after each change, at most one per core
        /// (``PhotoLibrary/waitForBackgroundWork()`` waits for them). The default.
        case inProcess
        /// As jobs in the catalog's queue, written in the change's own transaction, for
        /// ``JobWorker``s in this process or in `shoebox worker` processes anywhere: an import
        /// stops at hashing, probing and committing.
        case queued
    }
}
