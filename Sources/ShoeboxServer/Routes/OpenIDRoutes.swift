import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ShoeboxLibrary

/// Signing in with an OpenID Connect provider (``OpenIDConfiguration``), when the server has one:
/// `GET /signin/oidc` sends the browser to the provider, `GET /signin/oidc/callback` takes it
/// back, checks the ID token and signs in the person the account is linked to; a signed-in person
/// connects their account (`POST /api/me/oidc`, then the same round trip) and disconnects it
/// (`DELETE /api/me/oidc`). An account signs in only the person who connected it: nobody is
/// matched by an email, and an account nobody connected signs in nobody.
struct OpenIDRoutes {
    let server: PhotoLibraryServer
    var state: ServerState { server.state }
    static let logger = Logger(label: "shoebox.signin")

    /// The person's connected account, as `GET /api/me` shows it.
    struct AccountJSON: Encodable {
        /// What the sign-in page calls the provider.
        let provider: String
        /// The account's email when the provider said it, else its subject.
        let account: String?
    }

    /// The login cookie's name, kept apart per library as the session cookie's is.
    var cookieName: String { "shoebox_oidc_\(ServerState.derive("oidc-cookie", from: server.userKey).prefix(16))" }

    func register(on router: Router<ServerRequestContext>, api: RouterGroup<ServerRequestContext>) {
        router.get("/signin/oidc") { request, context in
            let provider = try requireProvider()
            let next = Self.localPath(request.uri.queryParameters.get("next"))
            let login = OpenIDLogin(redirectURI: redirectURI(request), person: nil, next: next)
            do throws(OpenIDError) {
                let url = try await provider.authorizationURL(state: login.state, nonce: login.nonce, verifier: login.verifier, redirectURI: login.redirectURI)
                var response = Response(status: .seeOther, headers: [.location: url.absoluteString, .cacheControl: "no-store"])
                response.headers[values: .setCookie] = [loginCookie(login)]
                return response
            } catch {
                Self.logger.error("the sign-in provider failed", metadata: ["why": "\(error.message)"])
                return WebAppRoutes(server: server).signInPage(
                    status: .serviceUnavailable, message: "\(provider.configuration.displayName) cannot be reached now: sign in another way, or try again",
                    next: next)
            }
        }
        router.get("/signin/oidc/callback") { request, context in try await callback(request, context: context) }
        api.post("me/oidc") { request, context in
            let person = try context.caller.requirePerson("only a person connects an account")
            let provider = try requireProvider()
            let login = OpenIDLogin(redirectURI: redirectURI(request), person: person.rowID, next: "/#/account")
            let url: URL
            do throws(OpenIDError) {
                url = try await provider.authorizationURL(state: login.state, nonce: login.nonce, verifier: login.verifier, redirectURI: login.redirectURI)
            } catch {
                throw APIError(.serviceUnavailable, "providerUnavailable", error.message)
            }
            var response = try JSONResponse.make(["url": url.absoluteString])
            response.headers[values: .setCookie] = [loginCookie(login)]
            return response
        }
        api.delete("me/oidc") { _, context in
            let person = try context.caller.requirePerson("only a person disconnects an account")
            let provider = try requireProvider()
            do {
                guard try await state.library.unlinkSignIn(of: person, issuer: provider.configuration.issuerString) else {
                    throw APIError.notFound("no \(provider.configuration.displayName) account is connected")
                }
            } catch let error as LibraryError {
                throw APIError(error)
            }
            Self.logger.info("sign-in account disconnected", metadata: ["person": "\(person.name)"])
            return Response(status: .noContent)
        }
    }

    /// The person's connected account, or `nil` (also when the server has no provider).
    func account(of person: Person) async -> AccountJSON? {
        guard let provider = state.openID else { return nil }
        let linked = try? await state.library.signInAccount(of: person, issuer: provider.configuration.issuerString)
        return AccountJSON(provider: provider.configuration.displayName, account: linked.map { $0.email ?? $0.subject })
    }

