import Foundation
import Testing

/// Reads the server's and the picker's sources (what a route reaches without going through the
/// library's async API) and fails on a synchronous file, libvips or process call that is not
/// inside a `BlockingPool` closure. Under `shoebox serve` such a call holds an event loop, and
/// every request on it, for as long as the disk, the decode or the child takes.
///
/// A call that may block is allowed outside the pool only with a `// blocking:` comment on its
/// line or the line above saying why it cannot hold a request (run once at start-up, a log line
/// to stderr, …). The scan is lexical: it follows braces from the line that names the pool to
/// the end of the closure that line opens.
@Suite struct BlockingCallAuditTests {
    /// Calls that wait on the disk, libvips or a child process: what a line must contain (at a
    /// word's start where the needle begins with a letter) to be one.
    static let blockingCalls: [(name: String, needles: [String])] = [
        ("FileManager", ["FileManager.default."]),
        ("FileHandle", ["FileHandle(for", "FileHandle(fileDescriptor"]),
        ("FileHandle I/O", [".readToEnd(", ".readData(", ".write(contentsOf", ".seekToEnd(", ".synchronize("]),
        ("contents of a file", ["Data(contentsOf:", "String(contentsOf:", "String(contentsOfFile:"]),
        ("a file write", [".write(to:"]),
        ("libvips", ["Image(contentsOf:", "Image(data:"]),
        ("libvips encode", [".encoded(", ".thumbnail(", ".resized(", ".cropped(", ".rendered("]),
        ("a child process", ["Process()", ".waitUntilExit()"]),
        ("POSIX I/O", ["fopen(", "fread(", "fwrite(", "fsync(", "copyfile(", "sendfile("]),
    ]

    /// Whether `code` holds `needle` where a word starts (for needles that start with a letter).
    static func contains(_ code: String, _ needle: String) -> Bool {
        var rest = code[...]
        while let range = rest.range(of: needle) {
            let before = range.lowerBound == code.startIndex ? nil : code[code.index(before: range.lowerBound)]
            let startsWord = !(needle.first?.isLetter ?? false) || !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false)
            let after = code[range.upperBound...]
            // FileManager's temporaryDirectory is a path, not a call that touches the disk.
            if startsWord, !(needle == "FileManager.default." && after.hasPrefix("temporaryDirectory")) { return true }
            rest = code[range.upperBound...]
        }
        return false
    }

    static let folders = ["Sources/ShoeboxServer", "Sources/ShoeboxPicker"]

    struct Finding: CustomStringConvertible {
        let file: String
        let line: Int
        let call: String
        let text: String
        var description: String { "\(file):\(line): \(call) outside BlockingPool: \(text)" }
    }

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The findings in one file's text.
    static func findings(in text: String, file: String) -> [Finding] {
        var findings: [Finding] = []
        var depth = 0
        /// Depths at which a pool closure (or an excused body) was opened; inside while non-empty.
        var regionDepths: [Int] = []
        var regionPending = false
        var excusedLine = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = strippingStringsAndComments(String(line))
            let isExcuse = line.contains("// blocking:")
            if code.trimmingCharacters(in: .whitespaces).isEmpty {
                // A comment line of its own excuses the next line and the body it opens.
                if isExcuse { excusedLine = true }
                continue
            }
            if code.contains("BlockingPool.") || excusedLine { regionPending = true }
            let inside = !regionDepths.isEmpty || isExcuse || excusedLine || (regionPending && code.contains("{"))
            excusedLine = false
            if !inside {
                for (name, needles) in blockingCalls where needles.contains(where: { Self.contains(code, $0) }) {
                    // An awaited call is async (the library's, the pool's), not a blocking one.
                    if name.hasPrefix("libvips"), code.contains("await ") { continue }
                    findings.append(Finding(file: file, line: index + 1, call: name, text: line.trimmingCharacters(in: .whitespaces)))
                }
            }
            for character in code {
                if character == "{" {
                    depth += 1
                    if regionPending {
                        regionDepths.append(depth)
                        regionPending = false
                    }
                } else if character == "}" {
                    if regionDepths.last == depth { regionDepths.removeLast() }
                    depth -= 1
                }
            }
            // A statement that names the pool without opening a closure on its line (a call
            // whose closure starts on the next line is still pending; anything else is not).
            if regionPending, !code.contains("BlockingPool."), !code.hasSuffix("(") { regionPending = false }
        }
        return findings
    }

    /// `line` without its string literals' contents and its `//` comment.
    static func strippingStringsAndComments(_ line: String) -> String {
        var result = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if inString {
                if character == "\"", previous != "\\" { inString = false }
                previous = character
                continue
            }
            if character == "/", previous == "/" {
                result.removeLast()
                break
            }
            if character == "\"" { inString = true }
            result.append(character)
            previous = character
        }
        return result.trimmingCharacters(in: .whitespaces).hasPrefix("///") ? "" : result
    }

    @Test func noRouteReachesABlockingCallOutsideThePool() throws {
        var findings: [Finding] = []
        var scanned = 0
        for folder in Self.folders {
            let base = Self.root.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
            for case let url as URL in files where url.pathExtension == "swift" {
                scanned += 1
                let text = try String(contentsOf: url, encoding: .utf8)
                findings += Self.findings(in: text, file: String(url.path.dropFirst(Self.root.path.count + 1)))
            }
        }
        #expect(scanned > 50, "the sources were found")
        #expect(findings.isEmpty, "\(findings.count) blocking calls off the pool:\n\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test func theScanFindsACallOffThePoolAndPassesOneOnIt() {
        let text = """
            func a() async throws -> Data {
                let size = try FileManager.default.attributesOfItem(atPath: path)
                return try await BlockingPool.shared.run {
                    try Data(contentsOf: url)
                }
            }
            func b() {
                let image = try Image(contentsOf: url)  // blocking: a test's reason
                let path = FileManager.default.temporaryDirectory
                _ = try Data(contentsOf: url)
                let thumbnail = try await library.thumbnail(of: asset)
            }
            // blocking: a whole body excused
            init() {
                let data = try Data(contentsOf: url)
                if data.isEmpty {
                    try FileManager.default.removeItem(at: url)
                }
            }
            let again = try Data(contentsOf: url)
            """
        let found = Self.findings(in: text, file: "x.swift")
        #expect(found.map(\.line) == [2, 10, 20], "\(found)")
    }
}
