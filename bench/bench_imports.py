#!/usr/bin/env python3
"""Benchmark of a burst of large game files sent to the real server at once, and a phone paying meanwhile.

Starts ``python app.py`` (``bench_server.Server``: a temporary SQLite database, a free port on
127.0.0.1), notes the server's resident memory (RSS), opens a table of two where one phone pays
the other every ``--pay-every-ms``, then sends ``--files`` game files at once, each on its own
connection: ``--valid`` of them a real game's file (``--file``: an exported Niente è come sembra
game of six, the densest edition, near the 32 MB limit; played through the API and written there
first when the file does not exist yet), the others as large and made to hurt (``[{}, {}, ...]``
as the journal, which the server must refuse). Prints the server's peak RSS during the burst,
its RSS ``--idle`` seconds after the last answer, how many files were answered 201, 400 and 503,
and the paying phone's latency (p50, p95, the worst) while the burst lasted.

This is a benchmark, not a test: it prints figures and exits 0 whatever they are. Only
127.0.0.1 is contacted, every loop is bounded in count and in time, and the server is always
stopped (by its process id).

    .venv/bin/python bench/bench_imports.py --file /tmp/banco-niente-2450.json
    .venv/bin/python bench/bench_imports.py --file /tmp/banco-niente-2450.json --app /elsewhere/app.py
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import HOST, Api, Server, ms, percentile

SEATS = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")
IMPORT_PATH = "/api/v1/games/import"


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """The process's resident memory (``VmRSS``) or its peak (``VmHWM``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} for process {pid}")


def build_file(port: int, payments: int, path: Path) -> None:
    """A real game's file: Niente è come sembra with six players, ``payments`` payments of 10
    between them (each entry writes the notes of every hand), exported by its banker."""
    api = Api(port, timeout=120)
    status, made, *_ = api.call(
        "POST", "/api/v1/games", {"edition": "niente-e-come-sembra", "players": list(SEATS), "seed": 3}
    )
    if status != 201:
        raise RuntimeError(f"opening the game failed: {status} {made}")
    tokens = {p["name"]: p["token"] for p in made["players"]}
    ids = {p["name"]: p["id"] for p in made["players"]}
    api.call(
        "POST", f"/api/v1/games/{made['id']}/actions", {"type": "start", "key": uuid.uuid4().hex}, made["banker_token"]
    )
    rng = random.Random(1)
    for done in range(payments):
        payer, payee = rng.sample(SEATS, 2)
        action = {"type": "transfer", "to": ids[payee], "amount": 10, "key": uuid.uuid4().hex}
        status, body, *_ = api.call("POST", f"/api/v1/games/{made['id']}/actions", action, tokens[payer])
        if status != 200:
            raise RuntimeError(f"payment {done} failed: {status} {body}")
    status, data, *_ = api.call("GET", f"/api/v1/games/{made['id']}/export", token=made["banker_token"])
    if status != 200:
        raise RuntimeError(f"the export failed: {status}")
    api.close()
    path.write_bytes(json.dumps(data, separators=(",", ":")).encode())


def hostile(size: int) -> bytes:
    """A body of ``size`` bytes shaped as a game file whose journal is ``{}`` again and again."""
    head = (
        b'{"format":"banco-game","format_version":1,"exported_at":"2026-12-07T20:30:00Z","game":{},'
        b'"edition":{},"seats":[],"state":{},"journal":['
    )
    count = (size - len(head) - 2) // 3
    return head + b",".join([b"{}"] * count) + b"]}"


