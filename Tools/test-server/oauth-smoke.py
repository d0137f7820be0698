#!/usr/bin/env python3
"""Checks a running Tools/test-server/oauth-server DIR: device grant, then IMAP XOAUTH2 and OAUTHBEARER at its
Dovecot, a refused bad token, SMTP XOAUTH2 and a refused OAUTHBEARER with the JSON challenge.
    python3 Tools/test-server/oauth-smoke.py DIR
"""
import json, urllib.request, urllib.parse, imaplib, smtplib, ssl, base64, sys
D=sys.argv[1]
env=dict(l.strip().split("=",1) for f in ("oauth-env","env","smtp-env") for l in open(f"{D}/{f}") if "=" in l)
iss=env["OAUTH_ISSUER"]
def post(path, **f):
    try:
        with urllib.request.urlopen(urllib.request.Request(iss+path, data=urllib.parse.urlencode(f).encode())) as r: return json.load(r)
    except urllib.error.HTTPError as e: return json.load(e)
d=post("/device", client_id="mailstore-test", scope="mail")
print(post("/token", grant_type="urn:ietf:params:oauth:grant-type:device_code", device_code=d["device_code"], client_id="mailstore-test"))
urllib.request.urlopen(d["verification_uri"]+"?user_code="+d["user_code"]).read()
t=post("/token", grant_type="urn:ietf:params:oauth:grant-type:device_code", device_code=d["device_code"], client_id="mailstore-test")
tok=t["access_token"]
ctx=ssl.create_default_context(cafile=env["CA_FILE"])
for mech,msg in (("XOAUTH2", f"user=alice@example.com\x01auth=Bearer {tok}\x01\x01"), ("OAUTHBEARER", f"n,a=alice@example.com,\x01auth=Bearer {tok}\x01\x01"), ("XOAUTH2", f"user=alice@example.com\x01auth=Bearer bad\x01\x01")):
    m=imaplib.IMAP4_SSL("127.0.0.1", int(env["IMAPS_PORT"]), ssl_context=ctx)
    print(m.capabilities)
    try: print(mech, m.authenticate(mech, lambda _: msg.encode()))
    except Exception as e: print(mech, "ERR", e)
s=smtplib.SMTP_SSL("127.0.0.1", int(env["SMTPS_PORT"]), context=ctx); s.ehlo(); print(s.esmtp_features.get("auth"))
print(s.docmd("AUTH", "XOAUTH2 "+base64.b64encode(f"user=alice@example.com\x01auth=Bearer {tok}\x01\x01".encode()).decode()))
s=smtplib.SMTP_SSL("127.0.0.1", int(env["SMTPS_PORT"]), context=ctx); s.ehlo()
print(s.docmd("AUTH", "OAUTHBEARER "+base64.b64encode(f"n,a=alice@example.com,\x01auth=Bearer bad\x01\x01".encode()).decode())); print(s.docmd(""))
