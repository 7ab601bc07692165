import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain HTTP/1.1 client over a socket, for talking to a `shoebox serve` or `shoebox pick`
/// child as the user's browser or a client would (copied, trimmed, from the server tests').
struct RawHTTP {
    struct Response {
        let status: Int
        /// Lower-cased names; repeated headers joined with ", ".
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }

        func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        func object() throws -> [String: Any] {
            guard let object = try json() as? [String: Any] else { throw Failure(description: "not a JSON object: \(text.prefix(300))") }
            return object
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int

    /// Sends one request (`Connection: close`) and reads the whole response, on a thread of its
    /// own rather than blocking Swift's cooperative pool.
    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil, timeout: Double = 60) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try sendBlocking(method, path, headers: headers, body: body, timeout: timeout) })
            }
        }
    }

    /// Sends `json` as the body.
    func send(_ method: String, _ path: String, json: Any, headers: [String: String] = [:]) async throws -> Response {
        var headers = headers
        headers["Content-Type"] = "application/json"
        return try await send(method, path, headers: headers, body: try JSONSerialization.data(withJSONObject: json))
    }

    private func sendBlocking(_ method: String, _ path: String, headers: [String: String], body: Data?, timeout: Double) throws -> Response {
        let socket = try connect(timeout: timeout)
        defer { close(socket) }
        var lines = ["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"]
        for (name, value) in headers { lines.append("\(name): \(value)") }
        if let body { lines.append("Content-Length: \(body.count)") }
        var request = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        if let body { request.append(body) }
        try write(socket, request)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 { data.append(buffer, count: count) } else { break }
        }
        return try Self.parse(data)
    }

    private func connect(timeout: Double) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
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

    static func parse(_ data: Data) throws -> Response {
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

    static func dechunk(_ data: Data) -> Data {
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
