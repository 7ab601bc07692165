import Foundation
import ShoeboxPicker

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client of a running server's picker API (`shoebox pick`'s, and any program's that finds a
/// server by its ``ServerDiscovery`` entry): it asks for a session, then waits for the person's
/// answer in long polls, for as long as they take (an hour is fine).
///
/// ```swift
/// if let server = ServerDiscovery.find(forLibraryAt: libraryURL) {
///     let client = try RemotePickerClient(server: server)
///     let session = try await client.createSession(PickerRequest(selectionLimit: 3))
///     print("pick at \(session.url)")
///     let picked = try await client.waitForAnswer(session: session.id)  // nil: cancelled
/// }
/// ```
///
/// Each poll asks the server to wait at most ``pollWait`` seconds and gives up on an answer after
/// ``requestTimeout`` seconds, which is longer, so a poll that ends with `pending` is never taken
/// for a lost server. Both come from the environment, for tests and for slow networks:
/// `SHOEBOX_PICK_REQUEST_TIMEOUT` (seconds, default 120) and `SHOEBOX_PICK_POLL_WAIT` (seconds,
/// default half the request timeout, at most 30; never more than half the request timeout).
///
/// Failures are ``ShoeboxPicker/PickerError``s whose message is one sentence for the person
/// (code ``ShoeboxPicker/PickerError/Code/server`` when the server could not be reached or
/// stopped, else the server's own code), never an `NSError` dump.
public struct RemotePickerClient: Sendable {
    /// The server's address, as `server.json` gives it.
    public let base: URL
    /// The user's key, sent as a bearer token.
    let key: String
    /// How long one request may take before it fails, in seconds.
    public let requestTimeout: Double
    /// How long each poll asks the server to wait for the answer, in seconds.
    public let pollWait: Double
    private let session: URLSession

    /// A client of the server `server` describes.
    ///
    /// - Throws: ``ShoeboxPicker/PickerError/Code/server`` when its URL is not one.
    public init(server: ServerDiscovery, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PickerError) {
        guard let base = URL(string: server.url) else { throw PickerError(.server, "the server's address \(server.url) is not a URL") }
        self.init(base: base, key: server.key, environment: environment)
    }

    /// A client of the server at `base` that presents the user's `key`, with the timeouts the
    /// environment gives (see the type's discussion).
    public init(base: URL, key: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.base = base
        self.key = key
        let timeout = environment["SHOEBOX_PICK_REQUEST_TIMEOUT"].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 120
        let wait = environment["SHOEBOX_PICK_POLL_WAIT"].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? min(30, timeout / 2)
        requestTimeout = timeout
        pollWait = min(wait, timeout / 2)
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = timeout
        // The whole pick may take as long as the person does; only a single request is bounded.
        configuration.timeoutIntervalForResource = 7 * 86_400
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// A session the server made: its identifier and the page the person picks on.
    public struct CreatedSession: Sendable, Decodable {
        /// The session's identifier.
        public let id: String
        /// The picker page's URL (signed in as the user).
        public let url: String
    }

    /// `GET /api/picker/sessions/ID`'s answer, the part read here.
    struct SessionState: Decodable {
        struct Item: Decodable { let info: PickerInfoJSON }
        let status: String
        let results: [Item]?
    }

    /// An error answer: `{"error": {"code", "message"}}`.
    private struct ErrorAnswer: Decodable {
        struct Detail: Decodable {
            let code: String?
            let message: String
        }
        let error: Detail
    }

    /// Asks for a picker session for `request`.
    public func createSession(_ request: PickerRequest) async throws(PickerError) -> CreatedSession {
        let body: Data
        do { body = try JSONEncoder().encode(request) } catch { throw PickerError(.invalidArgument, "cannot encode the request: \(error)") }
        return try await call(base.appendingPathComponent("api/picker/sessions"), method: "POST", body: body)
    }

    /// Waits for the session's answer: the picked items, or `nil` when the person cancels.
    public func waitForAnswer(session id: String) async throws(PickerError) -> [PickerInfoJSON]? {
        let wait = String(format: "%g", pollWait)
        guard let url = URL(string: "\(base.absoluteString)/api/picker/sessions/\(id)?wait=\(wait)") else {
            throw PickerError(.invalidArgument, "\(id) is not a session identifier")
        }
        while true {
            let state: SessionState = try await call(url, method: "GET", body: nil)
            switch state.status {
            case "pending": continue
            case "picked": return state.results?.map(\.info) ?? []
            default: return nil
            }
        }
    }

    private func call<Answer: Decodable>(_ url: URL, method: String, body: Data?) async throws(PickerError) -> Answer {
        var request = URLRequest(url: url, timeoutInterval: requestTimeout)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw PickerError(.server, describe(error), underlying: error)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let answer = try? JSONDecoder().decode(ErrorAnswer.self, from: data)
            throw PickerError(answer?.error.code.map(PickerError.Code.init(rawValue:)) ?? .server, answer?.error.message ?? "the server answered \(status)")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw PickerError(.server, "the server's answer to \(method) \(url.path) is not what a picker client reads", underlying: error)
        }
    }

    /// A failed request in one sentence: what happened to the server, in plain words.
    public func describe(_ error: any Error) -> String {
        let server = "the library's server at \(base.absoluteString)"
        // FoundationNetworking reports an NSError in NSURLErrorDomain, which is a URLError's code.
        let code: URLError.Code
        if let error = error as? URLError {
            code = error.code
        } else if (error as NSError).domain == NSURLErrorDomain, let known = URLError.Code(rawValue: (error as NSError).code) {
            code = known
        } else {
            return "\(server) could not be reached (\(type(of: error)))"
        }
        switch code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed:
            return "cannot connect to \(server): it is not running any more (run `shoebox pick` again: without a server it starts one of its own)"
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            return "\(server) stopped while waiting for the pick"
        case .timedOut:
            return "\(server) did not answer within \(String(format: "%g", requestTimeout)) s"
        case .notConnectedToInternet:
            return "cannot reach \(server): the network is down"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
            return "cannot make a secure connection to \(server)"
        case .cancelled:
            return "the request to \(server) was cancelled"
        default:
            return "the request to \(server) failed (URL error \(code.rawValue))"
        }
    }
}
