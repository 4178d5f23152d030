#!/usr/bin/env python3
"""Delivery at a steady pace, measured by a client that cannot be the bottleneck.

``bench_server.py --phones 80`` drives 80 phones with 160 client threads; on a 2-core machine
those threads, not the server, then make most of the latency (the server is three quarters
idle while the phones wait on each other for Python's lock). Here one thread drives every
phone with non-blocking sockets (``selectors``), so what is measured is the server's:

- ``--games`` (10) ``classic-it`` games of ``--seats`` (8) phones; every phone holds its live
  stream (``GET /api/v1/games/{id}/stream``) and a keep-alive connection for its actions;
- actions come at ``--rate`` (80) a second in all, as a Poisson process drawn from ``--seed``
  beforehand: a random phone of a random game pays 1-20 to another, with a fresh key. A phone
  whose previous action is still unanswered sends when it is answered (counted as *late*);
- measured: the action's latency (request written to answer read), and the delivery from the
  moment the request was written to the arrival, on each other phone of the game, of an event
  of that version or a newer one (the server sends the newest, so a burst is coalesced);
  pairs that never arrive (``--grace`` seconds after the last action) are *missed*;
- the server's CPU per action (``/proc``), and the client's own CPU, to show it kept up.

It starts ``python app.py`` as ``bench_server.py`` does (a temporary SQLite file unless
``--database-url``, a free port on 127.0.0.1, always stopped), contacts only 127.0.0.1, and
every loop is bounded in count and time. It prints figures and exits 0 whatever they are.

    /work/venv/bin/python bench/bench_delivery.py                      # 80 actions/s over 10 games, 30 s
    /work/venv/bin/python bench/bench_delivery.py --rate 160 --duration 20
"""

from __future__ import annotations

import argparse
import json
import random
import re
import selectors
import socket
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_server import HOST, Api, Server, new_game, percentile


