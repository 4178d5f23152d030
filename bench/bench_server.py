#!/usr/bin/env python3
"""Benchmark of the real Banco server: payments, live delivery, and many open live streams.

Starts ``python app.py`` as a subprocess (uvicorn with the Flask app mounted, a temporary
SQLite database unless ``--database-url`` is given, a free port on 127.0.0.1), waits until it
answers, then measures:

1. Payments: ``--phones`` simulated phones (one thread and one keep-alive HTTP connection
   each) pay each other small random amounts through ``POST /api/v1/games/{id}/actions``,
   ``--actions`` times each (or for ``--duration`` seconds). Reports actions per second and
   the latency of each action (from just before the request is written to when its whole
   answer has been read).
2. Delivery: every phone also holds the live stream ``GET /api/v1/games/{id}/stream``. For
   each successful action the benchmark knows the moment it was *sent* and the version it
   made; each other phone's stream is timed when an event of that version (or a later one:
   the server sends only the newest version, so a burst may be coalesced) arrives.
   Reports the delay from send to arrival over all (version, other phone) pairs.
3. Capacity: ``--listeners`` extra streams opened at once on one game with the banker's
   token. Each must answer 200 with a ``retry:`` line. Then one action is made and the
   benchmark times how many listeners learn its version. A stream that ends (or a server
   without its event loop, which answers ``retry: 3000`` and closes) makes the listener
   reconnect after the ``retry:`` delay with ``Last-Event-ID``, as a browser's EventSource
   would; it is then counted as served by a reconnect rather than by a held stream.
4. Idle connections: ``--idle-connections`` TCP connections opened and left silent; with all
   of them open, one payment is timed; then the benchmark counts how many the server has let
   go a little after its head timeout (``companion.serve.protocol.HEAD_SECONDS``). With
   ``--idle-from-one-address`` they all come from 127.0.0.2, as one client flooding the server
   (past ``BANCO_CONNECTIONS_PER_ADDRESS`` they are answered 503 and let go sooner),
   and the payment, from 127.0.0.1, is on a connection of its own opened after them.

Listeners (phase 3 and ``--background-listeners``) connect from the addresses 127.0.0.2 to
127.0.0.201 in turn (all loopback on Linux), as phones of a club each have their own: the
server holds at most ``BANCO_STREAMS_PER_ADDRESS`` streams from one address.

This is a benchmark, not a test: it prints figures and exits 0 whatever they are (it exits
non-zero only when it cannot run at all, e.g. the server does not start). Only 127.0.0.1 is
ever contacted. Every loop is bounded in count and in time, and the server subprocess is
always terminated.

    /work/venv/bin/python bench/bench_server.py                 # defaults: 8 phones x 200, 300 listeners
    /work/venv/bin/python bench/bench_server.py --background-listeners 3000 --listeners 0
    /work/venv/bin/python bench/bench_server.py --listeners 0 --idle-connections 1000
    /work/venv/bin/python bench/bench_server.py --listeners 0 --idle-connections 10100 --idle-from-one-address
    /work/venv/bin/python bench/bench_server.py --database-url postgresql://postgres@127.0.0.1:5432/banco_bench
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import datetime as dt
import http.client
import json
import os
import platform
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # the only address this benchmark ever contacts


def _app_threads() -> int:
    """The app's default ``BANCO_THREADS``, read from companion/config.py (the package itself,
    Flask and all, is not imported here)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("banco_config", ROOT / "companion" / "config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.THREADS


APP_THREADS = _app_threads()
EDITION = "classic-it"
MAX_PLAYERS = 8  # classic-it seats at most 8: more phones are spread over several games
LISTENER_ADDRESSES = 200  # listeners connect from 127.0.0.2 .. 127.0.0.201 in turn
FLOODER = "127.0.0.2"  # --idle-from-one-address: every idle connection from this one
HEAD_SECONDS = 10  # companion/serve/protocol.py: a connection silent this long is let go


def now() -> float:
    return time.perf_counter()


def percentile(values, q: float):
    """The q-th percentile (0-100) by linear interpolation; None for no values."""
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * q / 100.0
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def ms(seconds) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.1f}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# --- the server ------------------------------------------------------------------------------


