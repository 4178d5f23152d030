#!/usr/bin/env python3
"""Benchmark of a club evening: 50 tables, 400 phones, several worker processes, PostgreSQL.

Creates a PostgreSQL database of its own on the server of ``--database-server`` (default
127.0.0.1:5432, user postgres), starts ``python app.py`` with ``BANCO_WORKERS=--workers`` on
it (a free port on 127.0.0.1), opens ``--tables`` games of ``--seats`` players, and gives each
player a phone: its own loopback address (127.0.x.y), its own keep-alive connection for its
actions and its live stream (``GET /api/v1/games/{id}/stream``), held as a browser's
EventSource holds it (reconnecting with ``Last-Event-ID`` when the server ends it each
minute). For ``--duration`` seconds:

- **pace:** each table makes one action every ``--table-seconds`` on average (exponential
  gaps), by one of its phones chosen at random: a payment of 1-20 to another player;
- **bursts:** every ``--burst-seconds`` a table chosen at random has all its phones pay at
  the same instant (the bids of an auction).

Reported: actions (answered, refused, errors), throughput, action latency (send to whole
answer) p50/p95/p99 for the pace and for the bursts apart; delivery (send to the event's
arrival on each *other* phone of the table, the newest version counting for the older ones
it covers) p50/p95/p99, pairs, missed, and the share delivered across processes: the answer
of each request names its worker (``X-Banco-Worker``), so a pair is *across* when the phone
that acted was answered by another worker than the one holding the receiving phone's stream;
streams held during play (counted twice a second), refused, reconnections; how late the
client itself sent (if it cannot keep pace, the figures say so). The database is dropped and
the server stopped whatever happens.

A club as a host runs it (``docs/hosting.md``): ``--servers N`` starts N such servers as separate
hosts would be (each its own port, the same database and ``SECRET_KEY``); the devices go to them
in turn, or, with ``--proxy``, all to nginx in front of them, running the hosting guide's own
upstream and locations (``docs/hosting/nginx/``, on plain http: see ``Proxy``), the servers
trusting it (``BANCO_TRUSTED_PROXIES``) so each phone still counts as itself. ``--screens``
adds the table screen and the Bank's page to each table: pages that only listen.
``--ramp 100,200,300`` plays one evening after another on the same servers, each with more
tables, and stops at the first whose delivery p95 passes ``--target-ms`` (or whose streams are
refused), printing the most tables held.

A benchmark, not a test: it exits 0 whatever the figures (non-zero only when it cannot run).
Only 127.0.0.0/8 is contacted; every loop is bounded in count and time.

    .venv/bin/python bench/bench_club.py                      # 2 workers, 60 s
    .venv/bin/python bench/bench_club.py --workers 1 --duration 60
    .venv/bin/python bench/bench_club.py --servers 2 --workers 2 --proxy --screens 2 \
        --burst-seconds 1000 --duration 30 --ramp 50,100,150,200,250,300
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import os
import platform
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # the proxy's files: tests.hosting
from bench_server import HOST, Api, Server, Stream, StreamPool, free_port, ms, new_game, now, percentile

from tests.hosting.failover import NGINX_SITE, NGINX_SNIPPET, nginx_binary, stop_process

WORKER = re.compile(rb"\r\nx-banco-worker: *(\d+)", re.IGNORECASE)


def phone_address(i: int) -> str:
    """Phone ``i``'s own loopback address: 127.0.1.1, 127.0.1.2, ... (all loopback on Linux)."""
    return f"127.0.{1 + i // 250}.{1 + i % 250}"


