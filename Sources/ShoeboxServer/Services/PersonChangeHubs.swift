import ServiceLifecycle
import ShoeboxLibrary
import Synchronization

/// The change hubs of the people other than the first admin (whose hub is the server's own,
/// ``ChangeHubService``): each is made when its person first listens for changes, and the server
/// runs them all as child tasks of this one service, so they stop with the server's other
/// services instead of outliving it as tasks of their own.
final class PersonChangeHubs: Service, Sendable {
    private struct State {
        var hubs: [Int64: ChangeHub] = [:]
        /// Where a hub made while the service runs goes to be run; `nil` while it does not.
        var running: AsyncStream<ChangeHub>.Continuation?
    }

    private let library: PhotoLibrary
    private let state = Mutex(State())

    /// - Parameter library: The server's library (the first admin's view); each person's hub
    ///   reads that person's view of it.
    init(library: PhotoLibrary) {
        self.library = library
    }

    /// `person`'s hub, made (and run, if the service is running) the first time it is asked for.
    func hub(for person: Person) -> ChangeHub {
        state.withLock { state in
            if let hub = state.hubs[person.rowID] { return hub }
            let hub = ChangeHub(library: library.forPerson(person))
            state.hubs[person.rowID] = hub
            state.running?.yield(hub)
            return hub
        }
    }

    /// Runs every hub, those made before and those made meanwhile, until the server stops
    /// (gracefully or by cancellation).
    func run() async throws {
        let (added, continuation) = AsyncStream.makeStream(of: ChangeHub.self)
        let made = state.withLock { state in
            state.running = continuation
            return Array(state.hubs.values)
        }
        for hub in made { continuation.yield(hub) }
        defer {
            state.withLock { $0.running = nil }
            continuation.finish()
        }
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for await hub in added { group.addTask { await hub.run() } }
            }
        }
    }
}
