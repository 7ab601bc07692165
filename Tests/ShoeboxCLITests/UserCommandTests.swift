import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// `shoebox init --admin` and `shoebox user …`, and `--user` on a library command: the people of
/// a library from the command line, with typed one-line errors for wrong input.
@Suite struct UserCommandTests {
    /// Runs the CLI with `input` as standard input (a password for `--password-stdin`).
    static func run(_ arguments: [String], input: String) throws -> ChildProcess.Result {
        let executable = try #require(CLIRunner.executable)
        let quoted = ([executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try ChildProcess.run("/bin/sh", ["-c", "printf '%s\\n' '\(input)' | \(quoted)"])
    }

    @Test("init names the admin; user add, list, quota, disable, role and remove; --user acts for a person")
    func people() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-user-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Home.shoebox").path
        let made = try Self.run(["init", "--library", library, "--admin", "Ann", "--password-stdin", "--json"], input: "ann-password")
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput.contains("\"admin\" : \"ann\""), "\(made.standardOutput)")
        let added = try Self.run(["user", "add", "bob", "--library", library, "--quota", "2M", "--password-stdin", "--json"], input: "bob-password")
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput.contains("\"quota\" : 2097152"), "\(added.standardOutput)")

        // Bob imports a photo: his, not Ann's.
        let photo = folder.appendingPathComponent("one.jpg")
        try SyntheticPhoto(width: 90, height: 60, seed: 1).image().write(to: photo)
        #expect(try CLIRunner.run(["import", "--library", library, "--user", "bob", photo.path]).status == 0)
        let bobs = try CLIRunner.run(["ls", "--library", library, "--user", "bob", "--json"])
        let anns = try CLIRunner.run(["ls", "--library", library, "--json"])
        #expect(bobs.standardOutput.contains("one.jpg") && !anns.standardOutput.contains("one.jpg"), "\(anns.standardOutput)")

        let listed = try CLIRunner.run(["user", "list", "--library", library, "--json"])
        let people = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        #expect(people.map { $0["name"] as? String } == ["ann", "bob"])
        #expect(people[1]["assets"] as? Int == 1 && people[0]["role"] as? String == "admin" && people[1]["hasPassword"] as? Bool == true)

        // Wrong input: one line each, exit 1, nothing changed.
        for (arguments, message) in [
            (["user", "add", "Not A Name", "--no-password"], "is not a sign-in name"),
            (["user", "add", "bob", "--no-password"], "already in this library"),
            (["user", "quota", "bob", "lots"], "is not a size"),
            (["user", "disable", "ann"], "the library's owner"),
            (["user", "role", "ann", "member"], "the library's owner"),
            (["user", "passwd", "nobody", "--password-stdin"], "no person named nobody"),
            (["ls", "--user", "nobody"], "no person of this library is named nobody"),
        ] {
            let result = try Self.run(arguments + ["--library", library], input: "some-password")
            #expect(result.status == 1, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments): \(result.standardError)")
        }
        let short = try Self.run(["user", "passwd", "bob", "--library", library, "--password-stdin"], input: "short")
        #expect(short.status == 1 && short.standardError.contains("8 to 1024 characters"), "\(short.standardError)")

        #expect(try CLIRunner.run(["user", "role", "bob", "admin", "--library", library]).status == 0)
        let owner = try CLIRunner.run(["user", "disable", "ann", "--library", library])
        #expect(
            owner.status == 1 && owner.standardError.contains("the library's owner"), "another admin does not make the owner removable: \(owner.standardError)")
        #expect(try CLIRunner.run(["user", "disable", "bob", "--library", library]).status == 0, "a second admin may be disabled")
        #expect(try CLIRunner.run(["user", "enable", "bob", "--library", library]).status == 0)
        #expect(try CLIRunner.run(["user", "role", "bob", "member", "--library", library]).status == 0)
        #expect(try CLIRunner.run(["user", "quota", "bob", "none", "--library", library]).status == 0)
        let kept = try CLIRunner.run(["user", "remove", "bob", "--library", library])
        #expect(kept.status == 1 && kept.standardError.contains("still has 1 photos"), "\(kept.standardError)")
        #expect(try CLIRunner.run(["user", "remove", "bob", "--delete-library", "--library", library]).status == 0)
        let after = try CLIRunner.run(["user", "list", "--library", library, "--json"])
        #expect(!after.standardOutput.contains("\"bob\""))
    }
}
