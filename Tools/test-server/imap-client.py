#!/usr/bin/env python3
"""Another mail client for demos: fills and changes the throwaway Dovecot's mailbox (python3 stdlib only).

    python3 Tools/test-server/imap-client.py DIR fill MAILDIR [LIMIT]   APPEND a Maildir tree (Maildir++ folders
                                                                        become folders; S/F/R letters become flags),
                                                                        at most LIMIT messages per folder
    python3 Tools/test-server/imap-client.py DIR change                 mark the 3 newest Inbox messages read,
                                                                        star one, expunge one, deliver a new one

Reads DIR/env written by `Tools/test-server/dovecot start DIR` and logs in as IMAP_USER over TLS, trusting
only CA_FILE.
"""
import email.utils
import imaplib
import os
import ssl
import sys
import time

from serverenv import read_env

FLAG_LETTERS = {"S": "\\Seen", "F": "\\Flagged", "R": "\\Answered", "T": "\\Deleted", "D": "\\Draft"}



def connect(directory):
    env = read_env(os.path.join(directory, "env"))
    context = ssl.create_default_context(cafile=env["CA_FILE"])
    conn = imaplib.IMAP4_SSL(env["IMAP_HOST"], int(env["IMAPS_PORT"]), ssl_context=context)
    with open(env["IMAP_PASSWORD_FILE"]) as f:
        conn.login(env["IMAP_USER"], f.read())
    return conn


def maildir_messages(root):
    """Yields (folder, flags, path) for every message of a Maildir++ tree."""
    # The Inbox (cur, new at the root) first, then the Maildir++ folders.
    for entry in sorted(os.listdir(root), key=lambda e: (e not in ("cur", "new"), e)):
        if entry in ("cur", "new"):
            folder, base = "INBOX", root
        elif entry.startswith(".") and os.path.isdir(os.path.join(root, entry, "cur")):
            folder, base = entry[1:].replace(".", "/"), os.path.join(root, entry)
        else:
            continue
        for sub in ("cur", "new"):
            d = os.path.join(base, sub)
            if not os.path.isdir(d) or (base == root and entry != sub):
                continue
            for name in sorted(os.listdir(d)):
                info = name.split(":2,", 1)[1] if ":2," in name else ""
                yield folder, [FLAG_LETTERS[c] for c in info if c in FLAG_LETTERS], os.path.join(d, name)


def fill(conn, root, limit):
    created = {"INBOX"}
    count = 0
    per_folder = {}
    for folder, flags, path in maildir_messages(root):
        if limit and per_folder.get(folder, 0) >= limit:
            continue
        per_folder[folder] = per_folder.get(folder, 0) + 1
        if folder not in created:
            conn.create(f'"{folder}"')
            created.add(folder)
        with open(path, "rb") as f:
            data = f.read()
        typ, detail = conn.append(f'"{folder}"', "(" + " ".join(flags) + ")" if flags else None, None, data)
        if typ != "OK":
            raise SystemExit(f"APPEND to {folder} failed: {detail}")
        count += 1
    print(f"imap-client: appended {count} messages into {len(created)} folders")


def change(conn):
    conn.select("INBOX")
    typ, data = conn.uid("SEARCH", None, "ALL")
    uids = data[0].split()
    if len(uids) < 5:
        raise SystemExit("imap-client: the Inbox needs at least 5 messages")
    newest = uids[-3:]
    conn.uid("STORE", b",".join(newest), "+FLAGS.SILENT", "(\\Seen)")
    conn.uid("STORE", uids[-4], "+FLAGS.SILENT", "(\\Flagged)")
    conn.uid("STORE", uids[0], "+FLAGS.SILENT", "(\\Deleted)")
    conn.expunge()
    message = (f"From: Demo Sender <sender@example.com>\r\nTo: you@example.com\r\nSubject: Delivered during the demo\r\n"
               f"Date: {email.utils.formatdate(time.time())}\r\nMessage-ID: <demo-{int(time.time())}@example.com>\r\n\r\n"
               f"This one arrived after the first sync.\r\n").encode()
    conn.append("INBOX", None, None, message)
    print("imap-client: 3 marked read, 1 starred, 1 expunged, 1 new message in the Inbox")


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("fill", "change") or (sys.argv[2] == "fill" and len(sys.argv) < 4):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    conn = connect(sys.argv[1])
    try:
        if sys.argv[2] == "fill":
            fill(conn, sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)
        else:
            change(conn)
    finally:
        conn.logout()
    return 0


if __name__ == "__main__":
    sys.exit(main())
