#!/usr/bin/env python3
"""A hostile IMAP server over TLS on loopback, for the sync engine's bounds tests.

    hostile-imap.py MODE CERT KEY

Prints "PORT n" once it listens on 127.0.0.1, then serves clients, each on a thread of its own, until killed.
It is a fake on purpose: no real server misbehaves on cue. MODE:
  list-dupes       LIST answers 9,000 copies of "Spam" (and INBOX); every folder is empty.
  size-zero        INBOX holds 3 messages of 2 MiB each whose RFC822.SIZE is said to be 0.
  trickle          LIST is answered one byte every half second, for ever.
  examine-no-once  the first EXAMINE (or SELECT) is refused with `NO [SERVERBUG]` (Dovecot's words); INBOX holds one
                   small message, and a second from that refusal on.
  garbage-once     the first IDLE gets a malformed untagged FETCH (FLAGS (\\Seen \\x01bad)); INBOX holds one small
                   message, and a second from then on.
  garbage-always   every IDLE gets that malformed FETCH; INBOX holds one small message.
  short-literal
                   INBOX holds 600 small messages (UIDs 1-600); UID 300's BODY[] is announced as {5000} (its
                   RFC822.SIZE too), 100 bytes are sent, then nothing until the client goes (Dovecot's "cached
                   message size mismatch"). The others are sent whole, in UID order. CONDSTORE is advertised and
                   HIGHESTMODSEQ is always 7 (nothing changes), so a sync after the first finds the folder unchanged.
                   Each short literal is printed ("STALL 300") before it is sent.
  short-literal-thrice
                   as short-literal, but UID 300's BODY[] is sent that way only the first three times it is asked for
                   (what a sync needs to give it up), whole from then on (as after a repair of the server's index).
  uidvalidity-every-select
                   INBOX holds 200 small messages (UIDs 1-200, no flags) whose UIDVALIDITY is new at every SELECT or
                   EXAMINE (1000, 1001, ...): the same messages at the same UIDs.
  stale-uidnext    INBOX holds 10 small messages (UIDs 1-10), ESEARCH advertised; the first EXAMINE (or SELECT) says
                   UIDNEXT 11, every later one UIDNEXT 6 (stale: below UIDs its search lists, all 10 of them).
  folders          LIST names Zed, Broken, Trash (\\Trash), Archive (\\Archive), Sent (\\Sent) and INBOX, in that order; each
                   holds one small message (UID 1, Message-ID <FOLDER-1@example.com>).
  folders-garbage  as folders, but the EXAMINE (or SELECT) of Broken is answered with a malformed untagged FETCH.
  exists-repeat    INBOX holds one small message; every IDLE gets "* N EXISTS" with the count unchanged every 50 ms
                   until DONE. A second message arrives 4 s after the first IDLE began (printed "NEW <unix time>"),
                   said by "* 2 EXISTS" and repeated as before. Each EXAMINE or SELECT is printed ("SELECT <name>").
  fetch-repeat     INBOX holds one small message (UID 1, no flags); every IDLE gets "* 1 FETCH (FLAGS ())", the flags
                   the client holds, every 50 ms until DONE, every other one with its UID ("* 1 FETCH (UID 1 FLAGS ())").
                   4 s after the first IDLE began the message is \\Seen (printed "SEEN <unix time>"): said by the same FETCH
                   with (\\Seen), repeated as before. Each EXAMINE or SELECT is printed ("SELECT <name>").
  size-no          every UID FETCH of sizes alone (RFC822.SIZE without BODY) is refused with `NO [SERVERBUG]`; INBOX holds
                   5 small messages (UIDs 1-5) at the first EXAMINE (or SELECT), UIDs 1, 3, 4, 5, 6 from the second on.
Any login is accepted (AUTHENTICATE PLAIN with SASL-IR). The "-once" faults are once per server run, whatever the
connection.
"""
import re
import select
import socket
import ssl
import sys
import threading
import time

CAPS = "IMAP4rev1 AUTH=PLAIN SASL-IR IDLE"
BODY_SIZE = 2 << 20
ONCE_MODES = ("examine-no-once", "garbage-once")
SMALL_MODES = ONCE_MODES + ("garbage-always", "exists-repeat", "fetch-repeat", "size-no")
REPEAT_MODES = ("exists-repeat", "fetch-repeat")
FOLDER_MODES = ("folders", "folders-garbage")
FOLDER_LIST = [("Zed", ""), ("Broken", ""), ("Trash", " \\Trash"), ("Archive", " \\Archive"), ("Sent", " \\Sent"),
               ("INBOX", "")]
REPEAT_EVERY = 0.05
REPEAT_NEW_AFTER = 4.0


