import Foundation

enum Terminal {
    /// Whether standard error is a terminal (progress lines are drawn only then).
    static let isInteractive = isatty(2) == 1

    /// Writes one line to standard error.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Redraws a one-line progress report on a terminal.
    static func progress(_ line: String) {
        guard isInteractive else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    /// Clears the progress line.
    static func endProgress() {
        guard isInteractive else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
