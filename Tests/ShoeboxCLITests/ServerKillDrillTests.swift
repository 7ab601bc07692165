import Crypto
import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Synchronization
import Testing

/// Two `shoebox serve` processes on one library, one of them SIGKILLed while clients upload,
/// a large upload is under way, a client waits for the user's answer and another for a pick:
/// clients that retry on the other server lose nothing, the large upload goes on from where it
/// got, and the question and the pick survive.
@Suite(.serialized) struct ServerKillDrillTests {
    final class Counts: Sendable {
        let finished = Atomic<Int>(0)
        let killed = Atomic<Bool>(false)
        let retried = Atomic<Int>(0)
    }

    struct Server: Sendable {
        let command: BackgroundCommand
        let http: RawHTTP
    }

    static func start(_ library: String, key: String) async throws -> Server {
        let command = try BackgroundCommand(["serve", "--library", library, "--port", "0", "--json", "--key", key])
        let ready = try await command.line(containing: #""port""#)
        let object = try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any]
        return Server(command: command, http: RawHTTP(port: try #require(object?["port"] as? Int)))
    }

    @Test func killingOneOfTwoServersLosesNoUploadQuestionOrPick() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-drill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Drill.shoebox").path
        let made = try CLIRunner.run(["init", "--library", library])
        #expect(made.status == 0, "\(made.standardError)")
        let key = "drill-key"
        let a = try await Self.start(library, key: key)
        let b = try await Self.start(library, key: key)
        defer { b.command.interrupt() }
        let user = ["Authorization": "Bearer \(key)"]

        // A client registers and asks for the camera on A; the question waits.
        let registered = try await b.http.send(
            "POST", "/api/clients", headers: ["Content-Type": "application/json"],
            body: Data(
                """
                {"identifier": "com.example.drill", "displayName": "Drill", "usageDescriptions": {"NSCameraUsageDescription": "Takes pictures."}}
                """.utf8))
        #expect(registered.status == 201, "\(registered.text)")
        let token = try #require(try registered.object()["token"] as? String)
        let client = ["Authorization": "Bearer \(token)"]
        let firstAsk = Task { try? await a.http.send("POST", "/api/authorization/camera", headers: client) }
        // B's user hears of the question raised on A (woken by B's event stream).
        let question = try? await b.http.awaitPrompt(userKey: key, timeout: 10)
        let questionID = try #require(question?["id"] as? String, "B never listed the question raised on A")

        // The client asks for a pick on A, and the user selects a photo there.
        let pickMe = try SyntheticPhoto(width: 640, height: 480, seed: 499).image().encoded(as: .jpeg)
        let pickMeHash = SHA256.hash(data: pickMe).map { String(format: "%02x", $0) }.joined()
        let uploaded = try await a.http.send("POST", "/api/assets?filename=pick-me.jpg", headers: user, body: pickMe)
        let pickMeID = try #require(try uploaded.object()["localIdentifier"] as? String, "\(uploaded.text)")
        let asked = try await a.http.send(
            "POST", "/api/picker/sessions", headers: client.merging(["Content-Type": "application/json"]) { $1 }, body: Data("{}".utf8))
        let pick = try #require(try asked.object()["id"] as? String, "\(asked.text)")
        let ui = "/api/picker/sessions/\(pick)/ui"
        let selected = try await a.http.send(
            "POST", "\(ui)/select", headers: user.merging(["Content-Type": "application/json"]) { $1 },
            body: Data(#"{"id": "\#(pickMeID)"}"#.utf8))
        #expect(selected.status == 200, "\(selected.text)")

        // A large file is uploaded in pieces to A; A takes the first third.
        let large = try SyntheticPhoto(width: 1600, height: 1200, seed: 498).image().encoded(as: .jpeg)
        let largeHash = SHA256.hash(data: large).map { String(format: "%02x", $0) }.joined()
        let begun = try await a.http.send(
            "POST", "/api/uploads", headers: user.merging(["Content-Type": "application/json"]) { $1 },
            body: Data(#"{"filename": "large.jpg", "size": \#(large.count)}"#.utf8))
        let uploadID = try #require(try begun.object()["id"] as? String, "\(begun.text)")
        let third = large.count / 3
        let firstPiece = try await a.http.send("PUT", "/api/uploads/\(uploadID)?offset=0", headers: user, body: large.prefix(third))
        #expect(firstPiece.status == 200, "\(firstPiece.text)")

        // Forty photos, four uploads at a time, alternating between A and B; A is killed after the
        // tenth upload finishes, with others in flight. A client whose upload to A fails uploads
        // to B instead.
        let photos = try (0..<40).map { index -> (name: String, data: Data, sha256: String) in
            let data = try SyntheticPhoto(width: 640, height: 480, seed: UInt64(500 + index)).image().encoded(as: .jpeg)
            return ("drill-\(index).jpg", data, SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined())
        }
        let counts = Counts()
        let aPID = a.command.processIdentifier
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                guard next < photos.count else { return }
                let photo = photos[next]
                let first = next % 2 == 0 ? a.http : b.http
                next += 1
                group.addTask {
                    let path = "/api/assets?filename=\(photo.name)"
                    var response = try? await first.send("POST", path, headers: user, body: photo.data)
                    if response.map({ $0.status == 201 || $0.status == 200 }) != true {
                        // The server is gone (or answered with an error): try the other.
                        counts.retried.add(1, ordering: .relaxed)
                        response = try await b.http.send("POST", path, headers: user, body: photo.data)
                    }
                    let answered = try #require(response)
                    #expect(answered.status == 201 || answered.status == 200, "\(photo.name): \(answered.status) \(answered.text)")
                    #expect(try answered.object()["sha256"] as? String == photo.sha256)
                    if counts.finished.add(1, ordering: .relaxed).newValue == 10, !counts.killed.exchange(true, ordering: .relaxed) {
                        kill(aPID, SIGKILL)
                    }
                }
            }
            for _ in 0..<4 { add() }
            while try await group.next() != nil { add() }
        }
        let wasKilled = counts.killed.load(ordering: .relaxed)
        #expect(wasKilled)
        _ = try await a.command.waitForExit(timeout: 10)
        #expect(a.command.terminatingSignal == SIGKILL, "A was not killed")
        let retries = counts.retried.load(ordering: .relaxed)
        #expect(retries >= 1, "no upload went to A after it was killed: the drill tested nothing")

        // Every photo is in the library exactly once, as B lists it.
        var hashes: [String] = []
        var after: String?
        repeat {
            let query = "/api/assets?limit=500" + (after.map { "&after=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" } ?? "")
            let page = try await b.http.send("GET", query, headers: user).object()
            hashes += (page["assets"] as? [[String: Any]] ?? []).compactMap { $0["contentHash"] as? String }
            after = page["next"] as? String
        } while after != nil
        // The upload A began goes on through B from the byte A stored.
        let standing = try await b.http.send("GET", "/api/uploads/\(uploadID)", headers: user).object()
        #expect(standing["offset"] as? Int == third, "B does not know how far the upload on A got: \(standing)")
        let rest = try await b.http.send("PUT", "/api/uploads/\(uploadID)?offset=\(third)", headers: user, body: large.suffix(from: third))
        let restHash = try rest.object()["sha256"] as? String
        #expect(rest.status == 201 && restHash == largeHash, "\(rest.text)")
        hashes.append(largeHash)

        #expect(hashes.count == photos.count + 2, "\(hashes.count) assets for \(photos.count + 2) photos")
        #expect(Set(hashes) == Set(photos.map(\.sha256) + [pickMeHash, largeHash]), "a photo is missing or one is there twice")

        // The pick outlived A: B shows it with the user's selection, the user chooses there, and
        // the client gets the photo from B.
        let state = try await b.http.send("GET", ui, headers: user).object()
        #expect(state["selection"] as? [String] == [pickMeID], "B lost the selection made on A: \(state)")
        let chose = try await b.http.send("POST", "\(ui)/confirm", headers: user)
        #expect(chose.status == 200, "\(chose.text)")
        let result = try await b.http.send("GET", "/api/picker/sessions/\(pick)", headers: client).object()
        #expect(result["status"] as? String == "picked", "\(result)")
        let image = ((result["results"] as? [[String: Any]])?.first?["files"] as? [String: String])?["image"]
        let file = try await b.http.send("GET", try #require(image, "no file in \(result)"), headers: client)
        #expect(file.status == 200 && file.body == pickMe, "the picked file is not the photo")

        // The question outlived A: B lists it, the client asks again on B, and the user's answer
        // there is the client's. (That a request on one server waits for the question another
        // raised, rather than raising its own, SeveralServersTests shows on an awaited count.)
        _ = await firstAsk.value
        #expect(try await b.http.send("GET", "/api/prompts", headers: user).array().compactMap { $0["id"] as? String } == [questionID])
        let secondAsk = Task { try await b.http.send("POST", "/api/authorization/camera", headers: client) }
        let answer = try await b.http.send(
            "POST", "/api/prompts/\(questionID)", headers: user.merging(["Content-Type": "application/json"]) { $1 },
            body: Data(#"{"answer": "allow"}"#.utf8))
        #expect(answer.status == 204, "\(answer.text)")
        let status = try await secondAsk.value.object()["status"] as? String
        #expect(status == "authorized")

        // With B stopped, the library holds nothing half-done: doctor repairs what A's death left
        // in staging and then finds it whole.
        b.command.interrupt()
        _ = try await b.command.waitForExit(timeout: 30)
        let repaired = try CLIRunner.run(["doctor", "--library", library, "--repair", "--json"])
        let checked = try CLIRunner.run(["doctor", "--library", library, "--json"])
        #expect(checked.status == 0, "after repair: \(checked.standardOutput) (repair said \(repaired.standardOutput))")
    }
}