SHORT_UID = 300
MODSEQ_MODES = ("short-literal", "short-literal-thrice")
SMALL_COUNTS = {"short-literal": 600, "short-literal-thrice": 600, "uidvalidity-every-select": 200, "stale-uidnext": 10}
validity_lock = threading.Lock()
validity = [999]


def small(uid):
    return (f"From: Hostile <h@example.com>\r\nTo: you@example.com\r\nSubject: small {uid}\r\n"
            f"Message-ID: <m{uid}@example.com>\r\nDate: Mon, 16 Nov 2026 10:00:00 +0000\r\n\r\nhello {uid}\r\n").encode()


def lies(mode, uid, items):
    """Whether UID's literal is announced longer than it is sent (counting the lies of short-literal-thrice)."""
    if uid != SHORT_UID or mode not in ("short-literal", "short-literal-thrice"):
        return False
    if mode == "short-literal":
        return True
    with Shared.lock:
        if Shared.lies_told >= 3:
            return False
        if "BODY" in items:
            Shared.lies_told += 1
        return True


def fetch_small(send, conn, mode, tag, uids, items):
    """Answers a UID FETCH of the small-message modes; False when the client must be left hanging."""
    for seq, uid in enumerate(uids, 1):
        body = small(uid)
        lying = lies(mode, uid, items)
        stated = 5000 if lying else len(body)
        head = f"* {uid} FETCH (UID {uid}"
        if "FLAGS" in items:
            head += " FLAGS ()"
        if "RFC822.SIZE" in items:
            head += f" RFC822.SIZE {stated}"
        if "INTERNALDATE" in items:
            head += ' INTERNALDATE "16-Nov-2026 10:00:00 +0000"'
        if "HEADER.FIELDS" in items:
            field = f"Message-ID: <m{uid}@example.com>\r\n\r\n".encode()
            send(head.encode() + f" BODY[HEADER.FIELDS (MESSAGE-ID)] {{{len(field)}}}\r\n".encode() + field + b")\r\n")
        elif "BODY" in items and lying:
            print(f"STALL {uid}", flush=True)
            send(head.encode() + b" BODY[] {5000}\r\n" + body[:100].ljust(100, b"x"))
            # Silence until the client gives up and closes.
            while conn.recv(4096):
                pass
            return False
        elif "BODY" in items:
            send(head.encode() + f" BODY[] {{{len(body)}}}\r\n".encode() + body + b")\r\n")
        else:
            send(head + ")\r\n")
    send(f"{tag} OK done\r\n")
    return True


class Shared:
    """What the connections share: whether the one-off fault was sent, and so how many messages INBOX holds."""
    lock = threading.Lock()
    faulted = False
    lies_told = 0
    idle_since = None

    @classmethod
    def idling(cls):
        """Notes that an IDLE began (exists-repeat: the second message comes REPEAT_NEW_AFTER after the first)."""
        with cls.lock:
            if cls.idle_since is None:
                cls.idle_since = time.time()

    @classmethod
    def seen(cls):
        """fetch-repeat: whether UID 1 is \\Seen (from REPEAT_NEW_AFTER after the first IDLE began on; printed once)."""
        with cls.lock:
            if not cls.faulted and cls.idle_since is not None and time.time() >= cls.idle_since + REPEAT_NEW_AFTER:
                cls.faulted = True
                print(f"SEEN {time.time()}", flush=True)
            return cls.faulted

    @classmethod
    def fault(cls):
        """True the first time only (the fault is to be sent now)."""
        with cls.lock:
            first = not cls.faulted
            cls.faulted = True
            return first

    selects = 0

    @classmethod
    def selected(cls):
        """Counts an EXAMINE or SELECT (size-no: the mailbox changes from the second on)."""
        with cls.lock:
            cls.selects += 1

    @classmethod
    def existing(cls, mode):
        if mode == "size-zero":
            return [1, 2, 3]
        if mode == "size-no":
            with cls.lock:
                return [1, 3, 4, 5, 6] if cls.selects > 1 else [1, 2, 3, 4, 5]
        if mode in ("garbage-always", "fetch-repeat"):
            return [1]
        if mode in SMALL_COUNTS:
            return list(range(1, SMALL_COUNTS[mode] + 1))
        if mode in ONCE_MODES:
            with cls.lock:
                return [1, 2] if cls.faulted else [1]
        if mode in FOLDER_MODES:
            return [1]
        if mode == "exists-repeat":
            with cls.lock:
                if not cls.faulted and cls.idle_since is not None and time.time() >= cls.idle_since + REPEAT_NEW_AFTER:
                    cls.faulted = True
                    print(f"NEW {time.time()}", flush=True)
                return [1, 2] if cls.faulted else [1]
        return []


