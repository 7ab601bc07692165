import Foundation
import ShoeboxCapture
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxServer

/// The authorization matrix (issue 17, "Batteries"): every endpoint of docs/API.md × every
/// identity (the user by key and by cookie, a page without its CSRF token, nobody, a forged, a
/// revoked and a removed client's token, clients in each grant state, another client) × every
/// object kind (own, shared and unshared photos and movies; own, the user's and another client's
/// albums; the user's folder; own and another's fetch snapshots, uploads, picker sessions and
/// picked files; a waiting question; clients and services). Each cell's status follows from the
/// endpoint's access rule, and no answer, header or change event carries a secret the identity
/// may not see: an unshared photo's identifier, name, hash, place or bytes, an album's or
/// folder's title or identifier, another client's token, identifier or capabilities.
@Suite struct AuthorizationMatrixTests {
    /// The matrix's endpoint table and docs/API.md list the same endpoints: a new endpoint in the
    /// document cannot escape the matrix, nor can the table test one the document does not promise.
    @Test func everyDocumentedEndpointIsInTheMatrix() throws {
        let document = try APIDocument.load()
        let documented = Set(document.endpoints.map(\.endpoint))
        let tested = Set(MatrixEndpoint.table.map(\.documented))
        let sections = Set(document.endpoints.map(\.section))
        for section in [
            "Library", "Pixels and files", "Resumable uploads", "Clients and privacy", "Background work", "Picker sessions",
            APIDocument.pickerPageSection, "Pages",
        ] {
            #expect(sections.contains(section), "no endpoint read from the table of \(section): \(sections.sorted())")
        }
        #expect(documented.count >= 75, "only \(documented.count) endpoints read from docs/API.md: \(documented.map(\.description).sorted())")
        let missing = documented.subtracting(tested).map(\.description).sorted()
        let unknown = tested.subtracting(documented).map(\.description).sorted()
        #expect(missing.isEmpty, "docs/API.md lists endpoints the authorization matrix does not call: \(missing)")
        #expect(unknown.isEmpty, "the authorization matrix calls endpoints docs/API.md does not list: \(unknown)")
    }

    /// The parser finds what a table row says, in each of the ways the document writes it.
    @Test func theDocumentsRowsAreReadAsWritten() throws {
        let text = """
            ## Library
            | method and path | does |
            |---|---|
            | `POST /api/albums/ID/add` / `…/remove` `{"assets": [id]}` | membership |
            | `POST /api/assets/ID/restore`, `POST /api/assets/ID/purge` | restore |
            | `GET /api/events[?fetch=ID][&since=TOKEN]` | events |
            ### The picker page's own routes
            | method and path (after `…/ui`) | body | answers |
            | `GET` (`…/ui` itself) | | State |
            | `POST /camera/takePicture`, `/camera/retake` | | State |
            ## Pages
            | `GET /app/PATH` (`/app/**`) | files |
            """
        let found = try APIDocument(text: text).endpoints.map(\.endpoint.description)
        #expect(
            found == [
                "POST /api/albums/{}/add", "POST /api/albums/{}/remove", "POST /api/assets/{}/restore", "POST /api/assets/{}/purge",
                "GET /api/events", "GET /api/picker/sessions/{}/ui", "POST /api/picker/sessions/{}/ui/camera/takePicture",
                "POST /api/picker/sessions/{}/ui/camera/retake", "GET /app/{}",
            ], "\(found)")
    }

    @Test func everyIdentityGetsWhatItsRuleAllowsAndNoSecret() async throws {
        try await SyntheticCameraLock.shared.run {
            let before = CaptureDevice.isSyntheticCameraEnabled
            CaptureDevice.isSyntheticCameraEnabled = true
            defer { CaptureDevice.isSyntheticCameraEnabled = before }
            let started = ContinuousClock.now
            let fixture = try await MatrixFixture.start()
            defer { fixture.stop() }
            let setUp = ContinuousClock.now - started
            let listeners = try await MatrixListeners.open(fixture)
            var run = MatrixRun(fixture: fixture, listeners: listeners)
            try await run.theScanFindsWhatItLooksFor()
            try await run.everyCell()
            // The user's versioned thumbnails were answered from memory by the fast path, so the
            // clients' cells after them on the same URLs had it in play too.
            #expect(fixture.test.server.state.fastPathAnswers.load(ordering: .relaxed) > 0, "the thumbnail fast path answered no cell")
            let cellsTook = ContinuousClock.now - started - setUp
            try await run.theObjectsOfRefusedCellsAreAsTheyWere()
            try await run.eventsCarryNoSecret()
            for failure in run.failures.prefix(80) { Issue.record(Comment(rawValue: failure)) }
            #expect(run.failures.isEmpty, "\(run.failures.count) of \(run.cells) cells failed")
            let outcomes = run.outcomes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            print(
                "Authorization matrix: \(run.cells) cells (\(Set(MatrixEndpoint.table.map(\.documented)).count) endpoints, "
                    + "\(MatrixIdentity.allCases.count) identities, \(MatrixObject.allCases.count - 1) object kinds; \(outcomes)), "
                    + "\(run.streamsChecked) event streams checked; set-up \(setUp), cells \(cellsTook), in all \(ContinuousClock.now - started)")
        }
    }
}