class Server:
    """``python app.py`` in a subprocess, on a free loopback port, logging to a file."""

    def __init__(
        self,
        workdir: Path,
        database_url: str | None,
        threads: int | None,
        connection_limit: int | None,
        script: str = "app.py",
    ) -> None:
        self.port = free_port()
        self.script = script
        name = Path(script).stem
        self.database_url = database_url or f"sqlite:///{workdir / (name + '.sqlite3')}"
        self.log_path = workdir / f"{name}.log"
        self.env = {
            **os.environ,
            "HOST": HOST,
            "PORT": str(self.port),
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "bench-" + uuid.uuid4().hex,
            "BANCO_PUBLIC_URL": f"http://{HOST}:{self.port}",
            "PYTHONUNBUFFERED": "1",
            # Every table of a benchmark is opened from its one address (a club's 50 in
            # bench_club): the limit on new games per address is not what is measured.
            "BANCO_CREATIONS_PER_ADDRESS": "0",
        }
        if threads is not None:
            self.env["BANCO_THREADS"] = str(threads)
        if connection_limit is not None:
            self.env["BANCO_CONNECTION_LIMIT"] = str(connection_limit)
        self.threads = threads if threads is not None else APP_THREADS  # the app's default
        self.proc: subprocess.Popen | None = None
        self._log = None

    def start(self, timeout: float = 30.0) -> None:
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (held for the server's life, closed by stop)
        self.proc = subprocess.Popen(
            [sys.executable, self.script],
            cwd=ROOT,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.proc.returncode}:\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
                conn.request("GET", "/api/v1/editions")
                status = conn.getresponse().status
                conn.close()
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None

    def cpu_seconds(self) -> float | None:
        """The CPU time (user + system) the server process has used so far; None where
        /proc does not say (not Linux)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, AttributeError, IndexError, ValueError):
            return None

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def print_warnings(self) -> None:
        warnings = self.log_warnings()
        if warnings:
            print(f"  server log warnings/errors: {len(warnings)}, e.g.: {warnings[:3]}")

    def log_warnings(self) -> list[str]:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return []
        return [line for line in text.splitlines() if " WARNING " in line or " ERROR " in line or "Traceback" in line]


# --- the JSON API ----------------------------------------------------------------------------


class Api:
    """One persistent (keep-alive) HTTP connection to the server, like one phone's browser."""

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.port = port
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None
        self.reconnects = 0

    def _connect(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        return self.conn

    def call(self, method: str, path: str, body=None, token: str | None = None):
        """Returns (status, json or None, seconds taken). A dropped keep-alive connection is
        reopened and the request sent once more (actions carry a key, so that is safe)."""
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if payload is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        for attempt in range(2):
            conn = self._connect()
            t0 = now()
            try:
                conn.request(method, path, body=payload, headers=headers)
                response = conn.getresponse()
                raw = response.read()
                t1 = now()
            except (http.client.HTTPException, OSError):
                conn.close()
                self.conn = None
                if attempt == 1:
                    raise
                self.reconnects += 1
                continue
            try:
                data = json.loads(raw) if raw else None
            except ValueError:
                data = None
            return response.status, data, t1 - t0, t0, t1
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def new_game(api: Api, names: list[str], edition: str = EDITION) -> dict:
    status, body, *_ = api.call("POST", "/api/v1/games", {"edition": edition, "players": names, "seed": 1})
    if status != 201:
        raise RuntimeError(f"creating a game failed: {status} {body}")
    status, started, *_ = api.call(
        "POST", f"/api/v1/games/{body['id']}/actions", {"type": "start", "key": uuid.uuid4().hex}, body["banker_token"]
    )
    if status != 200:
        raise RuntimeError(f"starting the game failed: {status} {started}")
    body["version"] = started["version"]
    return body


# --- live streams ----------------------------------------------------------------------------


class Stream:
    """One EventSource-like client of ``/api/v1/games/{id}/stream`` driven by a ``StreamPool``.

    Like a browser it keeps the id of the last event it received and sends it as
    ``Last-Event-ID`` when it reconnects, after the delay of the last ``retry:`` line. It
    starts with ``last_id`` set to the version its owner already knows (a page knows the
    version it was drawn at), so nothing that happens before its first stream is lost."""

    def __init__(self, name: str, game_id: str, token: str, last_id: int | None, source: str = HOST) -> None:
        self.name = name
        self.source = source  # the address it connects from
        self.port: int | None = None  # the server it connects to, where not the pool's
        self.game_id = game_id
        self.token = token
        self.last_id = str(last_id) if last_id is not None else None
        self.retry_ms = 3000  # EventSource's own default until the server says otherwise
        self.sock: socket.socket | None = None
        self.attempts = 0  # connections opened
        self.busy_answers = 0  # streams the server answered with retry 3000 and closed at once
        self.ended = 0  # streams that ended normally (the 60 s limit or a busy answer)
        self.refusals: list[str] = []  # non-200 answers and connection errors
        self.failed = False  # a non-200 answer: EventSource gives up for good
        self.first_retry: dict[int, int] = {}  # attempt -> value of its first retry: line
        self.first_retry_at: float | None = None
        self.opened_at: float | None = None
        self.versions: list[int] = []  # versions received, in order (ascending)
        self.arrivals: list[float] = []  # and when
        self.version_attempt: list[int] = []  # on which connection each came
        self.reconnect_at: float | None = None
        self._reset_parser()

    # parsing state of one HTTP response
    def _reset_parser(self) -> None:
        self.raw = b""
        self.headers_done = False
        self.status: int | None = None
        self.chunked = False
        self.body_left: int | None = None
        self.chunk_left: int | None = None  # bytes left in the current chunk (+2 for its CRLF)
        self.text = ""
        self.ev_id: str | None = None
        self.ev_type = ""
        self.ev_data: list[str] = []

    def request_bytes(self, port: int) -> bytes:
        lines = [
            f"GET /api/v1/games/{self.game_id}/stream HTTP/1.1",
            f"Host: {HOST}:{port}",
            "Accept: text/event-stream",
            "Cache-Control: no-cache",
            f"Authorization: Bearer {self.token}",
        ]
        if self.last_id is not None:
            lines.append(f"Last-Event-ID: {self.last_id}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    @property
    def last_version(self) -> int:
        return self.versions[-1] if self.versions else -1

    def delivered_at(self, version: int) -> tuple[float, int, bool] | None:
        """(arrival time, attempt, exact) of the first event carrying ``version`` or later."""
        i = bisect.bisect_left(self.versions, version)
        if i == len(self.versions):
            return None
        return self.arrivals[i], self.version_attempt[i], self.versions[i] == version

    # bytes in; returns False when the response is over (the stream must be closed)
    def feed(self, data: bytes, t: float) -> bool:
        self.raw += data
        if not self.headers_done:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return True
            head = self.raw[:end].decode("latin-1").split("\r\n")
            self.raw = self.raw[end + 4 :]
            self.headers_done = True
            parts = head[0].split(" ", 2)
            self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
            headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:])}
            self.chunked = headers.get("transfer-encoding", "").lower() == "chunked"
            length = headers.get("content-length", "")
            self.body_left = int(length) if length.isdigit() and not self.chunked else None
            if self.status != 200:
                self.refusals.append(f"HTTP {self.status}")
                self.failed = True
                return False
            self.opened_at = t
        if not self.chunked:  # a body of Content-Length bytes (the busy answer), else the rest of the connection
            body = self.raw if self.body_left is None else self.raw[: self.body_left]
            self._text(body.decode("utf-8", "replace"), t)
            self.raw = b""
            if self.body_left is not None:
                self.body_left -= len(body)
                return self.body_left > 0  # a whole body read: this response, so this stream, is over
            return True
        while True:
            if self.chunk_left is None:
                end = self.raw.find(b"\r\n")
                if end < 0:
                    return True
                size = int(self.raw[:end].split(b";")[0] or b"0", 16)
                self.raw = self.raw[end + 2 :]
                if size == 0:
                    return False  # the last chunk: the stream is over
                self.chunk_left = size + 2
            take = self.raw[: max(0, self.chunk_left - 2)]
            if len(self.raw) < self.chunk_left:
                if take:
                    self._text(take.decode("utf-8", "replace"), t)
                    self.chunk_left -= len(take)
                    self.raw = self.raw[len(take) :]
                return True
            self._text(take.decode("utf-8", "replace"), t)
            self.raw = self.raw[self.chunk_left :]
            self.chunk_left = None

    def _text(self, text: str, t: float) -> None:
        self.text += text
        while "\n" in self.text:
            line, self.text = self.text.split("\n", 1)
            line = line.rstrip("\r")
            if line == "":
                self._dispatch(t)
            elif line.startswith(":"):
                continue  # a comment: the keep-alive
            else:
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "retry" and value.isdigit():
                    self.retry_ms = int(value)
                    if self.attempts not in self.first_retry:
                        self.first_retry[self.attempts] = int(value)
                        if self.first_retry_at is None:
                            self.first_retry_at = t
                elif field == "id":
                    self.ev_id = value
                elif field == "event":
                    self.ev_type = value
                elif field == "data":
                    self.ev_data.append(value)

    def _dispatch(self, t: float) -> None:
        if self.ev_id is not None:
            self.last_id = self.ev_id
        if self.ev_data and (self.ev_type or "message") == "version":
            try:
                version = int(json.loads("\n".join(self.ev_data))["version"])
            except (ValueError, KeyError, TypeError):
                version = None
            if version is not None and version > self.last_version:
                self.versions.append(version)
                self.arrivals.append(t)
                self.version_attempt.append(self.attempts)
        self.ev_id = None
        self.ev_type = ""
        self.ev_data = []


