"""Exim's pipe transport for Tools/test-server/exim: writes one accepted message to the spool in the same
form Tools/test-server/smtp_server.py does (SPOOL/NAME.eml and a JSON line in SPOOL/index.jsonl), so the
tests read either server's spool alike.

    exim_spool.py SPOOL SMTPS_PORT RECIPIENT...

with SPOOL_SENDER, SPOOL_AUTH, SPOOL_TLS (the cipher), SPOOL_PORT (the port the message came in on) and
SPOOL_MAIL (the client's MAIL FROM line, kept by the MAIL ACL: its parameters become mail_options) in the
environment (Exim does not put data from the client into a command line).

The message comes on standard input (CRLF line ends: the transport sets use_crlf).
"""
import datetime
import fcntl
import json
import os
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    spool, smtps_port, recipients = sys.argv[1], sys.argv[2], sys.argv[3:]
    env = os.environ
    sender, auth_id, cipher = env.get("SPOOL_SENDER", ""), env.get("SPOOL_AUTH", ""), env.get("SPOOL_TLS", "")
    port, mail_command = env.get("SPOOL_PORT", ""), env.get("SPOOL_MAIL", "")
    data = sys.stdin.buffer.read()
    stamp = datetime.datetime.now(datetime.timezone.utc)
    with open(os.path.join(spool, ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        index = os.path.join(spool, "index.jsonl")
        count = sum(1 for _ in open(index)) if os.path.exists(index) else 0
        name = f"{count + 1:06d}-exim.eml"
        with open(os.path.join(spool, name), "wb") as f:
            f.write(data)
        # MAIL FROM:<address> PARAM...: the parameters after the closing '>'.
        options = mail_command.rpartition(">")[2].split()
        entry = {"file": name, "from": sender, "to": recipients, "mail_options": options,
                 "auth_user": auth_id or None, "tls": bool(cipher),
                 "listener": "smtps" if port == smtps_port else "submission",
                 "size": len(data), "received": stamp.isoformat()}
        with open(index, "a") as f:
            f.write(json.dumps(entry) + "\n")


if __name__ == "__main__":
    main()
