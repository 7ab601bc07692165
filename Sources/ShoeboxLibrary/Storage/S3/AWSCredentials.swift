import Foundation

/// Credentials for S3, found as the AWS tools find them: `AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, else the profile (`AWS_PROFILE`, or
/// `default`) of `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`). Never stored in a library.
public struct AWSCredentials: Sendable, Hashable {
    /// The access key id (`AWS_ACCESS_KEY_ID`), named in every signature's credential scope.
    public let accessKey: String
    /// The secret access key (`AWS_SECRET_ACCESS_KEY`): it derives the signing keys and is never sent.
    public let secretKey: String
    /// The session token of temporary credentials (`AWS_SESSION_TOKEN`), sent with every
    /// request; `nil` for long-term keys.
    public let sessionToken: String?

    /// Credentials given explicitly rather than found (``AWSCredentials/find(environment:)``).
    public init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
    }

    /// The credentials this process would use.
    ///
    /// - Throws: ``LibraryError/Code/objectStorage`` (`credentialsMissing`) when there are none.
    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws(LibraryError) -> AWSCredentials {
        if let key = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"], !key.isEmpty, !secret.isEmpty {
            return AWSCredentials(accessKey: key, secretKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        }
        let profile = environment["AWS_PROFILE"] ?? "default"
        let file = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? (home(environment) as NSString).appendingPathComponent(".aws/credentials")
        if let text = try? String(contentsOfFile: file, encoding: .utf8), let section = ini(text)[profile],
            let key = section["aws_access_key_id"], let secret = section["aws_secret_access_key"]
        {
            return AWSCredentials(accessKey: key, secretKey: secret, sessionToken: section["aws_session_token"])
        }
        throw .objectStorage(
            ObjectStorageError(
                .credentialsMissing,
                "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or add profile \(profile) to \(file)"))
    }

    /// The region of the profile in `~/.aws/config` (`AWS_CONFIG_FILE`), if it names one.
    static func configuredRegion(environment: [String: String]) -> String? {
        let profile = environment["AWS_PROFILE"] ?? "default"
        let file = environment["AWS_CONFIG_FILE"] ?? (home(environment) as NSString).appendingPathComponent(".aws/config")
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let sections = ini(text)
        return (sections[profile == "default" ? "default" : "profile \(profile)"] ?? sections[profile])?["region"]
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"] ?? NSHomeDirectory()
    }

    /// `[section]` → `key = value`, as the AWS tools' INI files are written.
    static func ini(_ text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[current, default: [:]][key] = value
        }
        return sections
    }
}
