import Foundation

/// An S3-compatible blob store named as `s3://BUCKET/PREFIX?endpoint=URL&region=REGION`.
///
/// Without `endpoint` the store is AWS (`https://BUCKET.s3.REGION.amazonaws.com`, virtual-hosted
/// addressing); with one (MinIO, SeaweedFS, Garage, R2, B2…) requests go to that endpoint with
/// path-style addressing (`ENDPOINT/BUCKET/KEY`). The region defaults to `AWS_REGION`, the
/// profile's region in `~/.aws/config`, else `us-east-1`. Credentials are never part of it.
public struct S3URL: Sendable, Hashable, CustomStringConvertible {
    /// The bucket's name: up to 63 lower-case letters, digits, dots and hyphens.
    public let bucket: String
    /// The key prefix, without leading or trailing slashes (may be empty).
    public let prefix: String
    /// The endpoint for path-style requests, or `nil` for AWS itself.
    public let endpoint: URL?
    /// The region requests are signed for: the URL's `region`, else `AWS_REGION`,
    /// `AWS_DEFAULT_REGION`, the profile's region in `~/.aws/config`, else `us-east-1`.
    public let region: String

    /// Parses an `s3://` URL.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` naming what is wrong.
    public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(LibraryError) {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "s3" else {
            throw .invalidArgument("a blob store is s3://BUCKET/PREFIX?endpoint=URL&region=REGION, not \(text)")
        }
        guard components.user == nil, components.password == nil else {
            throw .invalidArgument("the blob store URL carries credentials; give them in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or ~/.aws/credentials")
        }
        guard let bucket = components.host, !bucket.isEmpty, bucket.count <= 63,
            bucket.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." })
        else {
            throw .invalidArgument("\(text) names no valid bucket (3–63 lower-case letters, digits, dots and hyphens)")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        var endpoint: URL?
        if let value = query["endpoint"] {
            guard let url = URL(string: value), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw .invalidArgument("endpoint must be an http:// or https:// URL, not \(value)")
            }
            endpoint = url
        }
        self.bucket = bucket
        self.prefix = components.path.split(separator: "/").joined(separator: "/")
        self.endpoint = endpoint
        self.region =
            query["region"] ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"]
            ?? AWSCredentials.configuredRegion(environment: environment) ?? "us-east-1"
    }

    /// The URL in full, `region` always written out so that it no longer depends on the
    /// environment; never credentials.
    public var description: String {
        var text = "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)")
        var items: [String] = []
        if let endpoint { items.append("endpoint=\(endpoint.absoluteString)") }
        items.append("region=\(region)")
        text += "?" + items.joined(separator: "&")
        return text
    }

    /// The key of `name` under the prefix.
    func key(_ name: String) -> String {
        prefix.isEmpty ? name : prefix + "/" + name
    }

    /// The host requests are signed for and sent to, and the path of `key` on it.
    func location(of key: String) -> (base: String, host: String, path: String) {
        if let endpoint {
            let port = endpoint.port.map { ":\($0)" } ?? ""
            let host = (endpoint.host ?? "localhost") + port
            let basePath = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
            return ("\(endpoint.scheme ?? "http")://\(host)", host, basePath + "/" + bucket + (key.isEmpty ? "/" : "/" + key))
        }
        // us-east-1 answers on the global name; the other regions on their own.
        let host = region == "us-east-1" ? "\(bucket).s3.amazonaws.com" : "\(bucket).s3.\(region).amazonaws.com"
        return ("https://\(host)", host, "/" + key)
    }
}
