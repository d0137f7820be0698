#!/usr/bin/env python3
"""Checks that views folded incrementally equal views rebuilt from the log, on a large generated corpus.

    Tools/check-incremental.py BIN_DIR [MESSAGES] [SEED]

Generates a Maildir with BIN_DIR/gen-corpus (default 100,000 messages), then lets it "arrive" in random
batches: moves a random number of messages (50 to 5,000) into a staging Maildir, imports it, and folds the
views (`mailstore project`) and the search index (`mailstore search`), again and again until every message is in.
Finally `mailstore verify --views` rebuilds every view and the search index from the log in a scratch folder and
compares them with those built incrementally.
Prints a closing 'N passed, M failed' line.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile


def main():
    bindir = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    work = tempfile.mkdtemp(prefix="mailstore-incremental-")
    src, stage, store = os.path.join(work, "src"), os.path.join(work, "stage"), os.path.join(work, "store")
    ms = os.path.join(bindir, "mailstore")
    subprocess.run([os.path.join(bindir, "gen-corpus"), "--messages", str(n), "--out", src, "--seed", str(seed), "--quiet"], check=True)
    files = []
    for d, _, names in os.walk(src):
        for f in names:
            rel = os.path.relpath(os.path.join(d, f), src)
            if os.path.basename(d) in ("cur", "new"):
                files.append(rel)
    for d, dirs, _ in os.walk(src):
        for x in dirs:
            os.makedirs(os.path.join(stage, os.path.relpath(os.path.join(d, x), src)), exist_ok=True)
    rng = random.Random(seed)
    rng.shuffle(files)
    subprocess.run([ms, "init", "--store", store], check=True, capture_output=True)
    rounds = 0
    while files:
        k = min(len(files), rng.randint(50, 5000))
        for rel in files[:k]:
            os.rename(os.path.join(src, rel), os.path.join(stage, rel))
        files = files[k:]
        subprocess.run([ms, "import", "--maildir", stage, "--quiet", "--store", store], check=True)
        subprocess.run([ms, "project", "--view", "threads", "--limit", "1", "--store", store], check=True, capture_output=True)
        # The search index catches up on a search: folded batch by batch too, not only built by the verify below.
        subprocess.run([ms, "search", "hello", "--limit", "1", "--store", store], check=True, capture_output=True)
        rounds += 1
    r = subprocess.run([ms, "verify", "--views", "--quiet", "--store", store], capture_output=True, text=True)
    print(r.stdout.strip() or r.stderr.strip())
    ok = r.returncode == 0
    print(f"{n} messages arrived in {rounds} random batches, views folded after each")
    shutil.rmtree(work, ignore_errors=True)
    print(f"check-incremental: {1 if ok else 0} passed, {0 if ok else 1} failed")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
