import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Restrictions an administrator sets outside Shoebox: `NAME.shoebox.policy.json` next to the
/// library folder. Shoebox reads it and never writes it, so a user cannot lift a restriction from
/// Shoebox (the `restricted` status).
///
/// ```json
/// { "restricted": [ { "client": "com.example.kiosk", "service": "camera" },
///                   { "client": "*", "service": "microphone" } ] }
/// ```
///
/// `service` is `camera`, `microphone`, `photoLibrary`, `photoLibraryAdd` or `*`; `client` an
/// identifier or `*`. A malformed file restricts everything (failing closed) until it is fixed.
struct AdminPolicy: Sendable {
    struct Rule: Codable, Sendable {
        let client: String
        let service: String
    }

    private struct File: Codable {
        let restricted: [Rule]
    }

    let rules: [Rule]

    static func url(forLibraryAt library: URL) -> URL {
        library.deletingLastPathComponent().appendingPathComponent(library.lastPathComponent + ".policy.json")
    }

    /// The policy as the file says now (it may change while Shoebox runs). The file is read
    /// again only when its modification time, size or inode changed: every status check asks,
    /// and a `stat` is all most of them cost.
    static func load(forLibraryAt library: URL) -> AdminPolicy {
        let url = url(forLibraryAt: library)
        var info = stat()
        guard stat(url.path, &info) == 0 else { return AdminPolicy(rules: []) }
        let signature = Signature(modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec, size: Int64(info.st_size), inode: UInt64(info.st_ino))
        if let cached = cache.withLock({ $0[url.path] }), cached.signature == signature { return cached.policy }
        let policy: AdminPolicy
        if let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) {
            policy = AdminPolicy(rules: file.restricted)
        } else {
            policy = AdminPolicy(rules: [Rule(client: "*", service: "*")])
        }
        cache.withLock { $0[url.path] = (signature, policy) }
        return policy
    }

    private struct Signature: Equatable {
        let modified: Int
        let size: Int64
        let inode: UInt64
    }

    private static let cache = Mutex<[String: (signature: Signature, policy: AdminPolicy)]>([:])

    func restricts(_ service: Authorization.Service, client: String) -> Bool {
        rules.contains { rule in
            (rule.client == "*" || rule.client == client) && (rule.service == "*" || rule.service == service.policyName)
        }
    }
}
