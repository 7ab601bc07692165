import Foundation

/// An OpenID Connect provider for one test: `Tests/Support/oidc_provider.py` (the code flow with
/// PKCE, ID tokens signed by PyPI's Authlib), started with `scripts/oidc start` on a free port of
/// 127.0.0.1. Anyone signs in by name: `login_hint=NAME` on the authorization request skips its
/// form, and the account is `subject-NAME` with the email `NAME@example.org`. A test that needs
/// it and cannot start it fails; it never skips.
///
/// ```swift
/// let provider = try OpenIDTestProvider.start()
/// defer { provider.stop() }
/// configuration.openID = OpenIDConfiguration(issuer: provider.issuer, clientID: provider.clientID)
/// ```
public final class OpenIDTestProvider: Sendable {
    /// The provider's issuer, `http://127.0.0.1:PORT`.
    public let issuer: URL
    /// The client id it knows Shoebox by.
    public let clientID: String
    /// The secret it asks the token endpoint's caller for, if any.
    public let clientSecret: String?
    private let folder: String
    private let script: String

    private init(issuer: URL, clientID: String, clientSecret: String?, folder: String, script: String) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.folder = folder
        self.script = script
    }

    /// Starts a provider for `clientID` (and `clientSecret`, which its token endpoint then asks
    /// for as HTTP Basic).
    public static func start(clientID: String = "shoebox", clientSecret: String? = nil) throws -> OpenIDTestProvider {
        let script = Corpus.packageRoot().appendingPathComponent("scripts/oidc").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-oidc-\(UUID().uuidString)").path
        let arguments = ["start", folder, "--client-id", clientID] + (clientSecret.map { ["--client-secret", $0] } ?? [])
        let run = try ChildProcess.run(script, arguments)
        let printed = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard run.status == 0, let issuer = URL(string: printed), issuer.port != nil else {
            throw ChildProcess.Failure("the test OpenID Connect provider is needed and did not start (\(script) start): \(run.standardError)")
        }
        return OpenIDTestProvider(issuer: issuer, clientID: clientID, clientSecret: clientSecret, folder: folder, script: script)
    }

    /// Makes the next ID token wrong in one way — `wrong-nonce`, `wrong-audience`,
    /// `wrong-issuer`, `expired`, `bad-signature`, `unknown-key` — or signed with ES256 (`es256`).
    public func makeNextToken(_ defect: String) async throws {
        let answer = try await RawHTTP(port: issuer.port ?? 0).send("POST", "/control", json: ["next": defect])
        guard answer.status == 204 else { throw ChildProcess.Failure("the provider refused the defect \(defect): \(answer.status)") }
    }

    /// Stops the provider and removes its folder.
    public func stop() {
        _ = try? ChildProcess.run(script, ["stop", folder], captureOutput: false)
        try? FileManager.default.removeItem(atPath: folder)
    }
}