class Phone:
    def __init__(self, game: dict, seat: int, port: int, source: str) -> None:
        self.game, self.seat = game, seat
        player = game["players"][seat]
        self.id, self.token = player["id"], player["token"]
        self.others = [p["id"] for i, p in enumerate(game["players"]) if i != seat]
        self.port, self.source = port, source
        self.action: socket.socket | None = None  # opened when first needed, as a browser does
        self.stream: socket.socket | None = None
        self.stream_buffer = b""
        self.arrivals: list[tuple[int, float]] = [(game["version"], 0.0)]  # (version, when)
        self.reply = b""
        self.sent_at: float | None = None  # the action under way, if any
        self.queued = 0  # actions due while the last one was still unanswered
        self.reopened = 0

    def connect(self) -> socket.socket:
        # Each phone from its own loopback address, as on a Wi-Fi: the server's cap on streams
        # from one address plays no part.
        sock = socket.create_connection((HOST, self.port), source_address=(self.source, 0))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        return sock

    def open_stream(self) -> socket.socket:
        """The live stream, opened (again) from the last version seen, as EventSource does."""
        self.stream = self.connect()
        self.stream_buffer = b""
        self.stream.sendall(
            (
                f"GET /api/v1/games/{self.game['id']}/stream HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                f"Accept: text/event-stream\r\nAuthorization: Bearer {self.token}\r\n"
                f"Last-Event-ID: {self.arrivals[-1][0]}\r\n\r\n"
            ).encode()
        )
        return self.stream

    def request(self, rng: random.Random) -> bytes:
        body = json.dumps(
            {"type": "transfer", "to": rng.choice(self.others), "amount": rng.randint(1, 20), "key": uuid.uuid4().hex}
        ).encode()
        return (
            f"POST /api/v1/games/{self.game['id']}/actions HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Authorization: Bearer {self.token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body

    def answer(self) -> tuple[int, dict] | None:
        """The whole answer read so far, if it is whole: (status, body)."""
        head, sep, body = self.reply.partition(b"\r\n\r\n")
        if not sep:
            return None
        length = int(re.search(rb"(?i)\r\ncontent-length: *(\d+)", head).group(1))
        if len(body) < length:
            return None
        self.reply = body[length:]
        return int(head.split(b" ", 2)[1]), json.loads(body[:length])


def run(args) -> int:
    with tempfile.TemporaryDirectory(prefix="banco-delivery-") as tmp:
        server = Server(Path(tmp), args.database_url, None, None)
        print(f"starting the server on {HOST}:{server.port} ...", flush=True)
        server.start()
        try:
            return measure(args, server)
        finally:
            server.stop()
            server.print_warnings()


def measure(args, server: Server) -> int:
    api = Api(server.port)
    games = [new_game(api, [f"P{g}-{s}" for s in range(args.seats)]) for g in range(args.games)]
    api.close()
    phones = [
        Phone(game, seat, server.port, f"127.0.1.{g * args.seats + seat + 1}")
        for g, game in enumerate(games)
        for seat in range(args.seats)
    ]
    rng = random.Random(args.seed)
    plan, at = [], 0.0
    while at < args.duration:
        at += rng.expovariate(args.rate)
        plan.append((at, rng.randrange(len(phones))))
    selector = selectors.DefaultSelector()
    for phone in phones:
        selector.register(phone.open_stream(), selectors.EVENT_READ, (phone, "stream"))
    time.sleep(1.0)  # the streams' openings
    sent: dict[tuple[str, int], tuple[float, int]] = {}  # (game, version) -> (when written, by which seat)
    latencies, late, refused = [], 0, 0
    cpu_server, cpu_client = server.cpu_seconds(), time.process_time()
    start = time.perf_counter()
    nxt, deadline = 0, start + args.duration + args.grace
    answered = 0

    def send(phone: Phone) -> None:
        if phone.action is None:  # the first action, or the server let the idle connection go
            phone.action = phone.connect()
            selector.register(phone.action, selectors.EVENT_READ, (phone, "action"))
        phone.sent_at = time.perf_counter()
        phone.action.sendall(phone.request(rng))

    while time.perf_counter() < deadline:
        now = time.perf_counter() - start
        while nxt < len(plan) and plan[nxt][0] <= now:
            phone = phones[plan[nxt][1]]
            if phone.sent_at is None:
                send(phone)
            else:
                phone.queued += 1
                late += 1
            nxt += 1
        wait = (plan[nxt][0] - now) if nxt < len(plan) else 0.05
        for key, _ in selector.select(timeout=max(0.0, min(wait, 0.05))):
            phone, kind = key.data
            sock = phone.action if kind == "action" else phone.stream
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            arrived = time.perf_counter()
            if not data:
                selector.unregister(sock)
                sock.close()
                if kind == "stream":  # the server ends a stream after a minute: come back at once
                    selector.register(phone.open_stream(), selectors.EVENT_READ, (phone, "stream"))
                elif phone.sent_at is not None:
                    raise RuntimeError("the server closed a phone's connection before answering it")
                else:
                    phone.action = None
                    phone.reopened += 1
                continue
            if kind == "stream":
                phone.stream_buffer += data
                *whole, phone.stream_buffer = phone.stream_buffer.split(b"\n\n")
                for event in whole:
                    match = re.search(rb"(?m)^id: (\d+)$", event)
                    if match:
                        phone.arrivals.append((int(match.group(1)), arrived))
                continue
            phone.reply += data
            got = phone.answer()
            if got is None:
                continue
            status, body = got
            latencies.append(arrived - phone.sent_at)
            if status == 200:
                sent[(phone.game["id"], body["version"])] = (phone.sent_at, phone.seat)
                answered += 1
            else:
                refused += 1
            phone.sent_at = None
            if phone.queued:
                phone.queued -= 1
                send(phone)
        if (
            nxt >= len(plan)
            and all(p.sent_at is None and not p.queued for p in phones)
            and time.perf_counter() > start + args.duration
        ):
            deadline = min(deadline, time.perf_counter() + args.grace)
            if _all_delivered(phones, sent):
                break
    acting = time.perf_counter() - start
    cpu_client = time.process_time() - cpu_client
    cpu_server = (server.cpu_seconds() - cpu_server) if cpu_server is not None else None
    delays, missed = _delays(phones, sent)
    for phone in phones:
        for sock in (phone.action, phone.stream):
            if sock is not None:
                sock.close()

    def ms(values, q):
        value = percentile(values, q)
        return "-" if value is None else f"{value * 1000:.1f}"

    print()
    print(
        f"Banco delivery benchmark: {args.games} games x {args.seats} phones, {args.rate:g} actions/s planned, "
        f"{args.duration:g} s, database {'SQLite (temporary file)' if args.database_url is None else 'given'}"
    )
    print(
        f"  actions answered 200 / refused / late (the phone's previous one unanswered)   "
        f"{answered} / {refused} / {late}"
    )
    print(f"  throughput                                  {answered / args.duration:.1f} actions/s")
    print(
        f"  action p50 / p95 / p99 / max                {ms(latencies, 50)} / {ms(latencies, 95)} / "
        f"{ms(latencies, 99)} / {ms(latencies, 100)} ms"
    )
    print(
        f"  delivery p50 / p95 / p99 / max (send -> other phones)  {ms(delays, 50)} / {ms(delays, 95)} / "
        f"{ms(delays, 99)} / {ms(delays, 100)} ms   target p95 < 10 ms"
    )
    print(f"  delivery pairs / missed                     {len(delays) + missed} / {missed}")
    if cpu_server is not None and answered:
        print(
            f"  server CPU per action                       {cpu_server * 1000 / answered:.2f} ms "
            f"({cpu_server / acting * 100:.0f}% of one core)"
        )
    print(f"  action connections reopened (the server lets one idle for 5 s go)  {sum(p.reopened for p in phones)}")
    print(f"  the client's own CPU                        {cpu_client / acting * 100:.0f}% of one core")
    return 0


def _delays(phones: list[Phone], sent: dict) -> tuple[list[float], int]:
    delays, missed = [], 0
    by_game: dict[str, list[Phone]] = {}
    for phone in phones:
        by_game.setdefault(phone.game["id"], []).append(phone)
    for (game_id, version), (at, seat) in sent.items():
        for phone in by_game[game_id]:
            if phone.seat == seat:
                continue  # the phone that acted reads its own answer
            first = next((when for v, when in phone.arrivals if v >= version), None)
            if first is None:
                missed += 1
            else:
                delays.append(first - at)
    return delays, missed


def _all_delivered(phones: list[Phone], sent: dict) -> bool:
    newest: dict[str, int] = {}
    for game_id, version in sent:
        newest[game_id] = max(newest.get(game_id, 0), version)
    return all(any(v >= newest.get(p.game["id"], 0) for v, _ in p.arrivals[-1:]) for p in phones)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10, help="games (at most 30: a phone's address each)")
    parser.add_argument("--seats", type=int, default=8, help="phones per game (2 to 8)")
    parser.add_argument("--rate", type=float, default=80.0, help="actions per second, over all games")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of actions (at most 300)")
    parser.add_argument("--grace", type=float, default=5.0, help="seconds to wait for late deliveries")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="a database of its own (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    if not 2 <= args.seats <= 8 or not 1 <= args.games <= 30 or not 0 < args.duration <= 300 or args.rate <= 0:
        parser.error("--seats 2 to 8, --games 1 to 30, --duration up to 300 s, --rate above 0")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
