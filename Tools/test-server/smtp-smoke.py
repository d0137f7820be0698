#!/usr/bin/env python3
"""Smoke test of the SMTP server started by Tools/test-server/smtp (python3 stdlib only: smtplib + ssl).

    python3 Tools/test-server/smtp-smoke.py DIR

Reads DIR/smtp-env (SMTP_HOST, SMTP_PORT, SMTPS_PORT, CA_FILE, SMTP_USER, SMTP_PASSWORD_FILE, SMTP_SPOOL).
Checks STARTTLS + AUTH + sending into the spool, implicit TLS, the refusal of AUTH before STARTTLS, that
system trust rejects the certificate, and the failure injection (fail5xx, fail4xx, drop, datafail5xx,
datafail4xx, datadrop). Ends with `smtp-smoke: N passed, M failed`; exit status 1 when anything failed.
"""
import base64
import json
import os
import smtplib
import ssl
import sys
import time

from serverenv import check, read_env, run_check, summary




def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    d = os.path.abspath(sys.argv[1])
    env = read_env(os.path.join(d, "smtp-env"))
    host = env["SMTP_HOST"]
    port = int(env["SMTP_PORT"])
    smtps_port = int(env["SMTPS_PORT"])
    user = env["SMTP_USER"]
    with open(env["SMTP_PASSWORD_FILE"]) as f:
        password = f.read().strip()
    spool = env["SMTP_SPOOL"]
    index = os.path.join(spool, "index.jsonl")
    ctx = ssl.create_default_context(cafile=env["CA_FILE"])

    def entries():
        if not os.path.exists(index):
            return []
        with open(index, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]

    def find(marker):
        """The spool entry whose message holds marker, and the message bytes."""
        for e in entries():
            path = os.path.join(spool, e["file"])
            if os.path.exists(path):
                with open(path, "rb") as f:
                    data = f.read()
                if marker.encode() in data:
                    return e, data
        return None, None

    run_id = f"{os.getpid()}-{int(time.time())}"

    def message(marker, body="smoke test\r\n", to="bob@example.com"):
        return (f"From: {user}\r\nTo: {to}\r\nSubject: {marker}\r\n"
                f"Message-ID: <{marker}@example.com>\r\n\r\n{body}")

    def submission(starttls=True, login=True):
        s = smtplib.SMTP(host, port, local_hostname="client.example.com", timeout=10)
        s.ehlo()
        if starttls:
            s.starttls(context=ctx)
            s.ehlo()
        if login:
            s.login(user, password)
        return s

    # 1. Before STARTTLS.
    def ehlo_before_tls():
        s = smtplib.SMTP(host, port, local_hostname="client.example.com", timeout=10)
        s.ehlo()
        feats = set(s.esmtp_features)
        s.quit()
        ok = {"starttls", "8bitmime", "smtputf8"} <= feats and "auth" not in feats
        return ok, repr(sorted(feats))
    run_check("submission: EHLO offers STARTTLS 8BITMIME SMTPUTF8, no AUTH before TLS", ehlo_before_tls)

    def auth_before_tls():
        s = smtplib.SMTP(host, port, local_hostname="client.example.com", timeout=10)
        s.ehlo()
        blob = base64.b64encode(f"\0{user}\0{password}".encode()).decode()
        code, text = s.docmd("AUTH", "PLAIN " + blob)
        s.quit()
        return code >= 500, f"{code} {text!r}"
    run_check("submission: AUTH PLAIN before STARTTLS refused", auth_before_tls)

    def auth_login_before_tls():
        s = smtplib.SMTP(host, port, local_hostname="client.example.com", timeout=10)
        s.ehlo()
        code, text = s.docmd("AUTH", "LOGIN")
        s.quit()
        return code >= 500, f"{code} {text!r}"
    run_check("submission: AUTH LOGIN before STARTTLS refused", auth_login_before_tls)

    def mail_without_auth():
        s = submission(login=False)
        code, text = s.mail(user)
        s.quit()
        return code == 530, f"{code} {text!r}"
    run_check("submission: MAIL FROM without AUTH refused (530)", mail_without_auth)

    def system_trust_starttls():
        s = smtplib.SMTP(host, port, local_hostname="client.example.com", timeout=10)
        s.ehlo()
        try:
            s.starttls(context=ssl.create_default_context())
        except ssl.SSLCertVerificationError:
            return True, ""
        finally:
            s.close()
        return False, "STARTTLS handshake succeeded without CA_FILE"
    run_check("submission: default SSL context (system trust) rejects the certificate", system_trust_starttls)

    def system_trust_smtps():
        try:
            smtplib.SMTP_SSL(host, smtps_port, context=ssl.create_default_context(), timeout=10).close()
        except ssl.SSLCertVerificationError:
            return True, ""
        return False, "handshake succeeded without CA_FILE"
    run_check("SMTPS: default SSL context (system trust) rejects the certificate", system_trust_smtps)

    def ehlo_after_tls():
        s = submission(login=False)
        feats = dict(s.esmtp_features)
        version = s.sock.version()
        s.quit()
        mechs = set(feats.get("auth", "").upper().split())
        ok = {"PLAIN", "LOGIN"} <= mechs and "starttls" not in feats and version in ("TLSv1.2", "TLSv1.3")
        return ok, f"{version} {feats!r}"
    run_check("submission: after STARTTLS, AUTH PLAIN LOGIN offered", ehlo_after_tls)

    def bad_password():
        s = submission(login=False)
        try:
            s.login(user, "wrong-" + password)
        except smtplib.SMTPAuthenticationError as error:
            s.quit()
            return error.smtp_code == 535, f"{error.smtp_code}"
        s.quit()
        return False, "login with a wrong password succeeded"
    run_check("submission: wrong password refused (535)", bad_password)

    # 2. Sending.
    def send_starttls_plain():
        marker = f"smtp-smoke-plain-{run_id}"
        before = len(entries())
        s = submission(login=False)
        s.user, s.password = user, password
        s.auth("PLAIN", s.auth_plain)
        refused = s.sendmail(user, ["bob@example.com", "carol@example.com"], message(marker).encode())
        s.quit()
        e, data = find(marker)
        ok = (not refused and e is not None and len(entries()) == before + 1 and e["from"] == user
              and e["to"] == ["bob@example.com", "carol@example.com"] and e["tls"] and e["auth_user"] == user
              and data == message(marker).encode())
        return ok, f"refused={refused} entry={e}"
    run_check("STARTTLS + AUTH PLAIN + send: message and index line in the spool", send_starttls_plain)

    def send_auth_login():
        marker = f"smtp-smoke-login-{run_id}"
        s = submission(login=False)
        s.user, s.password = user, password
        s.auth("LOGIN", s.auth_login, initial_response_ok=False)
        s.sendmail(user, ["bob@example.com"], message(marker).encode())
        s.quit()
        e, _ = find(marker)
        return e is not None and e["auth_user"] == user, f"entry={e}"
    run_check("STARTTLS + AUTH LOGIN + send lands in the spool", send_auth_login)

    def send_smtps_utf8():
        marker = f"smtp-smoke-utf8-{run_id}"
        body = "Grüße, 8-bit body ✓\r\n"
        rcpt = "jörg@example.com"
        raw = message(marker, body=body, to=rcpt).encode("utf-8")
        s = smtplib.SMTP_SSL(host, smtps_port, context=ctx, local_hostname="client.example.com", timeout=10)
        s.ehlo()
        feats = set(s.esmtp_features)
        s.login(user, password)
        s.sendmail(user, [rcpt], raw, mail_options=["SMTPUTF8", "BODY=8BITMIME"])
        s.quit()
        e, data = find(marker)
        ok = (e is not None and data == raw and e["to"] == [rcpt] and e["listener"] == "smtps" and e["tls"]
              and {"smtputf8", "8bitmime", "auth"} <= feats and "starttls" not in feats)
        return ok, f"features={sorted(feats)} entry={e}"
    run_check("SMTPS (implicit TLS) + AUTH + SMTPUTF8/8BITMIME send lands byte-exact", send_smtps_utf8)

    # 3. Failure injection.
    def rcpt_code(local):
        s = submission()
        s.mail(user)
        code, text = s.rcpt(f"{local}@example.com")
        s.rset()
        s.quit()
        return code, text

    def fail5():
        code, text = rcpt_code("fail5xx-smoke")
        return code == 550, f"{code} {text!r}"
    run_check("fail5xx recipient: RCPT answered 550", fail5)

    def fail4():
        code, text = rcpt_code("fail4xx-smoke")
        return code == 451, f"{code} {text!r}"
    run_check("fail4xx recipient: RCPT answered 451", fail4)

    def drop():
        s = submission()
        s.mail(user)
        try:
            code, text = s.rcpt("drop-smoke@example.com")
        except smtplib.SMTPServerDisconnected as error:
            return True, str(error)
        finally:
            s.close()
        return False, f"got a reply {code} {text!r}"
    run_check("drop recipient: connection closed without a reply", drop)

    def sendmail_mixed():
        marker = f"smtp-smoke-mixed-{run_id}"
        s = submission()
        refused = s.sendmail(user, ["bob@example.com", "fail5xx-x@example.com"], message(marker).encode())
        s.quit()
        e, _ = find(marker)
        ok = refused.get("fail5xx-x@example.com", (0,))[0] == 550 and e is not None and e["to"] == ["bob@example.com"]
        return ok, f"refused={refused} entry={e}"
    run_check("one good and one fail5xx recipient: delivered to the good one only", sendmail_mixed)

    def datafail(prefix, want):
        def fn():
            marker = f"smtp-smoke-{prefix}-{run_id}"
            before = len(entries())
            s = submission()
            try:
                s.sendmail(user, [f"{prefix}-smoke@example.com"], message(marker).encode())
            except smtplib.SMTPDataError as error:
                s.quit()
                return error.smtp_code == want and len(entries()) == before, f"{error.smtp_code} {error.smtp_error!r}"
            s.quit()
            return False, "DATA accepted"
        return fn
    run_check("datafail5xx recipient: DATA answered 554, nothing saved", datafail("datafail5xx", 554))
    run_check("datafail4xx recipient: DATA answered 451, nothing saved", datafail("datafail4xx", 451))

    def datadrop():
        marker = f"smtp-smoke-datadrop-{run_id}"
        s = submission()
        try:
            s.sendmail(user, ["datadrop-smoke@example.com"], message(marker).encode())
        except smtplib.SMTPServerDisconnected as error:
            e, _ = find(marker)
            return e is not None, f"{error}; saved={e is not None}"
        finally:
            s.close()
        return False, "DATA got a reply"
    run_check("datadrop recipient: saved, connection closed without the DATA reply", datadrop)

    def still_alive():
        s = submission()
        code, _ = s.noop()
        s.quit()
        return code == 250, str(code)
    run_check("server still answers after the injected failures", still_alive)

    return summary("smtp-smoke")


if __name__ == "__main__":
    sys.exit(main())