/// One run of the matrix: its cells, and what they found.
private struct MatrixRun {
    let fixture: MatrixFixture
    let listeners: MatrixListeners
    var failures: [String] = []
    var cells = 0
    var outcomes: [String: Int] = [:]
    var streamsChecked = 0

    init(fixture: MatrixFixture, listeners: MatrixListeners) {
        self.fixture = fixture
        self.listeners = listeners
    }

    /// The scan is not blind: the user's own answers hold the secrets it looks for, and it finds
    /// them there for an identity that may not see them.
    mutating func theScanFindsWhatItLooksFor() async throws {
        let secret = TestServer.escaped(fixture.secret)
        for path in ["/api/assets/\(secret)", "/api/assets/\(secret)/thumbnail?size=64", "/api/assets/\(secret)/original", "/api/albums"] {
            let response = try await fixture.call(.user, "GET", path)
            if fixture.leaks(body: response.body, headers: response.headers, for: .limited, request: "").isEmpty {
                failures.append("the scan finds no secret in the user's \(path) (\(response.status))")
            }
        }
    }

    mutating func everyCell() async throws {
        // SHOEBOX_MATRIX_TRACE=1 prints each endpoint's cells and time.
        let traces = ProcessInfo.processInfo.environment["SHOEBOX_MATRIX_TRACE"] != nil
        for endpoint in MatrixEndpoint.table {
            let start = ContinuousClock.now
            let before = cells
            defer { if traces { print("matrix: \(endpoint.method) \(endpoint.template): \(cells - before) cells, \(ContinuousClock.now - start)") } }
            for method in [endpoint.method] + (endpoint.answersHead ? ["HEAD"] : []) {
                for identity in MatrixIdentity.allCases where identity != .member || endpoint.callsAsMember {
                    for object in endpoint.objects {
                        guard let values = fixture.values(for: identity, object: object, session: endpoint.session) else { continue }
                        let failed = failures.count
                        do {
                            try await cell(endpoint, method: method, identity: identity, object: object, values: values)
                        } catch {
                            failures.append("\(method) \(endpoint.template) as \(identity.rawValue) on \(object.rawValue) could not run: \(error)")
                        }
                        if traces { for failure in failures.dropFirst(failed) { print("matrix failure: \(failure.prefix(600))") } }
                        if cells % 300 == 0 { await listeners.drain() }
                    }
                }
            }
        }
    }

    mutating func cell(
        _ endpoint: MatrixEndpoint, method: String, identity: MatrixIdentity, object: MatrixObject,
        values: MatrixEndpoint.Values
    ) async throws {
        var values = values
        let expected = endpoint.expected(for: identity, on: object, method: method)
        let isFresh = endpoint.consumes && expected == .success
        if isFresh { values = try await fixture.fresh(object, for: identity, session: endpoint.session, values: values) }
        if expected == .success, let prepare = endpoint.prepare { try await prepare(fixture, values) }
        let path = try Self.fill(endpoint.template, with: values)
        let body = try await endpoint.body(fixture, values)
        let asked = fixture.answerer.count
        let response = try await fixture.call(identity, method, path, body: body, streams: endpoint.streams)
        let questions = fixture.answerer.questions(since: asked).filter { $0.client == identity.clientIdentifier }
        cells += 1
        outcomes["\(expected)".trimmingCharacters(in: .whitespaces), default: 0] += 1
        let name = "\(method) \(path) as \(identity.rawValue) on \(object.rawValue)"
        if let problem = Self.problem(response, expected: expected, method: method, questions: questions, object: values["oRaw"]) {
            failures.append("\(name): \(problem)")
        }
        var sent = "\(method) \(path) \(path.removingPercentEncoding ?? path)"
        if case .json(let data) = body { sent += String(decoding: data, as: UTF8.self) }
        let leaks = fixture.leaks(body: method == "HEAD" ? Data() : response.body, headers: response.headers, for: identity, request: sent)
        if !leaks.isEmpty { failures.append("\(name) (\(response.status)) leaks \(leaks.joined(separator: "; ")): \(response.text.prefix(300))") }
        try await settle(
            endpoint, method: method, identity: identity, object: object, response: response, values: values, isFresh: isFresh,
            wasRefused: expected != .success, questions: questions)
    }

