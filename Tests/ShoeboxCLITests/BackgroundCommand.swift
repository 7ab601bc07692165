import Foundation
import ShoeboxTesting

/// A `shoebox` command running in the background, for the commands that wait (`serve`, `pick`):
/// the test reads what it has printed so far while it runs, then waits for it to end.
///
/// Its output is drained as it comes (so a chatty child never blocks on a full pipe while the
/// test is busy elsewhere) into an ``EventRecorder``, so a test waiting for a line or for the end
/// is woken by the output or the exit itself, not by polling.
///
/// Each pipe is read by a thread of its own with blocking `read(2)` calls, not by a dispatch
/// source (`FileHandle.readabilityHandler`): a source watching a pipe's descriptor crashed the
/// test process once in libdispatch's event loop, and a thread that reads until the end of the
/// pipe has nothing to tear down.
final class BackgroundCommand: @unchecked Sendable {
    // @unchecked: `Process` is not Sendable; one test drives a command, and what the child did
    // is kept in the (locked) recorder.
    private let process = Process()

    /// What the child did, in order: output, the end of a pipe, the exit.
    enum Event: Sendable {
        case output(Data)
        case error(Data)
        case outputClosed, errorClosed, exited
    }

    /// What the events add up to.
    private struct Snapshot {
        var output = Data()
        var error = Data()
        var outputClosed = false
        var errorClosed = false
        var exited = false
        /// Exited, and the pipes' ends read: all the output is in.
        var isComplete: Bool { exited && outputClosed && errorClosed }

        init(_ events: [Event]) {
            for event in events {
                switch event {
                case .output(let data): output.append(data)
                case .error(let data): error.append(data)
                case .outputClosed: outputClosed = true
                case .errorClosed: errorClosed = true
                case .exited: exited = true
                }
            }
        }
    }

    /// The events, which wake a test waiting on them.
    private let events = EventRecorder<Event>()
    private var snapshot: Snapshot { Snapshot(events.elements) }

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
        let events = self.events
        process.terminationHandler = { _ in events.append(.exited) }
        try process.run()
        // The child has its own copies of the writing ends: the pipes end when it (and any child
        // of its own) is gone.
        try? output.fileHandleForWriting.close()
        try? error.fileHandleForWriting.close()
        Self.drain(output.fileHandleForReading, into: events, as: Event.output, closed: .outputClosed)
        Self.drain(error.fileHandleForReading, into: events, as: Event.error, closed: .errorClosed)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Reads `handle` on a thread of its own until the end of its pipe, recording each chunk and
    /// then the end.
    private static func drain(_ handle: FileHandle, into events: EventRecorder<Event>, as event: @escaping @Sendable (Data) -> Event, closed: Event) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    events.append(event(Data(buffer[0..<count])))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break  // the end of the pipe (or an error reading it, which ends it too)
                }
            }
            try? handle.close()
            events.append(closed)
        }
        thread.name = "BackgroundCommand pipe reader"
        thread.start()
    }

    /// The command's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Everything printed on standard output so far.
    var standardOutput: String { String(decoding: snapshot.output, as: UTF8.self) }
    /// Everything printed on standard error so far.
    var standardError: String { String(decoding: snapshot.error, as: UTF8.self) }

    /// The first whole line (without its newline) of standard output, or with `onStandardError`
    /// of standard error, that contains `marker`; waits for it up to `timeout` seconds.
    func line(containing marker: String, onStandardError: Bool = false, timeout: Double = 60) async throws -> String {
        try await line(where: { $0.contains(marker) }, described: "“\(marker)”", onStandardError: onStandardError, timeout: timeout)
    }

    /// The first whole line that `matches` (`described` in the error when none comes).
    func line(
        where matches: @escaping @Sendable (String) -> Bool, described description: String, onStandardError: Bool = false, timeout: Double = 60
    ) async throws -> String {
        @Sendable func found(_ snapshot: Snapshot) -> String? {
            let text = String(decoding: onStandardError ? snapshot.error : snapshot.output, as: UTF8.self)
            return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init).first(where: matches)
        }
        await events.wait(timeout: .seconds(timeout)) {
            let now = Snapshot($0)
            return found(now) != nil || now.exited
        }
        // Ended: what it printed last may still be on its way out of the pipes.
        if found(snapshot) == nil, snapshot.exited { await events.wait(timeout: .seconds(5)) { Snapshot($0).isComplete } }
        let current = snapshot
        if let line = found(current) { return line }
        if current.exited {
            throw ChildProcess.Failure("shoebox ended (status \(process.terminationStatus)) without printing \(description): \(standardError)")
        }
        throw ChildProcess.Failure("shoebox printed no \(description) within \(timeout) s: \(standardError)")
    }

    /// Waits for the command to end and returns its exit status; after `timeout` seconds it is
    /// stopped and this throws.
    func waitForExit(timeout: Double = 60) async throws -> Int32 {
        guard await events.wait(timeout: .seconds(timeout), until: { Snapshot($0).exited }) else {
            process.terminate()
            throw ChildProcess.Failure("shoebox was still running after \(timeout) s: \(standardError)")
        }
        // All its output in (a child of its own that kept the pipes open gets 5 s).
        await events.wait(timeout: .seconds(5)) { Snapshot($0).isComplete }
        process.waitUntilExit()  // returns at once: the termination handler has run
        return process.terminationStatus
    }

    /// Whether the command is still running `seconds` from now: waits for its exit up to then,
    /// for tests that prove a command keeps waiting (it returns as soon as the command ends).
    func keepsRunning(for seconds: Double) async -> Bool {
        await !events.wait(timeout: .seconds(seconds)) { Snapshot($0).exited }
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
