import AsyncHTTPClient
internal import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import ShoeboxLibrary
import Synchronization

/// The OpenID Connect provider a server signs people in with (``OpenIDConfiguration``): its
/// discovered configuration and keys (read when first needed, the keys again when a token names
/// one not known yet), the authorization request, and the code's exchange for a checked ID token.
final class OpenIDProvider: Sendable {
    /// What the provider's `/.well-known/openid-configuration` says.
    struct Discovery: Decodable, Sendable {
        let issuer: String
        let authorizationEndpoint: URL
        let tokenEndpoint: URL
        let jwksURI: URL

        private enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
        }
    }

    let configuration: OpenIDConfiguration
    private let http: HTTPClient
    private let discovered = Mutex<Discovery?>(nil)
    private let keys = Mutex<[JSONWebKey]>([])
    /// How long a request to the provider may take.
    static let timeout: TimeAmount = .seconds(10)
    /// The most a provider's answer may be.
    static let answerLimit = 1 << 20

    init(configuration: OpenIDConfiguration, http: HTTPClient = .shared) {
        self.configuration = configuration
        self.http = http
    }

    /// The provider's configuration, discovered once; its `issuer` must be the configured one.
    func discovery() async throws(OpenIDError) -> Discovery {
        if let known = discovered.withLock({ $0 }) { return known }
        let url = configuration.issuer.appendingPathComponent(".well-known/openid-configuration")
        let found: Discovery = try await fetchJSON(url, what: "its configuration")
        var issuer = found.issuer
        while issuer.hasSuffix("/") { issuer.removeLast() }
        guard issuer == configuration.issuerString else {
            throw OpenIDError(.provider, "\(url.absoluteString) names the issuer \(found.issuer), not \(configuration.issuerString)")
        }
        discovered.withLock { $0 = found }
        return found
    }

    /// Where the browser goes to sign in: the authorization endpoint with the code flow's
    /// parameters, PKCE's S256 challenge of `verifier`, and `state` and `nonce`.
    func authorizationURL(state: String, nonce: String, verifier: String, redirectURI: String) async throws(OpenIDError) -> URL {
        let endpoint = try await discovery().authorizationEndpoint
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw OpenIDError(.provider, "the provider's authorization endpoint \(endpoint) is not a URL")
        }
        let challenge = RandomToken.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "response_type", value: "code"), URLQueryItem(name: "client_id", value: configuration.clientID),
                URLQueryItem(name: "redirect_uri", value: redirectURI), URLQueryItem(name: "scope", value: "openid email profile"),
                URLQueryItem(name: "state", value: state), URLQueryItem(name: "nonce", value: nonce),
                URLQueryItem(name: "code_challenge", value: challenge), URLQueryItem(name: "code_challenge_method", value: "S256"),
            ]
        guard let url = components.url else { throw OpenIDError(.provider, "cannot make the authorization URL from \(endpoint)") }
        return url
    }

    /// Trades the authorization `code` for the ID token (proving PKCE with `verifier`) and checks
    /// it for this sign-in's `nonce`.
    func signIn(code: String, verifier: String, nonce: String, redirectURI: String) async throws(OpenIDError) -> IDToken.Claims {
        let discovery = try await discovery()
        let form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", verifier),
            ("client_id", configuration.clientID),
        ]
        let body = form.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        var request = HTTPClientRequest(url: discovery.tokenEndpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if let secret = configuration.clientSecret {
            let pair = "\(Self.formEncoded(configuration.clientID)):\(Self.formEncoded(secret))"
            request.headers.add(name: "Authorization", value: "Basic " + Data(pair.utf8).base64EncodedString())
        }
        request.body = .bytes(ByteBuffer(string: body))
        struct TokenAnswer: Decodable {
            let idToken: String?
            let error: String?
            let errorDescription: String?
            private enum CodingKeys: String, CodingKey {
                case idToken = "id_token"
                case error
                case errorDescription = "error_description"
            }
        }
        let (status, data) = try await send(request, what: "its token endpoint")
        let answer = try? JSONDecoder().decode(TokenAnswer.self, from: data)
        guard status == .ok, let idToken = answer?.idToken else {
            let why = [answer?.error, answer?.errorDescription].compactMap { $0 }.joined(separator: ": ")
            throw OpenIDError(.refused, "the provider refused the sign-in (\(status.code)\(why.isEmpty ? "" : " \(why)"))")
        }
        let token = try IDToken(idToken)
        if let claims = try? token.verified(keys: try await signingKeys(), issuer: configuration.issuerString, clientID: configuration.clientID, nonce: nonce) {
            return claims
        }
        // A key rolled over since they were read: read them again, once.
        return try token.verified(
            keys: try await signingKeys(refresh: true), issuer: configuration.issuerString, clientID: configuration.clientID, nonce: nonce)
    }

    private func signingKeys(refresh: Bool = false) async throws(OpenIDError) -> [JSONWebKey] {
        if !refresh, case let known = keys.withLock({ $0 }), !known.isEmpty { return known }
        let set: JSONWebKey.Set = try await fetchJSON(try await discovery().jwksURI, what: "its keys")
        keys.withLock { $0 = set.keys }
        return set.keys
    }

    private func fetchJSON<T: Decodable>(_ url: URL, what: String) async throws(OpenIDError) -> T {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let (status, data) = try await send(request, what: what)
        guard status == .ok else { throw OpenIDError(.provider, "the provider answered \(status.code) for \(what) (\(url.absoluteString))") }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw OpenIDError(.provider, "the provider's \(what) (\(url.absoluteString)) is not what OpenID Connect says", underlying: error)
        }
    }

    private func send(_ request: HTTPClientRequest, what: String) async throws(OpenIDError) -> (HTTPResponseStatus, Data) {
        do {
            let response = try await http.execute(request, timeout: Self.timeout)
            let body = try await response.body.collect(upTo: Self.answerLimit)
            return (response.status, Data(body.readableBytesView))
        } catch {
            throw OpenIDError(.provider, "the sign-in provider could not be reached for \(what): \(error)", underlying: error)
        }
    }

    /// `application/x-www-form-urlencoded` of one name or value (the token request's form, and
    /// HTTP Basic's parts for a client, RFC 6749 §2.3.1): everything but unreserved characters
    /// percent-encoded.
    private static func formEncoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