def post(port: int, body: bytes, answers: list, lock: threading.Lock, timeout: float) -> None:
    started = time.perf_counter()
    try:
        conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
        conn.request("POST", IMPORT_PATH, body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        status = response.status
        conn.close()
    except (http.client.HTTPException, OSError) as error:
        status = type(error).__name__
    with lock:
        answers.append((status, time.perf_counter() - started))


class Phone(threading.Thread):
    """Pays the other seat 1 every ``every`` seconds until told to stop (or ``most`` payments)."""

    def __init__(self, port: int, every: float, most: int = 5000) -> None:
        super().__init__(daemon=True)
        self.api = Api(port, timeout=60)
        status, made, *_ = self.api.call(
            "POST", "/api/v1/games", {"edition": "classic-it", "players": ["Anna", "Bruno"]}
        )
        if status != 201:
            raise RuntimeError(f"opening the phone's game failed: {status} {made}")
        self.game, self.token = made["id"], made["players"][0]["token"]
        self.to = made["players"][1]["id"]
        self.api.call(
            "POST",
            f"/api/v1/games/{self.game}/actions",
            {"type": "start", "key": uuid.uuid4().hex},
            made["banker_token"],
        )
        self.every, self.most = every, most
        self.stop = threading.Event()
        self.latencies: list[float] = []
        self.failed = 0

    def run(self) -> None:
        for _ in range(self.most):
            if self.stop.is_set():
                break
            action = {"type": "transfer", "to": self.to, "amount": 1, "key": uuid.uuid4().hex}
            try:
                status, _, took, *_ = self.api.call("POST", f"/api/v1/games/{self.game}/actions", action, self.token)
            except (http.client.HTTPException, OSError):
                status, took = 0, 0.0
            if status == 200:
                self.latencies.append(took)
            else:
                self.failed += 1
            self.stop.wait(max(0.0, self.every - took))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=Path(tempfile.gettempdir()) / "banco-bench-game-file.json")
    parser.add_argument("--payments", type=int, default=2450, help="payments in the file, when it is built")
    parser.add_argument("--files", type=int, default=12, help="game files sent at once")
    parser.add_argument("--valid", type=int, default=6, help="of them, real games' files (the rest made to hurt)")
    parser.add_argument("--pay-every-ms", type=int, default=200)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds after the burst before RSS is read again")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds each file may take at most")
    parser.add_argument("--app", default="app.py", help="the server's script (another checkout's, to compare)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="banco-bench-imports-") as folder:
        server = Server(Path(folder), None, None, None, script=args.app)
        try:
            server.start()
            if not args.file.exists():
                print(f"building {args.file} ({args.payments} payments)...", flush=True)
                build_file(server.port, args.payments, args.file)
            valid = args.file.read_bytes()
            bodies = [valid if i % 2 == 0 and i // 2 < args.valid else None for i in range(args.files)]
            bad = hostile(len(valid))
            bodies = [b if b is not None else bad for b in bodies]
            valid_sent = sum(1 for b in bodies if b is valid)
            pid = server.proc.pid
            phone = Phone(server.port, args.pay_every_ms / 1000)
            time.sleep(1.0)
            start_rss = rss_mb(pid)
            peak = start_rss
            answers: list = []
            lock = threading.Lock()
            senders = [
                threading.Thread(target=post, args=(server.port, body, answers, lock, args.timeout), daemon=True)
                for body in bodies
            ]
            phone.start()
            began = time.perf_counter()
            for sender in senders:
                sender.start()
            deadline = time.monotonic() + args.timeout + 30
            while any(s.is_alive() for s in senders) and time.monotonic() < deadline:
                peak = max(peak, rss_mb(pid))
                time.sleep(0.05)
            burst = time.perf_counter() - began
            phone.stop.set()
            phone.join(30)
            peak = max(peak, rss_mb(pid, "VmHWM"))
            time.sleep(args.idle)
            after = rss_mb(pid)
            anonymous, files = rss_mb(pid, "RssAnon"), rss_mb(pid, "RssFile")
            counts: dict = {}
            for status, _ in answers:
                counts[status] = counts.get(status, 0) + 1
            lat = phone.latencies
            print(
                f"server: {args.app}; file {len(valid) / 1e6:.1f} MB ({valid_sent} real, {args.files - valid_sent} made to hurt)"
            )
            print(
                f"RSS at start {start_rss:.0f} MB, peak {peak:.0f} MB, {args.idle:.0f} s after {after:.0f} MB "
                f"({anonymous:.0f} MB the process's own, {files:.0f} MB of files mapped: the database's pages)"
            )
            print(
                f"imports answered in {burst:.1f} s: "
                + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=str))
            )
            print(
                f"phone paying every {args.pay_every_ms} ms: {len(lat)} payments, {phone.failed} failed, "
                f"p50 {ms(percentile(lat, 50))} ms, p95 {ms(percentile(lat, 95))} ms, worst {ms(max(lat) if lat else None)} ms"
            )
            server.print_warnings()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
