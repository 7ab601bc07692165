import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// `shoebox pick`, end to end: the command waits while the user answers in the browser (here,
/// the test speaking HTTP as the browser would), then prints what was picked.
@Suite struct PickCommandTests {
    let folder: URL
    let library: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-pick-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        library = folder.appendingPathComponent("Test.shoebox").path
        _ = try CLIRunner.run(["init", "--library", library])
    }

    /// Imports two generated photos with `shoebox import`; returns their identifiers.
    func importPhotos() throws -> [String] {
        let files = try (1...2).map { seed in
            let url = folder.appendingPathComponent("photo\(seed).jpg")
            try SyntheticPhoto(width: 64, height: 48, seed: UInt64(seed)).image().write(to: url)
            return url.path
        }
        let imported = try CLIRunner.run(["import", "--json", "--library", library] + files)
        #expect(imported.status == 0, "\(imported.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(imported.standardOutput.utf8)) as? [String: Any]
        let ids = try #require(object?["assets"] as? [String])
        try #require(ids.count == 2)
        return ids
    }

    /// What the picker's URL says: where the server listens, the session, and the user's key.
    struct PickerURL {
        let port: Int
        let session: String
        let key: String

        /// Reads the URL `shoebox pick` printed on standard error.
        init(announcedBy command: BackgroundCommand) async throws {
            let line = try await command.line(containing: "Pick in your browser: ", onStandardError: true)
            let text = String(line[line.range(of: "Pick in your browser: ")!.upperBound...]).trimmingCharacters(in: .whitespaces)
            let components = try #require(URLComponents(string: text), "not a URL: \(text)")
            #expect(components.host == "127.0.0.1")
            port = try #require(components.port)
            #expect(components.path.hasPrefix("/pick/"), "the URL is the picker page: \(text)")
            session = String(components.path.dropFirst("/pick/".count))
            key = try #require(components.queryItems?.first { $0.name == "key" }?.value, "the URL signs the user in: \(text)")
            #expect(!session.isEmpty && !key.isEmpty)
        }
    }

    /// The user's browser on the picker page: opening the printed URL sets the key's cookie, and
    /// the page carries the CSRF token that every state-changing call must send with it.
    struct Browser {
        let http: RawHTTP
        let session: String
        let cookie: String
        let csrf: String

        init(opening url: PickerURL) async throws {
            http = RawHTTP(port: url.port)
            session = url.session
            let signIn = try await http.send("GET", "/pick/\(url.session)?key=\(url.key)")
            #expect(signIn.status == 303)
            let setCookie = try #require(signIn.headers["set-cookie"], "signing in sets the cookie")
            cookie = String(setCookie.split(separator: ";")[0])
            let page = try await http.send("GET", "/pick/\(url.session)", headers: ["Cookie": cookie])
            #expect(page.status == 200)
            let marker = #"<meta name="shoebox-csrf" content=""#
            let start = try #require(page.text.range(of: marker), "the page carries the CSRF token").upperBound
            csrf = String(page.text[start...].prefix { $0 != "\"" })
        }

        /// Presses a button of the page (`select`, `confirm`, `cancel`, …); returns the session's state.
        @discardableResult
        func press(_ action: String, _ body: [String: Any] = [:]) async throws -> [String: Any] {
            let response = try await http.send(
                "POST", "/api/picker/sessions/\(session)/ui/\(action)", json: body,
                headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf])
            #expect(response.status == 200, "\(action): \(response.text)")
            return try response.object()
        }
    }

    func pick(_ extra: [String] = []) throws -> BackgroundCommand {
        try BackgroundCommand(["pick", "--library", library, "--json", "--port", "0"] + extra)
    }

    @Test func cancellingPrintsNothingAndExitsOne() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try importPhotos()
        let command = try pick()
        let browser = try await Browser(opening: try await PickerURL(announcedBy: command))
        let state = try await browser.press("cancel")
        #expect(state["finished"] as? String == "cancelled")
        #expect(try await command.waitForExit() == 1)
        #expect(command.standardOutput.isEmpty)
    }

    @Test func choosingAPhotoPrintsItsInfoAsJSON() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = try importPhotos()
        let command = try pick()
        let url = try await PickerURL(announcedBy: command)
        let browser = try await Browser(opening: url)
        // The cookie alone does not change the session: a forged cross-site request has no token.
        let forged = try await browser.http.send(
            "POST", "/api/picker/sessions/\(url.session)/ui/select", json: ["id": ids[1]],
            headers: ["Cookie": browser.cookie])
        #expect(forged.status == 403)
        let selected = try await browser.press("select", ["id": ids[1]])
        #expect(selected["selection"] as? [String] == [ids[1]])
        let confirmed = try await browser.press("confirm")
        #expect(confirmed["finished"] as? String == "picked")

        #expect(try await command.waitForExit() == 0, "\(command.standardError)")
        let printed = try JSONSerialization.jsonObject(with: Data(command.standardOutput.utf8)) as? [[String: Any]]
        let infos = try #require(printed, "standard output is a JSON array: \(command.standardOutput)")
        try #require(infos.count == 1)
        #expect(infos[0]["mediaType"] as? String == "public.image")
        #expect(infos[0]["localIdentifier"] as? String == ids[1])
        let imageURL = try #require(infos[0]["imageURL"] as? String)
        defer { removePickedFiles(imageURL) }
        #expect(FileManager.default.fileExists(atPath: imageURL))
        #expect(try Image(contentsOf: URL(fileURLWithPath: imageURL)).pixelSize == PixelSize(width: 64, height: 48), "the picked photo's copy")
    }

    @Test func pickUsesTheLibrarysRunningServer() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = try importPhotos()
        let server = try BackgroundCommand(["serve", "--library", library, "--port", "0", "--json"])
        defer { server.interrupt() }
        let ready = try await server.line(containing: #""port""#)
        let port = try #require((try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any])?["port"] as? Int)

        let command = try pick()
        let url = try await PickerURL(announcedBy: command)
        #expect(url.port == port, "pick asked the running server rather than starting one")
        // Shoebox's own tools may also act for the user with the key as a bearer token (no CSRF token).
        let http = RawHTTP(port: port)
        let user = ["Authorization": "Bearer \(url.key)"]
        #expect(try await http.send("POST", "/api/picker/sessions/\(url.session)/ui/select", json: ["id": ids[0]], headers: user).status == 200)
        #expect(try await http.send("POST", "/api/picker/sessions/\(url.session)/ui/confirm", json: [:], headers: user).status == 200)

        #expect(try await command.waitForExit() == 0, "\(command.standardError)")
        let infos = try #require(try JSONSerialization.jsonObject(with: Data(command.standardOutput.utf8)) as? [[String: Any]])
        #expect(infos.map { $0["localIdentifier"] as? String } == [ids[0]])
        let imageURL = try #require(infos.first?["imageURL"] as? String)
        defer { removePickedFiles(imageURL) }
        #expect(FileManager.default.fileExists(atPath: imageURL))
    }

    /// Starts `shoebox serve` on the library; returns it and its port.
    func serve() async throws -> (BackgroundCommand, Int) {
        let server = try BackgroundCommand(["serve", "--library", library, "--port", "0", "--json", "--no-worker"])
        let ready = try await server.line(containing: #""port""#)
        let port = try #require((try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any])?["port"] as? Int)
        return (server, port)
    }

    /// Issue 39 item 2: a person may take an hour to choose. The command waits as long as they do,
    /// in polls shorter than its request timeout — here 1 s (`SHOEBOX_PICK_REQUEST_TIMEOUT`, as the
    /// default 120 s cannot be waited out in a test) — instead of failing when one request has
    /// waited as long as the server's long poll.
    @Test func pickWaitsLongerThanItsRequestTimeout() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = try importPhotos()
        let (server, port) = try await serve()
        defer { server.interrupt() }
        let command = try BackgroundCommand(
            ["pick", "--library", library, "--json"], environment: ["SHOEBOX_PICK_REQUEST_TIMEOUT": "1"])
        let url = try await PickerURL(announcedBy: command)
        #expect(url.port == port)
        // Four request timeouts go by while the person chooses.
        #expect(await command.keepsRunning(for: 4), "pick ended while the person was choosing: \(command.standardError)")
        let http = RawHTTP(port: port)
        let user = ["Authorization": "Bearer \(url.key)"]
        #expect(try await http.send("POST", "/api/picker/sessions/\(url.session)/ui/select", json: ["id": ids[1]], headers: user).status == 200)
        #expect(try await http.send("POST", "/api/picker/sessions/\(url.session)/ui/confirm", json: [:], headers: user).status == 200)
        #expect(try await command.waitForExit() == 0, "\(command.standardError)")
        let infos = try #require(try JSONSerialization.jsonObject(with: Data(command.standardOutput.utf8)) as? [[String: Any]])
        #expect(infos.map { $0["localIdentifier"] as? String } == [ids[1]])
        if let imageURL = infos.first?["imageURL"] as? String { removePickedFiles(imageURL) }
    }

    /// Issue 39 item 2: when the server goes away mid-pick (stopped, or killed), the command says
    /// so in a sentence and exits 1, instead of printing an `NSError`.
    @Test(arguments: [SIGINT, SIGKILL])
    func aServerThatStopsIsASentence(_ signal: Int32) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try importPhotos()
        let (server, port) = try await serve()
        defer { server.interrupt() }
        let command = try pick()
        #expect(try await PickerURL(announcedBy: command).port == port)
        server.signal(signal)
        _ = try await server.waitForExit(timeout: 20)
        #expect(try await command.waitForExit(timeout: 30) == 1)
        let said = command.standardError
        #expect(said.contains("error: ") && said.contains("the library's server at http://127.0.0.1:\(port)"), "\(said)")
        for dump in ["Error Domain", "NSURLErrorDomain", "Code=", "(null)"] {
            #expect(!said.contains(dump), "an error dump, not a sentence: \(said)")
        }
    }

    /// Removes the session's folder of picked copies (they are the caller's to remove).
    func removePickedFiles(_ path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard folder.lastPathComponent.hasPrefix("shoebox-picker-") else { return }
        try? FileManager.default.removeItem(at: folder)
    }
}
