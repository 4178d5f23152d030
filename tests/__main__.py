"""The whole suite, as the README and CI run it: ``python -m tests``.

Runs pytest once against SQLite and once against PostgreSQL. PostgreSQL is the server in
``TEST_DATABASE_URL``, else one answering on 127.0.0.1:5432 (a ``banco_test`` database is
created there). Without a PostgreSQL server the second run is skipped with a notice, except
in CI (``CI=true``), where it is required. Extra arguments go to pytest.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/banco_test"


def postgres_url() -> str | None:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        return url
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
    except OSError:
        return None
    import psycopg
    try:
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = 'banco_test'").fetchone() is None:
                conn.execute("CREATE DATABASE banco_test")
    except psycopg.Error as error:
        print(f"PostgreSQL at 127.0.0.1:5432 is not usable: {error}", flush=True)
        return None
    return DEFAULT_PG


def run(label: str, env: dict, args: list[str]) -> int:
    print(f"\n=== Banco tests on {label} ===", flush=True)
    return subprocess.call([sys.executable, "-m", "pytest", *args], env=env)


def main() -> int:
    args = sys.argv[1:] or ["-q"]
    base = {k: v for k, v in os.environ.items() if k != "TEST_DATABASE_URL"}
    failed = run("SQLite", base, args) != 0
    url = postgres_url()
    if url is None:
        if os.environ.get("CI") == "true":
            print("CI needs PostgreSQL and none answers on 127.0.0.1:5432", flush=True)
            return 1
        print("\nPostgreSQL not found: the PostgreSQL run is skipped (set TEST_DATABASE_URL to run it).")
    else:
        # The printables and pure-rule tests touch no database: once is enough.
        pg_args = [*args, "--ignore=tests/core", "--ignore=tests/printables"]
        failed |= run("PostgreSQL", {**base, "TEST_DATABASE_URL": url}, pg_args) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
