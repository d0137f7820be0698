#!/usr/bin/env python3
"""The search index rebuilt over and over (`replay --view search`) beside searches that catch it up (new mail imported
between them), for SECONDS; then the index's integrity, a search and `verify --views`. Exit 0 when no command failed
and all is sound.

usage: Tools/search-switch-stress.py MAILSTORE WORKDIR [SECONDS] [--seed N]

WORKDIR is emptied and holds the store and the generated maildirs. Before 2026-12-06 (the switch lock,
docs/operations.md "Several mailstore processes at once") three quarters of the searches of a 240 s run failed,
most with "database disk image is malformed"."""
import argparse, os, random, shutil, sqlite3, subprocess, sys, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("mailstore"); ap.add_argument("workdir"); ap.add_argument("seconds", type=float, nargs="?", default=240)
ap.add_argument("--seed", type=int, default=1)
args = ap.parse_args()
rng = random.Random(args.seed)
work = args.workdir
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
store = work + "/store"
words = "pelican harbour quartz meridian lantern orchid saffron tundra velvet willow zephyr cobalt".split()
made = [0]
lock = threading.Lock()


def maildir(count):
    with lock:
        made[0] += 1
        n = made[0]
        bodies = [" ".join(rng.choice(words) for _ in range(400)) for _ in range(count)]
        subjects = [rng.choice(words) for _ in range(count)]
    root = f"{work}/md{n}"
    for d in ("cur", "new", "tmp"):
        os.makedirs(f"{root}/{d}")
    for i in range(count):
        k = n * 100000 + i
        with open(f"{root}/cur/{k}.m:2,S", "w") as f:
            f.write(f"Message-ID: <s{k}@example.org>\r\nFrom: a{k % 50}@example.org\r\nTo: b@example.org\r\n"
                    f"Subject: stress {k} {subjects[i]}\r\nDate: Mon, 1 Jun 2026 10:00:00 +0000\r\n\r\n{bodies[i]}\r\n")
    return root


def run(*argv):
    return subprocess.run([args.mailstore, *argv, "--store", store], capture_output=True, text=True, timeout=600)


r = run("init")
assert r.returncode == 0, r.stderr
r = run("import", "--maildir", maildir(3000))
assert r.returncode == 0, r.stderr
stop = time.time() + args.seconds
failures, counts = [], {"replay": 0, "search": 0, "import": 0}


def loop(name, argv, pause):
    while time.time() < stop:
        r = run(*argv())
        with lock:
            counts[name] += 1
            if r.returncode != 0:
                failures.append((name, r.returncode, r.stderr.strip()[-300:]))
        time.sleep(pause)


def word():
    with lock:
        return rng.choice(words)


threads = [threading.Thread(target=loop, args=("replay", lambda: ["replay", "--view", "search", "--quiet"], 0)),
           threading.Thread(target=loop, args=("import", lambda: ["import", "--maildir", maildir(150)], 0.2))]
threads += [threading.Thread(target=loop, args=("search", lambda: ["search", word(), "--limit", "3"], 0)) for _ in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
c = sqlite3.connect(store + "/views/search/index.sqlite")
integrity = c.execute("PRAGMA integrity_check").fetchone()[0]
c.close()
print(f"{counts['replay']} replays, {counts['search']} searches, {counts['import']} imports; {len(failures)} failed; "
      f"integrity: {integrity}")
for f in failures[:8]:
    print("  ", f)
after = run("search", "pelican", "--limit", "1")
print("search after:", after.returncode, after.stderr.strip()[-200:])
verify = run("verify", "--views")
print("verify --views:", verify.returncode, verify.stdout.strip()[-300:], verify.stderr.strip()[-300:])
sys.exit(0 if not failures and integrity == "ok" and after.returncode == 0 and verify.returncode == 0 else 1)
