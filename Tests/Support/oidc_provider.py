"""A small OpenID Connect provider for Shoebox's tests: the authorization code flow with PKCE
(S256 only), discovery, a JWKS, and ID tokens signed by Authlib's JOSE (RS256, or ES256 on
request). Anyone signs in by typing a name (or with login_hint, for tests without a browser):
their subject is "subject-NAME", their email NAME@example.org. POST /control {"next": DEFECT}
makes the next ID token wrong in one way (wrong-nonce, wrong-audience, wrong-issuer, expired,
bad-signature, unknown-key) or signed with ES256 ("es256"), for the tests of what Shoebox refuses.

    python oidc_provider.py --client-id shoebox [--client-secret S] [--port 0]

prints {"issuer": URL} as one line once it listens, and serves until stopped.
"""

import argparse
import base64
import hashlib
import html
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from authlib.jose import JsonWebKey, jwt


class Provider:
    def __init__(self, client_id, client_secret):
        self.client_id = client_id
        self.client_secret = client_secret
        self.rsa = JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "rsa-1"})
        self.ec = JsonWebKey.generate_key("EC", "P-256", is_private=True, options={"kid": "ec-1"})
        self.stranger = JsonWebKey.generate_key("RSA", 2048, is_private=True, options={"kid": "rsa-1"})
        self.codes = {}
        self.next_defect = None
        self.lock = threading.Lock()
        self.issuer = None

    def jwks(self):
        keys = []
        for key in (self.rsa, self.ec):
            public = key.as_dict(is_private=False)
            public["use"] = "sig"
            keys.append(public)
        return {"keys": keys}

    def issue_code(self, query, name):
        code = secrets.token_urlsafe(24)
        with self.lock:
            self.codes[code] = {"name": name, "client_id": query["client_id"], "redirect_uri": query["redirect_uri"],
                                "nonce": query.get("nonce"), "challenge": query["code_challenge"], "issued": time.time()}
        return code

    def id_token(self, grant):
        with self.lock:
            defect, self.next_defect = self.next_defect, None
        now = int(time.time())
        claims = {"iss": self.issuer, "sub": "subject-" + grant["name"], "aud": self.client_id, "iat": now, "exp": now + 300,
                  "nonce": grant["nonce"], "email": grant["name"] + "@example.org", "email_verified": True,
                  "preferred_username": grant["name"]}
        key, header = self.rsa, {"alg": "RS256", "kid": "rsa-1"}
        if defect == "wrong-nonce":
            claims["nonce"] = "not-the-nonce"
        elif defect == "wrong-audience":
            claims["aud"] = "another-client"
        elif defect == "wrong-issuer":
            claims["iss"] = "http://evil.example"
        elif defect == "expired":
            claims["iat"], claims["exp"] = now - 3600, now - 600
        elif defect == "bad-signature":
            key = self.stranger
        elif defect == "unknown-key":
            key, header = self.stranger, {"alg": "RS256", "kid": "rsa-unknown"}
        elif defect == "es256":
            key, header = self.ec, {"alg": "ES256", "kid": "ec-1"}
        return jwt.encode(header, claims, key).decode()


def s256(verifier):
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


