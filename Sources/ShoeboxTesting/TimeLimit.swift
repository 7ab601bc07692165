/// Runs `body` and cancels it once `limit` has passed: a wait on a stream (which ends when its
/// task is cancelled) then returns what it has, so a test whose event never comes fails instead
/// of hanging. Returns what `body` returns; rethrows what it throws (a `CancellationError` from
/// a call that throws on cancellation, at the limit).
///
/// ```swift
/// let purged = try await withTimeLimit(.seconds(30)) {
///     for try await change in changes where change.removedAssetIdentifiers.contains(id) { return true }
///     return false
/// }
/// ```
///
/// The limit is the one place a test waits for time: generous, because the whole suite runs
/// beside it.
public func withTimeLimit<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let work = Task { try await body() }
    let alarm = Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        work.cancel()
    }
    defer { alarm.cancel() }
    return try await withTaskCancellationHandler {
        try await work.value
    } onCancel: {
        work.cancel()
    }
}
