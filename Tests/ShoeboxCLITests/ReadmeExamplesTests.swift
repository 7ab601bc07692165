import Foundation
import ShoeboxTesting
import Testing

/// The README's Swift examples are compiled: `scripts/readme-examples` copies them into the
/// `readme-examples` target, which `swift build` builds. This test fails when the README changed
/// and the copy was not regenerated, so an example that no longer compiles cannot hide.
@Suite struct ReadmeExamplesTests {
    @Test func theCompiledCopyIsWhatTheReadmeShows() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/readme-examples").path
        let result = try ChildProcess.run("/usr/bin/python3", [script, "--check"])
        #expect(result.status == 0, "\(result.standardError)")
        let copy = try String(contentsOf: root.appendingPathComponent("Sources/readme-examples/main.swift"), encoding: .utf8)
        #expect(copy.contains("PhotoLibrary"), "the README's examples use the library")
    }
}
