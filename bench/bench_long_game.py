#!/usr/bin/env python3
"""Benchmark of the pages that read a whole journal, on one long game.

Opens a game of four players (``python app.py`` on a temporary SQLite database, a free port on
127.0.0.1), stops the server, and lengthens the game's journal to ``--entries`` payments
written straight into its tables (``tests.longgame.lengthen``: as the journal writes a
transfer, without playing each one). Then, in ``--rounds`` rounds, each code tree (this one,
and with ``--before DIR`` another checkout of Banco, e.g. ``git archive main | tar -x -C DIR``)
in turn serves the same database file from a fresh process, and one client fetches:

- the results page ``/g/<id>/results`` (the count and the chart of worth), as a player,
  ``--repeats`` times: the first fetch (the process's first read of the game) and the best;
- its CSV ``/g/<id>/results.csv``, and the game file ``/api/v1/games/<id>/export`` (as the
  banker), ``--repeats`` times, the best;

reporting wall time, bytes (uncompressed) and the server's peak memory (``VmHWM`` from
/proc) before and after each address's fetches, and whether every game file served was the
same bytes (``exported_at`` aside). The trees take turns round by round on one machine in
one sitting, so a comparison between them shares the machine's moods.

A benchmark, not a test: it prints figures and exits 0 whatever they are. Only 127.0.0.1 is
contacted; every loop is bounded in count, every request in time; each server is stopped.

    .venv/bin/python bench/bench_long_game.py --entries 100000 --rounds 3 --before /tmp/banco-main
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # tests.longgame
from bench_pages import session_cookie
from bench_server import HOST, Api, Server, new_game

from tests.longgame import lengthen

TIMEOUT = 300.0  # seconds any one request may take before the run gives up on it


# The one part of a game file that differs from one export to the next.
EXPORTED_AT = re.compile(rb'"exported_at":"[^"]*"')


def fetch(port: int, path: str, headers: dict[str, str]) -> tuple[float, int, int, str]:
    """(seconds, bytes of the body, status, SHA-256 of the body with ``exported_at`` blanked) of
    one GET, the body read in pieces, counted and digested, never held whole."""
    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
    try:
        start = time.perf_counter()
        conn.request("GET", path, headers={"Accept-Language": "en", **headers})
        response = conn.getresponse()
        size, digest, first = 0, hashlib.sha256(), True
        while piece := response.read(1 << 16):
            size += len(piece)
            digest.update(EXPORTED_AT.sub(b'"exported_at":""', piece, count=1) if first else piece)
            first = False
        return time.perf_counter() - start, size, response.status, digest.hexdigest()
    finally:
        conn.close()


def peak_memory(pid: int) -> int:
    """The server process's peak resident memory so far, in bytes (``VmHWM``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


def build(workdir: Path, entries: int) -> tuple[str, dict]:
    """The database file of one game of ``entries``-odd entries, and the game (ids and tokens)."""
    server = Server(workdir, None, None, None)
    server.start()
    try:
        api = Api(server.port)
        game = new_game(api, ["Anna", "Bruno", "Carla", "Dario"])
        api.close()
    finally:
        server.stop()
    engine = create_engine(server.database_url)
    with engine.begin() as connection:
        game["version"] = lengthen(connection, game["id"], entries - game["version"])
    engine.dispose()
    return server.database_url, game


def measure(workdir: Path, tree: Path, database_url: str, game: dict, repeats: int) -> dict:
    """One fresh server of ``tree`` on the database, and the figures of each address."""
    server = Server(workdir, database_url, None, None, script=str(tree / "app.py"))
    server.start(timeout=60)
    try:
        secret = server.env["SECRET_KEY"]
        gid = game["id"]
        player = {"Cookie": "session=" + session_cookie(secret, {gid: {"p": game["players"][0]["token"]}})}
        banker = {"Authorization": f"Bearer {game['banker_token']}"}
        figures: dict = {}
        pages = [
            ("results", f"/g/{gid}/results", player),
            ("csv", f"/g/{gid}/results.csv", player),
            ("export", f"/api/v1/games/{gid}/export", banker),
        ]
        for name, path, headers in pages:
            before = peak_memory(server.proc.pid)
            runs = []
            for _ in range(repeats):
                seconds, size, status, digest = fetch(server.port, path, headers)
                if status != 200:
                    raise RuntimeError(f"{path}: {status}\n{server.log_tail()}")
                runs.append((seconds, size, digest))
            figures[name] = {
                "first": runs[0][0],
                "best": min(r[0] for r in runs),
                "bytes": runs[-1][1],
                "digest": runs[-1][2],
                "peak_before": before,
                "peak_after": peak_memory(server.proc.pid),
            }
        return figures
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=100_000, help="entries in the game's journal")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; in each, every tree serves in turn")
    parser.add_argument("--repeats", type=int, default=3, help="fetches of each address per server")
    parser.add_argument("--before", type=Path, help="another Banco tree to compare, served in alternate turns")
    args = parser.parse_args()
    this = Path(__file__).resolve().parent.parent
    trees = [("before", args.before.resolve()), ("after", this)] if args.before else [("this", this)]
    with tempfile.TemporaryDirectory() as name:
        workdir = Path(name)
        started = time.perf_counter()
        database_url, game = build(workdir, args.entries)
        print(f"a game of {game['version']} entries built in {time.perf_counter() - started:.1f} s")
        results: dict[str, list[dict]] = {label: [] for label, _ in trees}
        for round_ in range(1, args.rounds + 1):
            for label, tree in trees:
                figures = measure(workdir, tree, database_url, game, args.repeats)
                results[label].append(figures)
                print(
                    f"round {round_} {label}: "
                    + ", ".join(f"{k} {v['best'] * 1000:.0f} ms" for k, v in figures.items())
                )
        print()
        print(f"{'tree':8} {'address':8} {'first ms':>10} {'best ms':>10} {'bytes':>12} {'peak MB before→after':>22}")
        for label, _ in trees:
            for page in ("results", "csv", "export"):
                rows = [r[page] for r in results[label]]
                first = statistics.median(r["first"] for r in rows) * 1000
                best = min(r["best"] for r in rows) * 1000
                peak = (
                    f"{statistics.median(r['peak_before'] for r in rows) / 2**20:.0f}"
                    f"→{statistics.median(r['peak_after'] for r in rows) / 2**20:.0f}"
                )
                print(f"{label:8} {page:8} {first:10.0f} {best:10.0f} {rows[-1]['bytes']:12,d} {peak:>22}")
        files = {r["export"]["digest"] for label, _ in trees for r in results[label]}
        print(f"\ngame files (exported_at aside): {'all the same bytes' if len(files) == 1 else 'DIFFERENT'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
