import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion and measures it: wall time and the child's own peak RSS.
struct ChildProcess {
    struct Measurement {
        let seconds: Double
        let peakMemoryBytes: Int
        let status: Int32
    }

    /// GNU time, when present, measures the child's own peak memory (see ``run(_:_:)``).
    static let gnuTime = "/usr/bin/time"

    /// Runs `executable` and measures it.
    ///
    /// A child spawned straight from this process reports this process's high-water mark as
    /// part of its own (Linux keeps it across exec). When GNU time is installed the child runs
    /// under it, so the peak is the child's alone; otherwise the figure is a ceiling.
    static func run(_ executable: String, _ arguments: [String]) throws -> Measurement {
        guard FileManager.default.isExecutableFile(atPath: gnuTime) else {
            return try spawn(executable, arguments)
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-bench-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let measured = try spawn(gnuTime, ["-f", "%M", "-o", report.path, executable] + arguments)
        let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        let kilobytes = text.split(whereSeparator: \.isNewline).last.flatMap { Int($0) }
        return Measurement(
            seconds: measured.seconds, peakMemoryBytes: (kilobytes ?? 0) * 1024, status: measured.status)
    }

    private static func spawn(_ executable: String, _ arguments: [String]) throws -> Measurement {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = DispatchTime.now().uptimeNanoseconds
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw ValidationFailure("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw ValidationFailure("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Measurement(seconds: seconds, peakMemoryBytes: Int(usage.ru_maxrss) * 1024, status: exitStatus)
    }
}

extension ChildProcess {
    /// This process's own peak resident set, in bytes.
    static func ownPeakMemoryBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}

struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
