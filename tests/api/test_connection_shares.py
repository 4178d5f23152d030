"""One address cannot take the server's connections from the others (``companion.serve.shares``):
an address past its share is answered 503 with words and ``Retry-After``, and is not counted
against the server's own limit, so another address is still served. Past that limit, a new
connection is answered the same way, in other words. The clients connect from
127.0.0.2 and 127.0.0.1, two addresses of the loopback."""

from __future__ import annotations

import json
import socket
import time

import pytest

from companion.serve import protocol
from companion.serve.shares import Shares
from companion.store import db
from tests.conftest import LiveServer, make_app

FLOODER, OTHER = "127.0.0.2", "127.0.0.1"
SHARE, LIMIT = 8, 20  # the server's limit is well past one share, and well short of the flood


def test_a_share_counts_each_address_apart_and_frees_a_place_when_one_closes():
    shares = Shares(2)
    assert shares.take("a") and shares.take("a") and not shares.take("a")
    assert shares.take("b")
    shares.release("a")
    assert shares.take("a") and not shares.take("a")
    assert shares.open == {"a": 2, "b": 1}
    shares.release("b")
    assert "b" not in shares.open  # an address gone leaves nothing behind


def test_no_share_means_no_limit():
    shares = Shares(0)
    assert all(shares.take("a") for _ in range(1000))


@pytest.fixture(params=["httptools", "h11"])
def server(request, tmp_path):
    app = make_app(tmp_path, CONNECTIONS_PER_ADDRESS=SHARE, CONNECTION_LIMIT=LIMIT)
    server = LiveServer(app, parser=request.param).start()
    yield server
    server.stop()
    with app.app_context():
        db.engine.dispose()


def connect(server, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))


def ask(sock: socket.socket, path: str = "/api/v1/editions", language: str = "en") -> tuple[int, dict, bytes]:
    """One GET on ``sock``; the status, the headers (lower-case names) and the body."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Language: {language}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers["content-length"]):
        body += sock.recv(65536)
    return int(lines[0].split()[1]), headers, body


def until(condition, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.01)


def flood(server, count: int) -> list[socket.socket]:
    """``count`` idle connections from ``FLOODER``, each accepted by the server before this returns."""
    socks = [connect(server, FLOODER) for _ in range(count)]
    shares = server.server.gate.shares
    until(lambda: shares.open.get(FLOODER, 0) == min(count, shares.limit or count))
    return socks


def test_an_address_holding_more_idle_connections_than_the_server_takes_leaves_the_others_served(server):
    idle = flood(server, LIMIT + 10)
    try:
        for _ in range(3):  # on a connection of its own each time, as a phone after a while
            with connect(server, OTHER) as phone:
                status, _, body = ask(phone)
                assert status == 200 and json.loads(body)["editions"]
        with connect(server, OTHER) as phone:  # and on one kept alive
            assert [ask(phone)[0] for _ in range(3)] == [200, 200, 200]
    finally:
        for sock in idle:
            sock.close()


def test_the_flooding_address_is_told_503_with_when_to_come_back_and_closed(server):
    idle = flood(server, SHARE)
    try:
        with connect(server, FLOODER) as extra:
            status, headers, body = ask(extra)
            assert status == 503 and headers["connection"] == "close"
            assert headers["retry-after"] == "5"
            error = json.loads(body)["error"]
            assert error["code"] == "too_many_connections"
            assert "Too many connections" in error["message"]
            assert extra.recv(1) == b""  # closed
        with connect(server, FLOODER) as page:
            status, headers, body = ask(page, "/", language="it")
            assert status == 503 and headers["content-type"].startswith("text/html")
            assert "Troppe connessioni" in body.decode()
        idle.pop().close()  # one of its connections closes: the address has a place again
        until(lambda: server.server.gate.shares.open[FLOODER] == SHARE - 1)
        with connect(server, FLOODER) as again:
            assert ask(again)[0] == 200
    finally:
        for sock in idle:
            sock.close()
    until(lambda: FLOODER not in server.server.gate.shares.open)  # every place given back


def test_a_connection_past_its_share_that_says_nothing_is_closed_soon(server, monkeypatch):
    monkeypatch.setattr(protocol, "CROWDED_SECONDS", 0.2)
    idle = flood(server, SHARE)
    try:
        with connect(server, FLOODER) as silent:
            started = time.monotonic()
            assert silent.recv(1) == b""  # closed, unanswered: it sent no request
            assert time.monotonic() - started < protocol.HEAD_SECONDS / 2
    finally:
        for sock in idle:
            sock.close()


def test_without_shares_a_full_server_turns_new_connections_away_in_words_and_serves_those_it_holds(tmp_path):
    """What the share prevents (issue 34: one client's 10,100 idle connections got another's
    payments 503): with no share, the same flood fills the server for every address. A new
    connection is then told so, in words; one the server already held is still served."""
    app = make_app(tmp_path, CONNECTIONS_PER_ADDRESS=0, CONNECTION_LIMIT=LIMIT)
    server = LiveServer(app).start()
    held = connect(server, OTHER)
    assert ask(held)[0] == 200
    idle = [connect(server, FLOODER) for _ in range(LIMIT + 10)]
    try:
        until(lambda: len(server.server.server_state.connections) >= LIMIT)
        with connect(server, OTHER) as phone:
            status, headers, body = ask(phone, language="it")
            assert status == 503 and headers["retry-after"] == "5" and headers["connection"] == "close"
            error = json.loads(body)["error"]
            assert error["code"] == "server_busy" and "La banca" in error["message"]
        assert ask(held)[0] == 200
    finally:
        held.close()
        for sock in idle:
            sock.close()
        server.stop()
        with app.app_context():
            db.engine.dispose()


def test_the_default_share_is_well_below_the_servers_limit(tmp_path):
    from companion import config

    assert config.CONNECTIONS_PER_ADDRESS * 20 <= config.CONNECTION_LIMIT
    assert config.CONNECTIONS_PER_ADDRESS > config.STREAMS_PER_ADDRESS  # a page's streams and its requests