    private func callback(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let provider = try requireProvider()
        let pages = WebAppRoutes(server: server)
        let address = context.remoteAddress
        let parameters = request.uri.queryParameters
        guard let value = CallerMiddleware.cookieValue(cookieName + "=", in: request.headers[values: .cookie]),
            let login = OpenIDLogin.opened(value, serverKey: server.userKey), let returned = parameters.get("state"),
            CallerMiddleware.constantTimeEquals(returned, login.state), state.openIDStates.take(login.state, until: login.expires)
        else {
            Self.logger.warning(
                "sign-in with the provider refused", metadata: ["address": "\(address)", "why": "no sign-in of this browser waits for that answer"])
            return cleared(pages.signInPage(status: .forbidden, message: "That sign-in has expired or is not this browser's: sign in again", next: "/"))
        }
        let throttled: TimeInterval?
        do { throttled = try await state.library.passkeySignInWait(address: address) } catch { throw APIError(error) }
        if let wait = throttled {
            Self.logger.warning("sign-in with the provider throttled", metadata: ["address": "\(address)"])
            var page = pages.signInPage(
                status: .tooManyRequests, message: "Too many failed sign-ins from this address: try again in \(Int(wait / 60)) minutes", next: login.next)
            page.headers[.retryAfter] = String(Int(wait))
            return cleared(page)
        }
        let claims: IDToken.Claims
        switch await self.claims(of: request, login: login, provider: provider) {
        case .success(let read):
            claims = read
        case .failure(let error):
            try? await state.library.notePasskeyFailure(address: address)
            Self.logger.warning("sign-in with the provider failed", metadata: ["address": "\(address)", "why": "\(error.message)"])
            return cleared(pages.signInPage(status: .unauthorized, message: error.message, next: login.next))
        }
        let issuer = provider.configuration.issuerString
        let shown = claims.emailVerified == false ? nil : claims.email
        do throws(LibraryError) {
            if let linking = login.person {
                // Connecting: the sealed login says who began it, from a page of theirs (a POST
                // with its CSRF token; the session cookie does not come back from another site).
                guard let person = try await state.library.catalog.person(rowID: linking), person.state == .active else {
                    return cleared(pages.signInPage(status: .forbidden, message: "The person connecting the account may no longer sign in", next: "/"))
                }
                // An account that signs in someone else is not taken from them.
                if let holder = try await state.library.person(signingInAs: claims.sub, issuer: issuer), holder.rowID != person.rowID {
                    return cleared(Self.redirectPage(to: "/?oidc=taken#/account", cookies: []))
                }
                try await state.library.linkSignIn(issuer: issuer, subject: claims.sub, email: shown, to: person)
                Self.logger.info("sign-in account connected", metadata: ["person": "\(person.name)", "account": "\(shown ?? claims.sub)"])
                return cleared(Self.redirectPage(to: login.next, cookies: []))
            }
            guard let person = try await state.library.person(signingInAs: claims.sub, issuer: issuer), person.state == .active else {
                try await state.library.notePasskeyFailure(address: address)
                Self.logger.warning(
                    "sign-in with the provider failed",
                    metadata: ["address": "\(address)", "why": "the account \(shown ?? claims.sub) is connected to no active person"])
                return cleared(
                    pages.signInPage(
                        status: .forbidden,
                        message:
                            "No one here signs in with \(shown ?? "that account"): sign in another way, then connect it in Settings › Account",
                        next: login.next))
            }
            let (_, token) = try await state.library.startSession(for: person, address: address, userAgent: request.headers[.userAgent] ?? "")
            Self.logger.info("signed in", metadata: ["person": "\(person.name)", "address": "\(address)", "with": "\(provider.configuration.displayName)"])
            return cleared(Self.redirectPage(to: login.next, cookies: [PeopleRoutes(server: server).sessionCookie(token)]))
        } catch {
            throw APIError(error)
        }
    }

    /// The ID token's claims for the provider's answer in `parameters` (an error, or a code to
    /// trade), or why there are none.
    private func claims(of request: Request, login: OpenIDLogin, provider: OpenIDProvider) async -> Result<IDToken.Claims, OpenIDError> {
        let parameters = request.uri.queryParameters
        if let error = parameters.get("error") {
            let description = parameters.get("error_description").map { ": \($0)" } ?? ""
            return .failure(OpenIDError(.refused, "\(provider.configuration.displayName) did not sign you in (\(error)\(description))"))
        }
        guard let code = parameters.get("code"), !code.isEmpty else { return .failure(OpenIDError(.refused, "the provider sent no code back")) }
        do throws(OpenIDError) {
            return .success(try await provider.signIn(code: code, verifier: login.verifier, nonce: login.nonce, redirectURI: login.redirectURI))
        } catch {
            return .failure(error)
        }
    }

    private func requireProvider() throws(APIError) -> OpenIDProvider {
        guard let provider = state.openID else { throw APIError.notFound("this server signs in with no OpenID Connect provider") }
        return provider
    }

    /// Where the provider sends the browser back: the configured URI, else this server's own
    /// callback at the host the request came to.
    private func redirectURI(_ request: Request) -> String {
        if let given = state.openID?.configuration.redirectURI { return given.absoluteString }
        let host = request.head.authority ?? "\(server.configuration.host):\(server.configuration.port)"
        return "\(state.configuration.servedOverHTTPS ? "https" : "http")://\(host)/signin/oidc/callback"
    }

    private func loginCookie(_ login: OpenIDLogin) -> String {
        // Lax: the provider's redirect back is a top-level navigation from another site, which a
        // Strict cookie would not come with.
        "\(cookieName)=\(login.sealed(serverKey: server.userKey)); Path=/signin/oidc; HttpOnly; SameSite=Lax; Max-Age=\(Int(OpenIDLogin.lifetime))\(state.cookieSecurity)"
    }

    /// `response` with the login cookie gone: a login is used once.
    private func cleared(_ response: Response) -> Response {
        var response = response
        response.headers[values: .setCookie].append("\(cookieName)=; Path=/signin/oidc; HttpOnly; SameSite=Lax; Max-Age=0\(state.cookieSecurity)")
        return response
    }

    /// A page that goes on to `path` at once. The provider's redirect chain is cross-site, so the
    /// browser would not send the (SameSite=Strict) session cookie with a redirect straight to
    /// the app; a navigation this page starts is this site's own.
    static func redirectPage(to path: String, cookies: [String]) -> Response {
        let escaped = WebAppRoutes.escapeHTML(path)
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=\(escaped)">
            <title>Signing in — Shoebox</title><link rel="stylesheet" href="/app/app.css"></head><body class="sign-in"><main>
            <p><a href="\(escaped)">Continue to Shoebox</a></p></main></body></html>
            """
        var response = Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: html)))
        response.headers[values: .setCookie] = cookies
        return response
    }

    /// A path of this server to go to, never an address elsewhere (`/` for anything else).
    static func localPath(_ given: String?) -> String {
        guard let given, given.hasPrefix("/"), !given.hasPrefix("//"), !given.contains("\\") else { return "/" }
        return given
    }
}