class StreamPool:
    """Runs many ``Stream``s on non-blocking sockets in one thread (so 300 listeners cost
    one client thread), timestamping bytes as they are read."""

    def __init__(self, port: int, streams: list[Stream], max_seconds: float) -> None:
        self.port = port
        self.streams = streams
        self.max_seconds = max_seconds
        self.sel = selectors.DefaultSelector()
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name="streams", daemon=True)
        # Only the streams waiting to reconnect are looked at between reads: with thousands of
        # held streams, scanning them all 50 times a second would cost this client a core.
        self.waiting: set[Stream] = set()
        self.reconnect = True

    def start(self) -> StreamPool:
        for s in self.streams:
            self._open(s)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(timeout=10)
        for s in self.streams:
            self._close(s)
        self.sel.close()

    def _open(self, s: Stream) -> None:
        s.attempts += 1
        s.reconnect_at = None
        self.waiting.discard(s)
        s._reset_parser()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((s.source, 0))
        err = sock.connect_ex((HOST, s.port or self.port))
        if err not in (0, 115, 11):  # 0, EINPROGRESS, EAGAIN
            s.refusals.append(f"connect errno {err}")
            sock.close()
            self._schedule(s)
            return
        s.sock = sock
        self.sel.register(sock, selectors.EVENT_WRITE, s)

    def _close(self, s: Stream) -> None:
        if s.sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(s.sock)
            s.sock.close()
            s.sock = None

    def _schedule(self, s: Stream) -> None:
        if self.reconnect and not s.failed:
            s.reconnect_at = time.monotonic() + s.retry_ms / 1000.0
            self.waiting.add(s)

    def _run(self) -> None:
        deadline = time.monotonic() + self.max_seconds
        while not self.stop_event.is_set() and time.monotonic() < deadline:
            for key, mask in self.sel.select(timeout=0.02):
                s: Stream = key.data
                if mask & selectors.EVENT_WRITE:
                    err = s.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                    if err:
                        s.refusals.append(f"connect errno {err}")
                        self._close(s)
                        self._schedule(s)
                        continue
                    try:
                        s.sock.sendall(s.request_bytes(s.port or self.port))  # a few hundred bytes: fits the buffer
                    except OSError as e:
                        s.refusals.append(f"send: {e.__class__.__name__}")
                        self._close(s)
                        self._schedule(s)
                        continue
                    self.sel.modify(s.sock, selectors.EVENT_READ, s)
                    continue
                try:
                    data = s.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError as e:
                    s.refusals.append(f"recv: {e.__class__.__name__}")
                    self._close(s)
                    self._schedule(s)
                    continue
                t = now()
                if not data:  # closed by the server
                    if not s.headers_done:
                        s.refusals.append("closed before any answer")
                    else:
                        self._ended(s)
                    self._close(s)
                    self._schedule(s)
                    continue
                if not s.feed(data, t):
                    if not s.failed:
                        self._ended(s)
                    self._close(s)
                    self._schedule(s)
            mono = time.monotonic()
            for s in list(self.waiting):
                if s.reconnect_at is not None and mono >= s.reconnect_at and s.sock is None:
                    self._open(s)

    @staticmethod
    def _ended(s: Stream) -> None:
        s.ended += 1
        if s.first_retry.get(s.attempts) == 3000 and s.opened_at is not None:
            s.busy_answers += 1