class Phone(Api):
    """One phone's keep-alive connection for its actions, from its own address (reopened, as a
    browser does, when the server has closed it after 5 idle seconds)."""

    def __init__(self, port: int, address: str) -> None:
        super().__init__(port)
        self.address = address
        self.lock = threading.Lock()
        self.worker: int | None = None  # the worker that gave the last answer

    def _connect(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = _Connection(self, HOST, self.port, timeout=self.timeout, source_address=(self.address, 0))
        return self.conn


class _Connection(http.client.HTTPConnection):
    def __init__(self, phone: Phone, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.phone = phone

    def getresponse(self):
        answer = super().getresponse()
        value = answer.getheader("X-Banco-Worker")
        self.phone.worker = int(value) if value and value.isdigit() else None
        return answer


class ClubStream(Stream):
    """A stream that also notes which worker holds each of its connections."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.workers: dict[int, int] = {}  # attempt -> worker

    def feed(self, data: bytes, t: float) -> bool:
        if not self.headers_done:
            found = WORKER.search((self.raw + data).split(b"\r\n\r\n", 1)[0])
            if found:
                self.workers[self.attempts] = int(found.group(1))
        return super().feed(data, t)


class Proxy:
    """nginx in the foreground under ``folder``, in front of the servers on ``ports``: the hosting
    guide's upstream and zones (``docs/hosting/nginx/banco.conf``, its ports replaced) and its locations
    (``banco-proxy.conf``, included as it is), listening on plain http. The guide's TLS is left
    out: the phones here are this benchmark's threads, on the servers' own two cores, and their
    side of TLS would be measured as the proxy's."""

    def __init__(self, folder: Path, ports: list[int]) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (apt-get install nginx)")
        folder.mkdir(parents=True, exist_ok=True)
        site = NGINX_SITE.read_text()
        zones = "".join(f"{line}\n" for line in re.findall(r"^limit_conn_zone [^\n]*;$", site, re.M))
        upstream = re.search(r"^upstream banco \{.*?^\}", site, re.M | re.S)
        if upstream is None:
            raise RuntimeError(f"{NGINX_SITE} has no upstream banco")
        servers = "".join(f"    server 127.0.0.1:{port} max_fails=2 fail_timeout=10s;\n" for port in ports)
        block, found = re.subn(r"(    server 127\.0\.0\.1:800\d [^\n]*\n)+", servers, upstream.group(0), count=1)
        if not found:
            raise RuntimeError(f"{NGINX_SITE}'s upstream no longer lists 127.0.0.1:8001 and :8002")
        self.port = free_port()
        user = "user root;\n" if os.geteuid() == 0 else ""  # nobody could not enter the temporary folder
        (folder / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes auto;\nworker_rlimit_nofile 65536;\npid {folder / 'nginx.pid'};\n"
            "error_log stderr warn;\nevents { worker_connections 16384; }\nhttp {\n  access_log off;\n"
            + "".join(f"  {kind}_temp_path {folder / kind};\n" for kind in ("client_body", "proxy", "fastcgi"))
            + "".join(f"  {kind}_temp_path {folder / kind};\n" for kind in ("uwsgi", "scgi"))
            + zones
            + block
            + f"\n  server {{\n    listen 127.0.0.1:{self.port};\n    include {NGINX_SNIPPET};\n  }}\n}}\n"
        )
        self.log = open(folder / "nginx.log", "wb")  # noqa: SIM115 (held for nginx's life, closed by stop)
        self.proc = subprocess.Popen(
            [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr"],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection((HOST, self.port), timeout=0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"nginx did not start:\n{(folder / 'nginx.log').read_text()[-2000:]}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """SIGTERM to nginx's master (its PID alone), which ends its workers."""
        stop_process(self.proc)
        self.log.close()


def create_database(server_url: str) -> str:
    import psycopg

    name = f"banco_bench_{secrets.token_hex(4)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url.rpartition('/')[0]}/{name}"


def drop_database(server_url: str, url: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rpartition("/")[2]}" WITH (FORCE)')


def wait_for_workers(server: Server, count: int, seconds: float = 60) -> None:
    if count == 1:
        return
    deadline = time.monotonic() + seconds
    while len(re.findall(r"Worker \d+ is serving", server.log_tail(200))) < count:
        if time.monotonic() > deadline or server.proc.poll() is not None:
            raise RuntimeError(f"the workers did not all start:\n{server.log_tail()}")
        time.sleep(0.2)


def schedule(args, rng: random.Random) -> list[tuple[float, str, int]]:
    """(seconds from the start, "pace" or "burst", table) for the whole run, in time order."""
    events = []
    for table in range(args.tables):
        t = rng.uniform(0, args.table_seconds)
        while t < args.duration:
            events.append((t, "pace", table))
            t += rng.expovariate(1 / args.table_seconds)
    t = args.burst_seconds / 2
    while t < args.duration:
        events.append((t, "burst", rng.randrange(args.tables)))
        t += args.burst_seconds
    heapq.heapify(events)
    return [heapq.heappop(events) for _ in range(len(events))]


def run(ports: list[int], args) -> dict:
    """One evening of ``args.tables`` tables, each device on one of ``ports`` in turn (one
    port: the proxy, or one server)."""
    rng = random.Random(args.seed)
    setup = Api(ports[0])
    games = [new_game(setup, [f"T{t + 1}P{s + 1}" for s in range(args.seats)]) for t in range(args.tables)]
    setup.close()
    seats = [(t, p) for t, game in enumerate(games) for p in game["players"]]
    phones = [Phone(ports[i % len(ports)], phone_address(i)) for i in range(len(seats))]
    streams = [
        ClubStream(p["name"], games[t]["id"], p["token"], games[t]["version"], phone_address(i))
        for i, (t, p) in enumerate(seats)
    ]
    # The table's other pages (the table screen, the Bank's), each a device of its own.
    screens = [(t, s) for t in range(args.tables) for s in range(args.screens)]
    streams += [
        ClubStream(f"T{t + 1}S{s + 1}", games[t]["id"], games[t]["banker_token"], games[t]["version"], phone_address(i))
        for i, (t, s) in enumerate(screens, start=len(seats))
    ]
    for i, stream in enumerate(streams):
        stream.port = ports[i % len(ports)]
    by_table: dict[int, list[int]] = {}  # the phones of each table, which act
    for i, (t, _) in enumerate(seats):
        by_table.setdefault(t, []).append(i)
    readers = {t: list(phones_at) for t, phones_at in by_table.items()}  # every page of each table
    for i, (t, _) in enumerate(screens, start=len(seats)):
        readers[t].append(i)
    streams_pool = StreamPool(ports[0], streams, max_seconds=args.duration + args.grace + 60).start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(s.first_retry or s.failed for s in streams):
        time.sleep(0.05)
    opened = sum(1 for s in streams if s.first_retry and not s.failed)

    lock = threading.Lock()
    sent: dict[tuple[int, int], tuple[float, int, int | None]] = {}  # (table, version) -> (t0, phone, worker)
    latencies = {"pace": [], "burst": []}
    lag: list[float] = []
    refused, errors = [0], []

    def act(i: int, kind: str, due: float) -> None:
        t, me = seats[i]
        others = [p["id"] for p in games[t]["players"] if p["id"] != me["id"]]
        phone = phones[i]
        with phone.lock:
            lag.append(max(0.0, time.perf_counter() - due))
            body = {
                "type": "transfer",
                "to": random.choice(others),
                "amount": random.randint(1, 20),
                "key": uuid.uuid4().hex,
            }
            try:
                status, data, took, t0, _t1 = phone.call(
                    "POST", f"/api/v1/games/{games[t]['id']}/actions", body, me["token"]
                )
            except (http.client.HTTPException, OSError) as error:
                with lock:
                    errors.append(f"{error.__class__.__name__}: {error}")
                return
        with lock:
            latencies[kind].append(took)
            if status == 200 and isinstance(data, dict) and "version" in data:
                sent[(t, data["version"])] = (t0, i, phone.worker)
            elif status == 409:
                refused[0] += 1
            else:
                errors.append(f"HTTP {status}")

    held_samples: list[int] = []
    playing = threading.Event()

    def sample() -> None:  # streams answered and open, twice a second (reconnections make dips)
        while not playing.wait(0.5):
            held_samples.append(sum(1 for s in streams if s.sock is not None and s.headers_done and s.status == 200))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    plan = schedule(args, rng)
    start = time.perf_counter()
    with ThreadPoolExecutor(args.client_threads) as pool:
        for at, kind, table in plan:
            due = start + at
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            if kind == "pace":
                pool.submit(act, rng.choice(by_table[table]), kind, due)
            else:
                for i in by_table[table]:
                    pool.submit(act, i, kind, due)
    elapsed = time.perf_counter() - start
    playing.set()
    sampler.join(5)

    last: dict[int, int] = {}
    for t, version in sent:
        last[t] = max(last.get(t, 0), version)
    deadline = time.monotonic() + args.grace
    table_of = {i: t for t, pages in readers.items() for i in pages}
    while time.monotonic() < deadline and not all(
        s.last_version >= last.get(table_of[i], 0) for i, s in enumerate(streams)
    ):
        time.sleep(0.05)
    streams_pool.stop()
    for phone in phones:
        phone.close()

    delivery = {"same": [], "across": [], "unknown": []}
    missed = 0
    for (t, version), (t0, actor, worker) in sent.items():
        for i in readers[t]:
            if i == actor:
                continue
            got = streams[i].delivered_at(version)
            if got is None:
                missed += 1
                continue
            arrival, attempt, _exact = got
            holder = streams[i].workers.get(attempt)
            where = "unknown" if worker is None or holder is None else ("same" if worker == holder else "across")
            delivery[where].append(arrival - t0)
    return {
        "phones": len(phones),
        "pages": len(streams),
        "tables": len(games),
        "opened": opened,
        "held": held_samples,
        "stream_refused": sum(1 for s in streams if s.refusals),
        "refusal_examples": sorted({r for s in streams for r in s.refusals})[:5],
        "reconnects": sum(s.attempts - 1 for s in streams),
        "workers_seen": sorted({w for s in streams for w in s.workers.values()}),
        "elapsed": elapsed,
        "latencies": latencies,
        "ok": len(sent),
        "refused": refused[0],
        "errors": errors,
        "phone_reconnects": sum(p.reconnects for p in phones),
        "lag": lag,
        "delivery": delivery,
        "missed": missed,
    }


def report(args, servers: list[Server], r: dict, wall: float) -> None:
    every = r["latencies"]["pace"] + r["latencies"]["burst"]
    delivered = [d for part in r["delivery"].values() for d in part]
    known = len(r["delivery"]["same"]) + len(r["delivery"]["across"])
    print()
    print(
        f"Banco club benchmark: {r['tables']} tables, {r['phones']} phones, {r['pages']} pages, "
        f"{args.servers} server(s) x {args.workers} worker process(es)"
        f"{', through nginx' if args.proxy else ''}, PostgreSQL; {args.duration:g} s"
    )
    print(
        f"  machine: {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; load average at the end {os.getloadavg()[0]:.2f}"
    )
    print(
        f"  pace: one action per table every {args.table_seconds:g} s on average; a burst of {args.seats} "
        f"every {args.burst_seconds:g} s"
    )
    rows = [
        ("actions answered 200 / refused 409 / errors", f"{r['ok']} / {r['refused']} / {len(r['errors'])}"),
        ("throughput", f"{len(every) / r['elapsed']:.1f} actions/s"),
        (
            "action p50 / p95 / p99 (all)",
            f"{ms(percentile(every, 50))} / {ms(percentile(every, 95))} / {ms(percentile(every, 99))} ms",
        ),
        (
            "action p95 at pace / in bursts",
            f"{ms(percentile(r['latencies']['pace'], 95))} / {ms(percentile(r['latencies']['burst'], 95))} ms",
        ),
        (
            "delivery p50 / p95 / p99 (send -> other phones)",
            f"{ms(percentile(delivered, 50))} / {ms(percentile(delivered, 95))} / {ms(percentile(delivered, 99))} ms",
        ),
        ("delivery pairs / missed", f"{len(delivered) + r['missed']} / {r['missed']}"),
        (
            "delivered across processes",
            f"{len(r['delivery']['across'])} of {known} known ({100 * len(r['delivery']['across']) / known:.0f}%)"
            if known
            else "-",
        ),
        (
            "delivery p95 across / same process",
            f"{ms(percentile(r['delivery']['across'], 95))} / {ms(percentile(r['delivery']['same'], 95))} ms",
        ),
        ("streams opened / refused", f"{r['opened']} / {r['stream_refused']}"),
        (
            "streams held during play: median / least",
            f"{percentile(r['held'], 50):.0f} / {min(r['held'])}" if r["held"] else "-",
        ),
        ("stream reconnections (the server ends each after 60 s)", str(r["reconnects"])),
        ("workers holding streams", ", ".join(map(str, r["workers_seen"])) or "-"),
        ("client lag p95 (late sends of the benchmark itself)", f"{ms(percentile(r['lag'], 95))} ms"),
    ]
    width = max(len(what) for what, _ in rows)
    for what, value in rows:
        print(f"  {what.ljust(width)}  {value}")
    if r["errors"]:
        print(f"  errors (first 5 of {len(r['errors'])}): {r['errors'][:5]}")
    if r["refusal_examples"]:
        print(f"  stream refusals, e.g.: {r['refusal_examples']}")
    print(f"  action connections reopened after the server's 5 s keep-alive: {r['phone_reconnects']}")
    for server in servers:
        server.print_warnings()
    print(f"  total run time {wall:.1f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--workers", type=int, default=2, help="BANCO_WORKERS for each server")
    parser.add_argument(
        "--servers", type=int, default=1, help="servers started as separate hosts would be: each its own port"
    )
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="nginx in front of the servers, with the hosting guide's own files (docs/hosting/nginx)",
    )
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=8, help="phones at each table (2 to 8), each acting")
    parser.add_argument("--screens", type=int, default=0, help="pages at each table besides the phones' (0 to 4)")
    parser.add_argument(
        "--ramp",
        help="table counts run one after another on the same servers (for example 50,100,150): stops at the "
        "first whose delivery p95 passes --target-ms or whose streams are refused, and prints the most held",
    )
    parser.add_argument("--target-ms", type=float, default=250.0, help="the delivery p95 a ramp's step must keep")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play (at most 300)")
    parser.add_argument("--table-seconds", type=float, default=3.0, help="mean gap between a table's actions")
    parser.add_argument("--burst-seconds", type=float, default=5.0, help="a table's burst every so many seconds")
    parser.add_argument(
        "--database-server",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL server (on 127.0.0.0/8) where a database of the run is made and dropped",
    )
    parser.add_argument("--client-threads", type=int, default=64, help="the benchmark's threads sending actions")
    parser.add_argument("--grace", type=float, default=5.0, help="seconds to wait for late deliveries")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        steps = [int(n) for n in args.ramp.split(",")] if args.ramp else [args.tables]
    except ValueError:
        parser.error("--ramp takes table counts separated by commas, such as 50,100,150")
    if not (
        2 <= args.seats <= 8
        and 0 <= args.screens <= 4
        and all(1 <= n <= 600 for n in steps)
        and 1 <= args.workers <= 16
        and 1 <= args.servers <= 4
    ):
        parser.error("2 to 8 seats, 0 to 4 screens, 1 to 600 tables, 1 to 16 workers, 1 to 4 servers")
    if not re.match(r"^postgresql://[^/]*@?127\.\d+\.\d+\.\d+(:\d+)?/", args.database_server):
        parser.error("the database server must be on 127.0.0.0/8")
    args.duration = min(args.duration, 300.0)
    try:  # thousands of streams and action connections: open files on this side too
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 10240), hard))
    except (ImportError, ValueError, OSError):
        pass
    wall = now()
    try:
        url = create_database(args.database_server)
    except Exception as error:
        print(f"benchmark cannot run: no PostgreSQL at {args.database_server}: {error}", file=sys.stderr)
        return 2
    held: list[tuple[int, dict]] = []
    with tempfile.TemporaryDirectory(prefix="banco-club-") as tmp:
        servers = [Server(Path(tmp) / f"server{n + 1}", url, None, None) for n in range(args.servers)]
        proxy = None
        try:
            for n, server in enumerate(servers):
                server.log_path.parent.mkdir()
                server.env["BANCO_WORKERS"] = str(args.workers)
                server.env["SECRET_KEY"] = servers[0].env["SECRET_KEY"]  # one site: every server signs alike
                if args.proxy:
                    server.env["BANCO_TRUSTED_PROXIES"] = "127.0.0.1"
                print(f"starting server {n + 1} with {args.workers} worker(s) on {HOST}:{server.port} ...", flush=True)
                server.start(timeout=60)
                wait_for_workers(server, args.workers)
            ports = [server.port for server in servers]
            if args.proxy:
                proxy = Proxy(Path(tmp) / "nginx", ports)
                ports = [proxy.port]
                print(f"nginx in front on {HOST}:{proxy.port}", flush=True)
            for tables in steps:
                args.tables = tables
                print(
                    f"{tables} tables x {args.seats} phones and {args.screens} screens for {args.duration:g} s ...",
                    flush=True,
                )
                result = run(ports, args)
                report(args, servers, result, now() - wall)
                delivered = [d for part in result["delivery"].values() for d in part]
                p95 = percentile(delivered, 95) * 1000 if delivered else float("inf")
                if p95 > args.target_ms or result["stream_refused"]:
                    print(f"  -> not held: delivery p95 {p95:.0f} ms, {result['stream_refused']} streams refused")
                    break
                held.append((tables, result))
        except Exception as error:
            print(f"benchmark failed: {error.__class__.__name__}: {error}", file=sys.stderr)
            for server in servers:
                print(server.log_tail(), file=sys.stderr)
            return 2
        finally:
            if proxy is not None:
                proxy.stop()
            for server in servers:
                server.stop()
            drop_database(args.database_server, url)
    if args.ramp:
        where = f"{args.servers} server(s) x {args.workers} worker(s)" + (", through nginx" if args.proxy else "")
        most = f"{held[-1][0]}" if held else f"fewer than {steps[0]} (the first step was not held)"
        if held and held[-1][0] == steps[-1]:
            most += " (the last step: more may hold)"
        print(
            f"\nRamp on {where}: the most tables held at delivery p95 <= {args.target_ms:g} ms, "
            f"{args.seats + args.screens} pages each: {most}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
