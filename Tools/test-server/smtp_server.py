#!/usr/bin/python3
"""A real SMTP server for mailstore's tests, on aiosmtpd (Debian's python3-aiosmtpd). Started and stopped
by Tools/test-server/smtp; see that script for usage.

    smtp_server.py --spool DIR/smtp-spool --cert CERT --key KEY --port N --tls-port M
                   [--user alice@example.com --password alice-secret]...

- --port: submission with STARTTLS; AUTH PLAIN/LOGIN is offered only after STARTTLS (before it AUTH gets
  538 5.7.11), and MAIL without AUTH gets 530 5.7.0.
- --tls-port: implicit TLS (SMTPS); AUTH required as well.
- --oauth-introspect URL: AUTH XOAUTH2 and OAUTHBEARER (RFC 7628) as well, the bearer token checked at that
  RFC 7662 introspection endpoint (Tools/test-server/oauth-server); the introspected user must be the one
  named in the SASL message. A refusal is a 334 challenge with the JSON status (as Gmail sends), then 535.
- EHLO advertises 8BITMIME and SMTPUTF8 (and SIZE).
- Every accepted message goes to SPOOL/NAME.eml (the DATA bytes exactly as received, dot-unstuffed) and one
  JSON line in SPOOL/index.jsonl: {"file", "from", "to", "mail_options", "auth_user", "tls", "listener",
  "size", "received"}.
- Failure injection by recipient local part (case-insensitive prefix):
    fail5xx...   RCPT TO answered 550 5.1.1      fail4xx...   RCPT TO answered 451 4.3.0
    drop...      connection closed at RCPT TO, without a reply
    datafail5xx... / datafail4xx...  RCPT accepted, end of DATA answered 554 5.6.0 / 451 4.3.0 (not saved)
    datadrop...  RCPT accepted, message saved to the spool, then the connection closed without a reply
    stall...     RCPT accepted, the end of DATA never answered (an hour's wait: a client killed meanwhile)
                 to DATA (a lost acknowledgement)
"""
import argparse
import asyncio
import datetime
import itertools
import json
import logging
import os
import ssl
import sys
import urllib.parse
import urllib.request
import warnings
from base64 import b64decode, b64encode

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

log = logging.getLogger("smtp_server")


def local_part(address):
    return address.rsplit("@", 1)[0].strip("<>").lower()


class OAuthMechanisms:
    """AUTH XOAUTH2 / OAUTHBEARER methods for aiosmtpd (found on the handler by their auth_ names)."""
    introspect_url = None

    def introspect(self, token):
        data = urllib.parse.urlencode({"token": token}).encode()
        with urllib.request.urlopen(urllib.request.Request(self.introspect_url, data=data), timeout=10) as r:
            return json.loads(r.read(65536))

    async def oauth(self, server, args, mechanism):
        if len(args) > 1:
            try:
                message = b64decode(args[1], validate=True)
            except ValueError:
                await server.push("501 5.5.2 Can't decode base64")
                return None
        else:
            message = await server.challenge_auth("")
            if not isinstance(message, bytes):
                return None
        fields = message.split(b"\x01")
        user, token = None, None
        for f in fields:
            if f.startswith(b"user="):
                user = f[5:].decode("utf-8", "replace")
            elif f.startswith(b"auth=Bearer "):
                token = f[12:].decode("utf-8", "replace")
        if mechanism == "OAUTHBEARER" and fields and fields[0].startswith(b"n,"):
            for part in fields[0].split(b","):
                if part.startswith(b"a="):
                    user = part[2:].decode("utf-8", "replace").replace("=2C", ",").replace("=3D", "=")
        ok = False
        if token:
            try:
                info = await asyncio.to_thread(self.introspect, token)
                ok = info.get("active") is True and (user is None or info.get("username") == user)
                user = user or info.get("username")
            except (OSError, ValueError) as error:
                log.warning("introspection failed: %s", error)
        log.info("AUTH %s %s: %s", mechanism, user, "ok" if ok else "refused")
        if ok:
            return AuthResult(success=True, handled=False, auth_data=user)
        status = json.dumps({"status": "invalid_token", "schemes": "bearer", "scope": "mail"})
        await server.challenge_auth(status)
        await server.push("535 5.7.8 Username and Password not accepted")
        return AuthResult(success=False, handled=True)

    async def auth_XOAUTH2(self, server, args):
        if not self.introspect_url:
            await server.push("504 5.5.4 Unrecognized authentication type")
            return None
        return await self.oauth(server, args, "XOAUTH2")

    async def auth_OAUTHBEARER(self, server, args):
        if not self.introspect_url:
            await server.push("504 5.5.4 Unrecognized authentication type")
            return None
        return await self.oauth(server, args, "OAUTHBEARER")


