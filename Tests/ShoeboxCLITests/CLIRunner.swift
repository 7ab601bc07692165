import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `shoebox` executable as a child process and collects what it printed, its exit
/// status and its peak memory.
struct CLIRunner {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The `shoebox` executable beside this test bundle (SwiftPM builds both into one folder).
    static let executable: URL? = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("shoebox")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    /// GNU time, which measures a child's own peak memory (see ``peakMemory(_:)``).
    static let gnuTime = "/usr/bin/time"
    static var hasGNUTime: Bool { FileManager.default.isExecutableFile(atPath: gnuTime) }

    /// Runs `shoebox` under GNU time and returns its peak resident set in bytes.
    ///
    /// A child spawned straight from this test process would report this process's high-water
    /// mark too (Linux keeps it across exec); GNU time forks from its own small image, so the
    /// figure is shoebox's alone.
    static func peakMemory(_ arguments: [String]) throws -> (result: Result, bytes: Int) {
        guard let executable else { throw CLIError.notBuilt }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let result = try run(["-f", "%M", "-o", report.path, executable.path] + arguments, program: gnuTime)
        let text = try String(contentsOf: report, encoding: .utf8)
        guard let kilobytes = text.split(whereSeparator: \.isNewline).last.flatMap({ Int($0) }) else {
            throw CLIError.spawnFailed(-1)
        }
        return (result, kilobytes * 1024)
    }

    static func run(_ arguments: [String]) throws -> Result {
        guard let executable else { throw CLIError.notBuilt }
        return try run(arguments, program: executable.path)
    }

    private static func run(_ arguments: [String], program: String) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CLIError.spawnFailed(spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw CLIError.spawnFailed(errno) }
        }
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(
            status: exitStatus,
            standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    enum CLIError: Error, CustomStringConvertible {
        case notBuilt
        case spawnFailed(Int32)

        var description: String {
            switch self {
            case .notBuilt: "the shoebox executable is not built next to the tests; run `swift build` first"
            case .spawnFailed(let code): "could not start shoebox (errno \(code))"
            }
        }
    }
}