# --- 1 and 2: phones paying each other, with their live streams --------------------------------


def run_phones(server: Server, args, live: bool = True) -> dict:
    """Phases 1 and 2; ``live=False`` skips the streams (the floor has none)."""
    port = server.port
    setup = Api(port)
    games = []
    remaining = args.phones
    while remaining > 0:
        n = min(MAX_PLAYERS, remaining)
        if n == 1:  # a game needs two players: borrow one seat from the previous game's count
            n = 2
        names = [f"Phone{len(games) * MAX_PLAYERS + i + 1}" for i in range(n)]
        games.append(new_game(setup, names))
        remaining -= n
    phones = []  # (game index, player dict)
    for g, game in enumerate(games):
        for p in game["players"]:
            if len(phones) < args.phones:
                phones.append((g, p))

    streams = [Stream(p["name"], games[g]["id"], p["token"], games[g]["version"]) for g, p in phones] if live else []
    pool = StreamPool(port, streams, max_seconds=args.max_seconds).start()
    background = None
    if args.background_listeners and live:
        # Pages of another table left open: they hear nothing of this game, but share the server.
        other = new_game(setup, ["Idle1", "Idle2"])
        background = StreamPool(
            port,
            [
                Stream(f"B{i}", other["id"], other["banker_token"], other["version"], listener_address(i))
                for i in range(args.background_listeners)
            ],
            max_seconds=args.max_seconds,
        )
        background.start()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not all(s.first_retry or s.failed for s in streams):
        time.sleep(0.02)
    if background is not None:
        while time.monotonic() < deadline + 15 and not all(s.first_retry or s.failed for s in background.streams):
            time.sleep(0.02)
        time.sleep(0.5)
    streams_ok = sum(1 for s in streams if s.first_retry and not s.failed)
    background_ok = sum(1 for s in background.streams if s.first_retry and not s.failed) if background else 0

    lock = threading.Lock()
    sent: dict[tuple[int, int], tuple[float, float, int]] = {}  # (game, version) -> (t_send, t_answer, phone)
    latencies: list[float] = []
    refused = [0]
    errors: list[str] = []
    reconnects = [0]
    barrier = threading.Barrier(len(phones) + 1)
    stop_at = [0.0]

    def phone(idx: int) -> None:
        g, me = phones[idx]
        others = [p["id"] for p in games[g]["players"] if p["id"] != me["id"]]
        rng = random.Random(args.seed * 1000 + idx)
        api = Api(port)
        path = f"/api/v1/games/{games[g]['id']}/actions"
        mine_lat, mine_sent, mine_ref, mine_err = [], [], 0, []
        try:
            api._connect().connect()  # the phone's connection is open before the clock starts
        except OSError as e:
            mine_err.append(f"connect: {e}")
        barrier.wait(timeout=30)
        limit = args.actions if args.duration is None else 10_000_000
        for _ in range(limit):
            if time.monotonic() >= stop_at[0]:
                break
            body = {"type": "transfer", "to": rng.choice(others), "amount": rng.randint(1, 20), "key": uuid.uuid4().hex}
            try:
                status, data, took, t0, t1 = api.call("POST", path, body, me["token"])
            except (http.client.HTTPException, OSError) as e:
                mine_err.append(f"{e.__class__.__name__}: {e}")
                continue
            mine_lat.append(took)
            if status == 200 and isinstance(data, dict) and "version" in data:
                mine_sent.append((data["version"], t0, t1))
            elif status == 409:
                mine_ref += 1
            else:
                code = (data or {}).get("error", {}).get("code") if isinstance(data, dict) else None
                mine_err.append(f"HTTP {status} {code}")
            if args.think_ms:
                time.sleep(args.think_ms / 1000.0)
        api.close()
        with lock:
            latencies.extend(mine_lat)
            for version, t0, t1 in mine_sent:
                sent[(g, version)] = (t0, t1, idx)
            refused[0] += mine_ref
            errors.extend(mine_err)
            reconnects[0] += api.reconnects

    threads = [threading.Thread(target=phone, args=(i,), daemon=True) for i in range(len(phones))]
    for t in threads:
        t.start()
    run_for = args.duration if args.duration is not None else args.max_seconds
    stop_at[0] = time.monotonic() + run_for
    barrier.wait(timeout=30)
    t_start = now()
    cpu_start = server.cpu_seconds()
    for t in threads:
        t.join(timeout=run_for + 60)
    elapsed = now() - t_start
    cpu_end = server.cpu_seconds()
    cpu = cpu_end - cpu_start if cpu_start is not None and cpu_end is not None else None

    # Let the streams catch up with the last version of each game (bounded wait).
    last = {}
    for g, version in sent:
        last[g] = max(last.get(g, 0), version)
    deadline = time.monotonic() + (args.grace if live else 0)
    while time.monotonic() < deadline:
        if all(s.last_version >= last.get(phones[i][0], 0) for i, s in enumerate(streams)):
            break
        time.sleep(0.02)
    pool.stop()
    background_refused = background_reconnects = 0
    if background is not None:
        background.stop()
        background_refused = sum(1 for s in background.streams if s.refusals)
        background_reconnects = sum(s.attempts - 1 for s in background.streams)
    setup.close()

    from_send, from_answer = [], []
    missed = exact = coalesced = 0
    for (g, version), (t0, t1, actor) in sent.items() if live else ():
        for i, (pg, _) in enumerate(phones):
            if pg != g or i == actor:
                continue
            got = streams[i].delivered_at(version)
            if got is None:
                missed += 1
                continue
            t_arr, _, is_exact = got
            from_send.append(t_arr - t0)
            from_answer.append(t_arr - t1)
            exact += is_exact
            coalesced += not is_exact
    return {
        "background": args.background_listeners,
        "think_ms": args.think_ms,
        "background_ok": background_ok,
        "background_refused": background_refused,
        "background_reconnects": background_reconnects,
        "games": len(games),
        "phones": len(phones),
        "streams_ok": streams_ok,
        "stream_refusals": sum(len(s.refusals) for s in streams),
        "actions": len(latencies),
        "ok": len(sent),
        "refused": refused[0],
        "errors": errors,
        "reconnects": reconnects[0],
        "elapsed": elapsed,
        "latencies": latencies,
        "server_cpu": cpu,
        "delivery_from_send": from_send,
        "delivery_from_answer": from_answer,
        "pairs": len(from_send) + missed,
        "missed": missed,
        "exact": exact,
        "coalesced": coalesced,
    }


