#!/usr/bin/env python3
"""A misbehaving SMTP submission server over implicit TLS on loopback, for the SMTP client's and the outbox's tests.

    hostile-smtp.py MODE CERT KEY DIR

Prints "PORT n" once it listens on 127.0.0.1, then serves clients, each on a thread of its own, until killed or its
standard input ends (the test that started it is gone, however it ended). It is
a fake on purpose: no real server lacks 8BITMIME, offers only AUTH LOGIN or answers 504 to AUTH PLAIN on cue.
Every login is accepted (any user, any password) unless the mode says otherwise. DIR/transcript gets the client's
lines ("AUTH PLAIN", "AUTH LOGIN": the mechanism only, never a credential; "MAIL FROM:...", "RCPT TO:...", "DATA");
each accepted message is DIR/N.eml (dot-unstuffed, as received). MODE:
  no-8bitmime     EHLO offers AUTH PLAIN LOGIN, SIZE, no 8BITMIME, no SMTPUTF8; BODY=8BITMIME or SMTPUTF8 in MAIL
                  FROM is refused (555 5.5.4), a recipient beyond ASCII too (553 5.6.7), a message with a byte
                  above 127 too (554 5.6.0).
  login-only      EHLO offers AUTH LOGIN (and 8BITMIME): a client set on PLAIN must use LOGIN.
  plain-504       EHLO offers AUTH PLAIN LOGIN; AUTH PLAIN is answered 504 5.5.4 (not implemented), LOGIN works.
  plain-504-only  EHLO offers AUTH PLAIN; it is answered 504 5.5.4.
  gssapi-only     EHLO offers AUTH GSSAPI NTLM.
  no-auth         EHLO offers no AUTH (a relay).
  auth-loop       EHLO offers AUTH PLAIN LOGIN; every AUTH line is answered "334 " for ever.
  greet-421-once  the first connection is greeted "421 4.3.2" (too many connections) and closed; later ones are served
                  as a working server (AUTH PLAIN LOGIN, 8BITMIME).
"""
import os
import socket
import ssl
import sys
import threading

MODE, CERT, KEY, DIR = sys.argv[1:5]
LOCK = threading.Lock()
COUNT = [0]
CONNECTIONS = [0]


def record(line):
    with LOCK, open(os.path.join(DIR, "transcript"), "a") as f:
        f.write(line + "\n")


def extensions():
    ext = ["SIZE 10000000", "ENHANCEDSTATUSCODES"]
    if MODE != "no-8bitmime":
        ext += ["8BITMIME", "SMTPUTF8"]
    auth = {"login-only": "AUTH LOGIN", "plain-504-only": "AUTH PLAIN", "gssapi-only": "AUTH GSSAPI NTLM", "no-auth": None}
    mechanisms = auth.get(MODE, "AUTH PLAIN LOGIN")
    if mechanisms:
        ext.append(mechanisms)
    return ext


class Client:
    def __init__(self, s):
        self.s, self.buf = s, b""

    def send(self, text):
        self.s.sendall(text.encode())

    def line(self):
        while b"\n" not in self.buf:
            data = self.s.recv(65536)
            if not data:
                raise EOFError
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line.rstrip(b"\r")

    def data(self):
        while b"\r\n.\r\n" not in self.buf:
            data = self.s.recv(65536)
            if not data:
                raise EOFError
            self.buf += data
        message, self.buf = self.buf.split(b"\r\n.\r\n", 1)
        return b"\n".join(l[1:] if l.startswith(b".") else l for l in message.split(b"\n")) + b"\r\n"


def serve(raw, context):
    try:
        s = context.wrap_socket(raw, server_side=True)
        c = Client(s)
        if MODE == "greet-421-once":
            with LOCK:
                CONNECTIONS[0] += 1
                first = CONNECTIONS[0] == 1
            if first:
                record("REFUSED connection 421")
                c.send("421 4.3.2 too many connections, try again later\r\n")
                return
        c.send("220 hostile ESMTP\r\n")
        while True:
            line = c.line()
            text = line.decode("utf-8", "replace")
            verb = text.upper()
            if verb.startswith("EHLO"):
                ext = extensions()
                c.send("250-hostile\r\n" + "".join("250-%s\r\n" % e for e in ext[:-1]) + "250 %s\r\n" % ext[-1])
            elif verb.startswith("AUTH"):
                mechanism = verb.split()[1] if len(verb.split()) > 1 else ""
                record("AUTH " + mechanism)
                if MODE == "auth-loop":
                    while True:
                        c.send("334 \r\n")
                        c.line()
                if mechanism == "PLAIN" and MODE in ("plain-504", "plain-504-only"):
                    c.send("504 5.5.4 mechanism not implemented\r\n")
                    continue
                if mechanism == "LOGIN":
                    c.send("334 VXNlcm5hbWU6\r\n")
                    c.line()
                    c.send("334 UGFzc3dvcmQ6\r\n")
                    c.line()
                c.send("235 2.7.0 ok\r\n")
            elif verb.startswith("MAIL FROM"):
                record(text)
                if MODE == "no-8bitmime" and ("BODY=8BITMIME" in verb or "SMTPUTF8" in verb):
                    c.send("555 5.5.4 unsupported parameter\r\n")
                else:
                    c.send("250 2.1.0 ok\r\n")
            elif verb.startswith("RCPT TO"):
                record(text)
                if MODE == "no-8bitmime" and any(b > 127 for b in line):
                    c.send("553 5.6.7 address not ASCII\r\n")
                else:
                    c.send("250 2.1.5 ok\r\n")
            elif verb == "DATA":
                record("DATA")
                c.send("354 go ahead\r\n")
                message = c.data()
                if MODE == "no-8bitmime" and any(b > 127 for b in message):
                    record("REFUSED 8-bit message")
                    c.send("554 5.6.0 8-bit data without 8BITMIME\r\n")
                    continue
                with LOCK:
                    COUNT[0] += 1
                    n = COUNT[0]
                with open(os.path.join(DIR, "%d.eml" % n), "wb") as f:
                    f.write(message)
                c.send("250 2.0.0 queued as %d\r\n" % n)
            elif verb in ("RSET", "NOOP"):
                c.send("250 2.0.0 ok\r\n")
            elif verb == "QUIT":
                c.send("221 2.0.0 bye\r\n")
                return
            else:
                c.send("500 5.5.1 unknown command\r\n")
    except (EOFError, OSError, ssl.SSLError):
        pass
    finally:
        raw.close()


def main():
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(CERT, KEY)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print("PORT %d" % listener.getsockname()[1], flush=True)
    while True:
        raw, _ = listener.accept()
        threading.Thread(target=serve, args=(raw, context), daemon=True).start()


main()
