/// What `operation` gives, or `nil` once `timeout` passes first — the operation is then
/// cancelled (a wait on a stream ends). For waits on an event that may never come: a camera's
/// first frame, the end of an interruption.
///
/// An operation that gives `nil` itself (its stream ended) answers `nil` at once, as a timeout
/// would: the caller looks at the state to tell why.
package func withTimeout<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async -> T?) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