# --- 3: many listeners on one game ------------------------------------------------------------


def listener_address(i: int) -> str:
    return f"127.0.0.{2 + i % LISTENER_ADDRESSES}"


def run_listeners(port: int, args) -> dict:
    api = Api(port)
    game = new_game(api, ["Host", "Guest"])
    host = game["players"][0]
    known = game["version"] if args.listener_last_id == "known" else None
    streams = [
        Stream(f"L{i}", game["id"], game["banker_token"], known, listener_address(i)) for i in range(args.listeners)
    ]
    t_open = now()
    pool = StreamPool(port, streams, max_seconds=args.max_seconds).start()
    # Every listener must first answer 200 with its retry: line (held or busy).
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not all(s.first_retry or s.failed for s in streams):
        time.sleep(0.01)
    opened = [s.first_retry_at - t_open for s in streams if s.first_retry_at is not None]
    answered = sum(1 for s in streams if s.first_retry.get(1) is not None)
    held_before = sum(1 for s in streams if s.first_retry.get(1) == 1000)
    busy_first = sum(1 for s in streams if s.first_retry.get(1) == 3000)
    time.sleep(0.5)  # let every held stream reach the wait for the next version

    status, body, took, t0, _t1 = api.call(
        "POST",
        f"/api/v1/games/{game['id']}/actions",
        {"type": "transfer", "from": "bank", "to": host["id"], "amount": 1, "key": uuid.uuid4().hex},
        game["banker_token"],
    )
    version = body.get("version") if status == 200 and isinstance(body, dict) else None
    if version is not None:
        # The reconnect of a busy listener comes after its 3 s retry (plus a queue to get in).
        deadline = time.monotonic() + args.listener_wait
        while time.monotonic() < deadline and not all(s.last_version >= version or s.failed for s in streams):
            time.sleep(0.01)
    pool.stop()
    api.close()

    delays, held, reconnected, missed = [], 0, 0, 0
    for s in streams:
        got = s.delivered_at(version) if version is not None else None
        if got is None:
            missed += 1
            continue
        t_arr, attempt, _ = got
        delays.append(t_arr - t0)
        if attempt == 1 and s.first_retry.get(1) == 1000:
            held += 1
        else:
            reconnected += 1
    refused_streams = [s for s in streams if s.refusals]
    return {
        "listeners": len(streams),
        "answered": answered,
        "held_at_start": held_before,
        "busy_at_start": busy_first,
        "open_time": opened,
        "refused": len(refused_streams),
        "refusal_examples": sorted({r for s in refused_streams for r in s.refusals})[:5],
        "action_status": status,
        "action_latency": took,
        "version": version,
        "delivered": len(delays),
        "held": held,
        "reconnected": reconnected,
        "missed": missed,
        "delays": delays,
        "busy_answers": sum(s.busy_answers for s in streams),
    }


