"""The live layer under the real server (``companion.serve``): phones catch up after a restart
and after a missed event, one address cannot take every stream, a silent or slow client is
let go, and a thousand idle streams do not keep a payment from being answered; nothing is
logged when a phone leaves, and ``python app.py`` stops cleanly on Ctrl+C.

Every connection goes to 127.0.0.0/8 (127.0.0.2 is a second phone's address: the whole block
is loopback on Linux); every wait is bounded.
"""

from __future__ import annotations

import json
import logging
import resource
import signal
import socket
import struct
import time
import types

import pytest

from companion.extension import banco
from companion.live import streams
from companion.serve import gate, protocol, raise_file_limit
from companion.store import db
from tests.api.test_concurrency import call, new_game
from tests.conftest import LiveServer, app_py, free_port, make_app, wait_for_app_py

# On PostgreSQL too (python -m tests): catching up from the journal after a restart on the same database.
pytestmark = pytest.mark.database


class Stream:
    """A raw HTTP connection reading one answer as it comes (an event stream, or a refusal)."""

    def __init__(self, port: int, path: str, headers: dict | None = None, source: str = "127.0.0.1"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        lines = [f"GET {path} HTTP/1.1", "Host: banco.test", *(f"{k}: {v}" for k, v in (headers or {}).items())]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.data = b""
        self.closed = False

    def until(self, wanted: bytes, seconds: float = 10) -> bytes:
        """Reads until ``wanted`` has come (an assertion error after ``seconds``, or if the
        server closes first); returns all read so far."""
        deadline = time.monotonic() + seconds
        while wanted not in self.data:
            assert not self.closed, self.data[-300:]
            self._read(deadline)
        return self.data

    def until_closed(self, seconds: float = 10) -> bytes:
        deadline = time.monotonic() + seconds
        while not self.closed:
            self._read(deadline)
        return self.data

    def _read(self, deadline: float) -> None:
        left = deadline - time.monotonic()
        assert left > 0, f"nothing more in time; read so far: {self.data[-300:]!r}"
        self.sock.settimeout(left)
        try:
            part = self.sock.recv(65536)
        except ConnectionResetError:
            part = b""
        self.data += part
        self.closed = not part

    def status(self) -> int:
        return int(self.until(b"\r\n\r\n").split(b" ", 2)[1])

    def body(self) -> bytes:
        """The body of an answer that has its length (a refusal)."""
        head, _, _body = self.until(b"\r\n\r\n").partition(b"\r\n\r\n")
        length = next(
            int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
        )
        while len(self.data.partition(b"\r\n\r\n")[2]) < length:
            self._read(time.monotonic() + 10)
        return self.data.partition(b"\r\n\r\n")[2]

    def close(self) -> None:
        self.sock.close()


def paid(game) -> list[str]:
    """What Anna paying Bruno changes (``pay``): the cash, hers and his, and the feed."""
    anna, bruno = game["players"][:2]
    return sorted(["cash", f"cash:{anna['id']}", f"cash:{bruno['id']}", "feed"])


def event(version: int, parts) -> bytes:
    """The event of ``version``; ``parts`` what changed since the stream's last event (a
    payment's: ``paid(game)``), ``None`` when the server cannot tell. Its opening: the news the
    event may carry after the parts is ``news`` (``tests/api/test_news.py``)."""
    data = {"version": version, "parts": list(parts) if parts is not None else None}
    return b"id: %d\nevent: version\ndata: %s" % (version, json.dumps(data).encode()[:-1])


def pay(server, game, amount=10) -> dict:
    """Anna pays Bruno: one new version."""
    anna, bruno = game["players"][:2]
    status, body = call(
        f"{server.url}/api/v1/games/{game['id']}/actions",
        "POST",
        {"type": "transfer", "to": bruno["id"], "amount": amount},
        anna["token"],
    )
    assert status == 200, body
    return body


def version(server, game) -> int:
    status, state = call(f"{server.url}/api/v1/games/{game['id']}", token=game["banker_token"])
    assert status == 200
    return state["version"]


def stream_path(game) -> str:
    return f"/api/v1/games/{game['id']}/stream"


def bearer(game) -> dict:
    return {"Authorization": f"Bearer {game['banker_token']}"}


def test_a_stream_opens_where_the_game_stands_and_hears_the_next_version(live_server):
    game = new_game(live_server, ["Anna", "Bruno"])
    now = version(live_server, game)
    stream = Stream(live_server.port, stream_path(game), bearer(game))
    try:
        assert stream.status() == 200
        stream.until(b"retry: 1000\nid: %d\n\n" % now)
        pay(live_server, game)
        stream.until(event(now + 1, paid(game)))
        assert b"content-length" not in stream.data.lower()  # held open, sent chunk by chunk
    finally:
        stream.close()


def test_a_late_older_version_neither_ends_nor_repeats_a_held_stream(live_server):
    """Two writers commit v+1 then v+2, and the slower one announces v+1 last: the stream,
    which has sent v+2, stays open and silent until v+3."""
    game = new_game(live_server, ["Anna", "Bruno"])
    now = version(live_server, game)
    stream = Stream(live_server.port, stream_path(game), bearer(game))
    try:
        stream.until(b"id: %d\n" % now)
        pay(live_server, game)
        pay(live_server, game)
        stream.until(event(now + 2, paid(game)))
        banco(live_server.app).broker.publish(game["id"], now + 1)
        pay(live_server, game)
        data = stream.until(event(now + 3, paid(game)))
        assert data.count(b"id: %d\n" % (now + 1)) <= 1 and data.count(b"retry:") == 1
    finally:
        stream.close()


def test_a_quiet_stream_hears_a_keep_alive_and_ends_after_its_time(live_server, monkeypatch):
    """A keep-alive (the page's heartbeat) when the game has been quiet for a beat, none while events flow,
    and the stream's end after its time (the browser comes back with its last event id)."""
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 1.0)
    monkeypatch.setattr(streams, "STREAM_SECONDS", 4.0)
    game = new_game(live_server, ["Anna", "Bruno"])
    now = version(live_server, game)
    stream = Stream(live_server.port, stream_path(game), bearer(game))
    try:
        stream.until(b"id: %d\n" % now)
        opened = time.monotonic()
        stream.until(b"event: beat\ndata: 1\n\n", 5)
        assert time.monotonic() - opened > 0.8  # not before the game was quiet for a beat
        heard = []
        for extra in range(1, 6):  # an event every 0.3 s or so: not quiet for a beat
            pay(live_server, game)
            stream.until(event(now + extra, paid(game)))
            heard.append(time.monotonic())
            time.sleep(0.3)
        # A beat between two events only where the game was quiet for two of the stream's
        # half-beat ticks, which a loaded machine's slow payment can make; never otherwise.
        for extra in range(1, 5):
            one, next_one = event(now + extra, paid(game)), event(now + extra + 1, paid(game))
            between = stream.data[stream.data.index(one) : stream.data.index(next_one)]
            if b"event: beat" in between:
                assert heard[extra] - heard[extra - 1] > streams.KEEPALIVE_SECONDS / 2, heard
        stream.until(b"\r\n0\r\n\r\n", 5)  # the chunked answer's end
        assert time.monotonic() - opened < 4.5
    finally:
        stream.close()
    broker = banco(live_server.app).broker
    assert game["id"] not in broker._waiters  # the ended stream waits on nothing


