#!/usr/bin/env python3
"""Benchmark of what the server spends on a request before the app's own work.

Starts ``python app.py`` (a temporary SQLite database, a free port on 127.0.0.1) and sends,
one after the other on one keep-alive connection, ``--requests`` GETs of two addresses whose
answer costs the app next to nothing: the editions list of the API and a static file. Reported
per address: the server process's CPU time (user + system, from /proc) and the wall time per
request, the best of ``--repeats`` runs (the machine's other work only ever adds). What is left
is the serving itself: parsing the request on the loop, handing it to a thread, Flask's
request cycle, and writing the answer.

A benchmark, not a test: it prints figures and exits 0 whatever they are. Only 127.0.0.1 is
contacted; every loop is bounded; the server is always stopped.

    /work/venv/bin/python bench/bench_requests.py
"""

from __future__ import annotations

import argparse
import http.client
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pages import server_cpu
from bench_server import HOST, Server

ADDRESSES = ("/api/v1/editions", "/static/favicon.svg")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="requests of each address per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each address; the best is reported")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(Path(workdir), None, None, None)
        server.start()
        try:
            conn = http.client.HTTPConnection(HOST, server.port, timeout=30)

            def get(path: str) -> None:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    raise RuntimeError(f"{path} answered {response.status}")

            print(f"one keep-alive connection, {args.requests} GETs a run, best of {args.repeats} runs:")
            for path in ADDRESSES:
                for _ in range(min(200, args.requests)):
                    get(path)  # warm: the app's first requests load templates and editions
                runs = []
                for _ in range(args.repeats):
                    cpu, started = server_cpu(server.proc.pid), time.perf_counter()
                    for _ in range(args.requests):
                        get(path)
                    runs.append((server_cpu(server.proc.pid) - cpu, time.perf_counter() - started))
                cpu = 1000 * min(r[0] for r in runs) / args.requests
                wall = 1000 * min(r[1] for r in runs) / args.requests
                print(f"  {path}: server CPU {cpu:.2f} ms, wall {wall:.2f} ms per request")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
