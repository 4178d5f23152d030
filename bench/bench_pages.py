#!/usr/bin/env python3
"""Benchmark of live pages: what each action costs the server when pages are open on it.

Starts ``python app.py`` (a temporary SQLite database unless ``--database-url`` is given, a
free port on 127.0.0.1), opens ``--games`` games of ``--seats`` players and, in each, the
pages a table has open: every player's wallet (``/g/<id>/me``), the Bank (``/g/<id>/table``)
and the table screen (``/g/<id>/screen``), each signed in by its own session cookie and
holding its own live stream, as a browser tab does (each table's pages connect from an address
of their own, 127.0.0.2 and on, all loopback on Linux: the server caps the streams of one
address, as a club's phones each have their own). Then, for ``--seconds``, the players pay
each other small amounts through the API at ``--rate`` actions a second in all (spread evenly
over the games) (``--action roll``: each rolls the dice on the server instead; ``--action
end_turn``: the games are the 2015 championship's, whose bank keeps the turns, and the banker ends the turn
in play each time; ``--action bid``: the banker opens an auction before the pages open, and
each action is a bid 1 above the last, by a player who does not hold the high bid), and every page
does on each event what ``static/js/banco.js`` does:

- ``--mode whole`` (as if events said nothing of what changed): fetches the whole page again;
- ``--mode regions``: fetches only its regions whose ``data-parts`` meet the event's
  ``parts`` (``?regions=``), or the whole page where it has no regions or the event cannot
  say; nothing when no region changed. Events that arrive during a fetch are folded into the
  next one, as the browser does;
- ``--mode news`` (the default: what the browser does): an event that carries its news
  (``docs/live.md``, *News*) is written in place, and only the regions showing a part that
  their ``data-applies`` does not cover are fetched; an event without news as ``regions``;
- ``--mode none``: the pages hold their streams and fetch nothing (the cost of the actions and
  their events alone, to subtract from the others);
- ``--mode closed``: no page is open at all (the cost of the actions alone, their journal and
  their durable commit: the floor under every other mode);
- ``--mode read``: no page is open, but each game was read once (its table screen caught up
  before play, in English as the pages read it), so each action makes its news as for open
  pages and nobody is told (the cost of making news, over ``closed``; what the streams add is
  ``none`` over this).

Reported per mode: actions made and their latency, the server's CPU time (user + system of
its processes, from /proc) per action, and split between its event loop (the main thread: the
requests, the actions' door, the live streams) and its other threads (the writer, which runs the
actions and makes their news, and the app's threads, which draw the pages fetched), beside this
benchmark's own CPU and, with
``--database-url``, PostgreSQL's, page fetches and bytes (as sent: compressed, as for a browser) per action, event delivery (the
action sent -> the event of its version, or a later one, read on each page) and page update
(the action sent -> the page's fetch covering it answered) p50/p95/p99. The client runs on the
same machine: its own CPU competes with the server's.

A benchmark, not a test: it prints figures and exits 0 whatever they are. Only 127.0.0.1 is
contacted; every loop is bounded in count and time; the server is always stopped.

    /work/venv/bin/python bench/bench_pages.py --mode whole --games 1 --rate 5 --seconds 20
    /work/venv/bin/python bench/bench_pages.py --mode regions --games 1 --rate 5 --seconds 20
    /work/venv/bin/python bench/bench_pages.py --mode news --games 1 --rate 5 --seconds 20
    /work/venv/bin/python bench/bench_pages.py --mode read --games 1 --rate 5 --seconds 20
    /work/venv/bin/python bench/bench_pages.py --mode news --games 1 --rate 5 --seconds 20 --action roll
    /work/venv/bin/python bench/bench_pages.py --mode news --games 1 --rate 5 --seconds 20 --action end_turn
    /work/venv/bin/python bench/bench_pages.py --mode news --games 1 --rate 5 --seconds 20 --action bid
    /work/venv/bin/python bench/bench_pages.py --mode news --games 10 --rate 80 --seconds 30
    /work/venv/bin/python bench/bench_pages.py --mode news --games 50 --rate 17 --seconds 30   # a club
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import random
import re
import socket
import sys
import tempfile
import threading
import time
import uuid
from http.cookies import SimpleCookie
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import HOST, Api, Server, ms, new_game, percentile

EVENT = re.compile(rb"data: (\{[^\n]*\})\n\n")
REGION = re.compile(r'id="([\w-]+)"[^>]*?\bdata-parts="([^"]*)"')
TAG = re.compile(r'<\w+\b[^>]*?\sid="([\w-]+)"[^>]*>')
APPLIES = re.compile(r'\bdata-applies="([^"]*)"')


def session_cookie(secret_key: str, games: dict) -> str:
    """The signed session cookie a phone holds after joining (``companion.web.seats``)."""
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface

    app = Flask("bench")
    app.secret_key = secret_key
    return SecureCookieSessionInterface().get_signing_serializer(app).dumps({"games": games, "_permanent": True})


def client_cpu() -> float:
    """User + system CPU seconds of this benchmark's own process so far (its pages and players)."""
    times = os.times()
    return times.user + times.system


