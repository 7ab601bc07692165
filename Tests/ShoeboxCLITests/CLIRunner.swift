import Foundation
import ShoeboxTesting

/// Runs the built `shoebox` executable as a child process.
enum CLIRunner {
    /// The `shoebox` executable beside this test bundle (SwiftPM builds both into one folder).
    static let executable = ChildProcess.builtExecutable(named: "shoebox")

    static func run(_ arguments: [String], measuringPeakMemory: Bool = false) throws -> ChildProcess.Result {
        guard let executable else {
            throw ChildProcess.Failure("the shoebox executable is not built next to the tests; run `swift build` first")
        }
        return try ChildProcess.run(executable.path, arguments, measuringPeakMemory: measuringPeakMemory)
    }
}
