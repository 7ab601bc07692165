import Foundation
import ShoeboxServer
import ShoeboxTesting
import Testing

#if canImport(Glibc)
    import Glibc
    import ShoeboxImaging
    import ShoeboxLibrary
#endif

/// Requests that used to end in a 500 or be answered when they should not (issue 17 item 15):
/// oversized JSON is 413, a second Host header is refused, and an internal error names no
/// internals.
@Suite struct RequestHygieneTests {
    @Test func oversizedJSONIs413() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let title = String(repeating: "a", count: 1_100_000)
        let response = try await test.user("POST", "/api/albums", body: Data(#"{"title": "\#(title)"}"#.utf8), headers: ["Content-Type": "application/json"])
        #expect(response.status == 413, "\(response.status) \(response.text.prefix(200))")
        #expect(try response.object()["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "tooLarge")
        #expect(!response.text.contains("NIO"), "the answer names an internal type: \(response.text)")
    }

    /// Upload names of 70,000 characters or 300 non-ASCII ones are cut to a file name, keeping the
    /// extension; a file that is no photo is refused without naming the server's paths.
    @Test func longUploadNamesAreCutAndErrorsNameNoPaths() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let names = [
            String(repeating: "a", count: 70_000) + ".jpg", String(repeating: "é", count: 300) + ".jpg",
            String(repeating: "日本", count: 150),
        ]
        for (index, name) in names.enumerated() {
            let jpeg = try SyntheticPhoto(width: 64, height: 48, seed: UInt64(700 + index)).image().encoded(as: .jpeg)
            let escaped = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
            let response = try await test.user("POST", "/api/assets?filename=\(escaped)", body: jpeg)
            #expect(response.status == 201, "\(name.prefix(20))…: \(response.status) \(response.text.prefix(300))")
            let stored = try ((response.object()["asset"] as? [String: Any])?["originalFilename"] as? String).orThrow("no name")
            #expect(stored.count <= 200 && stored.utf8.count <= 240, "\(stored.count) characters, \(stored.utf8.count) bytes")
            #expect(name.hasSuffix(".jpg") == stored.hasSuffix(".jpg"), "the extension is kept: \(stored.suffix(10))")
        }
        let notAPhoto = try await test.user("POST", "/api/assets?filename=notes.jpg", body: Data("just some text, not a photo".utf8))
        #expect(notAPhoto.status == 415, "\(notAPhoto.status) \(notAPhoto.text)")
        for secret in ["/tmp", "staging", test.library.url.path, "import-"] {
            #expect(!notAPhoto.text.contains(secret), "the error names \(secret): \(notAPhoto.text)")
        }
    }

