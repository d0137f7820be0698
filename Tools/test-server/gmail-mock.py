#!/usr/bin/env python3
"""A Gmail-like IMAP server over TLS on loopback, for the sync engine's Gmail tests. NOT Gmail: a small model of the
label semantics Google documents (developers.google.com/gmail/imap/imap-extensions), after the round-13 auditor's mock.

    gmail-mock.py CERT KEY STATEFILE

Prints "PORT n" once it listens on 127.0.0.1, then serves clients, each on a thread of its own, until killed.
STATEFILE (JSON) holds the mailbox; a test writes it before the start (only "msgs" is needed) and reads it after:
  {"msgs": {"GMID": {"raw": "...", "thrid": N, "labels": ["\\\\Inbox", "Work"], "flags": ["\\\\Seen"], "date": "..."}},
   "userlabels": ["Work", ...], "folders": {...UIDs the mock gave...}, "next_gmid": N,
   "body_fetches": {"GMID": N}}   (how many times each message's whole body was sent: BODY[], BODY.PEEK[], RFC822)
It is written again after every change. Every command line the clients send is appended to STATEFILE.log as
"[session] C: line" (AUTHENTICATE/LOGIN lines are logged without their arguments).

The model: a message has an X-GM-MSGID (its key in "msgs"), an X-GM-THRID, labels and flags; a folder is a view of
a label: INBOX (\\Inbox), [Gmail]/All Mail (every message not in Spam or Trash), [Gmail]/Starred (\\Flagged),
[Gmail]/Important, [Gmail]/Sent Mail, [Gmail]/Drafts, [Gmail]/Spam, [Gmail]/Trash, and the user labels. Each folder
gives a message a UID of its own (a new one when it enters the folder again). \\Deleted plus EXPUNGE in a label
folder (or INBOX) removes the label only (Gmail's default for auto-expunge off, "archive the message"); in All Mail
it moves the message to Trash; in Trash it deletes it for good. MOVE from a label to another = add that label,
remove the source's (MOVE to All Mail from a label = archive); a MOVE out of All Mail only adds the label; COPY
adds the label. Any login is accepted. Capabilities: X-GM-EXT-1, UIDPLUS, MOVE, ESEARCH, IDLE, SPECIAL-USE.
Bounds: a command line is at most 64 KiB, a literal at most 64 MiB (else the connection is closed).
"""
import json
import os
import re
import socket
import ssl
import sys
import threading
import time

CAPS = ("IMAP4rev1 UNSELECT IDLE NAMESPACE ID CHILDREN X-GM-EXT-1 UIDPLUS ENABLE MOVE ESEARCH SPECIAL-USE "
        "AUTH=PLAIN SASL-IR")
ALL_MAIL, STARRED, TRASH, SPAM = "[Gmail]/All Mail", "[Gmail]/Starred", "[Gmail]/Trash", "[Gmail]/Spam"
# Folder -> (its SPECIAL-USE attribute, the label it shows).
SYSTEM = {"INBOX": ("", "\\Inbox"), ALL_MAIL: ("\\All", None), STARRED: ("\\Flagged", None),
          "[Gmail]/Important": ("\\Important", "\\Important"), "[Gmail]/Sent Mail": ("\\Sent", "\\Sent"),
          "[Gmail]/Drafts": ("\\Drafts", "\\Draft"), SPAM: ("\\Junk", "\\Spam"), TRASH: ("\\Trash", "\\Trash")}
MAX_LINE = 64 << 10
MAX_LITERAL = 64 << 20
LOCK = threading.RLock()
CERT, KEY, STATE = sys.argv[1], sys.argv[2], sys.argv[3]
LOG = open(STATE + ".log", "a", buffering=1)
S = json.load(open(STATE)) if os.path.exists(STATE) else {}
S.setdefault("msgs", {})
S.setdefault("folders", {})
S.setdefault("userlabels", ["Work", "Projects", "Travel"])
S.setdefault("next_gmid", max([int(g) for g in S["msgs"]] + [999]) + 1)
for _m in S["msgs"].values():
    _m.setdefault("flags", [])
    _m.setdefault("date", "01-Dec-2026 10:00:00 +0000")


