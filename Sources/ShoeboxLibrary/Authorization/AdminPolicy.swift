import Foundation

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

    /// Reads the policy now (it may change while Shoebox runs).
    static func load(forLibraryAt library: URL) -> AdminPolicy {
        let url = url(forLibraryAt: library)
        guard FileManager.default.fileExists(atPath: url.path) else { return AdminPolicy(rules: []) }
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
            return AdminPolicy(rules: [Rule(client: "*", service: "*")])
        }
        return AdminPolicy(rules: file.restricted)
    }

    func restricts(_ service: Authorization.Service, client: String) -> Bool {
        rules.contains { rule in
            (rule.client == "*" || rule.client == client) && (rule.service == "*" || rule.service == service.policyName)
        }
    }
}