# --- 4: idle connections ---------------------------------------------------------------------


def run_idle(port: int, args) -> dict:
    """Opens ``--idle-connections`` connections that never send a byte, pays once with all of
    them open, then waits a little past the server's head timeout and counts those let go."""
    api = Api(port)
    game = new_game(api, ["Host", "Guest"])
    host, guest = game["players"][:2]
    socks, failed = [], []
    t_open = now()
    for i in range(args.idle_connections):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind((FLOODER if args.idle_from_one_address else listener_address(i), 0))
            sock.settimeout(5)
            sock.connect((HOST, port))
        except OSError as e:
            failed.append(f"{e.__class__.__name__}: {e}")
            sock.close()
            continue
        socks.append(sock)
    opened = now() - t_open
    if args.idle_from_one_address:
        api.close()
        api = Api(port)  # a phone's new connection, from another address, opened after the flood
    status, _body, took, _t0, _t1 = api.call(
        "POST",
        f"/api/v1/games/{game['id']}/actions",
        {"type": "transfer", "to": guest["id"], "amount": 1, "key": uuid.uuid4().hex},
        host["token"],
    )
    sel = selectors.DefaultSelector()
    for sock in socks:
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ)
    let_go, deadline = set(), time.monotonic() + HEAD_SECONDS + 5
    while len(let_go) < len(socks) and time.monotonic() < deadline:
        for key, _mask in sel.select(timeout=0.2):
            try:
                data = key.fileobj.recv(1024)
            except OSError:
                data = b""
            if not data:
                let_go.add(key.fileobj)
                sel.unregister(key.fileobj)
    sel.close()
    for sock in socks:
        sock.close()
    alive = api.call("GET", "/api/v1/editions")[0] == 200
    api.close()
    return {
        "asked": args.idle_connections,
        "open": len(socks),
        "failed": failed[:3],
        "open_time": opened,
        "status": status,
        "latency": took,
        "let_go": len(let_go),
        "alive": alive,
    }


# --- report ----------------------------------------------------------------------------------


