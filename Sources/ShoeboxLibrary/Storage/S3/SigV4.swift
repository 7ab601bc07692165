internal import Crypto
import Foundation

/// AWS Signature Version 4: the `Authorization` header of a request, or a presigned URL.
/// Checked against AWS's published test suite and the S3 documentation's examples.
package struct SigV4: Sendable {
    /// The keys that sign; a session token is added to presigned URLs (requests carry it as
    /// a header themselves).
    package let credentials: AWSCredentials
    /// The region of the credential scope (`us-east-1`, …).
    package let region: String
    /// The service of the credential scope: `s3` unless given.
    package let service: String

    /// A signer for `service` in `region`.
    package init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// What a request is signed over.
    package struct Request: Sendable {
        /// The HTTP method, in upper case as sent (`GET`, `PUT`, …).
        package var method: String
        /// The path, not percent-encoded (it is encoded for signing, each segment once).
        package var path: String
        /// Query parameters, not percent-encoded; repeated names allowed.
        package var query: [(String, String)]
        /// Header names (any case) and values; `host` must be among them.
        package var headers: [(String, String)]
        /// The hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
        package var payloadHash: String

        /// A request to sign; `headers` must include `host`.
        package init(method: String, path: String, query: [(String, String)] = [], headers: [(String, String)], payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// `YYYYMMDDTHHMMSSZ`.
    package static func amzDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The canonical request (AWS's term), with the signed header names.
    package func canonicalRequest(_ request: Request, normalizePath: Bool = false) -> (text: String, signedHeaders: String) {
        var grouped: [String: [String]] = [:]
        for (name, value) in request.headers {
            grouped[name.lowercased(), default: []].append(Self.trim(value))
        }
        let names = grouped.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(grouped[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let encoded: [(name: String, value: String)] = request.query.map { (Self.encode($0.0), Self.encode($0.1)) }
        let sorted = encoded.sorted { (lhs: (name: String, value: String), rhs: (name: String, value: String)) -> Bool in
            lhs.name == rhs.name ? lhs.value < rhs.value : lhs.name < rhs.name
        }
        let query = sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let path = normalizePath ? Self.normalize(request.path) : request.path
        let uri = path.split(separator: "/", omittingEmptySubsequences: false).map { Self.encode(String($0)) }.joined(separator: "/")
        let text = [request.method, uri.isEmpty ? "/" : uri, query, canonicalHeaders, signedHeaders, request.payloadHash].joined(separator: "\n")
        return (text, signedHeaders)
    }

    /// The string to sign for a canonical request at `date`.
    package func stringToSign(canonicalRequest: String, date: Date) -> String {
        let amzDate = Self.amzDate(date)
        return ["AWS4-HMAC-SHA256", amzDate, scope(amzDate), Hex.sha256(Data(canonicalRequest.utf8))].joined(separator: "\n")
    }

    /// The signature of a string to sign.
    package func signature(stringToSign: String, date: Date) -> String {
        let day = String(Self.amzDate(date).prefix(8))
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Hex.encode(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    /// The `Authorization` header for `request` at `date` (its headers must already hold
    /// `x-amz-date`, and `x-amz-security-token` with temporary credentials).
    package func authorization(for request: Request, date: Date, normalizePath: Bool = false) -> String {
        let (canonical, signedHeaders) = canonicalRequest(request, normalizePath: normalizePath)
        let signature = signature(stringToSign: stringToSign(canonicalRequest: canonical, date: date), date: date)
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope(Self.amzDate(date))), SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    /// The query parameters that presign `request` (host the only signed header; the body
    /// unsigned) for `expires` seconds from `date`, `X-Amz-Signature` last.
    package func presignedQuery(for request: Request, date: Date, expires: Int) -> [(String, String)] {
        let amzDate = Self.amzDate(date)
        var query = request.query
        query.append(("X-Amz-Algorithm", "AWS4-HMAC-SHA256"))
        query.append(("X-Amz-Credential", "\(credentials.accessKey)/\(scope(amzDate))"))
        query.append(("X-Amz-Date", amzDate))
        query.append(("X-Amz-Expires", String(expires)))
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        let names = request.headers.map { $0.0.lowercased() }.sorted()
        query.append(("X-Amz-SignedHeaders", Set(names).sorted().joined(separator: ";")))
        var signed = request
        signed.query = query
        signed.payloadHash = "UNSIGNED-PAYLOAD"
        let (canonical, _) = canonicalRequest(signed)
        query.append(("X-Amz-Signature", signature(stringToSign: stringToSign(canonicalRequest: canonical, date: date), date: date)))
        return query
    }

    func scope(_ amzDate: String) -> String {
        "\(amzDate.prefix(8))/\(region)/\(service)/aws4_request"
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters.
    package static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Removes `.` and `..` segments and repeated slashes (the generic services' rule; S3 signs
    /// the path as it is).
    static func normalize(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." {
                if !segments.isEmpty { segments.removeLast() }
                continue
            }
            segments.append(segment)
        }
        let joined = "/" + segments.joined(separator: "/")
        return path.hasSuffix("/") && joined != "/" ? joined + "/" : joined
    }

    /// Leading and trailing spaces removed, runs of spaces made one (quoted strings too, as
    /// the suite's vectors do).
    static func trim(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
