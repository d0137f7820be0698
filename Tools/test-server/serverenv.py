"""Shared by the test-server scripts: reading the env files they write (DIR/env, DIR/smtp-env: KEY=VALUE
lines), and the smoke scripts' check tally."""


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                env[k] = v
    return env


_tally = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    """Counts and prints one check."""
    if ok:
        _tally["passed"] += 1
        print(f"ok   {name}")
    else:
        _tally["failed"] += 1
        print(f"FAIL {name}" + (f": {detail}" if detail else ""))


def run_check(name, fn):
    """Runs fn(); it returns (ok, detail) or raises (a failure)."""
    try:
        ok, detail = fn()
    except Exception as error:  # noqa: BLE001 - a smoke test reports every failure and goes on
        ok, detail = False, f"{type(error).__name__}: {error}"
    check(name, ok, detail)


def summary(script):
    """Prints `SCRIPT: N passed, M failed` and returns the exit status (1 when anything failed)."""
    print(f"{script}: {_tally['passed']} passed, {_tally['failed']} failed")
    return 1 if _tally["failed"] else 0
