"""A small OAuth 2.0 authorization server for mailstore's tests (loopback, plain HTTP, stdlib only).

Started by Tools/test-server/oauth-server; not for production. What it serves (all JSON unless noted):
  GET  /.well-known/oauth-authorization-server   RFC 8414 metadata (issuer, endpoints, grants)
  GET  /authorize?response_type=code&client_id&redirect_uri&code_challenge&code_challenge_method=S256
       &state&scope&login_hint     Authorization code + PKCE (RFC 6749 4.1, RFC 7636). Approves at once
       for the user in login_hint (default: the first user) and answers 302 to redirect_uri?code&state.
       login_hint "consent-required@..." answers redirect_uri?error=access_denied&error_description=
       "AADSTS90094: admin consent required" (how Entra refuses without admin consent, E-26).
  POST /token     grant_type=authorization_code (code, redirect_uri, code_verifier, client_id),
                  refresh_token, urn:ietf:params:oauth:grant-type:device_code (RFC 8628)
  POST /device    device authorization request (RFC 8628 3.1): device_code, user_code, verification_uri
  GET  /device/approve?user_code=...   the user's approval (what a browser would do), answers text
  POST /introspect  RFC 7662: token=... -> {"active", "username", "scope", "exp", "client_id"}
  POST /revoke      RFC 7009: token=... (a refresh token also revokes its access tokens)
  POST /control/expire   test hook: every access token now expired
  POST /control/family   test hook for one sign-in's refresh tokens (its "family": the refresh token a code or
       device grant issued and every one rotated from it), named by token=ANY_REFRESH_TOKEN_OF_IT; switched for
       that family only, so tests sharing the server do not disturb each other:
         rotate=1            each refresh issues a new refresh token and the one used is rotated out (refused
                             with invalid_grant from then on), as Microsoft Entra does
         reuse_detection=1   a rotated-out refresh token used again revokes the whole family, every refresh and
                             access token of it (OAuth 2.0 Security BCP, refresh token rotation)
         delay=SECONDS       each refresh of the family answers that much later (at most 30), checked after the
                             wait, so tests can make refreshes overlap
         rotate_now=1        rotates the family's current refresh token at once, as another client refreshing
                             would (answers the new one as refresh_token)
       answers the family's settings and counts: refreshes (granted), pending (waiting in delay), revoked.
Access tokens live --access-ttl seconds (default 60); refresh tokens until revoked (or rotated out). Revoking
a refresh token revokes its family. Tokens are random; the server keeps them in memory only. Every request is
logged to stderr without token values.
"""
import argparse
import base64
import hashlib
import json
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

MAX_BODY = 64 * 1024
LOCK = threading.Lock()
CODES = {}      # code -> {client_id, redirect_uri, challenge, user, scope, exp}
ACCESS = {}     # token -> {user, scope, exp, client_id, refresh}
REFRESH = {}    # token -> {user, scope, client_id, revoked, rotated_out, family}
FAMILIES = {}   # family id -> {rotate, reuse_detection, delay, refreshes, pending, revoked}
DEVICES = {}    # device_code -> {user_code, client_id, scope, user, approved, exp, last_poll}
ARGS = None


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def id_token(user, client_id, issuer):
    """An unsigned-looking JWT (alg none): enough for a client reading its claims in tests."""
    header = b64url(json.dumps({"alg": "none", "typ": "JWT"}).encode())
    claims = {"iss": issuer, "aud": client_id, "sub": hashlib.sha256(user.encode()).hexdigest()[:20],
              "email": user, "preferred_username": user, "iat": int(time.time()), "exp": int(time.time()) + 3600}
    return header + "." + b64url(json.dumps(claims).encode()) + "."


def new_refresh(user, scope, client_id, family):
    """A new refresh token in `family` (a new family when None). Call with LOCK held."""
    if family is None:
        family = secrets.token_hex(8)
        FAMILIES[family] = {"rotate": False, "reuse_detection": False, "delay": 0.0, "refreshes": 0, "pending": 0,
                            "revoked": False}
    refresh = secrets.token_urlsafe(32)
    REFRESH[refresh] = {"user": user, "scope": scope, "client_id": client_id, "revoked": False, "rotated_out": False,
                        "family": family}
    return refresh


def revoke_family(family):
    """Revokes every refresh token of `family` and every access token issued from them. Call with LOCK held."""
    FAMILIES[family]["revoked"] = True
    for r in REFRESH.values():
        if r["family"] == family:
            r["revoked"] = True
    for t in [t for t, a in ACCESS.items() if REFRESH.get(a["refresh"], {}).get("family") == family]:
        del ACCESS[t]