class Handler(BaseHTTPRequestHandler):
    provider = None

    def log_message(self, *arguments):
        pass

    def answer(self, status, body, content_type="application/json", headers=()):
        data = (json.dumps(body) if content_type == "application/json" else body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length).decode() if length else ""

    def do_GET(self):
        provider = self.provider
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/.well-known/openid-configuration":
            return self.answer(200, {"issuer": provider.issuer, "authorization_endpoint": provider.issuer + "/authorize",
                                     "token_endpoint": provider.issuer + "/token", "jwks_uri": provider.issuer + "/jwks",
                                     "response_types_supported": ["code"], "subject_types_supported": ["public"],
                                     "id_token_signing_alg_values_supported": ["RS256", "ES256"],
                                     "code_challenge_methods_supported": ["S256"]})
        if url.path == "/jwks":
            return self.answer(200, provider.jwks())
        if url.path == "/authorize":
            problem = self.authorization_problem(query)
            if problem:
                return self.answer(400, {"error": "invalid_request", "error_description": problem})
            if query.get("login_hint"):
                return self.send_back(query, query["login_hint"])
            hidden = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in query.items())
            page = (f'<!doctype html><html><head><title>Test provider</title></head><body><h1>Sign in to the test provider</h1>'
                    f'<form method="post" action="/authorize">{hidden}<label>Name <input name="username" autofocus></label>'
                    f'<button type="submit">Continue</button>'
                    f'<button type="submit" name="deny" value="1">Cancel</button></form></body></html>')
            return self.answer(200, page, "text/html; charset=utf-8")
        return self.answer(404, {"error": "not_found"})

    def authorization_problem(self, query):
        if query.get("response_type") != "code":
            return "response_type must be code"
        if query.get("client_id") != self.provider.client_id:
            return "unknown client_id"
        if not query.get("redirect_uri") or not query.get("state"):
            return "redirect_uri and state are required"
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return "PKCE with S256 is required"
        return None

    def send_back(self, query, name):
        code = self.provider.issue_code(query, name)
        target = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": query["state"]})
        return self.answer(302, "", "text/plain", [("Location", target)])

    def do_POST(self):
        provider = self.provider
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/authorize":
            form = dict(urllib.parse.parse_qsl(self.body()))
            problem = self.authorization_problem(form)
            if problem:
                return self.answer(400, {"error": "invalid_request", "error_description": problem})
            if form.get("deny"):
                target = form["redirect_uri"] + "?" + urllib.parse.urlencode(
                    {"error": "access_denied", "error_description": "the person cancelled", "state": form["state"]})
                return self.answer(302, "", "text/plain", [("Location", target)])
            return self.send_back(form, form.get("username") or "nobody")
        if url.path == "/token":
            form = dict(urllib.parse.parse_qsl(self.body()))
            if provider.client_secret is not None:
                # RFC 6749 §2.3.1: the id and secret are form-encoded, then joined for HTTP Basic.
                given = self.headers.get("Authorization", "")
                try:
                    pair = base64.b64decode(given[len("Basic "):]).decode() if given.startswith("Basic ") else ""
                except ValueError:
                    pair = ""
                name, _, secret = pair.partition(":")
                if urllib.parse.unquote_plus(name) != provider.client_id or urllib.parse.unquote_plus(secret) != provider.client_secret:
                    return self.answer(401, {"error": "invalid_client"})
            with provider.lock:
                grant = provider.codes.pop(form.get("code", ""), None)
            if (form.get("grant_type") != "authorization_code" or grant is None or grant["redirect_uri"] != form.get("redirect_uri")
                    or grant["client_id"] != form.get("client_id") or time.time() - grant["issued"] > 60):
                return self.answer(400, {"error": "invalid_grant", "error_description": "unknown, used or expired code"})
            if s256(form.get("code_verifier", "")) != grant["challenge"]:
                return self.answer(400, {"error": "invalid_grant", "error_description": "the code_verifier does not match the challenge"})
            return self.answer(200, {"access_token": secrets.token_urlsafe(16), "token_type": "Bearer", "expires_in": 300,
                                     "id_token": provider.id_token(grant)})
        if url.path == "/control":
            provider.next_defect = json.loads(self.body() or "{}").get("next")
            return self.answer(204, "", "text/plain")
        return self.answer(404, {"error": "not_found"})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--client-id", default="shoebox")
    parser.add_argument("--client-secret")
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    provider = Provider(arguments.client_id, arguments.client_secret)
    Handler.provider = provider
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    provider.issuer = f"http://127.0.0.1:{server.server_address[1]}"
    print(json.dumps({"issuer": provider.issuer}), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
