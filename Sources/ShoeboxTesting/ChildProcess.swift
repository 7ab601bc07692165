import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs a program to completion, as tests and benchmarks need: what it printed, its exit status,
/// the wall time, and optionally its own peak memory.
///
/// ```swift
/// let result = try ChildProcess.run("/usr/bin/vipsthumbnail", ["-s", "256", "a.jpg"], measuringPeakMemory: true)
/// print(result.status, result.seconds, result.peakMemoryBytes ?? 0)
/// ```
public enum ChildProcess {
    /// How a program run by ``ChildProcess/run(_:_:captureOutput:measuringPeakMemory:)`` ended,
    /// and what it printed.
    public struct Result: Sendable {
        /// The exit status, or 128 + the signal number when a signal ended it.
        public let status: Int32
        /// What it printed on standard output; empty when output was not captured or is not valid UTF-8.
        public let standardOutput: String
        /// What it printed on standard error; empty when output was not captured or is not valid UTF-8.
        public let standardError: String
        /// Wall-clock seconds from start to exit.
        public let seconds: Double
        /// The child's own peak resident set in bytes, when measured.
        public let peakMemoryBytes: Int?
    }

    /// Starts `program` with its output discarded and returns its process id at once, for tests
    /// that kill children at chosen moments (crash tests). The caller waits for it (`waitpid`).
    ///
    /// - Throws: ``Failure`` when it cannot be started.
    public static func spawnSilently(_ program: String, _ arguments: [String]) throws -> pid_t {
        try spawnSilently(program, arguments, handing: nil)
    }

    /// Starts `program` with its output discarded and, when given, `descriptor` as its
    /// descriptor 3.
    private static func spawnSilently(_ program: String, _ arguments: [String], handing descriptor: Int32?) throws -> pid_t {
        var pid: pid_t = 0
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if let descriptor { posix_spawn_file_actions_adddup2(&actions, descriptor, 3) }
        let status = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard status == 0 else { throw Failure("cannot start \(program): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Starts `program` as ``spawnSilently(_:_:)`` does and returns, beside its process id, its
    /// lifeline: one end of a connected pair whose other end only the child holds (as its descriptor 3),
    /// so the lifeline hangs up when the child ends — an end `poll()` can wait for beside other
    /// events, as ``FolderWatch/events(count:where:timeout:lifeline:)`` does. The caller closes the
    /// lifeline and waits for the child (`waitpid`).
    ///
    /// - Throws: ``Failure`` when it cannot be started.
    public static func spawnWithLifeline(_ program: String, _ arguments: [String]) throws -> (pid: pid_t, lifeline: Int32) {
        // A socket pair rather than a pipe: it is made close-on-exec at once, so no other child
        // started meanwhile (tests run in parallel) holds it.
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw Failure("cannot make a socket pair: errno \(errno)")
        }
        defer { close(ends[1]) }
        do {
            return (try spawnSilently(program, arguments, handing: ends[1]), ends[0])
        } catch {
            close(ends[0])
            throw error
        }
    }

    /// An executable SwiftPM built next to the running test bundle (`.build/<triple>/debug/NAME`),
    /// or `nil` if it is not there.
    public static func builtExecutable(named name: String) -> URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// GNU time, which measures a child's own peak memory.
    public static let gnuTime = "/usr/bin/time"

    /// Whether ``run(_:_:captureOutput:measuringPeakMemory:)`` can measure peak memory here.
    ///
    /// A child spawned straight from a large process reports that process's high-water mark as
    /// part of its own (Linux keeps it across exec). GNU time forks the child from its own small
    /// image, so the figure it reports is the child's alone.
    public static var canMeasurePeakMemory: Bool {
        FileManager.default.isExecutableFile(atPath: gnuTime)
    }

    /// Runs `program` (a path, or a name looked up on `PATH`) with `arguments`; standard input is
    /// empty.
    ///
    /// - Parameters:
    ///   - captureOutput: Keep standard output and error (otherwise they are discarded).
    ///   - measuringPeakMemory: Run under GNU time to measure the child's own peak memory.
    /// - Throws: ``Failure`` when the program cannot be started, or when memory is to be measured
    ///   and GNU time is missing.
    public static func run(
        _ program: String, _ arguments: [String], captureOutput: Bool = true, measuringPeakMemory: Bool = false
    ) throws -> Result {
        guard measuringPeakMemory else {
            return try spawn(program, arguments, captureOutput: captureOutput, peak: nil)
        }
        guard canMeasurePeakMemory else {
            throw Failure("measuring peak memory needs GNU time at \(gnuTime) (Debian package `time`)")
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        return try spawn(gnuTime, ["-f", "%M", "-o", report.path, program] + arguments, captureOutput: captureOutput, peak: report)
    }

    private static func spawn(_ program: String, _ arguments: [String], captureOutput: Bool, peak report: URL?) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = captureOutput ? scratch.appendingPathComponent("stdout").path : "/dev/null"
        let errPath = captureOutput ? scratch.appendingPathComponent("stderr").path : "/dev/null"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        let start = DispatchTime.now().uptimeNanoseconds
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw Failure("cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure("waiting for \(program): \(String(cString: strerror(errno)))") }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let peak =
            report
            .flatMap { try? String(contentsOf: $0, encoding: .utf8) }
            .flatMap { $0.split(whereSeparator: \.isNewline).last.flatMap { Int($0) } }
            .map { $0 * 1024 }
        return Result(
            status: exitStatus,
            standardOutput: captureOutput ? (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" : "",
            standardError: captureOutput ? (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" : "",
            seconds: seconds, peakMemoryBytes: peak)
    }

    /// A child process could not be run or measured.
    public struct Failure: Error, CustomStringConvertible {
        /// The message: what could not be done, and why.
        public let description: String
        /// A failure whose message is `description`.
        public init(_ description: String) { self.description = description }
    }
}
