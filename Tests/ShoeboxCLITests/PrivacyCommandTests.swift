import Foundation
import ShoeboxTesting
import Testing

@Suite struct PrivacyCommandTests {
    let folder: URL
    let library: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-privacy-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        library = folder.appendingPathComponent("Test.shoebox").path
        try Data("""
            {"identifier": "com.example.booth", "displayName": "Photo Booth",
             "usageDescriptions": {"NSPhotoLibraryUsageDescription": "Shows your photos.", "NSCameraUsageDescription": "Takes your picture."}}
            """.utf8).write(to: folder.appendingPathComponent("booth.json"))
        try SyntheticPhoto(width: 40, height: 30, seed: 3).image().write(to: folder.appendingPathComponent("p.jpg"))
    }

    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try CLIRunner.run(arguments + ["--library", library])
    }

    func statuses() throws -> [String: String] {
        let listed = try JSONSerialization.jsonObject(with: Data(try run(["privacy", "list", "--json"]).standardOutput.utf8)) as? [[String: Any]]
        return (listed?.first?["statuses"] as? [String: String]) ?? [:]
    }

    @Test func settingsPrivacyFromTheCommandLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run(["privacy", "register", folder.appendingPathComponent("booth.json").path]).standardOutput == "com.example.booth\n")
        #expect(try statuses() == ["camera": "notDetermined", "microphone": "notDetermined", "photoLibrary": "notDetermined", "photoLibraryAdd": "notDetermined"])
        #expect(try run(["privacy", "grant", "--client", "com.example.booth", "--service", "camera"]).status == 0)
        #expect(try run(["privacy", "deny", "--client", "com.example.booth", "--service", "photoLibraryAdd"]).status == 0)
        #expect(try statuses()["camera"] == "authorized" && statuses()["photoLibraryAdd"] == "denied")
        let imported = try run(["import", "--json", folder.appendingPathComponent("p.jpg").path])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(imported.standardOutput.utf8)) as? [String: Any])?["assets"] as? [String]).first ?? ""
        #expect(try run(["privacy", "limit", "--client", "com.example.booth", id]).status == 0)
        #expect(try statuses()["photoLibrary"] == "limited")
        #expect(try statuses()["photoLibraryAdd"] == "authorized", "limited read-write includes adding")
        #expect(try run(["privacy", "limit", "--client", "com.example.booth", "no-such-asset"]).status == 1)
        #expect(try run(["privacy", "grant", "--client", "com.example.booth", "--service", "bluetooth"]).status != 0)

        // Asking: decided services answer at once; undecided ones cannot prompt without a terminal.
        #expect(try run(["privacy", "request", "--client", "com.example.booth", "--service", "camera"]).standardOutput == "authorized\n")
        let undecided = try run(["privacy", "request", "--non-interactive", "--client", "com.example.booth", "--service", "microphone"])
        // The manifest has no microphone description: a programmer error that stops the client, naming the key.
        #expect(undecided.status != 0 && undecided.standardError.contains("NSMicrophoneUsageDescription"))
        #expect(try run(["privacy", "reset", "--client", "com.example.booth", "--service", "camera"]).status == 0)
        let noTerminal = try run(["privacy", "request", "--non-interactive", "--client", "com.example.booth", "--service", "camera"])
        #expect(noTerminal.status == 1 && noTerminal.standardError.contains("cannot ask the user"))
        #expect(try statuses()["camera"] == "notDetermined")

        let report = try run(["privacy", "report", "--client", "com.example.booth", "--json"])
        #expect(report.status == 0 && report.standardOutput.hasPrefix("["))
    }

    @Test("privacy commands have --help", arguments: ["register", "list", "grant", "deny", "reset", "limit", "report", "request"])
    func help(_ command: String) throws {
        let result = try CLIRunner.run(["privacy", command, "--help"])
        #expect(result.status == 0 && result.standardOutput.contains("--library"))
    }
}