class Handler(OAuthMechanisms):
    def __init__(self, spool, listener):
        self.spool = spool
        self.listener = listener

    counter = itertools.count(1)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = local_part(address)
        if local.startswith("fail5xx"):
            return "550 5.1.1 Mailbox unavailable (injected failure)"
        if local.startswith("fail4xx"):
            return "451 4.3.0 Temporary failure, try again later (injected failure)"
        if local.startswith("drop"):
            log.info("%s: dropping the connection at RCPT TO:<%s>", self.listener, address)
            await drop(server)
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        locals_ = [local_part(a) for a in envelope.rcpt_tos]
        if any(lp.startswith("datafail5xx") for lp in locals_):
            return "554 5.6.0 Message rejected (injected failure)"
        if any(lp.startswith("datafail4xx") for lp in locals_):
            return "451 4.3.0 Temporary failure, try again later (injected failure)"
        if any(lp.startswith("stall") for lp in locals_):
            log.info("%s: stalling at the end of DATA", self.listener)
            await asyncio.sleep(3600)
        name = self.save(server, session, envelope)
        if any(lp.startswith("datadrop") for lp in locals_):
            log.info("%s: saved %s, dropping the connection before the DATA reply", self.listener, name)
            await drop(server)
        return f"250 2.0.0 OK queued as {name}"

    def save(self, server, session, envelope):
        now = datetime.datetime.now(datetime.timezone.utc)
        name = f"{now.strftime('%Y%m%dT%H%M%S.%f')}-{os.getpid()}-{next(self.counter):06d}.eml"
        content = envelope.original_content if envelope.original_content is not None else envelope.content
        if isinstance(content, str):
            content = content.encode("utf-8", "surrogateescape")
        tmp = os.path.join(self.spool, "." + name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, os.path.join(self.spool, name))
        auth = session.auth_data
        auth_user = None
        if isinstance(auth, LoginPassword):
            auth_user = auth.login.decode("utf-8", "replace")
        elif isinstance(auth, str):
            auth_user = auth
        entry = {
            "file": name,
            "from": envelope.mail_from,
            "to": list(envelope.rcpt_tos),
            "mail_options": list(envelope.mail_options),
            "auth_user": auth_user,
            "tls": is_tls(server),
            "listener": self.listener,
            "size": len(content),
            "received": now.isoformat(),
        }
        with open(os.path.join(self.spool, "index.jsonl"), "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        log.info("%s: saved %s from %s to %s", self.listener, name, envelope.mail_from, envelope.rcpt_tos)
        return name


def is_tls(server):
    transport = server.transport
    return transport is not None and transport.get_extra_info("ssl_object") is not None


async def drop(server):
    """Closes the connection at once, without a reply; the session's task is then cancelled."""
    if server.transport is not None:
        server.transport.abort()
    if server._original_transport is not None:
        server._original_transport.abort()
    await asyncio.Event().wait()


class Authenticator:
    def __init__(self, users):
        self.users = users

    def __call__(self, server, session, envelope, mechanism, auth_data):
        if mechanism not in ("PLAIN", "LOGIN") or not isinstance(auth_data, LoginPassword):
            return AuthResult(success=False, handled=False)
        login = auth_data.login.decode("utf-8", "replace")
        password = auth_data.password.decode("utf-8", "replace")
        ok = self.users.get(login) == password
        log.info("AUTH %s %s: %s", mechanism, login, "ok" if ok else "refused")
        return AuthResult(success=ok, handled=False, auth_data=login if ok else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spool", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tls-port", type=int, required=True)
    parser.add_argument("--user", action="append", default=[])
    parser.add_argument("--password", action="append", default=[])
    parser.add_argument("--oauth-introspect", default=None)
    parser.add_argument("--max-size", type=int, default=50 * 1024 * 1024)
    args = parser.parse_args()
    users = dict(zip(args.user, args.password)) or {"alice@example.com": "alice-secret"}

    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # aiosmtpd logs every command at INFO on "mail.log"; keep its warnings and errors only.
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    os.makedirs(args.spool, exist_ok=True)

    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.minimum_version = ssl.TLSVersion.TLSv1_2
    tls.load_cert_chain(args.cert, args.key)

    authenticator = Authenticator(users)
    if args.oauth_introspect:
        OAuthMechanisms.introspect_url = args.oauth_introspect
    common = dict(hostname="localhost", enable_SMTPUTF8=True, decode_data=False, auth_required=True,
                  authenticator=authenticator, data_size_limit=args.max_size, timeout=120,
                  auth_exclude_mechanism=[] if args.oauth_introspect else ["XOAUTH2", "OAUTHBEARER"])

    def submission():
        return SMTP(Handler(args.spool, "submission"), tls_context=tls, require_starttls=False,
                    auth_require_tls=True, **common)

    def smtps():
        # The whole connection is TLS here; aiosmtpd only knows about STARTTLS, so "TLS required for AUTH"
        # is switched off for this listener (it cannot be reached without TLS anyway).
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return SMTP(Handler(args.spool, "smtps"), tls_context=None, auth_require_tls=False, **common)

    async def serve():
        loop = asyncio.get_running_loop()
        s1 = await loop.create_server(submission, args.host, args.port, reuse_address=True)
        s2 = await loop.create_server(smtps, args.host, args.tls_port, ssl=tls, reuse_address=True)
        log.info("listening: submission+STARTTLS %s:%d, SMTPS %s:%d, spool %s",
                 args.host, args.port, args.host, args.tls_port, args.spool)
        async with s1, s2:
            await asyncio.gather(s1.serve_forever(), s2.serve_forever())

    # Noise from aiosmtpd itself: the smtps listener's setting above, and its own use of a deprecated field.
    logging.getLogger("mail.log").addFilter(
        lambda r: "auth_required == True" not in r.getMessage() and "login_data is deprecated" not in r.getMessage())
    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