def issue(user, scope, client_id, refresh=None):
    access = secrets.token_urlsafe(32)
    with LOCK:
        if refresh is None:
            refresh = new_refresh(user, scope, client_id, None)
        ACCESS[access] = {"user": user, "scope": scope, "exp": time.time() + ARGS.access_ttl,
                          "client_id": client_id, "refresh": refresh}
    body = {"access_token": access, "token_type": "Bearer", "expires_in": ARGS.access_ttl,
            "refresh_token": refresh, "scope": scope}
    if "openid" in scope.split():
        body["id_token"] = id_token(user, client_id, ARGS.issuer)
    return body


class Handler(BaseHTTPRequestHandler):
    server_version = "mailstore-test-oauth/1"

    def log_message(self, fmt, *args):
        # The path only, never its query (codes) nor bodies (tokens).
        sys.stderr.write("oauth: %s %s\n" % (self.command, urlparse(self.path).path))

    def reply(self, status, body, headers=None):
        data = json.dumps(body).encode() if not isinstance(body, bytes) else body
        self.send_response(status)
        self.send_header("Content-Type", "application/json" if not isinstance(body, bytes) else "text/plain")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def error(self, status, code, description):
        self.reply(status, {"error": code, "error_description": description})

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0 or length > MAX_BODY:
            return None
        raw = self.rfile.read(length).decode("utf-8", "replace")
        return {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        if url.path == "/.well-known/oauth-authorization-server" or url.path == "/.well-known/openid-configuration":
            base = ARGS.issuer
            return self.reply(200, {
                "issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
                "device_authorization_endpoint": base + "/device", "introspection_endpoint": base + "/introspect",
                "revocation_endpoint": base + "/revoke", "code_challenge_methods_supported": ["S256"],
                "grant_types_supported": ["authorization_code", "refresh_token",
                                          "urn:ietf:params:oauth:grant-type:device_code"]})
        if url.path == "/authorize":
            return self.authorize(query)
        if url.path == "/device/approve":
            with LOCK:
                for d in DEVICES.values():
                    if d["user_code"] == query.get("user_code"):
                        d["approved"] = True
                        d["user"] = query.get("login_hint") or ARGS.user[0]
                        return self.reply(200, b"approved\n")
            return self.reply(404, b"unknown user code\n")
        self.error(404, "not_found", url.path)

    def authorize(self, q):
        redirect = q.get("redirect_uri", "")
        r = urlparse(redirect)
        if r.scheme != "http" or r.hostname not in ("127.0.0.1", "::1", "localhost"):
            return self.error(400, "invalid_request", "redirect_uri must be a loopback http URI (RFC 8252)")
        if q.get("client_id") not in ARGS.client_id:
            return self.error(400, "invalid_client", "unknown client_id")
        def back(params):
            sep = "&" if r.query else "?"
            self.send_response(302)
            self.send_header("Location", redirect + sep + urlencode(params))
            self.send_header("Content-Length", "0")
            self.end_headers()
        state = q.get("state", "")
        user = q.get("login_hint") or ARGS.user[0]
        if user.startswith("consent-required@"):
            return back({"error": "access_denied", "state": state,
                         "error_description": "AADSTS90094: An administrator of your organization must grant "
                                              "permission (admin consent required)."})
        if q.get("response_type") != "code":
            return back({"error": "unsupported_response_type", "state": state})
        if q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return back({"error": "invalid_request", "state": state, "error_description": "PKCE S256 required"})
        code = secrets.token_urlsafe(24)
        with LOCK:
            CODES[code] = {"client_id": q["client_id"], "redirect_uri": redirect, "challenge": q["code_challenge"],
                           "user": user, "scope": q.get("scope", ""), "exp": time.time() + 120}
        back({"code": code, "state": state})

    def do_POST(self):
        path = urlparse(self.path).path
        form = self.form()
        if form is None:
            return self.error(413, "invalid_request", "body too large")
        if path == "/token":
            return self.token(form)
        if path == "/device":
            if form.get("client_id") not in ARGS.client_id:
                return self.error(400, "invalid_client", "unknown client_id")
            device_code, user_code = secrets.token_urlsafe(24), secrets.token_hex(4).upper()
            with LOCK:
                DEVICES[device_code] = {"user_code": user_code, "client_id": form["client_id"],
                                        "scope": form.get("scope", ""), "approved": False, "user": None,
                                        "exp": time.time() + 600, "last_poll": 0}
            return self.reply(200, {"device_code": device_code, "user_code": user_code,
                                    "verification_uri": ARGS.issuer + "/device/approve",
                                    "expires_in": 600, "interval": 1})
        if path == "/introspect":
            with LOCK:
                a = ACCESS.get(form.get("token", ""))
                # An access token lives until it expires or its family is revoked (rotating the refresh token it
                # came with out does not end it).
                live = a is not None and a["exp"] > time.time() and not FAMILIES.get(
                    REFRESH.get(a["refresh"], {}).get("family"), {}).get("revoked", True)
            if not live:
                return self.reply(200, {"active": False})
            return self.reply(200, {"active": True, "username": a["user"], "scope": a["scope"],
                                    "exp": int(a["exp"]), "client_id": a["client_id"], "token_type": "Bearer"})
        if path == "/revoke":
            token = form.get("token", "")
            with LOCK:
                if token in REFRESH:
                    revoke_family(REFRESH[token]["family"])
                ACCESS.pop(token, None)
            return self.reply(200, {})
        if path == "/control/expire":
            with LOCK:
                for a in ACCESS.values():
                    a["exp"] = time.time() - 1
            return self.reply(200, {"expired": len(ACCESS)})
        if path == "/control/family":
            return self.family(form)
        self.error(404, "not_found", path)

    def family(self, form):
        """The test hook POST /control/family (see the module's text)."""
        with LOCK:
            r = REFRESH.get(form.get("token", ""))
            if r is None:
                return self.error(404, "not_found", "no such refresh token")
            f = FAMILIES[r["family"]]
            for key in ("rotate", "reuse_detection"):
                if key in form:
                    f[key] = form[key] == "1"
            if "delay" in form:
                f["delay"] = min(max(float(form["delay"]), 0.0), 30.0)
            body = dict(f)
            if form.get("rotate_now") == "1":
                current = [t for t, c in REFRESH.items() if c["family"] == r["family"] and not c["revoked"]]
                if len(current) != 1:
                    return self.error(400, "invalid_request", "the family has no current refresh token")
                old = REFRESH[current[0]]
                old["revoked"], old["rotated_out"] = True, True
                body["refresh_token"] = new_refresh(old["user"], old["scope"], old["client_id"], old["family"])
        return self.reply(200, body)

    def token(self, form):
        grant = form.get("grant_type")
        client = form.get("client_id")
        if client not in ARGS.client_id:
            return self.error(401, "invalid_client", "unknown client_id")
        if grant == "authorization_code":
            with LOCK:
                c = CODES.pop(form.get("code", ""), None)
            if c is None or c["exp"] < time.time() or c["client_id"] != client:
                return self.error(400, "invalid_grant", "unknown or expired authorization code")
            if c["redirect_uri"] != form.get("redirect_uri"):
                return self.error(400, "invalid_grant", "redirect_uri does not match")
            verifier = form.get("code_verifier", "")
            if b64url(hashlib.sha256(verifier.encode()).digest()) != c["challenge"]:
                return self.error(400, "invalid_grant", "PKCE verification failed")
            return self.reply(200, issue(c["user"], c["scope"], client))
        if grant == "refresh_token":
            return self.refresh(form.get("refresh_token", ""), client)
        if grant == "urn:ietf:params:oauth:grant-type:device_code":
            with LOCK:
                d = DEVICES.get(form.get("device_code", ""))
                if d is None or d["client_id"] != client:
                    return self.error(400, "invalid_grant", "unknown device code")
                if d["exp"] < time.time():
                    return self.error(400, "expired_token", "the device code expired")
                if not d["approved"]:
                    return self.error(400, "authorization_pending", "waiting for the user")
                del DEVICES[form["device_code"]]
            return self.reply(200, issue(d["user"], d["scope"], client))
        self.error(400, "unsupported_grant_type", str(grant))

    def refresh(self, token, client):
        """The refresh_token grant: the family's delay first, then the checks, then (rotating) a new refresh token."""
        with LOCK:
            r = REFRESH.get(token)
            family = FAMILIES[r["family"]] if r is not None else None
            delay = family["delay"] if family is not None else 0
            if family is not None:
                family["pending"] += 1
        if delay:
            time.sleep(delay)
        with LOCK:
            if family is not None:
                family["pending"] -= 1
            if r is None or r["client_id"] != client:
                return self.error(400, "invalid_grant", "the refresh token is unknown")
            if r["rotated_out"] and family["reuse_detection"] and not family["revoked"]:
                revoke_family(r["family"])
                return self.error(400, "invalid_grant", "a rotated-out refresh token was used again: every token of "
                                                        "this sign-in is revoked")
            if r["revoked"]:
                return self.error(400, "invalid_grant", "the refresh token was revoked or rotated out")
            family["refreshes"] += 1
            refresh = token
            if family["rotate"]:
                r["revoked"], r["rotated_out"] = True, True
                refresh = new_refresh(r["user"], r["scope"], client, r["family"])
        return self.reply(200, issue(r["user"], r["scope"], client, refresh=refresh))


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--client-id", action="append", default=[])
    p.add_argument("--user", action="append", default=[])
    p.add_argument("--access-ttl", type=int, default=60)
    p.add_argument("--state", default="", help="unused marker: the folder the server belongs to")
    ARGS = p.parse_args()
    ARGS.client_id = ARGS.client_id or ["mailstore-test"]
    ARGS.user = ARGS.user or ["alice@example.com"]
    ARGS.issuer = "http://127.0.0.1:%d" % ARGS.port
    server = ThreadingHTTPServer(("127.0.0.1", ARGS.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
