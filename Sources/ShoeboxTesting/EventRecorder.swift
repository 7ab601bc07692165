import Foundation
import Synchronization

/// Keeps what a stream or a callback reports, and lets a test await a condition on it: the test
/// wakes the moment the element that satisfies it arrives, with no polling loop and no sleep.
///
/// ```swift
/// let events = EventRecorder(session.events)
/// try await session.startRunning()
/// #expect(await events.first(2) == [.started, .wasInterrupted(.videoDeviceInUseByAnotherClient)])
/// ```
///
/// A delegate can feed one from its callbacks with ``append(_:)``. A condition not met within its
/// time limit answers `false` (or what there is), so a broken test fails instead of hanging.
public final class EventRecorder<Element: Sendable>: Sendable {
    private struct Waiter {
        let isSatisfied: @Sendable ([Element]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
        let timer: Task<Void, Never>
    }

    private struct State {
        var elements: [Element] = []
        var waiters: [UUID: Waiter] = [:]
    }

    private let state = Mutex(State())
    private let reader = Mutex<Task<Void, Never>?>(nil)

    /// An empty recorder, fed by ``append(_:)``.
    public init() {}

    /// Records every element of `stream` from now on, until the recorder goes away.
    public convenience init(_ stream: AsyncStream<Element>) {
        self.init()
        reader.withLock { $0 = Task { [weak self] in for await element in stream { self?.append(element) } } }
    }

    deinit {
        reader.withLock { $0?.cancel() }
    }

    /// Everything recorded so far, in order.
    public var elements: [Element] { state.withLock { $0.elements } }

    /// How many elements were recorded.
    public var count: Int { state.withLock { $0.elements.count } }

    /// Records `element` and wakes the waiters whose condition it meets.
    public func append(_ element: Element) {
        let satisfied = state.withLock { state -> [Waiter] in
            state.elements.append(element)
            let ready = state.waiters.filter { $0.value.isSatisfied(state.elements) }
            for key in ready.keys { state.waiters[key] = nil }
            return Array(ready.values)
        }
        for waiter in satisfied {
            waiter.timer.cancel()
            waiter.continuation.resume(returning: true)
        }
    }

    /// Waits until the recorded elements meet `condition`: `true` at once if they do already,
    /// or as soon as an element makes them; `false` when `timeout` passes first.
    @discardableResult
    public func wait(timeout: Duration = .seconds(10), until condition: @escaping @Sendable ([Element]) -> Bool) async -> Bool {
        let key = UUID()
        return await withCheckedContinuation { continuation in
            state.withLock { state in
                if condition(state.elements) { return continuation.resume(returning: true) }
                let timer = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    self?.expire(key)
                }
                state.waiters[key] = Waiter(isSatisfied: condition, continuation: continuation, timer: timer)
            }
        }
    }

    /// The first `count` elements once there are that many; what there is after `timeout`.
    public func first(_ count: Int, timeout: Duration = .seconds(10)) async -> [Element] {
        await wait(timeout: timeout) { $0.count >= count }
        return Array(elements.prefix(count))
    }

    /// Whether `count` elements arrived within `timeout`.
    public func waitFor(_ count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        await wait(timeout: timeout) { $0.count >= count }
    }

    private func expire(_ key: UUID) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: key) }
        waiter?.continuation.resume(returning: false)
    }
}
