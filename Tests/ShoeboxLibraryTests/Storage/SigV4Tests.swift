import Crypto
import Foundation
import Testing

@testable import ShoeboxLibrary

/// The signer against AWS's published Signature Version 4 test suite and the S3
/// documentation's worked examples (Fixtures/sigv4-test-vectors.json, with their sources).
@Suite struct SigV4Tests {
    struct Vectors: Decodable {
        struct Suite: Decodable {
            struct Case: Decodable {
                let name: String
                let request: String
                let canonicalRequest: String
                let stringToSign: String
                let authorization: String
            }
            let accessKey: String
            let secretKey: String
            let region: String
            let service: String
            let date: String
            let cases: [Case]
        }
        struct S3: Decodable {
            let name: String
            let accessKey: String
            let secretKey: String
            let region: String
            let date: String
            let method: String
            let path: String
            let query: String?
            let headers: [String: String]?
            let host: String
            let payloadHash: String
            let canonicalRequest: String
            let stringToSign: String
            let signature: String
            let expires: Int?
            let url: String?
        }
        let suite: Suite
        let s3: [S3]
    }

    static let vectors: Vectors = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/sigv4-test-vectors.json")
        return try! JSONDecoder().decode(Vectors.self, from: Data(contentsOf: file))
    }()

    static func date(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.date(from: text)!
    }

    /// The suite's raw request as the signer's input: method, path and query decoded, headers
    /// (continuation lines are more values of the header above), and the body's hash.
    static func parse(_ raw: String) -> SigV4.Request {
        let parts = raw.components(separatedBy: "\n\n")
        let lines = parts[0].components(separatedBy: "\n")
        let words = lines[0].split(separator: " ")
        let target = words.dropFirst().dropLast().joined(separator: " ")
        let pathPart = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        var query: [(String, String)] = []
        if let question = target.firstIndex(of: "?") {
            for pair in target[target.index(after: question)...].split(separator: "&") {
                let items = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? String($0) }
                query.append((items[0], items.count > 1 ? items[1] : ""))
            }
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t", let last = headers.last {
                headers.append((last.0, line))
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        let body = parts.count > 1 ? parts[1...].joined(separator: "\n\n") : ""
        return SigV4.Request(
            method: String(words[0]), path: pathPart.removingPercentEncoding ?? pathPart, query: query, headers: headers,
            payloadHash: Hex.sha256(Data(body.utf8)))
    }

    @Test func theAWSTestSuite() {
        let suite = Self.vectors.suite
        #expect(suite.cases.count >= 30)
        let signer = SigV4(credentials: AWSCredentials(accessKey: suite.accessKey, secretKey: suite.secretKey), region: suite.region, service: suite.service)
        let date = Self.date(suite.date)
        for vector in suite.cases {
            let request = Self.parse(vector.request)
            let canonical = signer.canonicalRequest(request, normalizePath: true).text
            #expect(canonical == vector.canonicalRequest, "\(vector.name): canonical request")
            #expect(signer.stringToSign(canonicalRequest: canonical, date: date) == vector.stringToSign, "\(vector.name): string to sign")
            #expect(signer.authorization(for: request, date: date, normalizePath: true) == vector.authorization, "\(vector.name): authorization")
        }
    }

    @Test func theS3DocumentationExamples() {
        for example in Self.vectors.s3 {
            let signer = SigV4(credentials: AWSCredentials(accessKey: example.accessKey, secretKey: example.secretKey), region: example.region)
            let date = Self.date(example.date)
            var query: [(String, String)] = []
            for pair in (example.query ?? "").split(separator: "&") {
                let items = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                query.append((items[0], items.count > 1 ? items[1] : ""))
            }
            let headers = (example.headers ?? ["host": example.host]).map { ($0.key, $0.value) }
            let request = SigV4.Request(method: example.method, path: example.path, query: query, headers: headers, payloadHash: example.payloadHash)
            if let expires = example.expires {
                let signed = signer.presignedQuery(for: request, date: date, expires: expires)
                #expect(signed.last?.1 == example.signature, "\(example.name): signature")
                let url = "https://\(example.host)\(example.path)?" + signed.map { "\(SigV4.encode($0.0))=\(SigV4.encode($0.1))" }.joined(separator: "&")
                #expect(url == example.url, "\(example.name): URL")
            } else {
                let canonical = signer.canonicalRequest(request).text
                #expect(canonical == example.canonicalRequest, "\(example.name): canonical request")
                let stringToSign = signer.stringToSign(canonicalRequest: canonical, date: date)
                #expect(stringToSign == example.stringToSign, "\(example.name): string to sign")
                #expect(signer.signature(stringToSign: stringToSign, date: date) == example.signature, "\(example.name): signature")
            }
        }
    }

    @Test func presignedURLsOfTheClientMatchTheExample() throws {
        let example = try #require(Self.vectors.s3.first { $0.name == "presigned-get" })
        let client = S3Client(
            url: try S3URL("s3://examplebucket?region=us-east-1"),
            credentials: AWSCredentials(accessKey: example.accessKey, secretKey: example.secretKey))
        #expect(client.presignedGet("test.txt", date: Self.date(example.date), expires: 86_400).absoluteString == example.url)
    }
}