def test_a_stream_whose_phone_left_waits_on_nothing(live_server):
    game = new_game(live_server, ["Anna", "Bruno"])
    stream = Stream(live_server.port, stream_path(game), bearer(game))
    stream.until(b"retry: 1000\n")
    broker = banco(live_server.app).broker
    stream.close()
    deadline = time.monotonic() + 10
    while (game["id"] in broker._waiters or live_server.server.gate.stream_shares.open) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert game["id"] not in broker._waiters and not live_server.server.gate.stream_shares.open
    pay(live_server, game)  # a version with nobody listening: nothing to wake, nothing fails


def test_a_stream_is_checked_by_the_app_as_every_request(live_server):
    """No token, a wrong token, another game's token: the app's own refusals, in its words."""
    game, other = new_game(live_server, ["Anna", "Bruno"]), new_game(live_server, ["Carla", "Dario"])
    for headers in ({}, {"Authorization": "Bearer nope"}, bearer(other)):
        stream = Stream(live_server.port, stream_path(game), headers)
        try:
            assert stream.status() == 401
            assert json.loads(stream.body())["error"]["code"]
        finally:
            stream.close()


def test_phones_catch_up_from_their_last_event_id_after_a_restart(live_server, tmp_path):
    game = new_game(live_server, ["Anna", "Bruno"])
    seen = version(live_server, game)
    stream = Stream(live_server.port, stream_path(game), bearer(game))
    try:
        stream.until(b"id: %d\n" % seen)
        live_server.stop()  # the laptop's server goes down: the stream ends, the phone will come back
        stream.until_closed()
    finally:
        stream.close()
    again = LiveServer(make_app(tmp_path, fresh=False), port=live_server.port).start()
    try:
        pay(again, game)  # while the phone was away
        back = Stream(again.port, stream_path(game), {**bearer(game), "Last-Event-ID": str(seen)})
        try:
            back.until(event(seen + 1, paid(game)))  # at once, from the journal's version, not at the next payment
            pay(again, game)
            back.until(event(seen + 2, paid(game)))
        finally:
            back.close()
    finally:
        again.stop()
        with again.app.app_context():
            db.engine.dispose()


