import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately plain HTTP/1.1 client over a loopback socket, so tests and benchmarks can send
/// any header (a foreign `Host`, a forged `Origin`), read streamed bodies as they come, and talk to
/// local servers (`shoebox serve`, chromedriver) without URLSession.
public struct RawHTTP: Sendable {
    /// A whole response: status, headers and body.
    public struct Response: Sendable {
        /// The status code from the status line (`200`, `404`…).
        public let status: Int
        /// Lower-cased names; repeated headers joined with ", ".
        public let headers: [String: String]
        /// The bytes after the headers, with chunked transfer encoding undone.
        public let body: Data

        /// The body as UTF-8 text, invalid bytes replaced with U+FFFD.
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body parsed as JSON: an object, an array, or a bare string, number, boolean or `NSNull`.
        ///
        /// - Throws: `JSONSerialization`'s error when the body is not JSON.
        public func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        /// The body as a JSON object.
        ///
        /// - Throws: ``RawHTTP/Failure`` when it is JSON but not an object; `JSONSerialization`'s error
        ///   when it is not JSON.
        public func object() throws -> [String: Any] { try (json() as? [String: Any]).orThrow("not a JSON object: \(text.prefix(300))") }
        /// The body as a JSON array of objects (an empty array included).
        ///
        /// - Throws: ``RawHTTP/Failure`` when it is JSON but not an array of objects; `JSONSerialization`'s
        ///   error when it is not JSON.
        public func array() throws -> [[String: Any]] { try (json() as? [[String: Any]]).orThrow("not a JSON array: \(text.prefix(300))") }
    }

    /// A request that could not be sent, or a response that could not be read or parsed.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the `errno` value when a socket call failed.
        public let description: String

