import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// The in-process server of ShoeboxTesting: the same requests answer the same through the router
/// alone (`.router`) and through a loopback socket (`.live`), reading and changing the library.
@Suite struct PhotoLibraryServerTestingTests {
    @Test(arguments: [TestingSetup.router, .live])
    func aServerAnswersInProcess(_ setup: TestingSetup) async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let identifier = try #require(try await temporary.importFiles([try temporary.photo("one.png", seed: 7, width: 64, height: 48)]).first)
        let server = PhotoLibraryServer(library: temporary.library, configuration: .init(port: 0))
        let user: HTTPFields = [.authorization: "Bearer \(server.userKey)"]
        let path = "/api/assets/\(identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        try await server.test(setup) { client in
            #expect(try await client.execute(uri: "/api/health", method: .get).status == .ok)
            // Nobody signed in: refused, naming what to do.
            let anonymous = try await client.execute(uri: "/api/assets", method: .get)
            #expect(anonymous.status == .unauthorized)
            #expect(String(buffer: anonymous.body).contains("sign in"))
            // The user lists the photo, then makes it a favourite.
            let list = try await client.execute(uri: "/api/assets", method: .get, headers: user)
            #expect(list.status == .ok)
            let assets =
                try #require(try JSONSerialization.jsonObject(with: Data(String(buffer: list.body).utf8)) as? [String: Any])["assets"] as? [[String: Any]]
            #expect(assets?.map { $0["localIdentifier"] as? String } == [identifier])
            var headers = user
            headers[.contentType] = "application/json"
            let patched = try await client.execute(uri: path, method: .patch, headers: headers, body: ByteBuffer(string: #"{"isFavorite": true}"#))
            #expect(patched.status == .ok, "\(String(buffer: patched.body))")
        }
        #expect(try await temporary.library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject?.isFavorite == true)
    }

    /// Other host names are still refused: only HummingbirdTesting's port-less `localhost` was
    /// let in, beside the server's own names with its port.
    @Test func otherHostsAreStillRefused() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let server = PhotoLibraryServer(library: temporary.library, configuration: .init(port: 0))
        try await server.test(.live) { client in
            let port = try #require(client.port)
            let http = RawHTTP(port: port)
            #expect(try await http.send("GET", "/api/health", host: "localhost").status == 200)
            #expect(try await http.send("GET", "/api/health", host: "localhost:\(port)").status == 200)
            let foreign = try await http.send("GET", "/api/health", host: "evil.example")
            #expect(foreign.status == 421 && foreign.text.contains("evil.example"), "\(foreign.status) \(foreign.text)")
            #expect(try await http.send("GET", "/api/health", host: "localhost:1").status == 421)
        }
    }
}
