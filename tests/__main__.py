"""The whole suite, as the README and CI run it: ``python -m tests``.

First the build's checks (``checks``: ruff's lint and format check and mypy's type check,
configured in ``pyproject.toml``); a failing check fails the run, and the tests still run so that one
sitting shows everything.

Runs pytest on SQLite, every test but the API's fuzzing (``fuzz``, which goes to PostgreSQL when
there is one), and beside it on PostgreSQL the tests marked ``database``, those whose behaviour
depends on the database (a ``pytestmark`` in the module says which, and
why; docs/testing.md says why the others need one run). The two runs share nothing but the
machine: the PostgreSQL run, one process, starts first and goes on beside the checks and the
SQLite run, whose files are shared among one pytest-xdist worker per core (``spread``); its
report follows theirs.
PostgreSQL is the server in ``TEST_DATABASE_URL``, else one answering on 127.0.0.1:5432. Each
run creates a database of its own there (``banco_test_<random>``) and drops it at the end, so
two runs on the same server never touch each other's tables. Without a PostgreSQL server the
second run is skipped with a notice, except in CI (``CI=true``), where it is required. Extra
arguments go to both pytest runs; a ``-m`` among them narrows the PostgreSQL run further.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile

LOCAL_PG = "postgresql://postgres@127.0.0.1:5432/postgres"
NONE_CHOSEN = 5  # pytest's exit code when no test was chosen


def server_url() -> str | None:
    """A URL of the PostgreSQL server to test on (any database of it), or ``None``."""
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        return url
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
    except OSError:
        return None
    return LOCAL_PG


def _with_database(url: str, name: str) -> str:
    base, _, _old = url.rpartition("/")
    return f"{base}/{name}"


def create_run_database(url: str) -> str | None:
    """Creates an empty database for this run on the server of ``url``; returns its URL."""
    import psycopg

    name = f"banco_test_{secrets.token_hex(4)}"
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        print(f"PostgreSQL at {url} is not usable: {error}", flush=True)
        return None
    return _with_database(url, name)


def drop_run_database(admin_url: str, run_url: str) -> None:
    import psycopg

    name = run_url.rpartition("/")[2]
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


CHECKS = (
    ("ruff lint", ["-m", "ruff", "check", "."]),
    ("ruff format", ["-m", "ruff", "format", "--check", "."]),
    ("mypy", ["-m", "mypy"]),  # the files and the strictness: pyproject.toml
)


def checks() -> bool:
    """Runs the build's static checks from the repository's root; True when all pass."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    passed = True
    for label, command in CHECKS:
        print(f"\n=== {label} ===", flush=True)
        passed &= subprocess.call([sys.executable, *command], cwd=root) == 0
    return passed


def run(label: str, env: dict, args: list[str]) -> int:
    print(f"\n=== Banco tests on {label} ===", flush=True)
    return subprocess.call([sys.executable, "-m", "pytest", *args], env=env)


def spread(args: list[str]) -> list[str]:
    """The SQLite run's arguments: its test files shared among one pytest-xdist worker per core
    (``--dist loadfile``: a file's tests stay together in one worker, so a module's shared app or
    browser is made once), unless ``args`` choose the workers themselves (``-n``, ``-p no:xdist``)."""
    if any(a.startswith(("-n", "--numprocesses")) for a in args) or "no:xdist" in args:
        return args
    return ["-n", str(os.cpu_count() or 1), "--dist", "loadfile", *args]


def narrowed(args: list[str], chosen: str) -> list[str]:
    """``args`` with their tests narrowed to those the marker expression ``chosen`` picks too."""
    args = list(args)
    if "-m" in args[:-1]:
        at = args.index("-m")
        chosen = f"({chosen}) and ({args[at + 1]})"
        del args[at : at + 2]
    return [*args, "-m", chosen]


def on_sqlite(args: list[str], beside: bool) -> list[str]:
    """The SQLite run's arguments: every test ``args`` pick, but the fuzzing (marked ``fuzz``)
    when the PostgreSQL run goes ``beside`` it and fuzzes there: its cases go through the
    same code on both databases, and what differs in storing odd input (NUL, lengths, numbers
    past 64 bits) is checked on both by ``tests/api/test_hardening.py``."""
    return spread(narrowed(args, "not fuzz") if beside else args)


def on_postgresql(args: list[str]) -> list[str]:
    """The PostgreSQL run's arguments: the tests marked ``database`` among those ``args`` pick."""
    return narrowed(args, "database")


def main() -> int:
    args = sys.argv[1:] or ["-q"]
    base = {k: v for k, v in os.environ.items() if k != "TEST_DATABASE_URL"}
    admin = server_url()
    url = create_run_database(admin) if admin else None
    beside = None
    try:
        with tempfile.TemporaryFile() as report:
            if url is not None:
                label = f"PostgreSQL ({url.rpartition('/')[2]})"
                print(
                    f"=== Banco tests on {label}: going beside the checks and the SQLite run, reported after them",
                    flush=True,
                )
                env = {**base, "TEST_DATABASE_URL": url}
                command = [sys.executable, "-m", "pytest", *on_postgresql(args)]
                beside = subprocess.Popen(command, env=env, stdout=report, stderr=subprocess.STDOUT)
            failed = not checks()
            failed |= run("SQLite", base, on_sqlite(args, beside is not None)) != 0
            if beside is not None:
                code = beside.wait()
                print(f"\n=== Banco tests on {label} ===", flush=True)
                report.seek(0)
                sys.stdout.buffer.write(report.read())
                sys.stdout.flush()
                failed |= code not in (0, NONE_CHOSEN)  # paths with no database test among them: nothing to run
    finally:
        if beside is not None and beside.poll() is None:  # the SQLite run was interrupted
            beside.kill()
            beside.wait()
        if url is not None:
            drop_run_database(admin, url)
    if url is None:
        if os.environ.get("CI") == "true":
            print("CI needs PostgreSQL and none answers on 127.0.0.1:5432", flush=True)
            return 1
        print("\nPostgreSQL not found: the PostgreSQL run is skipped (set TEST_DATABASE_URL to run it).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
