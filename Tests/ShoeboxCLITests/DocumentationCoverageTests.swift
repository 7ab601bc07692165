import Foundation
import ShoeboxTesting
import Testing

/// Every public declaration has a documentation comment: `scripts/doc-coverage --check` lists
/// any that has none (a public type's members, a public enum's cases, a public protocol's
/// requirements) and fails.
@Suite struct DocumentationCoverageTests {
    @Test func everyPublicDeclarationIsDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/doc-coverage").path
        let result = try ChildProcess.run("/usr/bin/python3", [script, "--check"])
        #expect(result.status == 0, "undocumented:\n\(result.standardOutput)")
        // The script counts: the modules have public declarations to find.
        let counts = try ChildProcess.run("/usr/bin/python3", [script, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(counts.standardOutput.utf8)) as? [String: [String: Int]])
        #expect((report["ShoeboxLibrary"]?["public"] ?? 0) > 1_000, "\(report)")
    }
}
