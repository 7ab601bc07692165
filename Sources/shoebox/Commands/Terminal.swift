import Foundation

enum Terminal {
    /// Writes one line to standard error.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