def test_a_page_that_missed_events_recovers_from_the_version_it_has(live_server):
    """A page whose stream dropped while two payments went by asks from the version it shows
    (``?since=``, as the pages do): it is told the game's current version first of all."""
    game = new_game(live_server, ["Anna", "Bruno"])
    shown = version(live_server, game)
    pay(live_server, game)
    pay(live_server, game)
    stream = Stream(live_server.port, f"{stream_path(game)}?since={shown}", bearer(game))
    try:
        data = stream.until(event(shown + 2, paid(game)))
        assert event(shown + 1, paid(game)) not in data  # one event says where the game is now
    finally:
        stream.close()


@pytest.fixture
def capped_server(tmp_path):
    app = make_app(tmp_path, STREAMS_PER_ADDRESS=5)
    server = LiveServer(app).start()
    yield server
    server.stop()
    with app.app_context():
        db.engine.dispose()


def test_one_address_past_its_cap_is_refused_while_another_is_served(capped_server):
    server = capped_server
    game = new_game(server, ["Anna", "Bruno"])
    held = [Stream(server.port, stream_path(game), bearer(game)) for _ in range(5)]
    try:
        for stream in held:
            stream.until(b"retry: 1000\n")
        refused = Stream(server.port, stream_path(game), bearer(game))
        assert refused.status() == 429
        body = refused.body()
        assert b"retry-after: 10" in refused.data.lower()
        assert json.loads(body)["error"]["code"] == "too_many_attempts"
        refused.close()
        # Another phone, another address: served as ever, its payments too.
        other = Stream(server.port, stream_path(game), bearer(game), source="127.0.0.2")
        other.until(b"retry: 1000\n")
        pay(server, game)
        other.until(event(version(server, game), paid(game)))
        other.close()
        # A stream of the first address closes: the address may open one again.
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:
            again = Stream(server.port, stream_path(game), bearer(game))
            if again.status() == 200:
                held.append(again)
                break
            again.close()
            assert time.monotonic() < deadline, "the closed stream's slot never came back"
            time.sleep(0.1)
    finally:
        for stream in held:
            stream.close()


def test_a_silent_client_is_let_go(live_server, monkeypatch):
    monkeypatch.setattr(protocol, "HEAD_SECONDS", 0.5)
    silent = socket.create_connection(("127.0.0.1", live_server.port), timeout=10)
    trickling = socket.create_connection(("127.0.0.1", live_server.port), timeout=10)
    try:
        started = time.monotonic()
        trickling.sendall(b"GET / HTTP/1.1\r\n")
        for _ in range(20):  # a byte every 0.1 s: never a whole head
            try:
                trickling.sendall(b"X")
            except (BrokenPipeError, ConnectionResetError):
                break
            time.sleep(0.1)
        assert silent.recv(1024) == b""  # closed by the server, with nothing said
        assert time.monotonic() - started < 8
    finally:
        silent.close()
        trickling.close()


