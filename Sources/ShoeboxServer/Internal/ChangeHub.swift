import Foundation
import ShoeboxLibrary
import Synchronization

/// Watches the library's changes (from this process and others) once, and hands each to every
/// open event stream.
final class ChangeHub: Sendable {
    let library: PhotoLibrary
    private let listeners = Mutex<[UUID: AsyncStream<PhotoLibraryChange>.Continuation]>([:])

    init(library: PhotoLibrary) {
        self.library = library
    }

    /// Relays changes until cancelled.
    func run() async {
        while !Task.isCancelled {
            do {
                for try await change in try await library.changes(pollingEvery: .milliseconds(150)) {
                    for listener in listeners.withLock({ Array($0.values) }) { listener.yield(change) }
                }
            } catch {
                // The catalog could not be read for a moment: start watching again.
            }
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Changes from now on, until the stream is dropped.
    func subscribe() -> AsyncStream<PhotoLibraryChange> {
        let (stream, continuation) = AsyncStream<PhotoLibraryChange>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
        return stream
    }
}