    @Test func aSecondHostHeaderIsRefused() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        // RawHTTP writes the right Host first; this adds another.
        let response = try await test.user("GET", "/api/health", headers: ["host": "evil.example"])
        #expect(response.status == 400 && response.text.contains("more than one Host"), "\(response.status) \(response.text)")
        #expect(try await test.user("GET", "/api/health").status == 200)
    }

    /// A target in absolute form names the host (RFC 9112 §3.2.2): a foreign one is refused
    /// whatever `Host` says, and this server's own is answered.
    @Test func absoluteFormTargetsNamingAnotherHostAreRefused() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let foreign = try await test.user("GET", "http://evil.example/api/health")
        #expect(foreign.status == 421, "\(foreign.status) \(foreign.text)")
        let photo = TestServer.escaped(test.photos[0])
        // The thumbnail fast path answers the user's cached thumbnails before the routes: it too.
        #expect(try await test.user("GET", "/api/assets/\(photo)/thumbnail?size=64").status == 200)
        #expect(try await test.user("GET", "/api/assets/\(photo)/thumbnail?size=64").status == 200)
        #expect(try await test.user("GET", "http://evil.example:\(test.port)/api/assets/\(photo)/thumbnail?size=64").status == 421)
        let own = try await test.user("GET", "http://127.0.0.1:\(test.port)/api/health?x=1")
        #expect(own.status == 200, "\(own.status) \(own.text)")
        #expect(try await test.user("GET", "HTTP://localhost:\(test.port)").status == 200, "the app's page, by an upper-case scheme")
    }

    /// A connection to `port` that has written `text` (and nothing more).
    static func partialRequest(port: Int, _ text: String) throws -> Int32 {
        let fd = try RawHTTP(port: port).connect(timeout: 60)
        _ = text.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// Whether the server closed `fd` within `seconds` (a read returns 0 or fails).
    static func closedByServer(_ fd: Int32, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            if recv(fd, &buffer, buffer.count, 0) <= 0 { return true }
        }
        return false
    }

    @Test func tricklingAndIdleConnectionsAreLetGoButStreamsAreNot() async throws {
        var configuration = PhotoLibraryServer.Configuration(port: 0)
        configuration.idleTimeout = .seconds(1)
        let test = try await TestServer.start(photos: 0, configuration: configuration)
        defer { test.stop() }
        let events = try test.http.open("/api/events", headers: ["Authorization": "Bearer \(test.server.userKey)"])
        _ = await events.read(until: ": shoebox", timeout: 10)
        // Headers that never end, and a connection that says nothing.
        let slow = try Self.partialRequest(port: test.http.port, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:\(test.http.port)\r\nX-Slow: 1\r\n")
        defer { close(slow) }
        let silent = try Self.partialRequest(port: test.http.port, "")
        defer { close(silent) }
        let (slowClosed, silentClosed) = try await RawHTTP.offThePool { (Self.closedByServer(slow, within: 8), Self.closedByServer(silent, within: 8)) }
        #expect(slowClosed, "a request whose headers never end kept its connection")
        #expect(silentClosed, "a silent connection was kept")
        // The event stream outlives the timeout twice over (a silent connection opened now is let
        // go meanwhile) and still carries changes.
        let later = try Self.partialRequest(port: test.http.port, "")
        defer { close(later) }
        #expect(try await RawHTTP.offThePool { Self.closedByServer(later, within: 8) }, "a second silent connection was kept")
        let album = try #require(try await test.user("POST", "/api/albums", json: ["title": "Still Listening"]).object()["localIdentifier"] as? String)
        #expect(await events.read(until: album, timeout: 15).contains(album), "the event stream was cut by the idle timeout")
        #expect(try await test.user("GET", "/api/health").status == 200)
    }

    /// Over the cap, the longest-idle connections make room: 200 trickling connections against
    /// a cap of 50 leave the user's requests answered and their event stream open.
    @Test func aFloodOfConnectionsIsCappedWithoutShuttingOutTheUser() async throws {
        var configuration = PhotoLibraryServer.Configuration(port: 0)
        configuration.maximumConnections = 50
        let test = try await TestServer.start(photos: 0, configuration: configuration)
        defer { test.stop() }
        let events = try test.http.open("/api/events", headers: ["Authorization": "Bearer \(test.server.userKey)"])
        _ = await events.read(until: ": shoebox", timeout: 10)
        var flood: [Int32] = []
        defer { for fd in flood { close(fd) } }
        for _ in 0..<200 {
            flood.append(try Self.partialRequest(port: test.http.port, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:\(test.http.port)\r\n"))
        }
        #expect(try await test.user("GET", "/api/health").status == 200, "the user's request was not answered")
        // 200 trickling + the event stream + the user's request against 50: at least 150 closed.
        let trickling = flood
        let closed = try await RawHTTP.offThePool { Self.closed(trickling, atLeast: 150, within: 10) }
        #expect(closed >= 150, "\(closed) of 200 trickling connections closed; the cap is 50")
        #expect(Self.closedNow(flood) < 200, "the newest connections are kept")  // closed ones read their end again
        let album = try #require(try await test.user("POST", "/api/albums", json: ["title": "Still Here"]).object()["localIdentifier"] as? String)
        #expect(await events.read(until: album, timeout: 15).contains(album), "the event stream was closed to make room")
    }

    /// How many of `fds` the server has closed (a read returns end of file or fails), without waiting.
    /// How many of `fds` the server has closed, waiting (in `poll`, woken by each close) until
    /// `count` are or `seconds` pass. The closed ones are read to their end.
    static func closed(_ fds: [Int32], atLeast count: Int, within seconds: Double) -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var open = fds
        var closed = 0
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while closed < count, Date() < deadline {
            var pollers = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&pollers, nfds_t(pollers.count), 100) > 0 else { continue }
            let ended = Set(pollers.filter { $0.revents != 0 && recv($0.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) <= 0 }.map(\.fd))
            closed += ended.count
            open.removeAll { ended.contains($0) }
        }
        return closed
    }

    static func closedNow(_ fds: [Int32]) -> Int {
        var pollers = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&pollers, nfds_t(pollers.count), 0) >= 0 else { return 0 }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        return pollers.filter { $0.revents != 0 && recv($0.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) <= 0 }.count
    }
}