        /// A failure whose message is `description`.
        public init(description: String) { self.description = description }
    }

    /// The port on 127.0.0.1 that requests go to.
    public let port: Int

    /// A client of the server listening on `port` at 127.0.0.1 (IPv4 loopback only).
    public init(port: Int) { self.port = port }

    /// Sends one request (`Connection: close`) and reads the whole response, on a thread of its
    /// own: the server answers from Swift's cooperative pool, which blocking reads there would starve.
    public func send(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil, host: String? = nil,
        timeout: Double = 60
    ) async throws -> Response {
        try await Self.offThePool { try sendBlocking(method, path, headers: headers, body: body, host: host, timeout: timeout) }
    }

    /// Sends `json` as the body (`Content-Type: application/json`).
    public func send(_ method: String, _ path: String, json: Any, headers: [String: String] = [:]) async throws -> Response {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await send(method, path, headers: headers, body: try JSONSerialization.data(withJSONObject: json))
    }

    /// Runs blocking `work` on a new thread of its own, never on Swift's cooperative pool, and returns
    /// its result or rethrows its error.
    public static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    private func sendBlocking(
        _ method: String, _ path: String, headers: [String: String], body: Data?, host: String?,
        timeout: Double
    ) throws -> Response {
        let socket = try connect(timeout: timeout)
        defer { close(socket) }
        try write(socket, request(method, path, headers: headers, body: body, host: host, keepAlive: false))
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // Until the server closes, or the response is whole: some servers (chromedriver) keep the
        // connection open despite `Connection: close`.
        while !Self.isComplete(data, method: method) {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 { data.append(buffer, count: count) } else { break }
        }
        return try Self.parse(data)
    }

    /// Whether `data` holds a whole response: headers, and the body its `Content-Length` or last
    /// chunk says (none for `HEAD`, 204 and 304). Without either, only the close ends it.
    static func isComplete(_ data: Data, method: String) -> Bool {
        completeLength(data, method: method) != nil
    }

    /// The length of the whole response `data` begins with, when it has arrived.
    static func completeLength(_ data: Data, method: String) -> Int? {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let headLength = data.distance(from: data.startIndex, to: split.upperBound)
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).lowercased()
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        if method == "HEAD" || status == 204 || status == 304 || (100..<200).contains(status) { return headLength }
        for line in head.components(separatedBy: "\r\n") {
            if line.hasPrefix("content-length:"), let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) {
                return data.count - headLength >= length ? headLength + length : nil
            }
            if line.hasPrefix("transfer-encoding:"), line.contains("chunked") {
                let body = data[split.upperBound...]
                if body.starts(with: Data("0\r\n\r\n".utf8)) { return headLength + 5 }
                return body.range(of: Data("\r\n0\r\n\r\n".utf8)).map { data.distance(from: data.startIndex, to: $0.upperBound) }
            }
        }
        return nil
    }

    /// Sends `requests` on one kept-alive connection in a single write (HTTP/1.1 pipelining) and
    /// reads their responses, in the order the server sent them.
    public func pipeline(
        _ requests: [(method: String, path: String, headers: [String: String])], host: String? = nil,
        timeout: Double = 30
    ) async throws -> [Response] {
        try await Self.offThePool {
            let socket = try connect(timeout: timeout)
            defer { close(socket) }
            var bytes = Data()
            for item in requests { bytes.append(request(item.method, item.path, headers: item.headers, body: nil, host: host, keepAlive: true)) }
            try write(socket, bytes)
            var data = Data()
            var responses: [Response] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while responses.count < requests.count {
                while responses.count < requests.count, let length = Self.completeLength(data, method: requests[responses.count].method) {
                    responses.append(try Self.parse(data.prefix(length)))
                    data = Data(data.dropFirst(length))
                }
                guard responses.count < requests.count else { break }
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { throw Failure(description: "the connection ended after \(responses.count) of \(requests.count) responses") }
                data.append(buffer, count: count)
            }
            return responses
        }
    }

    /// Opens a streaming response (server-sent events, Motion JPEG) and returns a reader.
    public func open(_ path: String, headers: [String: String] = [:]) throws -> Stream {
        let socket = try connect(timeout: 30)
        try write(socket, request("GET", path, headers: headers, body: nil, host: nil, keepAlive: true))
        return Stream(socket: socket)
    }

    /// A response read as it arrives, on the connection ``RawHTTP/open(_:headers:)`` opened; the socket
    /// closes when the stream is released. Read it from one task at a time: it has no lock.
    public final class Stream: @unchecked Sendable {
        // @unchecked: one test reads a stream at a time.
        /// The connected socket, for writing more requests on it or reading it directly.
        public let socket: Int32
        /// Every byte read so far, from the status line on: headers and body as they came (chunked
        /// bodies still chunked).
        public private(set) var received = Data()

        init(socket: Int32) { self.socket = socket }
        deinit { close(socket) }

        /// Reads until the text so far contains `marker` (`occurrences` times) or `timeout`
        /// passes; returns the text.
        public func read(until marker: String, occurrences: Int = 1, timeout: Double) async -> String {
            (try? await RawHTTP.offThePool { self.readBlocking(until: marker, occurrences: occurrences, timeout: timeout) }) ?? ""
        }

        private func readBlocking(until marker: String, occurrences: Int, timeout: Double) -> String {
            let deadline = Date().addingTimeInterval(timeout)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while String(decoding: received, as: UTF8.self).components(separatedBy: marker).count - 1 < occurrences, Date() < deadline {
                var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                // At most 200 ms, and never past the deadline: a short read is short.
                let wait = Int32(max(1, min(200, deadline.timeIntervalSinceNow * 1_000)))
                guard poll(&poller, 1, wait) > 0 else { continue }
                let count = recv(socket, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received.append(buffer, count: count)
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    private func request(_ method: String, _ path: String, headers: [String: String], body: Data?, host: String?, keepAlive: Bool) -> Data {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: \(keepAlive ? "keep-alive" : "close")"]
        for (name, value) in headers { lines.append("\(name): \(value)") }
        if let body { lines.append("Content-Length: \(body.count)") }
        var data = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        if let body { data.append(body) }
        return data
    }

    /// A blocking socket connected to the server, whose reads give up after `timeout` seconds
    /// (the caller closes it): for exchanges the helpers here do not make.
    public func connect(timeout: Double) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        // Whole seconds and the rest in microseconds: a timeout under a second is not 0 (none).
        let whole = max(0, timeout.rounded(.down))
        var time = timeval(tv_sec: Int(whole), tv_usec: max(timeout > 0 && whole == 0 ? 1 : 0, Int((timeout - whole) * 1_000_000)))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "cannot connect to port \(port): errno \(errno)")
        }
        return socket
    }

    private func write(_ socket: Int32, _ data: Data) throws {
        var sent = 0
        try data.withUnsafeBytes { bytes in
            while sent < data.count {
                let count = Glibc.send(socket, bytes.baseAddress! + sent, data.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw Failure(description: "send failed: \(errno)") }
                sent += count
            }
        }
    }

    /// Parses a response: the status line, the headers (names lower-cased, repeats joined with
    /// ", "), and everything after them as the body, de-chunked when the headers say `chunked`.
    ///
    /// - Throws: ``RawHTTP/Failure`` when `data` has no blank line ending the headers, or a status
    ///   line without a numeric code.
    public static func parse(_ data: Data) throws -> Response {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "no header in \(data.count) bytes: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(head[0])") }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        var body = Data(data[split.upperBound...])
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true { body = dechunk(body) }
        return Response(status: status, headers: headers, body: body)
    }

    /// The payload of a chunked body, its chunks joined. It stops at the last (zero-size) chunk or
    /// at a size line that is not hexadecimal, ignores trailers, and keeps what arrived of a
    /// chunk cut short.
    public static func dechunk(_ data: Data) -> Data {
        var result = Data()
        var index = data.startIndex
        while index < data.endIndex, let lineEnd = data[index...].range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let end = min(data.endIndex, start + size)
            result.append(data[start..<end])
            index = min(data.endIndex, end + 2)
        }
        return result
    }
}

extension Optional {
    /// The value, or a ``RawHTTP/Failure`` with `message`.
    public func orThrow(_ message: @autoclosure () -> String) throws -> Wrapped {
        guard let value = self else { throw RawHTTP.Failure(description: message()) }
        return value
    }
}
