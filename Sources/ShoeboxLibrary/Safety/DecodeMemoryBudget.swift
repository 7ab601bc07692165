import Foundation
import ShoeboxImaging
import Synchronization

/// The memory this process lets decodes of photos take at once: every decode first reserves
/// what ``ShoeboxImaging/Image/decodingMemory(for:)`` estimates from the header, waits while
/// the budget has no room for it, and gives it back when done.
///
/// Imports and uploads (the decode that proves a file whole), thumbnails and previews (made on
/// import, by background jobs and by `shoebox serve`'s thumbnail routes) and edit renders all go
/// through ``shared``, so ten uploads of 99-megapixel PNGs and a client's flood of thumbnails of
/// 8192 × 8192 HEICs hold the process's memory to about the budget, whatever else is running.
///
/// Waiting is first come, first served: a large decode is not overtaken forever by small ones.
/// A decode larger than the whole budget waits until nothing else is decoding and then runs
/// alone (the budget cannot make it smaller). Waiting suspends the task — no thread and no
/// event loop is held — and a cancelled task leaves the queue.
///
/// The budget counts what decodes are expected to hold; for the process to give that memory back
/// when they end, call ``ShoeboxImaging/Image/configureAllocatorForDecoding()`` once at start
/// (glibc otherwise keeps much of it).
///
/// ```swift
/// DecodeMemoryBudget.shared.capacity = 512 << 20   // `shoebox serve --decode-memory 512`
/// let image = try Image(contentsOf: url)          // the header only
/// let thumbnail = try await DecodeMemoryBudget.shared.withReservation(of: image.decodingMemory(for: .thumbnail(PixelSize(square: 256)))) {
///     try image.thumbnail(targetSize: PixelSize(square: 256))
/// }
/// ```
public final class DecodeMemoryBudget: Sendable {
    /// The budget every decode of this process reserves from.
    public static let shared = DecodeMemoryBudget()

    /// 256 MiB: with `shoebox serve`'s own ~80–130 MB, a server stays under 400 MB resident
    /// while any number of uploads, renders and jobs decode (BENCHMARKS.md, `upload-memory`),
    /// unless one decode alone is larger.
    public static let defaultCapacity = 256 << 20

    private struct Waiter {
        let id: UInt64
        let bytes: Int
        let continuation: CheckedContinuation<Int, any Error>
    }

    private struct State {
        var capacity: Int
        var reserved = 0
        var peak = 0
        var queue: [Waiter] = []
        var nextID: UInt64 = 0

        /// What a reservation of `bytes` takes: all of it, or the whole budget when it is larger.
        func grant(_ bytes: Int) -> Int { Swift.min(bytes, capacity) }

        /// Takes the waiters at the head of the queue that now fit, in order.
        mutating func admit() -> [(CheckedContinuation<Int, any Error>, Int)] {
            var admitted: [(CheckedContinuation<Int, any Error>, Int)] = []
            while let head = queue.first, reserved + grant(head.bytes) <= capacity {
                queue.removeFirst()
                let granted = grant(head.bytes)
                reserved += granted
                peak = Swift.max(peak, reserved)
                admitted.append((head.continuation, granted))
            }
            return admitted
        }
    }

    private let state: Mutex<State>
    /// Who listens to ``waitingUpdates``; told under the state lock, so in order.
    private let waitingListeners = EventFanOut<Int>()

    /// A budget of `capacity` bytes (at least one).
    public init(capacity: Int = DecodeMemoryBudget.defaultCapacity) {
        state = Mutex(State(capacity: Swift.max(1, capacity)))
    }

    /// The bytes decodes may hold at once (at least one). Raising it lets waiting decodes start
    /// at once; lowering it holds new ones until enough is given back.
    public var capacity: Int {
        get { state.withLock { $0.capacity } }
        set {
            let admitted = state.withLock { state in
                state.capacity = Swift.max(1, newValue)
                defer { report(state) }
                return state.admit()
            }
            for (continuation, granted) in admitted { continuation.resume(returning: granted) }
        }
    }

    /// The bytes reserved now.
    public var reserved: Int { state.withLock { $0.reserved } }

    /// The most bytes reserved at once since this budget was made (or ``resetPeak()``).
    public var peakReserved: Int { state.withLock { $0.peak } }

    /// How many decodes wait for room now.
    public var waiting: Int { state.withLock { $0.queue.count } }

    /// ``waiting`` now, then again at each change, until the stream is dropped: for a test (or a
    /// status display) to await the queue's state instead of polling it.
    var waitingUpdates: AsyncStream<Int> {
        state.withLock { state in waitingListeners.subscribe(replaying: [state.queue.count]) }
    }

    /// Tells ``waitingUpdates``' listeners, if there are any, the count in `state`.
    private func report(_ state: State) {
        if waitingListeners.hasSubscribers { waitingListeners.yield(state.queue.count) }
    }

    /// Starts counting ``peakReserved`` again from what is reserved now.
    public func resetPeak() {
        state.withLock { $0.peak = $0.reserved }
    }

    /// Runs `body` holding `bytes` of the budget (the whole budget when `bytes` is larger),
    /// after the decodes that asked before it have started and once there is room.
    ///
    /// - Parameters:
    ///   - bytes: What the decode is expected to hold at its peak; zero or less runs at once.
    ///   - body: The decode. Blocking work belongs on a thread pool, not here.
    /// - Throws: `CancellationError` when the task is cancelled while waiting (nothing is held
    ///   then); whatever `body` throws.
    public func withReservation<T: Sendable>(of bytes: Int, _ body: () async throws -> T) async throws -> T {
        let granted = try await reserve(bytes)
        defer { release(granted) }
        return try await body()
    }

    /// Waits for room for `bytes` and takes it; returns what was taken.
    func reserve(_ bytes: Int) async throws -> Int {
        guard bytes > 0 else { return 0 }
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
                let granted = state.withLock { state -> Int? in
                    let granted = state.grant(bytes)
                    if state.queue.isEmpty, state.reserved + granted <= state.capacity {
                        state.reserved += granted
                        state.peak = Swift.max(state.peak, state.reserved)
                        return granted
                    }
                    state.queue.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                    report(state)
                    return nil
                }
                if let granted { continuation.resume(returning: granted) }
            }
        } onCancel: {
            let (cancelled, admitted) = state.withLock { state -> (Waiter?, [(CheckedContinuation<Int, any Error>, Int)]) in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return (nil, []) }
                let waiter = state.queue.remove(at: index)
                // The head may have been what held the ones behind it.
                defer { report(state) }
                return (waiter, state.admit())
            }
            cancelled?.continuation.resume(throwing: CancellationError())
            for (continuation, granted) in admitted { continuation.resume(returning: granted) }
        }
    }

    /// Gives back what ``reserve(_:)`` took, and starts the waiters that now fit.
    func release(_ granted: Int) {
        guard granted > 0 else { return }
        let admitted = state.withLock { state in
            state.reserved -= granted
            defer { report(state) }
            return state.admit()
        }
        for (continuation, granted) in admitted { continuation.resume(returning: granted) }
    }
}
