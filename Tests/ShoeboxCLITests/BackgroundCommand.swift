import Foundation
import ShoeboxTesting
import Synchronization

/// A `shoebox` command running in the background, for the commands that wait (`serve`, `pick`):
/// the test reads what it has printed so far while it runs, then waits for it to end.
///
/// Its output is drained as it comes (so a chatty child never blocks on a full pipe while the
/// test is busy elsewhere), and a test waiting for a line or for the end is woken by the output
/// or the exit itself, not by polling.
final class BackgroundCommand: @unchecked Sendable {
    // @unchecked: `Process` is not Sendable; one test drives a command, and the output and exit
    // are kept under `state`'s lock.
    private let process = Process()

    private struct State {
        var output = Data()
        var error = Data()
        /// The pipes' ends have been read (all the output is in).
        var outputClosed = false
        var errorClosed = false
        var exited = false
        /// Tests waiting for a line or the end, woken (with `nil`: look again) at each change.
        var waiters: [UUID: CheckedContinuation<Bool?, Never>] = [:]

        var isComplete: Bool { exited && outputClosed && errorClosed }
    }

    private let state = Mutex(State())

    /// - Parameter environment: Variables to add to this process's environment.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let executable = CLIRunner.executable else {
            throw ChildProcess.Failure("the shoebox executable is not built next to the tests; run `swift build` first")
        }
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.drain(handle, into: \.output, closed: \.outputClosed) }
        error.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.drain(handle, into: \.error, closed: \.errorClosed) }
        process.terminationHandler = { [weak self] _ in self?.changed { $0.exited = true } }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        (process.standardOutput as? Pipe)?.fileHandleForReading.readabilityHandler = nil
        (process.standardError as? Pipe)?.fileHandleForReading.readabilityHandler = nil
    }

    /// Reads what `handle` has now into the output or error; at the end of the pipe, stops
    /// listening to it and notes it closed.
    private func drain(_ handle: FileHandle, into keyPath: WritableKeyPath<State, Data>, closed: WritableKeyPath<State, Bool>) {
        let data = handle.availableData
        if data.isEmpty {
            handle.readabilityHandler = nil
            changed { $0[keyPath: closed] = true }
            return
        }
        changed { $0[keyPath: keyPath].append(data) }
    }

    /// Applies `change` and wakes every waiter, which looks again.
    private func changed(_ change: (inout State) -> Void) {
        let waiters = state.withLock { state in
            change(&state)
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// Waits until `condition` holds for the state, or `timeout` passes; whether it holds.
    private func wait(timeout: Double, until condition: @escaping (State) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        // Wakes the waiters once the time is up, so that they look a last time.
        let alarm = Task { [weak self] in
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            self?.changed { _ in }
        }
        defer { alarm.cancel() }
        while true {
            let holds = await withCheckedContinuation { (continuation: CheckedContinuation<Bool?, Never>) in
                let now = state.withLock { state -> Bool? in
                    if condition(state) { return true }
                    if ContinuousClock.now >= deadline { return false }
                    state.waiters[UUID()] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
            if let holds { return holds }
        }
    }

    /// The command's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Everything printed on standard output so far.
    var standardOutput: String { String(decoding: state.withLock { $0.output }, as: UTF8.self) }
    /// Everything printed on standard error so far.
    var standardError: String { String(decoding: state.withLock { $0.error }, as: UTF8.self) }

    /// The first whole line (without its newline) of standard output, or with `onStandardError`
    /// of standard error, that contains `marker`; waits for it up to `timeout` seconds.
    func line(containing marker: String, onStandardError: Bool = false, timeout: Double = 60) async throws -> String {
        func found(_ state: State) -> String? {
            let text = String(decoding: onStandardError ? state.error : state.output, as: UTF8.self)
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first { $0.contains(marker) }.map(String.init)
        }
        _ = await wait(timeout: timeout) { found($0) != nil || $0.exited }
        // Ended: what it printed last may still be on its way out of the pipes.
        if state.withLock({ found($0) == nil && $0.exited }) { _ = await wait(timeout: 5) { $0.isComplete } }
        let current = state.withLock { $0 }
        if let line = found(current) { return line }
        if current.exited {
            throw ChildProcess.Failure("shoebox ended (status \(process.terminationStatus)) without printing “\(marker)”: \(standardError)")
        }
        throw ChildProcess.Failure("shoebox printed no “\(marker)” within \(timeout) s: \(standardError)")
    }

    /// Waits for the command to end and returns its exit status; after `timeout` seconds it is
    /// stopped and this throws.
    func waitForExit(timeout: Double = 60) async throws -> Int32 {
        guard await wait(timeout: timeout, until: \.exited) else {
            process.terminate()
            throw ChildProcess.Failure("shoebox was still running after \(timeout) s: \(standardError)")
        }
        // All its output in (a child of its own that kept the pipes open gets 5 s).
        _ = await wait(timeout: 5) { $0.isComplete }
        process.waitUntilExit()  // returns at once: the termination handler has run
        return process.terminationStatus
    }

    /// The signal that ended the command, if one did (after it ended).
    var terminatingSignal: Int32? {
        process.isRunning || process.terminationReason != .uncaughtSignal ? nil : process.terminationStatus
    }

    /// Sends SIGINT (Ctrl-C), as a user stops `shoebox serve`.
    func interrupt() {
        signal(SIGINT)
    }

    /// Sends `number` (SIGINT, SIGTERM …) while the command runs.
    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }
}
