import Foundation
import ShoeboxTesting

/// Runs the built `shoebox` executable as a child process.
enum CLIRunner {
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

    static func run(_ arguments: [String], measuringPeakMemory: Bool = false) throws -> ChildProcess.Result {
        guard let executable else {
            throw ChildProcess.Failure("the shoebox executable is not built next to the tests; run `swift build` first")
        }
        return try ChildProcess.run(executable.path, arguments, measuringPeakMemory: measuringPeakMemory)
    }
}
