import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// `shoebox album share`, `album shared` and `album unshare`: sharing an album from the command
/// line, with one-line errors for a person, album or role that is not there.
@Suite struct AlbumSharingCommandTests {
    @Test("share as a contributor, list it as the other person, leave; wrong input is one line")
    func shareListAndLeave() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-album-share-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Home.shoebox").path
        #expect(try CLIRunner.run(["init", "--library", library]).status == 0)
        #expect(try UserCommandTests.run(["user", "add", "bob", "--library", library, "--password-stdin"], input: "bob-password").status == 0)
        let photo = folder.appendingPathComponent("one.jpg")
        try SyntheticPhoto(width: 90, height: 60, seed: 3).image().write(to: photo)
        #expect(try CLIRunner.run(["import", "--library", library, photo.path]).status == 0)
        #expect(try CLIRunner.run(["album", "create", "Trip", "--library", library]).status == 0)
        let shared = try CLIRunner.run(["album", "share", "Trip", "bob", "--as", "contributor", "--library", library, "--json"])
        #expect(shared.status == 0, "\(shared.standardError)")
        let record = try #require((try JSONSerialization.jsonObject(with: Data(shared.standardOutput.utf8)) as? [[String: Any]])?.first)
        #expect(record["role"] as? String == "owner")
        #expect((record["members"] as? [[String: Any]])?.map { $0["role"] as? String } == ["contributor"])
        let identifier = try #require(record["localIdentifier"] as? String)

        let bobs = try CLIRunner.run(["album", "shared", "--library", library, "--user", "bob"])
        #expect(bobs.status == 0 && bobs.standardOutput.contains("contributor  0  Trip  by admin"), "\(bobs.standardOutput)")

        for (arguments, message) in [
            (["album", "share", "Trip", "nobody"], "no person of this library is named nobody"),
            (["album", "share", "Nope", "bob"], "no album Nope"),
            (["album", "share", "Trip", "bob", "--as", "owner"], "--as is viewer or contributor, not owner"),
            (["album", "unshare", "Trip", "bob", "--user", "bob"], "no shared album Trip"),
        ] {
            let refused = try CLIRunner.run(arguments + ["--library", library])
            #expect(refused.status != 0 && refused.standardError.contains(message), "\(arguments): \(refused.standardError)")
        }
        // Bob leaves by naming himself; then nothing is shared with him.
        let left = try CLIRunner.run(["album", "unshare", identifier, "bob", "--library", library, "--user", "bob"])
        #expect(left.status == 0, "\(left.standardError)")
        #expect(try CLIRunner.run(["album", "shared", "--library", library, "--user", "bob", "--json"]).standardOutput.contains("[") == true)
        #expect(try CLIRunner.run(["album", "shared", "--library", library, "--user", "bob"]).standardOutput.isEmpty)
        for command in ["share", "unshare", "shared"] {
            #expect(try CLIRunner.run(["album", command, "--help"]).status == 0)
        }
    }
}