def _cpu_of(counted) -> float:
    """User + system CPU seconds so far of every process for which ``counted(pid, name,
    parent)`` is true (read from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            head, _, rest = Path(f"/proc/{entry}/stat").read_text().rpartition(")")
        except OSError:
            continue
        fields = rest.split()  # fields[1] is the parent's id
        if counted(int(entry), head.split("(", 1)[-1], int(fields[1])):
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def postgres_cpu() -> float:
    """User + system CPU seconds of every PostgreSQL process of this machine so far (the
    database's share of the work when ``--database-url`` is given)."""
    return _cpu_of(lambda _pid, name, _parent: name == "postgres")


def server_cpu(pid: int) -> float:
    """User + system CPU seconds of the server process and its children so far."""
    return _cpu_of(lambda entry, _name, parent: pid in (entry, parent))


def loop_cpu(pid: int) -> float:
    """User + system CPU seconds so far of the server's main thread, which runs its event loop
    (``/proc/<pid>/task/<pid>/stat``); the rest of ``server_cpu`` is its other threads'."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Page:
    """One open tab: its stream on a socket of its own, its fetches on a keep-alive connection."""

    def __init__(
        self,
        port: int,
        path: str,
        stream_path: str,
        cookie: str | None,
        mode: str,
        stop: threading.Event,
        source: str = HOST,
    ):
        self.port, self.path, self.stream_path, self.mode, self.stop = port, path, stream_path, mode, stop
        self.source = source  # the address it connects from (the server caps streams per address)
        # What Chromium sends over plain http: the server compresses what it answers, as it does
        # for every phone (brotli only over https).
        self.headers = {"X-Banco-Live": "1", "Accept-Encoding": "gzip, deflate"}
        if cookie:
            self.headers["Cookie"] = f"session={cookie}"
        self.conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
        self.regions: dict[str, set[str]] = {}
        self.applies: dict[str, set[str]] = {}  # the parts each region's news covers
        self.has_regions = False
        self.turn_region: str | None = None  # the region holding the turn card
        self.version = 0
        self.arrivals: list[tuple[int, float]] = []  # (version, when its event was read)
        self.updates: list[tuple[int, float]] = []  # (version covered, when the fetch answered)
        self.fetches = 0
        self.bytes = 0
        self.heard = 0  # the bytes of its stream (events and beats, as sent)
        self.errors = 0

    def get(self, path: str) -> bytes:
        """The answer's body as sent (compressed, when the server compressed it); a keep-alive
        connection the server let go idle is opened again. A new session cookie is kept, as a
        browser keeps it (the first page drawn adds the forms' CSRF secret to it)."""
        for attempt in range(2):
            try:
                self.conn.request("GET", path, headers=self.headers)
                response = self.conn.getresponse()
                body = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                if attempt:
                    self.errors += 1
                    return b""
        for header in response.headers.get_all("Set-Cookie") or ():
            cookie = SimpleCookie(header).get("session")
            if cookie is not None and cookie.value:
                self.headers["Cookie"] = f"session={cookie.value}"
        if response.status != 200:
            self.errors += 1
        return body

    def open(self) -> None:
        body = self.get(self.path)
        html = (gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body).decode()
        self.has_regions = "data-regions" in html.split("<body", 1)[1].split(">", 1)[0]
        self.regions = {name: set(parts.split()) for name, parts in REGION.findall(html)}
        # The region holding the turn card, which the browser fetches when a turn passed on
        # concerns its reader (tellTurn): the last region opened before the card.
        card = html.find("data-turn-said")
        held = [m.group(1) for m in REGION.finditer(html, 0, card)] if card >= 0 else []
        self.turn_region = held[-1] if held else None
        self.read_applies(html)
        self.version = int(re.search(r'data-version="(\d+)"', html).group(1))

    def read_applies(self, html: str) -> None:
        """What each region's news covers (``data-applies``), as the page drawn says it now."""
        for tag in TAG.finditer(html):
            if tag.group(1) in self.regions:
                covered = APPLIES.search(tag.group(0))
                self.applies[tag.group(1)] = set(covered.group(1).split()) if covered else set()

    def run(self) -> None:
        sock = socket.create_connection((HOST, self.port), timeout=30, source_address=(self.source, 0))
        head = "".join(f"{k}: {v}\r\n" for k, v in self.headers.items() if k == "Cookie")
        sock.sendall(
            f"GET {self.stream_path}?since={self.version} HTTP/1.1\r\nHost: {HOST}\r\n{head}"
            f"Accept: text/event-stream\r\n\r\n".encode()
        )
        sock.settimeout(0.2)
        buffer = b""
        try:
            while not self.stop.is_set():
                try:
                    data = sock.recv(65536)
                except TimeoutError:
                    continue
                if not data:
                    break
                buffer += data
                self.heard += len(data)
                owed: set[str] | None = set()
                shapes: set[str] = set()  # the regions the news could not cover
                newest = 0
                while (match := EVENT.search(buffer)) is not None:
                    buffer = buffer[match.end() :]
                    event = json.loads(match.group(1))
                    arrived = time.perf_counter()
                    self.arrivals.append((event["version"], arrived))
                    if event["version"] <= max(self.version, newest):
                        continue
                    newest = event["version"]
                    parts = event.get("parts")
                    if self.mode == "news" and parts is not None and event.get("news") is not None:
                        shapes |= {
                            name
                            for name, shown in self.regions.items()
                            if (shown & set(parts)) - self.applies.get(name, set())
                        }
                        if (event["news"].get("turn") or {}).get("concerns_you") and self.turn_region:
                            shapes.add(self.turn_region)
                    elif owed is not None and parts is not None:
                        owed |= set(parts)
                    else:
                        owed = None
                if newest:
                    self.catch_up(newest, owed, shapes)
        finally:
            sock.close()
            self.conn.close()

    def catch_up(self, version: int, owed: set[str] | None, shapes: set[str]) -> None:
        if self.mode == "none":
            path = None
        elif self.mode in ("regions", "news") and owed is not None and self.has_regions:
            names = [name for name, parts in self.regions.items() if parts & owed or name in shapes]
            path = f"{self.path}?regions={','.join(names)}" if names else None
        else:
            path = self.path
        if path is not None:
            body = self.get(path)
            self.fetches += 1
            self.bytes += len(body)
            if self.mode == "news" and "regions=" in path:
                answer = json.loads(gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body)
                self.read_applies("".join(answer.get("regions", {}).values()))
        self.version = version
        self.updates.append((version, time.perf_counter()))


def run(args) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="banco-bench-pages-"))
    server = Server(workdir, args.database_url, None, None)
    server.start()
    stop = threading.Event()
    try:
        api = Api(server.port)
        secret = server.env["SECRET_KEY"]
        games, pages = [], []
        for number in range(args.games):
            names = [f"P{i + 1}" for i in range(args.seats)]
            game = new_game(api, names, "campionato-2015") if args.action == "end_turn" else new_game(api, names)
            if args.action == "bid":  # the auction the players bid in, open before the pages are
                opened = {"type": "auction_start", "deed": "vicolo-corto", "key": uuid.uuid4().hex}
                status, body, *_ = api.call("POST", f"/api/v1/games/{game['id']}/actions", opened, game["banker_token"])
                if status != 200:
                    raise RuntimeError(f"opening the auction failed: {status} {body}")
            games.append(game)
            gid = game["id"]
            # Each table's pages from an address of their own (127.0.0.2 and on, all loopback on
            # Linux), well under the server's cap of streams per address, as a club's phones.
            source = f"127.0.{number // 200}.{2 + number % 200}"
            if args.mode == "read":  # read once, as a page catching up: its news is made from now on
                reader = Page(server.port, f"/g/{gid}/screen", "", None, args.mode, stop, source)
                reader.get(f"/g/{gid}/screen/changes?since=0")
                reader.conn.close()
            if args.mode in ("closed", "read"):
                continue
            for player in game["players"]:
                pages.append(
                    Page(
                        server.port,
                        f"/g/{gid}/me",
                        f"/g/{gid}/stream",
                        session_cookie(secret, {gid: {"p": player["token"]}}),
                        args.mode,
                        stop,
                        source,
                    )
                )
            pages.append(
                Page(
                    server.port,
                    f"/g/{gid}/table",
                    f"/g/{gid}/stream",
                    session_cookie(secret, {gid: {"b": game["banker_token"]}}),
                    args.mode,
                    stop,
                    source,
                )
            )
            pages.append(
                Page(server.port, f"/g/{gid}/screen", f"/g/{gid}/screen/stream", None, args.mode, stop, source)
            )
        for page in pages:
            page.open()
        threads = [threading.Thread(target=page.run, daemon=True) for page in pages]
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # every stream open

        sent: dict[tuple[str, int], float] = {}
        latencies: list[float] = []
        refused = [0]
        lock = threading.Lock()

        def play(game, seed):
            rng = random.Random(seed)
            phone = Api(server.port)
            high, bidder = 0, None  # the auction's high bid and who holds it (bids go up by 1)
            gap = args.games / args.rate
            due = time.perf_counter() + rng.random() * gap
            end = time.perf_counter() + args.seconds
            while due < end:
                time.sleep(max(0.0, due - time.perf_counter()))
                payer, payee = rng.sample([p for p in game["players"] if p is not bidder], 2)
                if args.action in ("roll", "end_turn"):
                    action = {"type": args.action, "key": uuid.uuid4().hex}
                elif args.action == "bid":
                    high, bidder = high + 1, payer
                    action = {"type": "bid", "amount": high, "key": uuid.uuid4().hex}
                else:
                    action = {
                        "type": "transfer",
                        "to": payee["id"],
                        "amount": rng.randint(1, 20),
                        "key": uuid.uuid4().hex,
                    }
                token = game["banker_token"] if args.action == "end_turn" else payer["token"]
                status, body, took, t0, _t1 = phone.call("POST", f"/api/v1/games/{game['id']}/actions", action, token)
                with lock:
                    if status == 200:
                        sent[(game["id"], body["version"])] = t0
                        latencies.append(took)
                    else:
                        refused[0] += 1
                due += gap
            phone.close()

        cpu0, loop0, t_start = server_cpu(server.proc.pid), loop_cpu(server.proc.pid), time.perf_counter()
        client0, database0 = client_cpu(), postgres_cpu()
        players = [threading.Thread(target=play, args=(g, i)) for i, g in enumerate(games)]
        for thread in players:
            thread.start()
        for thread in players:
            thread.join(args.seconds + 60)
        # Until every page has caught up with its game's last version (bounded).
        last = {g["id"]: max([v for (gid, v) in sent if gid == g["id"]], default=0) for g in games}
        deadline = time.perf_counter() + args.grace
        while time.perf_counter() < deadline and any(p.version < last[p.path.split("/")[2]] for p in pages):
            time.sleep(0.05)
        elapsed = time.perf_counter() - t_start
        cpu, loop = server_cpu(server.proc.pid) - cpu0, loop_cpu(server.proc.pid) - loop0
        others = {"this benchmark (the pages and players)": client_cpu() - client0}
        if args.database_url:
            others["PostgreSQL"] = postgres_cpu() - database0
        stop.set()
        for thread in threads:
            thread.join(5)
        report(args, games, pages, sent, latencies, refused[0], (cpu, loop), elapsed, others)
        if args.per_fetch:
            per_fetch(server, pages, args.per_fetch)
    finally:
        stop.set()
        server.stop()
    return 0


