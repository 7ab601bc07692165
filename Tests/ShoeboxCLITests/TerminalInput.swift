import Foundation
import ShoeboxTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `shoebox` with a terminal (a pseudo-terminal) as its standard input, and types `input`
/// on it: for the commands that ask a question only when someone is there to answer.
enum TerminalInput {
    /// How the command ended, and what it printed.
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static func run(_ arguments: [String], typing input: String) throws -> Result {
        guard let executable = CLIRunner.executable else {
            throw ChildProcess.Failure("the shoebox executable is not built next to the tests; run `swift build` first")
        }
        // posix_openpt and friends are not in Swift's Glibc module: their ioctls (Linux's
        // TIOCSPTLCK and TIOCGPTN, function-like macros Swift does not import) do the same.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw ChildProcess.Failure("cannot open a pseudo-terminal: errno \(errno)") }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw ChildProcess.Failure("cannot set up a pseudo-terminal: errno \(errno)")
        }
        let terminal = "/dev/pts/\(number)"
        // Typed before the child reads: the terminal keeps the line until it does.
        let typed = Array(input.utf8)
        guard write(master, typed, typed.count) == typed.count else { throw ChildProcess.Failure("cannot type on the terminal: errno \(errno)") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR | O_NOCTTY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ChildProcess.Failure("cannot start shoebox: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw ChildProcess.Failure("waiting for shoebox: errno \(errno)") }
        }
        return Result(
            status: (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}