def report(args, server: Server, phones: dict | None, listeners: dict | None, idle: dict | None, wall: float) -> None:
    db = "PostgreSQL" if server.database_url.startswith("postgres") else "SQLite (temporary file)"
    print()
    print("Banco server benchmark")
    print(
        f"  date {dt.datetime.now().isoformat(timespec='seconds')}   nproc {os.cpu_count()}   "
        f"Python {platform.python_version()}   {platform.system()} {platform.release()}   "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (other work on the machine skews figures)"
    )
    print(
        f"  server: python app.py (uvicorn, the Flask app mounted), app threads {server.threads}, "
        f"database {db}, streams per address {server.env.get('BANCO_STREAMS_PER_ADDRESS', 64)}"
    )
    print()
    rows = []

    def row(what, value, target=""):
        rows.append((what, value, target))

    if phones:
        lat = phones["latencies"]
        d = phones["delivery_from_send"]
        a = phones["delivery_from_answer"]
        rate = phones["actions"] / phones["elapsed"] if phones["elapsed"] > 0 else 0
        extra = f", {phones['think_ms']:g} ms pause between actions" if phones["think_ms"] else ""
        if phones["background"]:
            extra += f", {phones['background']} idle streams on another game"
        row("1. phones acting at once", f"{phones['phones']} (in {phones['games']} game(s)){extra}")
        row(
            "   actions sent / ok / refused 409 / errors",
            f"{phones['actions']} / {phones['ok']} / {phones['refused']} / {len(phones['errors'])}",
        )
        row("   throughput", f"{rate:.1f} actions/s over {phones['elapsed']:.2f} s")
        row("   server CPU per action (user + system)", _cpu_per_action(phones))
        row(
            "   action latency p50 / p95 / p99 / max (ms)",
            f"{ms(percentile(lat, 50))} / {ms(percentile(lat, 95))} / {ms(percentile(lat, 99))} / "
            f"{ms(max(lat) if lat else None)}",
            "p95 < 50 ms",
        )
        if phones["background"]:
            row(
                "   idle streams held / refused / reconnects",
                f"{phones['background_ok']} / {phones['background_refused']} / {phones['background_reconnects']}",
                "all / 0 / 0",
            )
        row("2. phone streams open (200 + retry:)", f"{phones['streams_ok']} / {phones['phones']}")
        row(
            "   deliveries to the other phones",
            f"{phones['pairs']} pairs: {phones['exact']} exact, "
            f"{phones['coalesced']} coalesced, {phones['missed']} missed",
            "0 missed",
        )
        row(
            "   delay from send p50 / p95 / p99 / max (ms)",
            f"{ms(percentile(d, 50))} / {ms(percentile(d, 95))} / {ms(percentile(d, 99))} / "
            f"{ms(max(d) if d else None)}",
            "p95 < 250 ms",
        )
        row(
            "   delay from answer p50 / p95 / p99 (ms)",
            f"{ms(percentile(a, 50))} / {ms(percentile(a, 95))} / {ms(percentile(a, 99))}",
        )
    if listeners:
        L = listeners
        o = L["open_time"]
        dl = L["delays"]
        row("3. listeners opened at once", f"{L['listeners']}")
        row("   answered 200 + retry: / refused", f"{L['answered']} / {L['refused']}", "0 refused")
        row("   first answer: held stream / busy (retry 3000)", f"{L['held_at_start']} / {L['busy_at_start']}")
        row(
            "   time to retry: line p50 / p95 / max (ms)",
            f"{ms(percentile(o, 50))} / {ms(percentile(o, 95))} / {ms(max(o) if o else None)}",
        )
        row("   the action", f"HTTP {L['action_status']} in {ms(L['action_latency'])} ms, version {L['version']}")
        row(
            "   received it: held stream / after reconnect / missed",
            f"{L['held']} / {L['reconnected']} / {L['missed']}",
            f"{L['listeners']} / 0 / 0",
        )
        row(
            "   delay from send p50 / p95 / max (ms)",
            f"{ms(percentile(dl, 50))} / {ms(percentile(dl, 95))} / {ms(max(dl) if dl else None)}",
        )
    if idle:
        row(
            f"4. idle connections{' (one address)' if args.idle_from_one_address else ''} open / failed",
            f"{idle['open']} / {idle['asked'] - idle['open']} (opened in {idle['open_time']:.1f} s)",
            "all / 0",
        )
        row("   a payment with all of them open", f"HTTP {idle['status']} in {ms(idle['latency'])} ms")
        row(
            f"   let go by the server within {HEAD_SECONDS + 5} s / alive after",
            f"{idle['let_go']} / {'yes' if idle['alive'] else 'no'}",
            "all / yes",
        )
    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    print(f"  {'measure'.ljust(width)}  {'figure'.ljust(vwidth)}  target")
    print(f"  {'-' * width}  {'-' * vwidth}  {'-' * 12}")
    for what, value, target in rows:
        print(f"  {what.ljust(width)}  {value.ljust(vwidth)}  {target}")
    print()
    if phones and phones["errors"]:
        print(f"  errors during actions (first 5 of {len(phones['errors'])}): {phones['errors'][:5]}")
    if phones and phones["reconnects"]:
        print(f"  keep-alive connections reopened by phones: {phones['reconnects']}")
    if listeners and listeners["refusal_examples"]:
        print(f"  listener refusals, e.g.: {listeners['refusal_examples']}")
    server.print_warnings()
    print(f"  total run time {wall:.1f} s")


def _cpu_per_action(phones: dict) -> str:
    if phones["server_cpu"] is None or not phones["actions"]:
        return "-"
    return f"{phones['server_cpu'] * 1000 / phones['actions']:.2f} ms"


def _rate(phones: dict) -> float:
    return phones["actions"] / phones["elapsed"] if phones["elapsed"] > 0 else 0.0