def per_fetch(server, pages, count: int) -> None:
    """The server's CPU per fetch, one request at a time: a wallet, the Bank and the table
    screen, whole and as the regions a payment touches (``cash``, ``feed``), in alternating
    blocks of 20 so that the machine's other work weighs on both alike."""
    payment = {"cash", "feed"}
    print(f"  one fetch at a time ({count} of each, alternating blocks of 20), server CPU and bytes per fetch:")
    for kind in ("/me", "/table", "/screen"):
        page = next(p for p in pages if p.path.endswith(kind))
        names = [name for name, parts in page.regions.items() if parts & payment]
        paths = {"whole": page.path, "regions": f"{page.path}?regions={','.join(names)}"}
        spent = {"whole": 0.0, "regions": 0.0}
        size = {mode: len(page.get(path)) for mode, path in paths.items()}
        for _ in range(max(1, count // 20)):
            for mode, path in paths.items():
                before = server_cpu(server.proc.pid)
                for _ in range(20):
                    page.get(path)
                spent[mode] += server_cpu(server.proc.pid) - before
        done = max(1, count // 20) * 20
        print(
            f"    {page.path.rsplit('/', 1)[1]}: whole {1000 * spent['whole'] / done:.1f} ms, "
            f"{size['whole'] / 1000:.1f} KB; regions of a payment ({len(names)} of {len(page.regions)}) "
            f"{1000 * spent['regions'] / done:.1f} ms, {size['regions'] / 1000:.1f} KB"
        )


def _first_at_or_after(pairs: list[tuple[int, float]], version: int) -> float | None:
    for covered, when in pairs:
        if covered >= version:
            return when
    return None


def report(args, games, pages, sent, latencies, refused, server, elapsed, others) -> None:
    actions = len(sent)
    cpu, loop = server  # the server's CPU seconds: in all, and its event loop's
    delivery, update, missed = [], [], 0
    for page in pages:
        gid = page.path.split("/")[2]
        for (game_id, version), t0 in sent.items():
            if game_id != gid:
                continue
            arrived = _first_at_or_after(page.arrivals, version)
            done = _first_at_or_after(page.updates, version)
            if arrived is None or done is None:
                missed += 1
                continue
            delivery.append(arrived - t0)
            update.append(done - t0)
    fetches = sum(p.fetches for p in pages)
    fetched = sum(p.bytes for p in pages)
    kinds = {
        "wallet": [p for p in pages if p.path.endswith("/me")],
        "bank": [p for p in pages if p.path.endswith("/table")],
        "screen": [p for p in pages if p.path.endswith("/screen")],
    }
    print(
        f"mode {args.mode}: {args.games} game(s) x ({args.seats} wallets + Bank + screen) = {len(pages)} pages, "
        f"{args.rate:g} actions/s ({DOING[args.action]}) asked for {args.seconds:g} s"
    )
    print(
        f"  actions: {actions} made ({actions / args.seconds:.1f}/s), {refused} refused; "
        f"latency p50 {ms(percentile(latencies, 50))} ms, p95 {ms(percentile(latencies, 95))} ms"
    )
    print(
        f"  server CPU: {cpu:.2f} s in {elapsed:.1f} s ({100 * cpu / elapsed:.0f}% of one core), "
        f"{1000 * cpu / max(actions, 1):.1f} ms per action (the event loop {1000 * loop / max(actions, 1):.1f}, "
        f"the other threads {1000 * (cpu - loop) / max(actions, 1):.1f}); the machine's other work: "
        + ", ".join(f"{name} {100 * spent / elapsed:.0f}% of one core" for name, spent in others.items())
    )
    print(
        f"  page fetches: {fetches} ({fetches / max(actions, 1):.2f} per action), "
        f"{fetched / max(actions, 1) / 1024:.1f} KB per action; by page: "
        + ", ".join(
            f"{name} {sum(p.bytes for p in group) / max(sum(p.fetches for p in group), 1) / 1024:.1f} KB a fetch"
            for name, group in kinds.items()
        )
        + f"; the streams: {sum(p.heard for p in pages) / max(actions, 1) / 1024:.1f} KB per action"
    )
    print(
        f"  delivery p50/p95/p99: {ms(percentile(delivery, 50))} / {ms(percentile(delivery, 95))} / "
        f"{ms(percentile(delivery, 99))} ms; page updated p50/p95/p99: {ms(percentile(update, 50))} / "
        f"{ms(percentile(update, 95))} / {ms(percentile(update, 99))} ms; {missed} (action, page) pairs missed; "
        f"{sum(p.errors for p in pages)} errors"
    )


DOING = {
    "transfer": "payments",
    "roll": "rolls of the dice",
    "end_turn": "turns passed on, the 2015 championship",
    "bid": "bids in an auction, each 1 above the last, by another player",
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("whole", "regions", "news", "none", "closed", "read"), default="news")
    parser.add_argument(
        "--action",
        choices=tuple(DOING),
        default="transfer",
        help="what the players do: pay each other small amounts, roll the dice on the server, (the 2015 "
        "championship) the banker ends the turn in play, or bid in an auction opened at the start",
    )
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seats", type=int, default=8, help="players (and wallet pages) per game, 2 to 8")
    parser.add_argument("--rate", type=float, default=5.0, help="actions a second, over all the games")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play (at most 300)")
    parser.add_argument("--grace", type=float, default=10.0, help="seconds to wait for the pages to catch up")
    parser.add_argument("--database-url", default=None, help="default: a temporary SQLite file")
    parser.add_argument(
        "--per-fetch",
        type=int,
        default=0,
        help="then this many fetches of a wallet, the Bank and the screen, whole and as regions, one at a time",
    )
    args = parser.parse_args(argv)
    if not 2 <= args.seats <= 8 or not 1 <= args.games <= 50 or not 0 < args.rate <= 500 or not 0 < args.seconds <= 300:
        parser.error("seats 2-8, games 1-50, rate above 0 up to 500, seconds up to 300")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
