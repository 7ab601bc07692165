import Foundation
import ShoeboxTesting

/// One keep-alive HTTP/1.1 connection to a server on loopback, timing each request as a client
/// sees it: from the first byte of the request written to the last byte of the answer read
/// (the answer's body whole, by `Content-Length` or chunked). Blocking: a benchmark's own thread.
final class HTTPClientConnection {
    struct Answer {
        var status: Int
        var body: [UInt8]
        /// Milliseconds from writing the request to reading the end of its answer.
        var milliseconds: Double
    }

    private let socket: Int32
    private var buffer: [UInt8] = []
    private let headers: String
    private let port: Int

    /// A connection to `127.0.0.1:port` whose requests carry `headers` (`Name: value` lines).
    init(port: Int, headers: [String] = []) throws {
        self.port = port
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            Glibc.close(socket)
            throw ChildProcess.Failure("cannot connect to 127.0.0.1:\(port)")
        }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        self.headers = headers.map { $0 + "\r\n" }.joined()
    }

    deinit { Glibc.close(socket) }

    /// Sends one request and reads its whole answer.
    func send(_ method: String, _ path: String, body: [UInt8] = []) throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)"
        if !body.isEmpty || method == "POST" { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + body
        let start = DispatchTime.now().uptimeNanoseconds
        try request.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let wrote = Glibc.send(socket, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                guard wrote > 0 else { throw ChildProcess.Failure("the connection closed while sending \(path)") }
                sent += wrote
            }
        }
        let headerEnd = try readUntilHeadersEnd()
        let headerText = String(decoding: buffer[..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        let lines = headerText.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2, let status = Int(statusLine.split(separator: " ")[1]) else {
            throw ChildProcess.Failure("not an HTTP answer to \(path): \(headerText)")
        }
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.count == 2 else { continue }
            if parts[0] == "content-length" { length = Int(parts[1]) }
            if parts[0] == "transfer-encoding", parts[1].contains("chunked") { chunked = true }
        }
        let answer: [UInt8]
        if chunked {
            answer = try readChunked()
        } else {
            answer = try take(length ?? 0)
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        return Answer(status: status, body: answer, milliseconds: elapsed)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        let read = chunk.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress!, $0.count, 0) }
        guard read > 0 else { throw ChildProcess.Failure("the server closed the connection") }
        buffer.append(contentsOf: chunk[..<read])
    }

    private func readUntilHeadersEnd() throws -> Int {
        var searched = 0
        while true {
            if buffer.count >= 4 {
                for index in max(0, searched - 3)..<(buffer.count - 3)
                where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                    return index
                }
                searched = buffer.count
            }
            try fill()
        }
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        let taken = Array(buffer[..<count])
        buffer.removeFirst(count)
        return taken
    }

    private func line() throws -> String {
        while true {
            if let end = buffer.indices.dropLast().first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
                let text = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return text
            }
            try fill()
        }
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let size = try line()
            guard let count = Int(size.split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw ChildProcess.Failure("a bad chunk size: \(size)")
            }
            if count == 0 {
                while try !line().isEmpty {}
                return body
            }
            body += try take(count)
            _ = try line()
        }
    }
}

/// The median and 99th percentile of a set of timings.
struct Percentiles: Encodable {
    var median = 0.0
    var p99 = 0.0
    var samples = 0

    init() {}

    init(_ values: [Double]) {
        let sorted = values.sorted()
        samples = sorted.count
        guard !sorted.isEmpty else { return }
        median = sorted[sorted.count / 2]
        p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    }
}