def report_floor(rounds: list[tuple[dict, dict]], served: str) -> None:
    """Banco against the floor, round by round (each round ran Banco, then the floor, under the
    same load), and the ratio of the medians."""
    how = "waitress" if served == "waitress" else "uvicorn (httptools, uvloop) + a2wsgi"
    print(
        f"Banco against the floor (bench/floor_app.py: bare Flask + Flask-SQLAlchemy + SQLite, "
        f"{how}), same phones and transfers, alternating"
    )
    print(
        f"  {'round':<6} {'Banco actions/s':>16} {'p95 ms':>8} {'CPU/action':>11} "
        f"{'floor actions/s':>16} {'p95 ms':>8} {'CPU/action':>11} {'ratio':>6}"
    )
    for n, (banco, floor) in enumerate(rounds, 1):
        print(
            f"  {n:<6} {_rate(banco):>16.1f} {ms(percentile(banco['latencies'], 95)):>8} {_cpu_per_action(banco):>11} "
            f"{_rate(floor):>16.1f} {ms(percentile(floor['latencies'], 95)):>8} {_cpu_per_action(floor):>11} "
            f"{_rate(banco) / max(_rate(floor), 1e-9):>6.2f}"
        )
    banco_rate = percentile([_rate(b) for b, _ in rounds], 50)
    floor_rate = percentile([_rate(f) for _, f in rounds], 50)
    errors = sum(len(b["errors"]) + len(f["errors"]) for b, f in rounds)
    print(
        f"  median: Banco {banco_rate:.1f} actions/s, the floor {floor_rate:.1f} actions/s: "
        f"Banco = {banco_rate / max(floor_rate, 1e-9):.2f} x the floor (target 3x); errors {errors}"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument("--phones", type=int, default=8, help="simulated phones paying each other at once")
    parser.add_argument("--actions", type=int, default=200, help="actions per phone")
    parser.add_argument(
        "--duration", type=float, default=None, help="act for this many seconds instead of a fixed number of actions"
    )
    parser.add_argument("--listeners", type=int, default=300, help="extra live streams opened at once (0: skip)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="e.g. postgresql://postgres@127.0.0.1:5432/banco_bench (the app creates its "
        "tables there: use a database of its own); default a temporary SQLite file",
    )
    parser.add_argument(
        "--threads", type=int, default=None, help=f"BANCO_THREADS for the server (app default {APP_THREADS})"
    )
    parser.add_argument("--connection-limit", type=int, default=None, help="BANCO_CONNECTION_LIMIT for the server")
    parser.add_argument(
        "--think-ms", type=float, default=0.0, help="pause of each phone between its actions (0: act again at once)"
    )
    parser.add_argument(
        "--background-listeners",
        type=int,
        default=0,
        help="idle live streams held on another game while the phones act",
    )
    parser.add_argument(
        "--listener-last-id",
        choices=("known", "none"),
        default="known",
        help="known: a listener's first request carries Last-Event-ID = the version it "
        "knows (as a page knows the version it was drawn at); none: like a bare "
        "EventSource, only ids it has received",
    )
    parser.add_argument(
        "--idle-connections", type=int, default=0, help="connections opened and left silent, then one payment (0: skip)"
    )
    parser.add_argument(
        "--idle-from-one-address",
        action="store_true",
        help="the idle connections all from 127.0.0.2 (one client flooding), the payment from 127.0.0.1",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random payments")
    parser.add_argument("--grace", type=float, default=5.0, help="seconds to wait for late deliveries")
    parser.add_argument(
        "--listener-wait",
        type=float,
        default=15.0,
        help="seconds the listeners get to receive the version (a busy one retries after 3 s)",
    )
    parser.add_argument("--max-seconds", type=float, default=120.0, help="hard limit of each phase")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="also run the same phones against bench/floor_app.py (a bare Flask + SQLite "
        "transfer served the same way), alternating with Banco, and print the ratio",
    )
    parser.add_argument(
        "--floor-queue",
        action="store_true",
        help="the floor's writers queue on one lock of the process (as Banco's do) instead of "
        "sleeping in SQLite's busy handler",
    )
    parser.add_argument(
        "--floor-server",
        choices=("uvicorn", "waitress"),
        default="uvicorn",
        help="how the floor is served: as Banco is (uvicorn + a2wsgi), or under waitress, as "
        "issue 17 first measured it (needs waitress, in requirements-dev.txt)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="with --floor: Banco then the floor, this many times")
    args = parser.parse_args(argv)
    if args.phones < 2 or args.actions < 1 or args.listeners < 0 or args.idle_connections < 0:
        parser.error("need at least 2 phones, 1 action and 0 or more listeners")
    if args.duration is not None:
        args.duration = min(args.duration, args.max_seconds)

    try:  # thousands of listeners: one open file each on this side too
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 10240), hard))
    except (ImportError, ValueError, OSError):
        pass
    wall = now()
    with tempfile.TemporaryDirectory(prefix="banco-bench-") as tmp:
        server = Server(Path(tmp), args.database_url, args.threads, args.connection_limit)
        # The floor on a SQLite file of its own, served the same way (bench/floor_app.py).
        floor = Server(Path(tmp), None, args.threads, None, script="bench/floor_app.py") if args.floor else None
        if floor is not None and args.floor_queue:
            floor.env["FLOOR_QUEUE"] = "1"
        if floor is not None:
            floor.env["FLOOR_SERVER"] = args.floor_server
        # The phones all connect from 127.0.0.1: past the server's per-address cap (64) their
        # streams would be refused, which a table's phones, each on its own address, never are.
        if args.phones > 64:
            server.env["BANCO_STREAMS_PER_ADDRESS"] = str(args.phones)
        phones = listeners = idle = None
        rounds: list[tuple[dict, dict]] = []
        try:
            print(f"starting the server on {HOST}:{server.port} ...", flush=True)
            server.start()
            if floor is not None:
                print(f"starting the floor on {HOST}:{floor.port} ...", flush=True)
                floor.start()
            for n in range(args.rounds if floor is not None else 1):
                print(
                    f"phase 1+2{f' (round {n + 1})' if floor else ''}: {args.phones} phones x "
                    f"{args.actions if args.duration is None else f'{args.duration:g} s of'} actions ...",
                    flush=True,
                )
                phones = run_phones(server, args)
                if floor is not None:
                    print(f"the floor (round {n + 1}): the same phones, the same transfers ...", flush=True)
                    rounds.append((phones, run_phones(floor, args, live=False)))
            if args.listeners:
                print(f"phase 3: {args.listeners} listeners ...", flush=True)
                listeners = run_listeners(server.port, args)
            if args.idle_connections:
                print(f"phase 4: {args.idle_connections} idle connections ...", flush=True)
                idle = run_idle(server.port, args)
        except Exception as e:  # a benchmark reports what it could not do, then stops the server
            print(f"benchmark failed: {e.__class__.__name__}: {e}", file=sys.stderr)
            print(server.log_tail(), file=sys.stderr)
            return 2
        finally:
            server.stop()
            if floor is not None:
                floor.stop()
        report(args, server, phones, listeners, idle, now() - wall)
        if rounds:
            report_floor(rounds, args.floor_server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