    /// After a cell: what it made becomes a secret of its maker's; a session it made or used up is
    /// ended (its camera stops); grants a question changed are set back.
    mutating func settle(
        _ endpoint: MatrixEndpoint, method: String, identity: MatrixIdentity, object: MatrixObject, response: RawHTTP.Response,
        values: MatrixEndpoint.Values, isFresh: Bool, wasRefused: Bool, questions: [PromptAnswerer.Question]
    ) async throws {
        // Made by the cell (`201`): an asset or album, a token, a fetch, an upload, a picker session.
        let made = response.status == 201 ? (try? response.object()) : nil
        if let id = made?["localIdentifier"] as? String { fixture.madeByCell(id, by: identity) }
        if let token = made?["token"] as? String {
            fixture.addSecret("a token \(identity.rawValue) registered", strings: [token]) { $0 == identity || (identity.isUser && $0.isUser) }
        }
        if let id = made?["id"] as? String, ["/api/fetches", "/api/uploads", "/api/picker/sessions"].contains(endpoint.template) {
            let isFetch = endpoint.template == "/api/fetches"
            fixture.addSecret("a capability \(identity.rawValue) made in a cell", strings: [id]) {
                $0 == identity || (identity.isUser && $0.isUser) || ($0.isUser && !isFetch)
            }
            if endpoint.template == "/api/picker/sessions" { _ = try? await fixture.test.user("DELETE", "/api/picker/sessions/\(id)") }
        }
        // A fresh session is done with; so is a shared one a refused cell got going (its camera
        // would hold the device the next cells need).
        if object == .ownSession || object == .otherSession, isFresh || (endpoint.session != .library && wasRefused && (200..<300).contains(response.status)) {
            _ = try? await fixture.test.user("DELETE", "/api/picker/sessions/\(values["o"]!)")
        }
        if questions.contains(where: { !$0.service.hasPrefix("deleteAssets") }) { try await fixture.applyGrants(identity) }
    }

    /// What is wrong with a cell's answer, if anything.
    static func problem(
        _ response: RawHTTP.Response, expected: MatrixEndpoint.Outcome, method: String,
        questions: [PromptAnswerer.Question], object: String?
    ) -> String? {
        let code = ((try? response.object())?["error"] as? [String: Any])?["code"] as? String
        let got = "got \(response.status) \(code ?? "") \(method == "HEAD" ? "" : response.text.prefix(200))"
        switch expected {
        case .success:
            guard (200..<300).contains(response.status) else { return "expected 2xx, \(got)" }
        case .refused(let status, let wanted), .asks(let status, let wanted):
            guard response.status == status, method == "HEAD" || wanted == nil || code == wanted else { return "expected \(expected), \(got)" }
        }
        if case .asks = expected {
            guard let question = questions.first else { return "no question reached the user (\(got))" }
            if question.service.hasPrefix("deleteAssets"), let object, question.assets != [object] {
                return "the deletion question names \(question.assets), not \(object)"
            }
        } else if !questions.isEmpty {
            return "it asked the user \(questions.map(\.service)) (\(got))"
        }
        return nil
    }

