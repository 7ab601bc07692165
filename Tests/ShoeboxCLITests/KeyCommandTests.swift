import Foundation
import ShoeboxTesting
import Testing

/// `shoebox key …` and `shoebox pick`'s key: a person's keys from the command line, with one-line
/// errors for wrong input.
@Suite struct KeyCommandTests {
    @Test("key add prints a token once, list shows the person's keys without it, revoke ends one; wrong input is one line")
    func keys() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-key-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Home.shoebox").path
        #expect(try UserCommandTests.run(["init", "--library", library, "--admin", "ann", "--no-password"], input: "").status == 0)
        #expect(try UserCommandTests.run(["user", "add", "bob", "--library", library, "--no-password"], input: "").status == 0)

        let made = try CLIRunner.run(["key", "add", "nightly backup", "--scope", "upload", "--user", "bob", "--library", library])
        #expect(made.status == 0, "\(made.standardError)")
        let token = made.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("sbk_") && !token.contains(" "), "standard output is the token alone: \(made.standardOutput)")
        let json = try CLIRunner.run(["key", "add", "viewer", "--scope", "read", "--user", "bob", "--library", library, "--json"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect((record["token"] as? String)?.hasPrefix("sbk_") == true && record["scope"] as? String == "read")

        let listed = try CLIRunner.run(["key", "list", "--user", "bob", "--library", library, "--json"])
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        #expect(keys.compactMap { $0["name"] as? String }.sorted() == ["nightly backup", "viewer"])
        #expect(!listed.standardOutput.contains(token) && keys.allSatisfy { $0["token"] == nil })
        // Ann's keys are hers: none.
        let anns = try CLIRunner.run(["key", "list", "--library", library, "--json"])
        #expect(anns.status == 0)
        #expect((try JSONSerialization.jsonObject(with: Data(anns.standardOutput.utf8)) as? [Any])?.isEmpty == true, "\(anns.standardOutput)")

        let id = try #require(record["id"] as? String)
        #expect(try CLIRunner.run(["key", "revoke", id, "--library", library]).status == 1, "Ann cannot revoke Bob's key")
        #expect(try CLIRunner.run(["key", "revoke", id, "--user", "bob", "--library", library]).status == 0)
        let after = try CLIRunner.run(["key", "list", "--user", "bob", "--library", library])
        #expect(after.standardOutput.contains("nightly backup") && !after.standardOutput.contains("viewer"), "\(after.standardOutput)")

        for (arguments, message) in [
            (["key", "add", "", "--scope", "read"], "1 to 100 characters"),
            (["key", "add", "x", "--scope", "admin"], "--scope"),
            (["key", "revoke", "nothing"], "no key nothing"),
            (["key", "list", "--user", "nobody"], "no person of this library is named nobody"),
            (["pick", "--server", "ftp://example.com"], "--server must be an http:// or https:// URL"),
            (["pick", "--server", "http://127.0.0.1:9"], "needs a key of the person who picks in $SHOEBOX_API_KEY"),
        ] {
            let result = try CLIRunner.run(arguments + ["--library", library])
            #expect(result.status != 0, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
    }
}
