import Foundation

/// Signing in with an OpenID Connect provider (a household's Authelia, Keycloak, authentik,
/// Google…): the provider's issuer URL (its configuration is discovered at
/// `ISSUER/.well-known/openid-configuration`), the client Shoebox is registered as there, and
/// what the sign-in page calls the provider. The authorization code flow with PKCE (S256) and a
/// nonce; the ID token's signature (RS256 or ES256, from the provider's JWKS), issuer, audience,
/// expiry and nonce are checked before anyone is signed in.
///
/// ```swift
/// var configuration = PhotoLibraryServer.Configuration(port: 8080)
/// configuration.openID = OpenIDConfiguration(
///     issuer: URL(string: "https://auth.example.net")!, clientID: "shoebox",
///     clientSecret: ProcessInfo.processInfo.environment["SHOEBOX_OIDC_CLIENT_SECRET"], displayName: "Home Login")
/// ```
public struct OpenIDConfiguration: Sendable {
    /// The provider's issuer: the `iss` of its tokens, and where its configuration is discovered.
    public var issuer: URL
    /// The client identifier Shoebox is registered under at the provider.
    public var clientID: String
    /// The client's secret (sent as HTTP Basic to the token endpoint), or `nil` for a public
    /// client that proves itself with PKCE alone. Never in `library.json`: from the environment.
    public var clientSecret: String?
    /// What the sign-in page's button says after "Sign In with".
    public var displayName: String
    /// Where the provider sends the browser back: `nil` derives it from the request's host and
    /// scheme (`http://HOST/signin/oidc/callback`, or `https://` behind HTTPS); it must be one the
    /// provider has registered for the client.
    public var redirectURI: URL?

    /// A provider configuration; see the properties.
    public init(issuer: URL, clientID: String, clientSecret: String? = nil, displayName: String = "Single Sign-On", redirectURI: URL? = nil) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.displayName = displayName
        self.redirectURI = redirectURI
    }

    /// The issuer as tokens name it: the URL without a trailing slash.
    var issuerString: String {
        var text = issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
