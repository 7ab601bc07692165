import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct PrivacyCommandTests {
    let folder: URL
    let library: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-privacy-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        library = folder.appendingPathComponent("Test.shoebox").path
        try Data(
            """
            {"identifier": "com.example.booth", "displayName": "Photo Booth",
             "usageDescriptions": {"NSPhotoLibraryUsageDescription": "Shows your photos.", "NSCameraUsageDescription": "Takes your picture."}}
            """.utf8
        ).write(to: folder.appendingPathComponent("booth.json"))
        try SyntheticPhoto(width: 40, height: 30, seed: 3).image().write(to: folder.appendingPathComponent("p.jpg"))
        _ = try CLIRunner.run(["init", "--library", library])
    }

    func run(_ arguments: [String]) throws -> ChildProcess.Result {
        try CLIRunner.run(arguments + ["--library", library])
    }

    func statuses() throws -> [String: String] {
        let listed = try JSONSerialization.jsonObject(with: Data(try run(["privacy", "list", "--json"]).standardOutput.utf8)) as? [[String: Any]]
        return (listed?.first?["statuses"] as? [String: String]) ?? [:]
    }

    /// Apps are each person's: `--user` registers, decides and lists for that person alone.
    @Test func aPersonsAppsAreTheirOwn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let added = try CLIRunner.run(["user", "add", "bob", "--no-password", "--library", library])
        #expect(added.status == 0, "\(added.standardError)")
        let booth = folder.appendingPathComponent("booth.json").path
        #expect(try run(["privacy", "register", booth, "--user", "bob"]).status == 0)
        #expect(try run(["privacy", "grant", "--client", "com.example.booth", "--service", "camera", "--user", "bob"]).status == 0)
        let bobs = try run(["privacy", "list", "--json", "--user", "bob"]).standardOutput
        let listed = try JSONSerialization.jsonObject(with: Data(bobs.utf8)) as? [[String: Any]]
        #expect((listed?.first?["statuses"] as? [String: String])?["camera"] == "authorized", "\(bobs)")
        let admins = try JSONSerialization.jsonObject(with: Data(try run(["privacy", "list", "--json"]).standardOutput.utf8)) as? [Any]
        #expect(admins?.isEmpty == true, "the first admin has no apps")
        let refused = try run(["privacy", "grant", "--client", "com.example.booth", "--service", "camera"])
        #expect(refused.status == 1, "Bob's app is not the first admin's to decide for: \(refused.standardOutput)")
    }

    @Test func settingsPrivacyFromTheCommandLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let registered = try run(["privacy", "register", folder.appendingPathComponent("booth.json").path])
        let lines = registered.standardOutput.split(separator: "\n")
        #expect(registered.status == 0 && lines.first == "com.example.booth", "\(registered.standardOutput)")
        #expect(lines.count == 2 && lines[1].hasPrefix("token ") && lines[1].count > 40, "register issues a token: \(registered.standardOutput)")
        #expect(
            try statuses() == ["camera": "notDetermined", "microphone": "notDetermined", "photoLibrary": "notDetermined", "photoLibraryAdd": "notDetermined"])
        #expect(try run(["privacy", "grant", "--client", "com.example.booth", "--service", "camera"]).status == 0)
        #expect(try run(["privacy", "deny", "--client", "com.example.booth", "--service", "photoLibraryAdd"]).status == 0)
        #expect(try statuses()["camera"] == "authorized" && statuses()["photoLibraryAdd"] == "denied")
        let imported = try run(["import", "--json", folder.appendingPathComponent("p.jpg").path])
        let id =
            try #require((try JSONSerialization.jsonObject(with: Data(imported.standardOutput.utf8)) as? [String: Any])?["assets"] as? [String]).first ?? ""
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

        // Deciding for a client is the user's doing, not the client's: its report is still empty.
        let report = try run(["privacy", "report", "--client", "com.example.booth", "--json"])
        #expect(report.status == 0)
        #expect((try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [Any])?.isEmpty == true, "\(report.standardOutput)")
    }

    /// The client's entries in `shoebox privacy report --json`, newest first (each checked to be that client's).
    func report(_ client: String) throws -> [(action: String, localIdentifier: String, detail: String?)] {
        let result = try run(["privacy", "report", "--client", client, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]], "\(result.standardOutput)")
        for entry in entries { #expect(entry["client"] as? String == client) }
        return entries.map { ($0["action"] as? String ?? "", $0["localIdentifier"] as? String ?? "", $0["detail"] as? String) }
    }

    @Test func theReportSaysWhatAClientSawAndDid() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = "com.example.booth"
        #expect(try run(["privacy", "register", folder.appendingPathComponent("booth.json").path]).status == 0)
        try SyntheticPhoto(width: 40, height: 30, seed: 4).image().write(to: folder.appendingPathComponent("q.jpg"))
        let imported = try run(["import", "--json", folder.appendingPathComponent("p.jpg").path, folder.appendingPathComponent("q.jpg").path])
        let ids = try #require((try JSONSerialization.jsonObject(with: Data(imported.standardOutput.utf8)) as? [String: Any])?["assets"] as? [String])
        try #require(ids.count == 2)
        #expect(try run(["privacy", "grant", "--client", client, "--service", "photoLibrary"]).status == 0)

        // The client works over HTTP with the token the user's server issues it.
        let key = UUID().uuidString
        let server = try BackgroundCommand(["serve", "--library", library, "--port", "0", "--json", "--key", key])
        defer { server.interrupt() }
        let ready = try await server.line(containing: #""port""#)
        let port = try #require((try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any])?["port"] as? Int)
        let http = RawHTTP(port: port)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("booth.json")))
        let registered = try await http.send("POST", "/api/clients", json: manifest, headers: ["Authorization": "Bearer \(key)"])
        #expect(registered.status == 201, "\(registered.text)")
        let token = try #require(try registered.object()["token"] as? String)
        let asClient = ["Authorization": "Bearer \(token)"]
        func path(_ id: String) -> String { id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? id }

        let listed = try await http.send("GET", "/api/assets", headers: asClient)
        #expect(listed.status == 200, "\(listed.text)")
        #expect(Set(((try listed.object()["assets"] as? [[String: Any]]) ?? []).compactMap { $0["localIdentifier"] as? String }) == Set(ids))
        #expect(try await http.send("GET", "/api/assets/\(path(ids[0]))/thumbnail?size=32", headers: asClient).status == 200)
        var jpeg = asClient
        jpeg["Content-Type"] = "image/jpeg"
        let upload = try await http.send(
            "POST", "/api/assets?filename=mine.jpg", headers: jpeg,
            body: try SyntheticPhoto(width: 40, height: 30, seed: 5).image().encoded(as: .jpeg))
        #expect(upload.status == 201, "\(upload.text)")
        let created = try #require(try upload.object()["localIdentifier"] as? String)
        #expect(try await http.send("PATCH", "/api/assets/\(path(ids[1]))", json: ["isFavorite": true], headers: asClient).status == 200)
        // A client's deletion waits for the user's yes (as iOS asks), here answered over the API.
        func allowed(_ method: String, _ target: String) async throws -> Int {
            let deleting = Task { try await http.send(method, target, headers: asClient) }
            let user = ["Authorization": "Bearer \(key)"]
            let id = try #require(try await http.awaitPrompt(from: client, userKey: key)["id"] as? String)
            #expect(try await http.send("POST", "/api/prompts/\(id)", json: ["answer": "allow"], headers: user).status == 204)
            return try await deleting.value.status
        }
        #expect(try await allowed("DELETE", "/api/assets/\(path(created))") == 200)
        #expect(try await allowed("POST", "/api/assets/\(path(created))/purge") == 204)

        // The server writes a client's entries within half a second; its own report route writes
        // them at once, and then the report (another process) reads them.
        #expect(try await http.send("GET", "/api/clients/\(client)/report", headers: ["Authorization": "Bearer \(key)"]).status == 200)
        let entries = try report(client)
        let seen = Set(entries.map { "\($0.action) \($0.localIdentifier)" })
        #expect(seen.contains("fetch \(ids[0])") && seen.contains("fetch \(ids[1])"), "the assets the listing revealed: \(seen)")
        #expect(entries.contains { $0.action == "fetch" && $0.localIdentifier.isEmpty && $0.detail == "2 assets" })
        #expect(seen.contains("thumbnail \(ids[0])"))
        #expect(!seen.contains("thumbnail \(ids[1])"), "only the pixels it asked for")
        #expect(seen.contains("create \(created)"))
        #expect(seen.contains("update \(ids[1])"))
        #expect(seen.contains("delete \(created)"))
        #expect(entries.first?.action == "delete", "newest first")
        #expect(!seen.contains { $0.hasPrefix("delete ") && $0 != "delete \(created)" })
    }

    /// Issue 18 items 6 and 7: tokens from the CLI, no decisions for unknown clients, Remove App.
    @Test func tokensUnknownClientsAndRemovingAnApp() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let unknown = try run(["privacy", "grant", "--client", "com.example.later", "--service", "camera"])
        #expect(unknown.status == 1 && unknown.standardError.contains("no client com.example.later is registered"), "\(unknown.standardError)")
        #expect(try run(["privacy", "limit", "--client", "com.example.later"]).status == 1)
        let register = try run(["privacy", "register", "--json", folder.appendingPathComponent("booth.json").path])
        let first = try #require(try JSONSerialization.jsonObject(with: Data(register.standardOutput.utf8)) as? [String: String], "\(register.standardOutput)")
        #expect(first["identifier"] == "com.example.booth" && (first["token"]?.count ?? 0) >= 43)
        let another = try run(["privacy", "token", "--client", "com.example.booth", "--json"])
        let second = try #require(try JSONSerialization.jsonObject(with: Data(another.standardOutput.utf8)) as? [String: String], "\(another.standardOutput)")
        #expect(second["token"] != nil && second["token"] != first["token"])
        #expect(try run(["privacy", "token", "--client", "com.example.nobody"]).status == 1)
        #expect(try run(["privacy", "grant", "--client", "com.example.booth", "--service", "camera"]).status == 0)
        let removed = try run(["privacy", "remove", "--client", "com.example.booth"])
        #expect(removed.status == 0 && removed.standardOutput == "removed com.example.booth\n")
        #expect(try run(["privacy", "list", "--json"]).standardOutput.contains("com.example.booth") == false)
        #expect(try run(["privacy", "remove", "--client", "com.example.booth"]).status == 1, "removed already")
        // Registered again, it starts over.
        #expect(try run(["privacy", "register", folder.appendingPathComponent("booth.json").path]).status == 0)
        #expect(try statuses()["camera"] == "notDetermined")
    }

    @Test("privacy commands have --help", arguments: ["register", "token", "list", "grant", "deny", "reset", "limit", "remove", "report", "request"])
    func help(_ command: String) throws {
        let result = try CLIRunner.run(["privacy", command, "--help"])
        #expect(result.status == 0 && result.standardOutput.contains("--library"))
    }
}