def flags_of(mode):
    """The flags of the messages (fetch-repeat: \\Seen once the change came)."""
    return "\\Seen" if mode == "fetch-repeat" and Shared.seen() else ""


def small_message(uid):
    return (f"From: Hostile <h@example.com>\r\nTo: you@example.com\r\nSubject: small {uid}\r\n"
            f"Message-ID: <small{uid}@example.com>\r\nDate: Mon, 16 Nov 2026 10:00:00 +0000\r\n\r\nHello {uid}.\r\n").encode()


def folder_message(folder, uid):
    return (f"From: Hostile <h@example.com>\r\nTo: you@example.com\r\nSubject: {folder} {uid}\r\n"
            f"Message-ID: <{folder}-{uid}@example.com>\r\nDate: Mon, 16 Nov 2026 10:00:00 +0000\r\n\r\n"
            f"In {folder}.\r\n").encode()


def mailbox_of(rest):
    """The mailbox an EXAMINE or SELECT names (its first argument, unquoted)."""
    m = re.match(r'"((?:[^"\\]|\\.)*)"|(\S+)', rest)
    return (m.group(1) if m.group(1) is not None else m.group(2)) if m else ""


def message(uid):
    head = (f"From: Hostile <h@example.com>\r\nTo: you@example.com\r\nSubject: big {uid}\r\n"
            f"Message-ID: <big{uid}@example.com>\r\nDate: Mon, 16 Nov 2026 10:00:00 +0000\r\n\r\n").encode()
    line = b"x" * 76 + b"\r\n"
    return head + line * ((BODY_SIZE - len(head)) // len(line))


def uids_in(text, existing):
    out = []
    for part in text.split(","):
        if ":" in part:
            a, b = part.split(":")
            lo = 1 if a == "*" else int(a)
            hi = max(existing, default=0) if b == "*" else int(b)
            lo, hi = min(lo, hi), max(lo, hi)
            out += [u for u in existing if lo <= u <= hi]
        else:
            u = max(existing, default=0) if part == "*" else int(part)
            if u in existing:
                out.append(u)
    return sorted(set(out))


def serve(conn, mode):
    f = conn.makefile("rwb")

    def send(data):
        f.write(data if isinstance(data, bytes) else data.encode())
        f.flush()

    existing = Shared.existing(mode)
    body_of = small_message if mode in SMALL_MODES else message
    selected = ""
    caps = CAPS + (" ESEARCH" if mode == "stale-uidnext" else "") + (" CONDSTORE" if mode in MODSEQ_MODES else "")
    send(f"* OK [CAPABILITY {caps}] hostile ready\r\n")
    while True:
        raw = f.readline()
        if not raw:
            return
        line = raw.decode(errors="replace").rstrip("\r\n")
        parts = line.split(" ", 2)
        if len(parts) < 2:
            continue
        tag, cmd = parts[0], parts[1].upper()
        rest = parts[2] if len(parts) > 2 else ""
        if cmd == "CAPABILITY":
            send(f"* CAPABILITY {caps}\r\n{tag} OK done\r\n")
        elif cmd == "AUTHENTICATE":
            send(f"{tag} OK [CAPABILITY {caps}] logged in\r\n")
        elif cmd == "LIST" and mode == "trickle":
            for byte in (f'* LIST () "/" INBOX\r\n' * 1000).encode():
                send(bytes([byte]))
                time.sleep(0.5)
        elif cmd == "LIST" and mode in FOLDER_MODES:
            send("".join(f'* LIST (\\HasNoChildren{attr}) "/" {name}\r\n' for name, attr in FOLDER_LIST) + f"{tag} OK done\r\n")
        elif cmd == "LIST":
            if mode == "list-dupes":
                send(b'* LIST (\\HasNoChildren) "/" "Spam"\r\n' * 9000)
            send(f'* LIST (\\HasNoChildren) "/" INBOX\r\n{tag} OK done\r\n')
        elif cmd in ("EXAMINE", "SELECT") and mode == "examine-no-once" and Shared.fault():
            send(f"{tag} NO [SERVERBUG] Internal error occurred. Refer to server log for more information. "
                 f"[2026-12-07 04:00:00] (0.001 + 0.000 secs).\r\n")
        elif cmd in ("EXAMINE", "SELECT") and mode == "folders-garbage" and mailbox_of(rest) == "Broken":
            send(b"* 1 FETCH (FLAGS (\\Seen \x01bad))\r\n")
        elif cmd == "IDLE" and mode == "exists-repeat":
            send("+ idling\r\n")
            Shared.idling()
            # The count the client knows, again and again, until it sends DONE (a new message changes it once).
            while not (conn.pending() or select.select([conn], [], [], REPEAT_EVERY)[0]):
                send(f"* {len(Shared.existing(mode))} EXISTS\r\n")
            if not f.readline():
                return
            send(f"{tag} OK idle done\r\n")
        elif cmd == "IDLE" and mode == "fetch-repeat":
            send("+ idling\r\n")
            Shared.idling()
            # The flags the client holds, again and again, until it sends DONE (\Seen from the change on).
            repeats = 0
            while not (conn.pending() or select.select([conn], [], [], REPEAT_EVERY)[0]):
                uid = "UID 1 " if repeats % 2 else ""
                send(f"* 1 FETCH ({uid}FLAGS ({flags_of(mode)}))\r\n")
                repeats += 1
            if not f.readline():
                return
            send(f"{tag} OK idle done\r\n")
        elif cmd == "IDLE":
            send("+ idling\r\n")
            if mode == "garbage-always" or (mode == "garbage-once" and Shared.fault()):
                send(b"* 1 FETCH (FLAGS (\\Seen \x01bad))\r\n")
            done = f.readline()
            if not done:
                return
            send(f"{tag} OK idle done\r\n")
        elif cmd in ("EXAMINE", "SELECT"):
            selected = mailbox_of(rest)
            if mode in REPEAT_MODES:
                print(f"SELECT {selected}", flush=True)
            if mode in FOLDER_MODES:
                body_of = lambda uid, folder=selected: folder_message(folder, uid)
            Shared.selected()
            existing = Shared.existing(mode)
            value = 42
            uid_next = len(existing) + 1
            if mode == "stale-uidnext" and not Shared.fault():
                uid_next = 6
            if mode == "uidvalidity-every-select":
                with validity_lock:
                    validity[0] += 1
                    value = validity[0]
            modseq = "* OK [HIGHESTMODSEQ 7] m\r\n" if mode in MODSEQ_MODES else ""
            send(f"* {len(existing)} EXISTS\r\n* OK [UIDVALIDITY {value}] v\r\n* OK [UIDNEXT {uid_next}] n\r\n{modseq}"
                 f"{tag} OK [READ-ONLY] done\r\n")
        elif cmd == "UID" and rest.upper().startswith("SEARCH") and "ESEARCH" in caps and "RETURN" in rest.upper():
            listed = f" ALL {min(existing)}:{max(existing)}" if existing else ""
            send(f'* ESEARCH (TAG "{tag}") UID{listed}\r\n{tag} OK done\r\n')
        elif cmd == "UID" and rest.upper().startswith("SEARCH"):
            send(f"* SEARCH {' '.join(map(str, existing))}\r\n{tag} OK done\r\n".replace("SEARCH \r\n", "SEARCH\r\n"))
        elif cmd == "UID" and rest.upper().startswith("FETCH"):
            m = re.match(r"FETCH (\S+) \((.*)\)", rest, re.I)
            uids = uids_in(m.group(1), existing) if m else []
            items = m.group(2).upper() if m else ""
            if mode == "size-no" and "RFC822.SIZE" in items and "BODY" not in items:
                send(f"{tag} NO [SERVERBUG] Internal error occurred. Refer to server log for more information.\r\n")
                continue
            if mode in SMALL_COUNTS:
                if not fetch_small(send, conn, mode, tag, uids, items):
                    return
                continue
            for seq, uid in enumerate(uids, 1):
                if "BODY" in items:
                    body = body_of(uid)
                    send(f'* {seq} FETCH (UID {uid} FLAGS ({flags_of(mode)}) INTERNALDATE "16-Nov-2026 10:00:00 +0000" '
                         f"BODY[] {{{len(body)}}}\r\n".encode() + body + b")\r\n")
                else:
                    size = 0 if mode == "size-zero" else len(body_of(uid))
                    send(f"* {seq} FETCH (UID {uid} RFC822.SIZE {size} FLAGS ({flags_of(mode)}))\r\n")
            send(f"{tag} OK done\r\n")
        elif cmd == "LOGOUT":
            send(f"* BYE bye\r\n{tag} OK done\r\n")
            return
        else:
            send(f"{tag} OK done\r\n")


def main():
    mode, cert, key = sys.argv[1:4]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    print(f"PORT {listener.getsockname()[1]}", flush=True)
    def handle(plain):
        try:
            with context.wrap_socket(plain, server_side=True) as conn:
                serve(conn, mode)
        except (OSError, ssl.SSLError):
            pass

    while True:
        plain, _ = listener.accept()
        threading.Thread(target=handle, args=(plain,), daemon=True).start()


if __name__ == "__main__":
    main()
