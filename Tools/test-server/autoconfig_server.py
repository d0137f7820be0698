#!/usr/bin/env python3
"""A small autoconfig (ISPDB layout) HTTP server for mailstore's discovery tests (Tools/test-server/discovery).

GET /v1.1/DOMAIN answers the file DIR/autoconfig/DOMAIN.xml when it exists (200, text/xml), 404 otherwise.
A domain listed with --slow sleeps --slow-seconds before answering (longer than the 10 s discovery step),
so the client's timeout is what ends the request. Every request is logged (method, path) to stderr, so a
test can check that only the domain was sent.

A few domains test the client's HTTP handling instead of answering a file:
  moved.test      301 to /v1.1/ispdb.test (a relative Location), then ispdb.test's file
  loop.test       302 to itself, forever
  downgrade.test  302 to http://autoconfig.example.com/ (plain http to a host that is not loopback)
  huge.test       200 with 2 MiB of XML comment and no Content-Length (more than the client takes)
  chunked.test    ispdb.test's file in HTTP/1.1 chunks of 100 bytes"""

import argparse
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--root", required=True, help="folder holding autoconfig/DOMAIN.xml")
    ap.add_argument("--slow", action="append", default=[], help="a domain answered only after --slow-seconds")
    ap.add_argument("--slow-seconds", type=float, default=15.0)
    args = ap.parse_args()
    folder = os.path.join(args.root, "autoconfig")
    slow = {d.lower() for d in args.slow}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, fmt, *a):
            sys.stderr.write("%s %s\n" % (self.command, self.path))
            sys.stderr.flush()

        def redirect(self, status, location):
            self.send_response(status)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            prefix = "/v1.1/"
            domain = path[len(prefix):].lower() if path.startswith(prefix) else ""
            ok = domain and all(c.isalnum() or c in ".-" for c in domain)
            if domain == "moved.test":
                return self.redirect(301, "/v1.1/ispdb.test")
            if domain == "loop.test":
                return self.redirect(302, "/v1.1/loop.test")
            if domain == "downgrade.test":
                return self.redirect(302, "http://autoconfig.example.com/v1.1/ispdb.test")
            if domain == "huge.test":
                self.send_response(200)
                self.send_header("Content-Type", "text/xml")
                self.end_headers()
                try:
                    self.wfile.write(b"<?xml version=\"1.0\"?><!-- ")
                    for _ in range(32):
                        self.wfile.write(b"x" * 65536)
                    self.wfile.write(b" --><clientConfig/>")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped reading at its limit
                return
            if domain == "chunked.test":
                with open(os.path.join(folder, "ispdb.test.xml"), "rb") as f:
                    body = f.read()
                # Chunked coding is HTTP/1.1's; this one response says so.
                self.protocol_version = "HTTP/1.1"
                self.send_response(200)
                self.send_header("Content-Type", "text/xml")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                for i in range(0, len(body), 100):
                    part = body[i:i + 100]
                    self.wfile.write(b"%x;ext=1\r\n" % len(part) + part + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")
                self.close_connection = True
                return
            if ok and domain in slow:
                time.sleep(args.slow_seconds)
            file = os.path.join(folder, domain + ".xml") if ok else ""
            if not ok or not os.path.isfile(file):
                body = b"not found\n"
                self.send_response(404)
                self.send_header("Content-Type", "text/plain")
            else:
                with open(file, "rb") as f:
                    body = f.read()
                self.send_response(200)
                self.send_header("Content-Type", "text/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (the slow domain)

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
