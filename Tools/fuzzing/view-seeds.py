#!/usr/bin/env python3
"""Writes the seed corpus of fuzz-views into Tools/fuzzing/corpus/views/ from a store's views.

    python3 Tools/fuzzing/view-seeds.py STORE

Each seed is the fuzz target's selector byte (the type's place in `ViewValuesFuzz.decoders`) followed by one value
as a view stores it, read with `mdb_dump` (lmdb-utils) from STORE/views/gen-N, at most 4 values per table. The
committed seeds came from a store importing ../shared/corpora/list-mbox and notmuch's test mail, with one thread
archived, starred and drafted. Tables holding keys only (Present) or plain strings and integers are left out.
"""
import os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "fuzz-views", "ViewValuesFuzz.swift")
OUT = os.path.join(HERE, "corpus", "views")
TABLES = {  # type -> the tables (view.table) that store it
    "ThreadRow": ["threads.rows"], "ThreadRecord": ["threads.threads"], "EmailRecord": ["threads.emails"],
    "MessageInfo": ["unread.infos"], "UnreadEmail": ["unread.emails"], "FolderEntry": ["folders.list"],
    "FolderRole": ["threads.folders", "contacts.folders"], "Contact": ["contacts.people"], "ContactTop": ["contacts.top"],
    "ContactRank": ["contacts.prefix"], "NotificationRecord": ["notifications.decisions"],
    "NotificationSettings": ["notifications.settings"], "PendingWithdrawal": ["notifications.withdraw"],
    "SyncedCopy": ["sync.copies"], "FolderSyncState": ["sync.folders"], "CopyLocation": ["sync.emails"],
    "ActionRecord": ["actions.items"], "DraftRecord": ["drafts.items"], "DraftServerState": ["drafts.server"],
    "OutboxItem": ["outbox.items"], "AccountRecord": ["accounts.list"], "DiscoveryRecord": ["accounts.discovered"],
    "DedupCopy": ["dedup.messages"], "ContactTopOffers": ["contacts.top", "contacts.words"],
}


def main():
    store = sys.argv[1]
    views = os.path.join(store, "views")
    gens = sorted((d for d in os.listdir(views) if d.startswith("gen-")), key=lambda d: int(d[4:]))
    env = os.path.join(views, gens[-1])
    order = re.findall(r'\("(\w+)", (?:roundTrip|offers)', open(SOURCE).read())
    os.makedirs(OUT, exist_ok=True)
    for selector, name in enumerate(order):
        for table in TABLES.get(name, []):
            dump = subprocess.run(["mdb_dump", "-s", table, env], capture_output=True, text=True)
            if dump.returncode != 0:
                continue
            lines = dump.stdout.split("HEADER=END\n", 1)[-1].splitlines()
            values = [l.strip() for l in lines[1::2] if l.startswith(" ")][:4]
            for i, v in enumerate(values):
                with open(os.path.join(OUT, f"{name}-{table}-{i}"), "wb") as f:
                    f.write(bytes([selector]) + bytes.fromhex(v))
        # The empty value: most types refuse it, and the fuzzer starts from there where a store had none.
        with open(os.path.join(OUT, f"{name}-empty"), "wb") as f:
            f.write(bytes([selector]))


if __name__ == "__main__":
    main()
