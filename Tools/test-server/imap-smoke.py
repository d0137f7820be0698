#!/usr/bin/env python3
"""Smoke test of the throwaway Dovecot started by Tools/test-server/dovecot (python3 stdlib only).

    python3 Tools/test-server/imap-smoke.py DIR

Reads DIR/env (IMAP_HOST, IMAP_PORT, IMAPS_PORT, CA_FILE, IMAP_USER, IMAP_PASSWORD_FILE) and checks TLS and
STARTTLS logins, the refusal of plaintext login before STARTTLS, that system trust rejects the certificate,
the capabilities, SPECIAL-USE folders, CONDSTORE, and the `readonly`/`readwrite` subcommands of the dovecot
script. Ends with `imap-smoke: N passed, M failed`; exit status 1 when anything failed.
"""
import imaplib
import os
import re
import ssl
import subprocess
import sys
import time
import warnings

from serverenv import check, read_env, run_check, summary

HERE = os.path.dirname(os.path.abspath(__file__))
DOVECOT = os.path.join(HERE, "dovecot")




def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    d = os.path.abspath(sys.argv[1])
    env = read_env(os.path.join(d, "env"))
    host = env["IMAP_HOST"]
    port = int(env["IMAP_PORT"])
    imaps_port = int(env["IMAPS_PORT"])
    ca = env["CA_FILE"]
    user = env["IMAP_USER"]
    with open(env["IMAP_PASSWORD_FILE"]) as f:
        password = f.read().strip()
    ctx = ssl.create_default_context(cafile=ca)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2

    def imaps(hostname=host):
        return imaplib.IMAP4_SSL(hostname, imaps_port, ssl_context=ctx, timeout=10)

    # 1. TLS login on the IMAPS port (certificate checked against CA_FILE, for 127.0.0.1 and localhost).
    def tls_login():
        m = imaps()
        typ, _ = m.login(user, password)
        version = m.sock.version()
        m.logout()
        return typ == "OK" and version in ("TLSv1.2", "TLSv1.3"), f"{typ} {version}"
    run_check("IMAPS: TLS login with CA_FILE (127.0.0.1)", tls_login)

    def tls_localhost():
        m = imaps("localhost")
        m.logout()
        return True, ""
    run_check("IMAPS: certificate valid for localhost too", tls_localhost)

    def tls11_refused():
        old = ssl.create_default_context(cafile=ca)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                # Security level 0 so that this client really offers TLS 1.1.
                old.set_ciphers("DEFAULT:@SECLEVEL=0")
                old.minimum_version = ssl.TLSVersion.TLSv1_1
                old.maximum_version = ssl.TLSVersion.TLSv1_1
            except (ValueError, ssl.SSLError):
                return True, "(this client cannot offer TLS 1.1)"
        try:
            imaplib.IMAP4_SSL(host, imaps_port, ssl_context=old, timeout=10).logout()
        except (ssl.SSLError, OSError):
            return True, ""
        return False, "a TLS 1.1 handshake succeeded"
    run_check("IMAPS: TLS 1.1 refused (TLS 1.2 minimum)", tls11_refused)

    # 2. System trust (no CA file) must reject the certificate.
    def system_trust_rejects():
        try:
            m = imaplib.IMAP4_SSL(host, imaps_port, ssl_context=ssl.create_default_context(), timeout=10)
        except ssl.SSLCertVerificationError as error:
            return True, str(error)
        m.logout()
        return False, "handshake succeeded without CA_FILE"
    run_check("IMAPS: default SSL context (system trust) rejects the certificate", system_trust_rejects)

    def system_trust_rejects_starttls():
        m = imaplib.IMAP4(host, port, timeout=10)
        try:
            m.starttls(ssl_context=ssl.create_default_context())
        except ssl.SSLCertVerificationError:
            return True, ""
        finally:
            try:
                m.shutdown()
            except OSError:
                pass
        return False, "STARTTLS handshake succeeded without CA_FILE"
    run_check("STARTTLS: default SSL context rejects the certificate", system_trust_rejects_starttls)

    # 3. Plain port: no login before STARTTLS.
    def prelogin_caps():
        m = imaplib.IMAP4(host, port, timeout=10)
        caps = set(m.capabilities)
        m.logout()
        ok = "STARTTLS" in caps and "LOGINDISABLED" in caps and "AUTH=PLAIN" not in caps
        return ok, " ".join(sorted(caps))
    run_check("plain port: STARTTLS and LOGINDISABLED advertised, no AUTH=PLAIN", prelogin_caps)

    def login_refused():
        m = imaplib.IMAP4(host, port, timeout=10)
        # imaplib itself refuses LOGIN when LOGINDISABLED is advertised; send the command anyway.
        try:
            typ, data = m._simple_command("LOGIN", user, m._quote(password))
        except imaplib.IMAP4.error as error:
            m.shutdown()
            return True, str(error)
        m.shutdown()
        return typ != "OK", f"{typ} {data}"
    run_check("plain port: LOGIN before STARTTLS refused", login_refused)

    def auth_plain_refused():
        m = imaplib.IMAP4(host, port, timeout=10)
        try:
            typ, data = m.authenticate("PLAIN", lambda _: f"\0{user}\0{password}".encode())
        except imaplib.IMAP4.error as error:
            m.shutdown()
            return True, str(error)
        m.shutdown()
        return typ != "OK", f"{typ} {data}"
    run_check("plain port: AUTHENTICATE PLAIN before STARTTLS refused", auth_plain_refused)

    def starttls_login():
        m = imaplib.IMAP4(host, port, timeout=10)
        m.starttls(ssl_context=ctx)
        caps = set(m.capabilities)
        typ, _ = m.login(user, password)
        m.logout()
        return typ == "OK" and "AUTH=PLAIN" in caps and "LOGINDISABLED" not in caps, " ".join(sorted(caps))
    run_check("plain port: STARTTLS then LOGIN works", starttls_login)

    # 4. After login: capabilities, SPECIAL-USE, CONDSTORE.
    m = imaps()
    m.login(user, password)
    typ, data = m.capability()
    caps = set(data[0].decode().upper().split()) if typ == "OK" else set()
    for cap in ("CONDSTORE", "QRESYNC", "MOVE", "SPECIAL-USE", "UIDPLUS", "IDLE", "LITERAL+", "ACL"):
        check(f"CAPABILITY after login has {cap}", cap in caps, " ".join(sorted(caps)))

    def special_use():
        typ, data = m.list()
        found = {}
        for line in data:
            mm = re.match(rb'\(([^)]*)\) "(.*?)" (.*)', line)
            if mm:
                found[mm.group(3).decode().strip('"')] = mm.group(1).decode()
        want = {"Sent": "\\Sent", "Drafts": "\\Drafts", "Trash": "\\Trash", "Junk": "\\Junk", "Archive": "\\Archive"}
        ok = "INBOX" in found and all(attr in found.get(name, "").split() for name, attr in want.items())
        return ok, repr(found)
    run_check("LIST shows INBOX and SPECIAL-USE \\Sent \\Drafts \\Trash \\Junk \\Archive", special_use)

    def subscribed():
        typ, data = m.lsub()
        names = {line.decode().rsplit(" ", 1)[-1].strip('"') for line in data if line}
        return {"Sent", "Drafts", "Trash", "Junk", "Archive"} <= names, repr(sorted(names))
    run_check("special folders are subscribed (auto = subscribe)", subscribed)

    marker = f"imap-smoke-{os.getpid()}-{int(time.time())}"
    msg = (f"From: alice@example.com\r\nTo: bob@example.com\r\nSubject: {marker}\r\n"
           f"Message-ID: <{marker}@example.com>\r\n\r\nsmoke test\r\n").encode()

    def append_condstore():
        typ, data = m.append("INBOX", None, None, msg)
        if typ != "OK" or b"APPENDUID" not in data[0]:
            return False, f"APPEND {typ} {data}"
        typ, data = m._simple_command("SELECT", "INBOX", "(CONDSTORE)")
        hms = m.untagged_responses.get("HIGHESTMODSEQ", [None])[-1]
        m.state = "SELECTED"
        return typ == "OK" and hms is not None and int(hms) > 0, f"HIGHESTMODSEQ {hms}"
    run_check("APPEND (APPENDUID) then SELECT (CONDSTORE) shows HIGHESTMODSEQ", append_condstore)
    try:
        m.close()
    except imaplib.IMAP4.error:
        pass
    m.logout()

    # 5. readonly / readwrite through the dovecot script's ACL.
    folder = "Archive"

    def script(*args):
        subprocess.run([DOVECOT, *args], check=True, stdout=subprocess.DEVNULL)

    def select_info(c, name):
        c.untagged_responses.clear()
        typ, data = c._simple_command("SELECT", name)
        c.state = "SELECTED" if typ == "OK" else "AUTH"
        perm = c.untagged_responses.get("PERMANENTFLAGS", [b""])[-1].decode()
        # imaplib raises on a later command when it sees READ-ONLY unless told it is expected.
        c.is_readonly = "READ-ONLY" in c.untagged_responses
        c.untagged_responses.clear()
        return typ, data[0].decode() if data and data[0] else "", perm

    def store_flagged(c, uid):
        typ, data = c.uid("STORE", uid, "+FLAGS", "(\\Flagged)")
        typ2, fetched = c.uid("FETCH", uid, "(FLAGS)")
        flags = b" ".join(x if isinstance(x, bytes) else x[0] for x in fetched if x).decode()
        return typ, "\\Flagged" in flags, flags

    c = imaps()
    c.login(user, password)
    try:
        script("readwrite", d, user, folder)  # in case an earlier run was interrupted
        typ, data = c.append(folder, None, None, msg)
        uid = re.search(rb"APPENDUID \d+ (\d+)", data[0]).group(1).decode()

        script("readonly", d, user, folder)
        typ, text, perm = select_info(c, folder)
        st, flagged, flags = store_flagged(c, uid)
        check(f"readonly {folder} (lr): SELECT read-only, PERMANENTFLAGS without \\Flagged",
              typ == "OK" and "READ-ONLY" in text and "\\Flagged" not in perm,
              f"{typ} {text} PERMANENTFLAGS {perm!r}")
        check(f"readonly {folder} (lr): STORE +FLAGS (\\Flagged) does not stick",
              not flagged, f"STORE {st}, flags {flags}")
        c.close()

        script("readonly", d, user, folder, "lrs")
        typ, text, perm = select_info(c, folder)
        st, flagged, flags = store_flagged(c, uid)
        check(f"readonly {folder} lrs: PERMANENTFLAGS (\\Seen) only, \\Flagged does not stick",
              typ == "OK" and "\\Flagged" not in perm and "\\Seen" in perm and not flagged,
              f"{text} PERMANENTFLAGS {perm!r}, STORE {st}, flags {flags}")
        c.close()

        script("readwrite", d, user, folder)
        typ, text, perm = select_info(c, folder)
        st, flagged, flags = store_flagged(c, uid)
        check(f"readwrite {folder}: PERMANENTFLAGS has \\Flagged and the STORE sticks",
              typ == "OK" and "\\Flagged" in perm and "READ-WRITE" in text and flagged,
              f"{text} PERMANENTFLAGS {perm!r}, STORE {st}, flags {flags}")
        c.uid("STORE", uid, "+FLAGS", "(\\Deleted)")
        c.expunge()
        c.close()
    except Exception as error:  # noqa: BLE001
        check("readonly/readwrite", False, f"{type(error).__name__}: {error}")
    finally:
        subprocess.run([DOVECOT, "readwrite", d, user, folder], stdout=subprocess.DEVNULL)
        try:
            c.logout()
        except Exception:  # noqa: BLE001
            pass

    return summary("imap-smoke")


if __name__ == "__main__":
    sys.exit(main())