    static func fill(_ template: String, with values: MatrixEndpoint.Values) throws -> String {
        var path = template
        while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
            let name = String(path[path.index(after: open)..<close])
            path.replaceSubrange(open...close, with: try values[name].orThrow("no value for {\(name)} in \(template)"))
        }
        return path
    }

    // MARK: After the cells

    /// Refused cells changed nothing, and used-up objects were fresh ones: the shared objects are
    /// all still there, as they were.
    mutating func theObjectsOfRefusedCellsAreAsTheyWere() async throws {
        for id in [fixture.granted, fixture.secret, fixture.grantedMovie, fixture.secretMovie] {
            let asset = try await fixture.test.user("GET", "/api/assets/\(TestServer.escaped(id))").object()["asset"] as? [String: Any]
            if asset?["isTrashed"] as? Bool != false || asset?["isFavorite"] as? Bool != true {
                failures.append("after the matrix, \(id) is \(asset.map { "\($0)" } ?? "gone")")
            }
        }
        let albums = try await fixture.test.user("GET", "/api/albums").text
        for id in [fixture.userAlbum, fixture.userFolder] + fixture.owned.values.compactMap(\.album) where !albums.contains(id) {
            failures.append("after the matrix, the album \(id) (\(fixture.title(ofAlbum: id))) is gone")
        }
        for (owner, owned) in fixture.owned {
            for (kind, session) in owned.sessions {
                let status = try await fixture.test.user("GET", "/api/picker/sessions/\(session)").object()["status"] as? String
                if status != "pending" { failures.append("after the matrix, \(owner)'s \(kind) picker is \(status ?? "gone")") }
            }
            if let upload = owned.upload {
                let state = try await fixture.test.user("GET", "/api/uploads/\(upload)").object()["offset"] as? Int
                if state != 0 { failures.append("after the matrix, \(owner)'s upload is at \(state.map(String.init) ?? "gone")") }
            }
        }
        let prompts = try await fixture.test.user("GET", "/api/prompts").text
        if !prompts.contains(fixture.prompt) { failures.append("after the matrix, the waiting question was answered") }
        for identity in MatrixIdentity.allCases where identity.isClient {
            let status = try await fixture.call(identity, "GET", "/api/authorization/photoLibrary").object()["status"] as? String
            if status != identity.status(of: "photoLibrary") {
                failures.append("after the matrix, \(identity.rawValue)'s photoLibrary is \(status ?? "?"), not \(identity.status(of: "photoLibrary"))")
            }
        }
    }

    /// The user changes what limited clients may not see; every client's stream (open since the
    /// start, and one replayed from a token) carries none of it, and ends at a change it may see.
    mutating func eventsCarryNoSecret() async throws {
        for refused in listeners.refused {
            let expected = MatrixEndpoint(method: "GET", template: "/api/events", access: .events).expected(for: refused.identity, on: .none, method: "GET")
            if case .refused(let status, _) = expected, refused.head.hasPrefix("HTTP/1.1 \(status)") { continue }
            failures.append("opening \(refused.path) as \(refused.identity.rawValue): \(refused.head), expected \(expected)")
        }
        let since = try await fixture.call(.limited, "POST", "/api/fetches", body: .object([String: Any]())).object()["changeToken"] as? String ?? ""
        let secret = TestServer.escaped(fixture.secret)
        for change in [["isFavorite": false], ["isFavorite": true], ["isHidden": true], ["isHidden": false]] {
            try await fixture.asUser("PATCH", "/api/assets/\(secret)", json: change)
        }
        try await fixture.asUser("POST", "/api/albums/\(TestServer.escaped(fixture.userAlbum))/add", json: ["assets": [fixture.secretMovie]])
        let late = try await fixture.makeAlbum(by: .user, title: "SECRET-ALBUM-LATE-\(UUID().uuidString)", holding: [fixture.secret])
        _ = try await fixture.makeAsset(by: .user, filename: "SECRET-LATE-\(UUID().uuidString).jpg")
        try await fixture.asUser("PATCH", "/api/albums/\(TestServer.escaped(late))", json: ["title": fixture.title(ofAlbum: late)])
        // Then a change every reader of the first admin's library sees: the limited client's own
        // photo. The member reads a library of their own: they hear of their own new photo.
        let readers = Set(listeners.listeners.map(\.identity)).subtracting([.member])
        let sentinel = try await fixture.makeAsset(by: .limited, filename: "SENTINEL-\(UUID().uuidString).jpg")
        for missed in await listeners.wait(for: sentinel, timeout: 20, of: readers) {
            failures.append("\(missed.identity.rawValue)'s \(missed.path) never heard of the limited client's new photo")
        }
        let memberSentinel = try await fixture.makeAsset(by: .member, filename: "MEMBER-SENTINEL-\(UUID().uuidString).jpg")
        for missed in await listeners.wait(for: memberSentinel, timeout: 20, of: [.member]) {
            failures.append("\(missed.identity.rawValue)'s \(missed.path) never heard of their own new photo")
        }
        // The changes the others must not hear of did reach the user's stream.
        let users = listeners.listeners.first { $0.identity == .browser && $0.path == "/api/events" }
        if let users, !(String(decoding: users.stream.received, as: UTF8.self).contains(MatrixFixture.needles(fixture.secret).last!)) {
            failures.append("the user's stream never named the secret photo the user changed")
        }
        var streams = listeners.listeners.map { ($0.identity, $0.path, $0.stream) }
        let replay = try fixture.test.http.open("/api/events?since=\(since)", headers: fixture.credentials(.limited, changing: false))
        if !(await replay.read(until: sentinel, timeout: 20)).contains(sentinel) {
            failures.append("the limited client's stream replayed from \(since) never reached its new photo")
        }
        streams.append((.limited, "/api/events?since=\(since)", replay))
        for (identity, path, stream) in streams {
            streamsChecked += 1
            let leaks = fixture.leaks(body: stream.received, headers: [:], for: identity, request: path)
            if !leaks.isEmpty { failures.append("\(identity.rawValue)'s \(path) carried \(leaks.joined(separator: "; "))") }
        }
        if !listeners.listeners.contains(where: { $0.identity == .limited }) { failures.append("the limited client's stream was not open") }
    }
}
