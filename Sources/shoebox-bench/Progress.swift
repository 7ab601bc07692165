import Foundation

/// One self-overwriting progress line on standard error, only when it is a terminal.
enum Progress {
    static let isTerminal = isatty(2) == 1

    static func report(_ label: String, done: Int, total: Int) {
        if isTerminal {
            FileHandle.standardError.write(Data("\r\(label): \(done)/\(total)".utf8))
        } else if done == total || done % 5 == 0 {
            note("\(label): \(done)/\(total)")
        }
    }

    static func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    static func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
