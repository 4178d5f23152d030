#!/usr/bin/env python3
"""Start-up: from ``python app.py`` to the first answered request.

Starts ``python app.py`` on a temporary SQLite file and a free port of 127.0.0.1 (once first,
unmeasured, so the database exists and its tables are up to date, as on a restart), then
``--runs`` times more on the same file: from the process's start, it asks ``GET /`` (the home
page, drawn from its template) every 10 ms until one is answered, and measures the wall time
to that answer and the CPU the server had used by then, and when it first accepted the
connection (the server's CPU read from ``/proc``, so Linux only).
Stops each server as Ctrl+C does. Contacts only 127.0.0.1; prints figures and exits 0 whatever
they are.

The server runs as Python runs by default, whatever ``PYTHONDONTWRITEBYTECODE`` this shell
sets: the unmeasured start leaves each of Banco's modules compiled in ``__pycache__``, and the
next starts read them (with the variable set and no ``__pycache__``, every start compiles every
module from its source again).

    .venv/bin/python bench/bench_start.py
    .venv/bin/python bench/bench_start.py --runs 5
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_restart import free_port, start_server, stop_server  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """The user and system CPU the process ``pid`` has used, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def listens(pid: int, port: int) -> bool:
    """Whether the process ``pid`` holds the socket listening on ``port`` (another program may
    have taken a port while the server was down: its answers must not count)."""
    sockets = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            sockets.add(os.readlink(fd))
        except OSError:
            continue
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(f":{port:04X}") and fields[3] == "0A" and f"socket:[{fields[9]}]" in sockets:
            return True
    return False


def first_answer(port: int, proc, seconds: float = 60) -> tuple[tuple[float, float], tuple[float, float]]:
    """Waits for ``GET /`` to be answered 200; returns when (monotonic) the server first accepted
    the connection, with its CPU then, and when it answered, with its CPU then."""
    deadline = time.monotonic() + seconds
    listening = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("app.py exited")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.connect()
            listening = listening or (time.monotonic(), cpu_seconds(proc.pid))
            connection.request("GET", "/", headers={"Accept-Language": "en"})
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                answered = time.monotonic(), cpu_seconds(proc.pid)
                if not listens(proc.pid, port):
                    raise SystemExit(f"another program answered on port {port}")
                return listening, answered
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.01)
    raise SystemExit("app.py did not answer")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # start_server hands this environment on

    folder = Path(tempfile.mkdtemp(prefix="banco-start-"))
    database = f"sqlite:///{folder / 'banco.sqlite3'}"
    walls, cpus, listening_cpus = [], [], []
    with (folder / "server.log").open("wb") as log:
        port = free_port()
        proc = start_server(port, database, log)  # the database made, unmeasured
        first_answer(port, proc)
        stop_server(proc)
        for run in range(args.runs):
            port = free_port()  # a new one each time: none left waiting from the run before
            started = time.monotonic()
            proc = start_server(port, database, log)
            try:
                (listened, listening_cpu), (answered, cpu) = first_answer(port, proc)
            finally:
                stop_server(proc)
            walls.append(answered - started)
            cpus.append(cpu)
            listening_cpus.append(listening_cpu)
            print(
                f"run {run + 1}: listening {listened - started:.2f} s after the start ({listening_cpu:.2f} s of "
                f"server CPU); first page answered {walls[-1]:.2f} s after the start ({cpu:.2f} s of CPU)",
                flush=True,
            )
    print(
        f"\nfrom python app.py to the first answered page: median {statistics.median(walls):.2f} s "
        f"(worst {max(walls):.2f} s), {statistics.median(cpus):.2f} s of server CPU "
        f"({statistics.median(listening_cpus):.2f} s when it began listening), over {len(walls)} runs; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
