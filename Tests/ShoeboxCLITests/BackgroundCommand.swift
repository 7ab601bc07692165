import Foundation
import ShoeboxTesting

/// A `shoebox` command running in the background, for the commands that wait (`serve`, `pick`):
/// the test reads what it has printed so far while it runs, then waits for it to end.
///
/// Its output goes to files, not pipes, so a chatty child never blocks on a full pipe while the
/// test is busy elsewhere.
final class BackgroundCommand: @unchecked Sendable {
    // @unchecked: `Process` is not Sendable; one test drives a command.
    private let process = Process()
    private let folder: URL
    private var outputURL: URL { folder.appendingPathComponent("stdout") }
    private var errorURL: URL { folder.appendingPathComponent("stderr") }

    /// - Parameter environment: Variables to add to this process's environment.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        guard let executable = CLIRunner.executable else {
            throw ChildProcess.Failure("the shoebox executable is not built next to the tests; run `swift build` first")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-background-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The command's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Everything printed on standard output so far.
    var standardOutput: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    /// Everything printed on standard error so far.
    var standardError: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// The first whole line (without its newline) of standard output, or with `onStandardError`
    /// of standard error, that contains `marker`; waits for it up to `timeout` seconds.
    func line(containing marker: String, onStandardError: Bool = false, timeout: Double = 60) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = onStandardError ? standardError : standardOutput
            if let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: { $0.contains(marker) }) {
                return String(line)
            }
            if !process.isRunning, !(onStandardError ? standardError : standardOutput).contains(marker) {
                throw ChildProcess.Failure("shoebox ended (status \(process.terminationStatus)) without printing “\(marker)”: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChildProcess.Failure("shoebox printed no “\(marker)” within \(timeout) s: \(standardError)")
    }

    /// Waits for the command to end and returns its exit status; after `timeout` seconds it is
    /// stopped and this throws.
    func waitForExit(timeout: Double = 60) async throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw ChildProcess.Failure("shoebox was still running after \(timeout) s: \(standardError)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
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
