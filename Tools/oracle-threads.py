#!/usr/bin/env python3
"""Compares mailstore's threading with notmuch's on real corpora.

    Tools/oracle-threads.py MAILSTORE_BINARY CORPORA_DIR

For every corpus under CORPORA_DIR (a Maildir tree, or a folder of mbox files, which is converted to a
Maildir for notmuch), imports it into a fresh mailstore store as its own account, lists every thread of
that account (all folders) with `mailstore project --view threads --all --json`, runs Debian's `notmuch new`
on the same files and reads its threads (`notmuch search --output=threads`, then each thread's messages),
and compares the two partitions of Message-IDs into threads. Prints each difference and a closing
'N passed, M failed' line (one check per corpus); exits 1 on any difference.
"""
import json
import mailbox
import os
import shutil
import subprocess
import sys
import tempfile


def sh(*args, env=None):
    return subprocess.run(args, capture_output=True, check=True, text=True, env=env).stdout


def mailstore_partition(binary, store, account):
    folders = set()
    for line in sh(binary, "log", "--type", "FolderDiscovered", "--account", account, "--json", "--store", store).splitlines():
        folders.add(json.loads(line)["payload"]["folder"])
    threads = {}
    for folder in sorted(folders):
        page = json.loads(sh(binary, "project", "--view", "threads", "--account", account, "--folder", folder,
                             "--all", "--json", "--store", store))
        for t in page["threads"]:
            threads[t["id"]] = frozenset(t["messageIds"])
    return {ids for ids in threads.values() if ids}


def notmuch_partition(maildir, work):
    cfg = os.path.join(work, "notmuch-config")
    with open(cfg, "w") as f:
        f.write(f"[database]\npath={maildir}\n[user]\nname=Oracle\nprimary_email=oracle@example.com\n"
                "[new]\ntags=inbox;\n[maildir]\nsynchronize_flags=false\n")
    env = dict(os.environ, NOTMUCH_CONFIG=cfg)
    sh("notmuch", "new", "--quiet", env=env)
    parts = set()
    for tid in sh("notmuch", "search", "--output=threads", "*", env=env).split():
        ids = [m[3:] if m.startswith("id:") else m
               for m in sh("notmuch", "search", "--output=messages", tid, env=env).split()]
        # notmuch invents ids for messages without one; mailstore lists only real Message-IDs.
        ids = frozenset(i for i in ids if not i.startswith("notmuch-sha1-"))
        if ids:
            parts.add(ids)
    return parts


def main():
    binary, corpora = os.path.abspath(sys.argv[1]), sys.argv[2]
    if shutil.which("notmuch") is None:
        print("oracle-threads: notmuch is not installed (apt-get install notmuch)")
        sys.exit(1)
    work = tempfile.mkdtemp(prefix="mailstore-threads-")
    store = os.path.join(work, "store")
    sh(binary, "init", "--store", store)
    passed = failed = 0
    for entry in sorted(os.listdir(corpora)):
        src = os.path.join(corpora, entry)
        if not os.path.isdir(src):
            continue
        copy = os.path.join(work, entry)
        mboxes = [f for f in sorted(os.listdir(src)) if f.endswith(".mbox")]
        if mboxes:
            md = mailbox.Maildir(copy, create=True)
            for f in mboxes:
                for msg in mailbox.mbox(os.path.join(src, f), create=False):
                    md.add(msg)
                sh(binary, "import", "--mbox", os.path.join(src, f), "--account", entry, "--quiet", "--store", store)
        else:
            shutil.copytree(src, copy)
            os.system(f"chmod -R u+w '{copy}'")
            sh(binary, "import", "--maildir", src, "--account", entry, "--quiet", "--store", store)
        ours = mailstore_partition(binary, store, entry)
        theirs = notmuch_partition(copy, work)
        if ours == theirs:
            passed += 1
            print(f"ok {entry}: {len(ours)} threads over {sum(len(t) for t in ours)} messages agree with notmuch")
        else:
            failed += 1
            print(f"FAIL {entry}: mailstore {len(ours)} threads, notmuch {len(theirs)}")
            for t in sorted(ours - theirs, key=len)[:10]:
                print("  only mailstore:", sorted(t))
            for t in sorted(theirs - ours, key=len)[:10]:
                print("  only notmuch:  ", sorted(t))
    shutil.rmtree(work, ignore_errors=True)
    print(f"oracle-threads: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
