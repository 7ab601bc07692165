import Hummingbird
import HummingbirdTesting
import ShoeboxLibrary
import ShoeboxServer

extension PhotoLibraryServer {
    /// Runs `body` with a client of this server, in this process, through HummingbirdTesting:
    /// `.router` hands each request straight to the server's router and middleware (no socket, no
    /// port); `.live` serves on a free loopback port, connection handlers included, as
    /// `shoebox serve` does. The server stops when `body` returns.
    ///
    /// ```swift
    /// let temporary = try await TemporaryLibrary()
    /// defer { temporary.remove() }
    /// let server = PhotoLibraryServer(library: temporary.library, configuration: .init(port: 0))
    /// try await server.test(.router) { client in
    ///     let response = try await client.execute(
    ///         uri: "/api/assets", method: .get, headers: [.authorization: "Bearer \(server.userKey)"])
    ///     #expect(response.status == .ok)
    /// }
    /// ```
    ///
    /// Requests carry `Host: localhost` (HummingbirdTesting's), which a server under test accepts.
    /// In `.router` mode a response is collected whole before it is returned, so an endless one
    /// (the event streams under `/api/events`) needs `.live` and a client of its own; and the
    /// thumbnail fast path, a connection handler, is skipped (its routes answer the same).
    public func test<Value: Sendable>(
        _ setup: TestingSetup, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        allowPortlessLocalhostForTesting()
        let changes = Task { await runChangeHub() }
        defer { changes.cancel() }
        return try await makeApplication().test(setup, body)
    }
}