def test_a_body_that_does_not_come_is_refused_in_the_apps_words(live_server, monkeypatch):
    monkeypatch.setattr(gate, "BODY_SECONDS", 0.5)
    sock = socket.create_connection(("127.0.0.1", live_server.port), timeout=10)
    try:
        sock.sendall(
            b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"edition"'
        )
        data = b""
        while part := sock.recv(65536):
            data += part
    finally:
        sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and json.loads(body)["error"]["code"] == "bad_request"


def test_a_thousand_idle_streams_are_held_while_a_payment_is_answered(tmp_path):
    raise_file_limit()  # as app.py does: both ends of every connection live in this process
    count = 1100
    # One address plays a thousand phones here: no share of the connections per address.
    app = make_app(tmp_path, STREAMS_PER_ADDRESS=count, CONNECTIONS_PER_ADDRESS=0)
    server = LiveServer(app).start()
    streams = []
    try:
        game = new_game(server, ["Anna", "Bruno"])
        now = version(server, game)
        streams = [Stream(server.port, stream_path(game), bearer(game)) for _ in range(count)]
        for stream in streams:
            stream.until(b"id: %d\n" % now, seconds=60)
        pay(server, game)  # answered, with every stream held
        for stream in streams[:: count // 10]:
            stream.until(event(now + 1, paid(game)))
        assert all(not stream.closed for stream in streams)
    finally:
        for stream in streams:
            stream.close()
        server.stop()
        with app.app_context():
            db.engine.dispose()


def test_a_phone_leaving_writes_no_log_line(live_server):
    """Nor does any request: no access log, and a stream whose client goes is simply over."""
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    keep = Keep(level=logging.DEBUG)
    root = logging.getLogger()
    root.addHandler(keep)
    try:
        game = new_game(live_server, ["Anna", "Bruno"])
        stream = Stream(live_server.port, stream_path(game), bearer(game))
        stream.until(b"retry: 1000\n")
        stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        stream.close()  # a reset, as a phone that locks its screen
        streams = live_server.server.gate.stream_shares
        deadline = time.monotonic() + 10
        while streams.open and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not streams.open  # the server noticed, and let the stream go
    finally:
        root.removeHandler(keep)
    assert [r.getMessage() for r in records if r.levelno >= logging.INFO] == []


def test_the_open_file_limit_is_raised_to_the_hard_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert raise_file_limit() == (hard if hard != resource.RLIM_INFINITY else max(soft, 10240))


def test_app_py_prints_its_address_serves_a_stream_and_stops_cleanly_on_ctrl_c(tmp_path):
    port = free_port()
    proc = app_py(port, f"sqlite:///{tmp_path / 'app.sqlite3'}")
    try:
        server = types.SimpleNamespace(url=f"http://127.0.0.1:{port}")
        wait_for_app_py(proc, port)
        game = new_game(server, ["Anna", "Bruno"])
        stream = Stream(port, stream_path(game), bearer(game))
        try:
            stream.until(b"retry: 1000\n")
            proc.send_signal(signal.SIGINT)
            assert stream.until_closed().endswith(b"0\r\n\r\n")  # the stream was ended, not cut
        finally:
            stream.close()
        output = proc.communicate(timeout=20)[0].decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0, output
    assert f"http://127.0.0.1:{port}/" in output and f"Serving on http://127.0.0.1:{port}" in output
    assert output.rstrip().endswith("Banco has stopped.") and "Traceback" not in output


def test_a_chunked_body_within_the_limit_reaches_the_app_whole(live_server):
    body = json.dumps({"edition": "classic-it", "players": ["Anna", "Bruno"]}).encode()
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:10], body[10:]))
    sock = socket.create_connection(("127.0.0.1", live_server.port), timeout=10)
    try:
        sock.sendall(
            b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n"
        )
        data = b""
        while part := sock.recv(65536):
            data += part
    finally:
        sock.close()
    head, _, answer = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 201 ") and json.loads(answer)["join_code"]
