import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A password for a command: one line of standard input with `--password-stdin` (for scripts),
/// else asked twice on the terminal without echo. Never an argument: arguments show in `ps`.
enum PasswordInput {
    static func read(for name: String, fromStandardInput: Bool) throws -> String {
        if fromStandardInput {
            guard let line = Swift.readLine(strippingNewline: true), !line.isEmpty else {
                Terminal.standardError("error: --password-stdin: standard input held no password")
                throw ExitCode.failure
            }
            return line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            Terminal.standardError("error: give \(name)'s password on standard input with --password-stdin (no terminal to ask on)")
            throw ExitCode.failure
        }
        let first = ask("Password for \(name): ")
        let second = ask("Again: ")
        guard first == second else {
            Terminal.standardError("error: the two passwords differ; nothing was changed")
            throw ExitCode.failure
        }
        return first
    }

    /// One line from the terminal with its echo off.
    private static func ask(_ prompt: String) -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        let line = Swift.readLine(strippingNewline: true) ?? ""
        if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        FileHandle.standardError.write(Data("\n".utf8))
        return line
    }
}
