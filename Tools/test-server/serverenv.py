"""Reads the env files the test-server scripts write (DIR/env, DIR/smtp-env): KEY=VALUE lines."""


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                env[k] = v
    return env
