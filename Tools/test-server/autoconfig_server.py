#!/usr/bin/env python3
"""A small autoconfig (ISPDB layout) HTTP server for mailstore's discovery tests (Tools/test-server/discovery).

GET /v1.1/DOMAIN answers the file DIR/autoconfig/DOMAIN.xml when it exists (200, text/xml), 404 otherwise.
A domain listed with --slow sleeps --slow-seconds before answering (longer than the 10 s discovery step),
so the client's timeout is what ends the request. Every request is logged (method, path) to stderr, so a
test can check that only the domain was sent."""

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

        def do_GET(self):
            path = self.path.split("?", 1)[0]
            prefix = "/v1.1/"
            domain = path[len(prefix):].lower() if path.startswith(prefix) else ""
            ok = domain and all(c.isalnum() or c in ".-" for c in domain)
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
