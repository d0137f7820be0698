#!/usr/bin/env python3
"""Compares mailstore's parsing with Python's `email` package on real corpora.

    Tools/oracle-mail.py MAILSTORE_BINARY CORPORA_DIR

Imports every Maildir tree and mbox file under CORPORA_DIR into a fresh store, checks that every message is
accounted for (files / mbox messages counted independently here), and for every imported message compares
Message-ID, subject and the From/To/Cc addresses with what Python's email package reads from the same raw
bytes (fetched back with `mailstore show --raw`, which also checks the bytes are kept exactly).
Prints one line per mismatch and a closing 'N passed, M failed' line; exits 1 on any failure.
"""
import email
import email.policy
import email.utils
import json
import mailbox
import os
import re
import subprocess
import sys
import tempfile


def run(binary, store, *args, raw=False):
    out = subprocess.run([binary, "--store", store, *args] if False else [binary, *args, "--store", store],
                         capture_output=True, check=True)
    return out.stdout if raw else out.stdout.decode("utf-8")


def norm_space(s):
    return re.sub(r"\s+", " ", s or "").strip()


def norm_id(s):
    if s is None:
        return None
    s = s.strip()
    m = re.search(r"<([^<>]*)>", s)
    if m:
        s = m.group(1)
    s = re.sub(r"\s+", "", s)
    return s or None


def addresses(msg, name):
    values = [str(v) for v in msg.get_all(name, [])]
    return sorted({a.lower() for _, a in email.utils.getaddresses(values) if a and "@" in a})


def maildir_files(root):
    n = 0
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != "tmp"]
        n += sum(1 for f in files if not f.startswith(".") and not f.startswith("dovecot") and f not in ("maildirfolder", "subscriptions"))
    return n


def main():
    binary, corpora = sys.argv[1], sys.argv[2]
    store = tempfile.mkdtemp(prefix="mailstore-oracle-") + "/store"
    run(binary, store, "init")
    expected = 0
    passed = failed = defect_checked = 0
    for entry in sorted(os.listdir(corpora)):
        path = os.path.join(corpora, entry)
        if os.path.isdir(path):
            mboxes = [f for f in sorted(os.listdir(path)) if f.endswith(".mbox")]
            if mboxes:
                for f in mboxes:
                    n = len(mailbox.mbox(os.path.join(path, f), create=False))
                    expected += n
                    summary = json.loads(run(binary, store, "import", "--mbox", os.path.join(path, f), "--account", entry, "--json"))
                    if summary["imported"] != n:
                        print(f"FAIL count {entry}/{f}: python sees {n} messages, mailstore imported {summary['imported']}")
                        failed += 1
            else:
                n = maildir_files(path)
                expected += n
                summary = json.loads(run(binary, store, "import", "--maildir", path, "--account", entry, "--json"))
                if summary["imported"] != n:
                    print(f"FAIL count {entry}: {n} files, mailstore imported {summary['imported']}")
                    failed += 1
    events = [json.loads(l) for l in run(binary, store, "log", "--type", "EmailReceived", "--json").splitlines()]
    if len(events) != expected:
        print(f"FAIL total: {expected} messages in the corpora, {len(events)} EmailReceived events")
        failed += 1
    for ev in events:
        p = ev["payload"]
        raw = run(binary, store, "show", p["emailID"], "--raw", raw=True)
        if len(raw) != p["size"]:
            print(f"FAIL {p['emailID']}: raw bytes {len(raw)} != recorded size {p['size']}")
            failed += 1
            continue
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        raw_msg = email.message_from_bytes(raw)
        problems = []
        try:
            want_id = norm_id(str(msg["Message-ID"])) if msg["Message-ID"] is not None else None
        except Exception:
            want_id = norm_id(msg.get("Message-ID", failobj=None) and str(msg.get("Message-ID")))
        if norm_id(p.get("messageID")) != want_id:
            problems.append(f"message-id {p.get('messageID')!r} != python {want_id!r}")
        try:
            want_subject = norm_space(str(msg["Subject"])) if msg["Subject"] is not None else ""
        except Exception:
            want_subject = None
        if want_subject is not None and norm_space(p["subject"]) != want_subject:
            problems.append(f"subject {p['subject']!r} != python {want_subject!r}")
        for field in ("from", "to", "cc"):
            got = sorted({a["email"].lower() for a in p[field] if "@" in a["email"]})
            try:
                want = addresses(msg, field)
                defects = any(getattr(h, "defects", None) for h in msg.get_all(field, []))
            except Exception:
                want, defects = None, True
            if defects or want is None or any(re.search(r'[\s"]', a) for a in want):
                # Python could not parse this header (it reports defects or yields an address with spaces
                # or quotes in it): check instead that every address we extracted is in the raw header.
                raw_header = " ".join(str(v) for v in raw_msg.get_all(field, [])).lower()
                missing = [a for a in got if a not in raw_header]
                if missing:
                    problems.append(f"{field} {missing} not in the raw header")
                else:
                    defect_checked += 1
            elif got != want:
                problems.append(f"{field} {got} != python {want}")
        if problems:
            failed += 1
            print(f"FAIL {ev['account']}/{p['folder']}/{p.get('sourceLocation')}: " + "; ".join(problems))
        else:
            passed += 1
    if defect_checked:
        print(f"({defect_checked} address headers Python reports as defective were checked against the raw header)")
    print(f"oracle-mail: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