def save():
    with open(STATE + ".tmp", "w") as f:
        json.dump(S, f)
    os.replace(STATE + ".tmp", STATE)


def all_folders():
    return list(SYSTEM) + S["userlabels"]


def label_of(folder):
    return SYSTEM[folder][1] if folder in SYSTEM else folder


def in_folder(m, folder):
    labels = set(m["labels"])
    hidden = "\\Spam" in labels or "\\Trash" in labels
    if folder == ALL_MAIL:
        return not hidden
    if folder == STARRED:
        return "\\Flagged" in m["flags"] and not hidden
    lab = label_of(folder)
    if hidden and lab not in ("\\Trash", "\\Spam"):
        return False
    return lab in labels


def refresh(folder):
    """Gives members without a UID one, drops the UIDs of those that left; returns [(uid, gmid)] sorted."""
    f = S["folders"].setdefault(folder, {"validity": 100 + all_folders().index(folder), "next": 1, "uids": {}})
    members = {g for g, m in S["msgs"].items() if in_folder(m, folder)}
    for g in [g for g in f["uids"] if g not in members]:
        del f["uids"][g]
    for g in sorted(members - set(f["uids"]), key=int):
        f["uids"][g] = f["next"]
        f["next"] += 1
    return sorted((u, g) for g, u in f["uids"].items())


def refresh_all():
    for f in all_folders():
        refresh(f)


def parse_set(s, maxv):
    out = set()
    for part in s.split(","):
        a, _, b = part.partition(":")
        a = maxv if a == "*" else int(a)
        b = a if not b else (maxv if b == "*" else int(b))
        out.update(range(min(a, b), max(a, b) + 1))
    return out


def compress(nums):
    nums, parts, i = sorted(nums), [], 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts.append(str(nums[i]) if i == j else f"{nums[i]}:{nums[j]}")
        i = j + 1
    return ",".join(parts)


def tokenize(s):
    """Atoms, quoted strings (unquoted) and parentheses; brackets keep an atom whole (BODY.PEEK[HEADER.FIELDS (A B)])."""
    toks, i = [], 0
    while i < len(s):
        c = s[i]
        if c == " ":
            i += 1
        elif c == '"':
            j, buf = i + 1, ""
            while s[j] != '"':
                if s[j] == "\\":
                    j += 1
                buf += s[j]
                j += 1
            toks.append(buf)
            i = j + 1
        elif c in "()":
            toks.append(c)
            i += 1
        else:
            j, depth = i, 0
            while j < len(s) and (s[j] not in " ()" or depth):
                depth += {"[": 1, "]": -1}.get(s[j], 0)
                j += 1
            toks.append(s[i:j])
            i = j
    return toks


def quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Session:
    def __init__(self, conn, sid):
        self.c, self.f, self.sid = conn, conn.makefile("rb"), sid
        self.sel, self.ro = None, True
        self.known = []  # the session's view of the selected folder: [(uid, gmid)], for sequence numbers

    def send(self, s):
        self.c.sendall(s.encode() if isinstance(s, str) else s)

    def readline(self):
        line = self.f.readline(MAX_LINE + 1)
        if not line or len(line) > MAX_LINE:
            raise EOFError
        return line

    def read_command(self):
        line, lits = self.readline(), []
        while True:
            m = re.search(rb"\{(\d+)(\+?)\}\r\n$", line)
            if not m:
                break
            n = int(m.group(1))
            if n > MAX_LITERAL:
                raise EOFError
            if not m.group(2):
                self.send("+ go\r\n")
            lits.append(self.f.read(n))
            line = line[:m.start()] + b"\x00LIT%d\x00" % (len(lits) - 1) + self.readline()
        return line.decode("utf-8", "replace").rstrip("\r\n"), lits

    def members(self):
        return refresh(self.sel)

    def sync_known(self):
        """EXPUNGE and EXISTS for what changed in the selected folder since the session last looked."""
        now = self.members()
        nowset = {u for u, _ in now}
        out = []
        for i in range(len(self.known) - 1, -1, -1):
            if self.known[i][0] not in nowset:
                out.append(f"* {i + 1} EXPUNGE\r\n")
                del self.known[i]
        if len(now) != len(self.known):
            out.append(f"* {len(now)} EXISTS\r\n")
        self.known = now
        self.send("".join(out))

    def run(self):
        self.send("* OK Gimap ready (gmail-mock)\r\n")
        while True:
            line, lits = self.read_command()
            parts = line.split(" ", 2)
            tag, cmd, rest = parts[0], (parts[1].upper() if len(parts) > 1 else ""), (parts[2] if len(parts) > 2 else "")
            LOG.write(f"[{self.sid}] C: {tag} {cmd}\n" if cmd in ("LOGIN", "AUTHENTICATE") else f"[{self.sid}] C: {line[:300]}\n")
            if cmd == "UID":
                sub, _, rest = rest.partition(" ")
                cmd = "UID " + sub.upper()
            try:
                with LOCK:
                    if self.dispatch(tag, cmd, rest, lits) == "LOGOUT":
                        return
            except EOFError:
                raise
            except Exception as e:  # noqa: BLE001 - a mock answers BAD to what it cannot do
                LOG.write(f"[{self.sid}] ERR {e!r}\n")
                self.send(f"{tag} BAD {type(e).__name__}: {e}\r\n")

    def dispatch(self, tag, cmd, rest, lits):
        def ok(text="Success"):
            self.send(f"{tag} OK {text}\r\n")
        if cmd == "CAPABILITY":
            self.send(f"* CAPABILITY {CAPS}\r\n")
            ok()
        elif cmd in ("LOGIN", "AUTHENTICATE"):
            ok("authenticated (Success)")
        elif cmd == "ID":
            self.send('* ID ("name" "GImap" "vendor" "gmail-mock")\r\n')
            ok()
        elif cmd == "ENABLE":
            self.send("* ENABLED\r\n")
            ok()
        elif cmd == "NAMESPACE":
            self.send('* NAMESPACE (("" "/")) NIL NIL\r\n')
            ok()
        elif cmd in ("NOOP", "CHECK"):
            if self.sel:
                self.sync_known()
            ok()
        elif cmd == "LOGOUT":
            self.send("* BYE LOGOUT Requested\r\n")
            ok()
            return "LOGOUT"
        elif cmd in ("LIST", "LSUB"):
            self.send('* LIST (\\HasNoChildren) "/" "INBOX"\r\n* LIST (\\HasChildren \\Noselect) "/" "[Gmail]"\r\n')
            for f in all_folders()[1:]:
                attr = SYSTEM[f][0] if f in SYSTEM else ""
                self.send(f'* LIST (\\HasNoChildren{" " + attr if attr else ""}) "/" {quote(f)}\r\n')
            ok()
        elif cmd == "STATUS":
            name = tokenize(rest)[0]
            ms = refresh(name)
            f = S["folders"][name]
            self.send(f"* STATUS {quote(name)} (MESSAGES {len(ms)} UIDNEXT {f['next']} UIDVALIDITY {f['validity']})\r\n")
            ok()
        elif cmd in ("SELECT", "EXAMINE"):
            name = tokenize(rest)[0]
            name = "INBOX" if name.upper() == "INBOX" else name
            if name not in all_folders():
                self.sel = None
                self.send(f"{tag} NO [NONEXISTENT] Unknown Mailbox: {name} (Failure)\r\n")
                return
            self.sel, self.ro = name, cmd == "EXAMINE"
            self.known = refresh(name)
            f = S["folders"][name]
            self.send("* FLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen)\r\n"
                      "* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen \\*)] Flags permitted.\r\n"
                      f"* OK [UIDVALIDITY {f['validity']}] UIDs valid.\r\n* {len(self.known)} EXISTS\r\n* 0 RECENT\r\n"
                      f"* OK [UIDNEXT {f['next']}] Predicted next UID.\r\n")
            ok(f"[{'READ-ONLY' if self.ro else 'READ-WRITE'}] {name} selected. (Success)")
        elif cmd in ("CLOSE", "UNSELECT"):
            if cmd == "CLOSE" and not self.ro:
                self.expunge(None, announce=False)
            self.sel = None
            ok()
        elif cmd == "APPEND":
            self.append(tag, rest, lits)
        elif cmd == "IDLE":
            self.idle()
            ok("IDLE terminated (Success)")
        elif cmd in ("UID SEARCH", "SEARCH"):
            self.search(tag, cmd, rest)
        elif cmd in ("UID FETCH", "FETCH"):
            self.fetch(tag, cmd, rest)
        elif cmd in ("UID STORE", "STORE"):
            self.store(tag, cmd, rest)
        elif cmd in ("UID MOVE", "UID COPY", "MOVE", "COPY"):
            self.copymove(tag, cmd, rest)
        elif cmd in ("EXPUNGE", "UID EXPUNGE"):
            self.expunge(parse_set(rest.strip(), 2**32 - 1) if cmd == "UID EXPUNGE" else None)
            ok()
        else:
            self.send(f"{tag} BAD Unknown command {cmd}\r\n")

    def append(self, tag, rest, lits):
        toks = tokenize(rest)
        name = toks[0]
        flags = toks[toks.index("(") + 1:toks.index(")")] if "(" in toks else []
        labels = [] if name in (ALL_MAIL, STARRED) else [label_of(name)]
        if name == STARRED:
            flags.append("\\Flagged")
        g = str(S["next_gmid"])
        S["next_gmid"] += 1
        S["msgs"][g] = {"raw": lits[-1].decode("latin-1"), "thrid": int(g), "labels": labels, "flags": flags,
                        "date": time.strftime("%d-%b-%Y %H:%M:%S +0000", time.gmtime())}
        refresh_all()
        save()
        f = S["folders"][name]
        self.send(f"{tag} OK [APPENDUID {f['validity']} {f['uids'][g]}] (Success)\r\n")

    def idle(self):
        self.send("+ idling\r\n")
        self.c.settimeout(1.0)
        try:
            while True:
                try:
                    line = self.f.readline(MAX_LINE)
                    if not line:
                        raise EOFError
                    if line.strip().upper() == b"DONE":
                        return
                except (socket.timeout, TimeoutError):
                    with LOCK:
                        if self.sel:
                            self.sync_known()
        finally:
            self.c.settimeout(None)

    def resolve(self, cmd, setstr):
        ms = self.members()
        if cmd.startswith("UID"):
            want = parse_set(setstr, ms[-1][0]) if ms else set()
            return [(u, g) for u, g in ms if u in want]
        want = parse_set(setstr, len(self.known))
        return [self.known[i - 1] for i in sorted(want) if 1 <= i <= len(self.known) and self.known[i - 1] in ms]

    def seqno(self, uid):
        for i, (u, _) in enumerate(self.known):
            if u == uid:
                return i + 1
        self.known.append((uid, None))
        return len(self.known)

    def key(self, toks, i, ms):
        """One search key at toks[i]: (the UIDs it matches, the index after it)."""
        t = toks[i].upper()
        msg = lambda g: S["msgs"][g]  # noqa: E731
        if t == "(":
            hit, i = {u for u, _ in ms}, i + 1
            while toks[i] != ")":
                sub, i = self.key(toks, i, ms)
                hit &= sub
            return hit, i + 1
        if t == "OR":
            a, i = self.key(toks, i + 1, ms)
            b, i = self.key(toks, i, ms)
            return a | b, i
        if t == "NOT":
            a, i = self.key(toks, i + 1, ms)
            return {u for u, _ in ms} - a, i
        if t == "ALL":
            return {u for u, _ in ms}, i + 1
        if t == "HEADER":
            h, v = toks[i + 1], toks[i + 2].lower()
            pat = re.compile(r"(?im)^" + re.escape(h) + r":[^\r\n]*" + re.escape(v))
            return {u for u, g in ms if pat.search(msg(g)["raw"].split("\r\n\r\n", 1)[0].lower())}, i + 3
        if t == "X-GM-MSGID":
            return {u for u, g in ms if g == toks[i + 1]}, i + 2
        if t == "X-GM-THRID":
            return {u for u, g in ms if str(msg(g)["thrid"]) == toks[i + 1]}, i + 2
        if t == "UID":
            want = parse_set(toks[i + 1], ms[-1][0] if ms else 0)
            return {u for u, _ in ms if u in want}, i + 2
        flag = {"DELETED": "\\Deleted", "SEEN": "\\Seen", "FLAGGED": "\\Flagged", "DRAFT": "\\Draft",
                "ANSWERED": "\\Answered"}
        if t in flag or (t.startswith("UN") and t[2:] in flag):
            neg = t not in flag
            f = flag[t[2:] if neg else t]
            return {u for u, g in ms if (f in msg(g)["flags"]) != neg}, i + 1
        raise ValueError("unsupported search key " + t)

    def search(self, tag, cmd, rest):
        toks = tokenize(rest)
        esearch = toks[:1] == ["RETURN"]
        if esearch:
            toks = toks[toks.index(")") + 1:]
        if toks and toks[0].upper() == "CHARSET":
            toks = toks[2:]
        ms = self.members()
        hit, i = {u for u, _ in ms}, 0
        while i < len(toks):
            sub, i = self.key(toks, i, ms)
            hit &= sub
        res = sorted(hit)
        if not cmd.startswith("UID"):
            res = [self.seqno(u) for u in res]
        if esearch:
            self.send(f'* ESEARCH (TAG "{tag}"){" UID" if cmd.startswith("UID") else ""}'
                      + (f" ALL {compress(res)}" if res else "") + "\r\n")
        else:
            self.send("* SEARCH" + "".join(f" {u}" for u in res) + "\r\n")
        self.send(f"{tag} OK SEARCH completed (Success)\r\n")

    def fetch(self, tag, cmd, rest):
        setstr, items = rest.split(" ", 1)
        items = items.strip()
        if items.startswith("("):
            items = items[1:-1]
        its = [t.upper() for t in tokenize(items) if t not in ("(", ")")]
        for u, g in self.resolve(cmd, setstr):
            m = S["msgs"][g]
            raw = m["raw"].encode("latin-1")
            out = [f"UID {u}".encode()]
            for it in its:
                if it == "FLAGS":
                    out.append(("FLAGS (" + " ".join(m["flags"]) + ")").encode())
                elif it == "INTERNALDATE":
                    out.append(f'INTERNALDATE "{m["date"]}"'.encode())
                elif it == "RFC822.SIZE":
                    out.append(f"RFC822.SIZE {len(raw)}".encode())
                elif it == "X-GM-MSGID":
                    out.append(f"X-GM-MSGID {g}".encode())
                elif it == "X-GM-THRID":
                    out.append(f"X-GM-THRID {m['thrid']}".encode())
                elif it == "X-GM-LABELS":
                    out.append(("X-GM-LABELS (" + " ".join(l if l.startswith("\\") else quote(l) for l in m["labels"])
                                + ")").encode())
                elif it in ("BODY.PEEK[]", "BODY[]", "RFC822"):
                    S.setdefault("body_fetches", {})[g] = S.setdefault("body_fetches", {}).get(g, 0) + 1
                    out.append(("RFC822" if it == "RFC822" else "BODY[]").encode() + b" {%d}\r\n" % len(raw) + raw)
                    if not it.endswith("PEEK[]") and "\\Seen" not in m["flags"]:
                        m["flags"].append("\\Seen")
                elif it.startswith("BODY.PEEK[HEADER.FIELDS") or it.startswith("BODY[HEADER.FIELDS"):
                    names = re.findall(r"[\w-]+", it.split("(", 1)[1]) if "(" in it else []
                    hdr = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1")
                    lines = [h for h in re.split(r"\r\n(?![ \t])", hdr) if h.split(":")[0].upper() in names]
                    body = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
                    out.append(("BODY[HEADER.FIELDS (" + " ".join(names) + ")]").encode() + b" {%d}\r\n" % len(body) + body)
            self.send(f"* {self.seqno(u)} FETCH (".encode() + b" ".join(out) + b")\r\n")
        save()
        self.send(f"{tag} OK Success\r\n")

    def store(self, tag, cmd, rest):
        setstr, op, flags = re.match(r"(\S+) (\S+) \(?([^)]*)\)?", rest).groups()
        flags = flags.split()
        for u, g in self.resolve(cmd, setstr):
            m = S["msgs"][g]
            if op.startswith("+"):
                m["flags"] += [f for f in flags if f not in m["flags"]]
            elif op.startswith("-"):
                m["flags"] = [f for f in m["flags"] if f not in flags]
            else:
                m["flags"] = list(flags)
            if not op.upper().endswith(".SILENT"):
                self.send(f"* {self.seqno(u)} FETCH (UID {u} FLAGS ({' '.join(m['flags'])}))\r\n")
        refresh_all()
        save()
        self.send(f"{tag} OK Success\r\n")

    def remove_from(self, g, folder):
        m = S["msgs"][g]
        m["flags"] = [f for f in m["flags"] if f != "\\Deleted"]
        if folder == ALL_MAIL:
            m["labels"] = ["\\Trash"]
        elif folder == STARRED:
            m["flags"] = [f for f in m["flags"] if f != "\\Flagged"]
        elif folder == TRASH:
            del S["msgs"][g]
        else:
            m["labels"] = [lab for lab in m["labels"] if lab != label_of(folder)]

    def expunge(self, uids, announce=True):
        for u, g in self.members():
            m = S["msgs"].get(g)
            if m and "\\Deleted" in m["flags"] and (uids is None or u in uids):
                self.remove_from(g, self.sel)
        refresh_all()
        save()
        if announce:
            self.sync_known()

    def copymove(self, tag, cmd, rest):
        toks = tokenize(rest)
        setstr, dest = toks[0], ("INBOX" if toks[1].upper() == "INBOX" else toks[1])
        if dest not in all_folders():
            self.send(f"{tag} NO [TRYCREATE] Folder doesn't exist. (Failure)\r\n")
            return
        pairs = self.resolve(cmd, setstr)
        for _, g in pairs:
            m = S["msgs"][g]
            if dest == TRASH:
                m["labels"] = [lab for lab in m["labels"] if lab != "\\Inbox"] + ["\\Trash"]
            elif dest == STARRED:
                m["flags"].append("\\Flagged")
            elif dest == ALL_MAIL:
                m["labels"] = [lab for lab in m["labels"] if lab not in ("\\Trash", "\\Spam")]
            else:
                if label_of(dest) not in m["labels"]:
                    m["labels"].append(label_of(dest))
                if dest != SPAM:
                    m["labels"] = [lab for lab in m["labels"] if lab not in ("\\Trash", "\\Spam")]
        refresh_all()
        fd = S["folders"][dest]
        src = [u for u, _ in pairs]
        dst = [fd["uids"][g] for _, g in pairs if g in fd["uids"]]
        code = f"COPYUID {fd['validity']} {compress(src)} {compress(dst)}" if pairs and len(dst) == len(src) else ""
        if "MOVE" in cmd:
            # A message leaves All Mail only for Trash or Spam; the copy above took a Trash/Spam label away already.
            if self.sel != dest and self.sel not in (ALL_MAIL, TRASH, SPAM):
                for _, g in pairs:
                    if g in S["msgs"]:
                        self.remove_from(g, self.sel)
            refresh_all()
            if code:
                self.send(f"* OK [{code}] (Success)\r\n")
            self.sync_known()
            self.send(f"{tag} OK Success\r\n")
        else:
            self.send(f"{tag} OK [{code}] (Success)\r\n" if code else f"{tag} OK (Success)\r\n")
        save()


def serve():
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(CERT, KEY)
    with LOCK:
        refresh_all()
        save()
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    print("PORT", s.getsockname()[1], flush=True)
    n = 0
    while True:
        c, _ = s.accept()
        n += 1

        def handle(c=c, n=n):
            try:
                Session(ctx.wrap_socket(c, server_side=True), n).run()
            except Exception as e:  # noqa: BLE001 - a session's end, whatever it was
                LOG.write(f"[{n}] closed {e!r}\n")
            finally:
                c.close()
        threading.Thread(target=handle, daemon=True).start()


if __name__ == "__main__":
    serve()
