"""What an attacker on the same Wi-Fi tried against the server, kept as tests: bodies too big
to read (chunked or not, through the test client and through the server as ``app.py`` serves),
JSON too deep to parse, ``since`` past 64 bits, join codes and digits outside ASCII, and the
HTTP manners (429 with ``Retry-After``, 405 with ``Allow``, cookies marked ``Secure`` behind
HTTPS). Each refusal has its status and code, changes nothing, and nothing ever answers 5xx.
"""

from __future__ import annotations

import json
import random
import select
import socket
import subprocess
import time
from dataclasses import replace

import pytest
from sqlalchemy import func
from sqlalchemy import select as sql_select

from companion import config, extension, services
from companion.services import bodies
from companion.store import Game, Player, db
from companion.web.ratelimit import RateLimiter, TooManyAttempts, hit
from tests.conftest import app_py, free_port, make_app, wait_for_app_py

# On PostgreSQL too (python -m tests): numbers past 64 bits and odd characters sent at the database.
pytestmark = pytest.mark.database

LIMIT = config.MAX_BODY_BYTES


def counts(app) -> tuple[int, int]:
    """How many games and players the database holds."""
    with app.app_context():
        games = db.session.execute(sql_select(func.count()).select_from(Game)).scalar()
        players = db.session.execute(sql_select(func.count()).select_from(Player)).scalar()
        db.session.rollback()
        return games, players


def padded_game(size: int) -> bytes:
    """A valid new-game request of exactly ``size`` bytes (spaces before the closing brace)."""
    body = json.dumps({"edition": "classic-it", "players": ["Anna", "Bruno"]})
    return (body[:-1] + " " * (size - len(body)) + "}").encode()


def refused(response, status: int, code: str) -> dict:
    """The usual error body, with ``status`` and ``code``."""
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    body = response.get_json()
    assert set(body) == {"error"} and body["error"]["code"] == code and body["error"]["message"]
    return body


# --- 1. bodies: a size limit, read by nobody past it -----------------------------------------


def test_the_default_limit_is_64_kb_and_the_app_always_has_one(app):
    assert LIMIT == 64 * 1024 and app.config["MAX_CONTENT_LENGTH"] == LIMIT


def test_a_body_over_the_limit_is_413_and_creates_nothing(app, client):
    before = counts(app)
    response = client.post("/api/v1/games", data=padded_game(LIMIT + 1), content_type="application/json")
    refused(response, 413, "too_large")
    assert counts(app) == before


def test_a_body_of_exactly_the_limit_is_read(app, client):
    response = client.post("/api/v1/games", data=padded_game(LIMIT), content_type="application/json")
    assert response.status_code == 201, response.get_json()


def test_a_huge_body_is_refused_by_its_declared_length_before_it_is_read(app):
    """200 MB announced, a few bytes sent: refused on the header, the rest never awaited."""
    before = counts(app)
    environ = {"CONTENT_LENGTH": str(200 * 1024 * 1024), "CONTENT_TYPE": "application/json", "wsgi.input": _Endless()}
    response = app.test_client().post("/api/v1/games", environ_overrides=environ)
    refused(response, 413, "too_large")
    assert environ["wsgi.input"].read_bytes == 0
    assert counts(app) == before


class _Endless:
    """A request body that never ends, counting what was read of it."""

    read_bytes = 0

    def read(self, size=-1):
        size = 65536 if size is None or size < 0 else size
        self.read_bytes += size
        return b" " * size

    def readline(self, size=-1):
        return self.read(size)


def test_a_chunked_body_without_length_is_cut_at_the_limit(app):
    """No Content-Length (chunked, the server marks the input as terminated): read up to the
    limit, then refused."""
    before = counts(app)
    stream = _Endless()
    response = app.test_client().post(
        "/api/v1/games",
        content_type="application/json",
        environ_overrides={"wsgi.input": stream, "wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"},
    )
    refused(response, 413, "too_large")
    assert stream.read_bytes <= 2 * LIMIT
    assert counts(app) == before


def test_the_limit_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "x")
    monkeypatch.setenv("BANCO_MAX_BODY_BYTES", "1000")
    assert config.from_environment(tmp_path)["MAX_CONTENT_LENGTH"] == 1000
    monkeypatch.delenv("BANCO_MAX_BODY_BYTES")
    assert config.from_environment(tmp_path)["MAX_CONTENT_LENGTH"] == LIMIT


def test_a_lower_limit_applies_to_the_api(tmp_path):
    small = make_app(tmp_path, WTF_CSRF_ENABLED=False, MAX_CONTENT_LENGTH=100)
    try:
        refused(
            small.test_client().post("/api/v1/games", data=padded_game(101), content_type="application/json"),
            413,
            "too_large",
        )
        assert (
            small.test_client()
            .post("/api/v1/games", data=padded_game(100), content_type="application/json")
            .status_code
            == 201
        )
    finally:
        with small.app_context():
            db.engine.dispose()


# --- through the server, as app.py serves ------------------------------------------------


def exchange(port: int, head: bytes, chunks=(), pause: float = 0.0) -> tuple[int, dict, bytes, int]:
    """Sends a raw request: ``head`` then each of ``chunks`` until the server answers; returns
    the status, the headers (lower-case names), the body, and how many body bytes were sent."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sent = 0
    try:
        sock.sendall(head)
        for chunk in chunks:
            if select.select([sock], [], [], pause)[0]:
                break  # answered already: the rest is not wanted
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        data = b""
        try:
            while part := sock.recv(65536):
                data += part
        except (TimeoutError, ConnectionResetError):
            pass
    finally:
        sock.close()
    head_part, _, body = data.partition(b"\r\n\r\n")
    lines = head_part.decode("latin-1").split("\r\n")
    assert lines and lines[0].startswith("HTTP/1.1 "), data[:200]
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body, sent


def _json_error(headers, body, status, code):
    assert headers["content-type"].startswith("application/json")
    error = json.loads(body)["error"]
    assert error["code"] == code and error["message"]
    return error


def test_the_server_refuses_a_200_mb_body_by_its_length_with_the_usual_error_body(live_server):
    before = counts(live_server.app)
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 209715200\r\n\r\n"
    )
    status, headers, body, _sent = exchange(live_server.port, head, [b" " * 1024])
    assert status == 413
    error = _json_error(headers, body, 413, "too_large")
    assert error["message"] == "The request is too large."
    assert headers.get("connection") == "close"
    assert counts(live_server.app) == before


def test_the_server_cuts_a_chunked_body_at_the_limit(live_server):
    """Chunked, no length: the server stops reading at the limit and answers 413 as the app."""
    before = counts(live_server.app)
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"%x\r\n%s\r\n" % (8192, b" " * 8192)
    status, headers, body, sent = exchange(live_server.port, head, [chunk] * 1000, pause=0.005)  # up to 8 MB
    assert status == 413
    _json_error(headers, body, 413, "too_large")
    assert sent < 1024 * 1024  # refused long before the 8 MB were sent
    assert counts(live_server.app) == before


def test_the_server_answers_a_person_with_the_error_page_in_their_language(live_server):
    head = (
        b"POST /games HTTP/1.1\r\nHost: x\r\nAccept-Language: it\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 104857600\r\n\r\n"
    )
    status, headers, body, _sent = exchange(live_server.port, head, [b"name=Anna&"])
    assert status == 413 and headers["content-type"].startswith("text/html")
    page = body.decode()
    assert "<!doctype html>" in page.lower() and "La richiesta è troppo grande." in page
    assert "content-security-policy" in headers  # the app's own headers, as on every page


def test_the_server_never_answers_5xx_to_a_transfer_coding_it_does_not_know(live_server):
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"
    )
    status, headers, body, _sent = exchange(live_server.port, head)
    assert status == 400
    _json_error(headers, body, 400, "bad_request")


def test_the_server_still_serves_requests_within_the_limit(live_server):
    body = padded_game(LIMIT)
    head = (
        b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    status, _headers, answer, _sent = exchange(live_server.port, head + body)
    assert status == 201 and json.loads(answer)["join_code"]


def test_app_py_serves_with_the_limit(tmp_path):
    """``python app.py`` itself: the environment's limit, and the server's 413 in the app's words."""
    port = free_port()
    proc = app_py(
        port,
        f"sqlite:///{tmp_path / 'app.sqlite3'}",
        subprocess.DEVNULL,
        BANCO_THREADS="8",
        BANCO_MAX_BODY_BYTES="2000",
    )
    try:
        wait_for_app_py(proc, port)
        head = (
            b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2001\r\n\r\n"
        )
        status, headers, body, _sent = exchange(port, head, [b" " * 100])
        assert status == 413
        _json_error(headers, body, 413, "too_large")
        small = padded_game(2000)
        head = (
            b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(small)
        )
        assert exchange(port, head + small)[0] == 201
    finally:
        proc.terminate()
        proc.wait(10)


# --- JSON too deep, or not JSON at all -------------------------------------------------------


def _nested(depth: int) -> str:
    return '{"edition": "classic-it", "players": ["Anna", "Bruno"], "x": ' + "[" * depth + "]" * depth + "}"


@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_json_nested_100000_deep_is_400_not_a_recursion_error(tmp_path, opening):
    big = make_app(tmp_path, WTF_CSRF_ENABLED=False, MAX_CONTENT_LENGTH=1024 * 1024)
    try:
        closing = "]" if opening == "[" else "}"
        body = opening * 100_000 + "1" + closing * 100_000
        body = refused(
            big.test_client().post("/api/v1/games", data=body, content_type="application/json"), 400, "invalid_json"
        )
        assert "32" in body["error"]["message"]
        assert counts(big) == (0, 0)
    finally:
        with big.app_context():
            db.engine.dispose()


def test_json_as_deep_as_the_limit_allows_fits_in_the_default_body(app, client):
    """30,000 levels fit in 64 KB: refused by depth, before the parser recurses."""
    refused(
        client.post("/api/v1/games", data="[" * 30_000 + "]" * 30_000, content_type="application/json"),
        400,
        "invalid_json",
    )
    assert counts(app) == (0, 0)


def test_depth_32_is_read_33_is_refused_and_brackets_in_text_do_not_count(app, client):
    assert bodies.MAX_JSON_DEPTH == 32
    # 32 levels are read: the body gets as far as its fields, where x is none of a new game's.
    body = refused(
        client.post("/api/v1/games", data=_nested(31), content_type="application/json"), 400, "unknown_field"
    )
    assert body["error"]["message"] == "This request has no field x."
    body = refused(client.post("/api/v1/games", data=_nested(32), content_type="application/json"), 400, "invalid_json")
    assert body["error"]["message"] == "Send a JSON object nested at most 32 levels deep."
    name = "[" * 35
    response = client.post("/api/v1/games", json={"edition": "classic-it", "players": [name, '{"\\"' * 8]})
    assert response.status_code == 201
    assert [p["name"] for p in response.get_json()["players"]] == [name, '{"\\"' * 8]


def test_the_refusals_speak_italian(client):
    response = client.post(
        "/api/v1/games", data=_nested(40), content_type="application/json", headers={"Accept-Language": "it"}
    )
    assert (
        refused(response, 400, "invalid_json")["error"]["message"]
        == "Invia un oggetto JSON annidato al massimo su 32 livelli."
    )
    response = client.post(
        "/api/v1/games", data='{"seed": NaN}', content_type="application/json", headers={"Accept-Language": "it"}
    )
    assert refused(response, 400, "invalid_json")["error"]["message"].startswith("Invia JSON valido")


@pytest.mark.parametrize(
    "raw",
    [
        '{"edition": "classic-it", "players": ["Anna", "Bruno"], "seed": NaN}',
        '{"edition": "classic-it", "players": ["Anna", "Bruno"], "seed": Infinity}',
        '{"edition": "classic-it", "players": ["Anna", "Bruno"], "seed": -Infinity}',
        '{"edition": "classic-it", "players": ["Anna", "Bruno"], "seed": 1e999}',
        '{"edition": "classic-it", "players": ["Anna", "\\ud800"]}',
        '{"edition": "classic-it", "players": ["Anna", "Bruno"], "\\udfff": 1}',
        '{"edition": "classic-it", "players": ["Anna", "Bruno"], "seed": ' + "9" * 5000 + "}",
        b'{"edition": "classic-it", "players": ["Anna", "\xff\xfe"]}',
        b'{"edition": "classic-it", "players": ["Anna", "\xed\xa0\x80"]}',
        "",
        "null",
        "[]",
        '"text"',
        "{",
        '{"a": 1} x',
    ],
)
def test_what_is_not_json_or_not_an_object_is_400(app, client, raw):
    refused(client.post("/api/v1/games", data=raw, content_type="application/json"), 400, "invalid_json")
    assert counts(app) == (0, 0)


def test_text_in_every_language_and_a_surrogate_pair_are_fine(client):
    response = client.post(
        "/api/v1/games",
        data=b'{"edition": "classic-it", "players": ["\\ud83c\\udfb2 Ann", "Bj\xc3\xb6rn"]}',
        content_type="application/json",
    )
    assert response.status_code == 201
    assert [p["name"] for p in response.get_json()["players"]] == ["\U0001f3b2 Ann", "Björn"]


def test_a_lone_surrogate_in_a_join_code_or_a_key_is_400(api):
    game = api.new_game().start()
    before = game.state()
    status, body = api.post(f"/api/v1/games/{game.id}/join", raw='{"join_code": "\\ud800", "name": "Zoe"}')
    assert status == 400 and body["error"]["code"] == "invalid_json"
    status, body = game.api.post(
        f"/api/v1/games/{game.id}/actions",
        raw='{"type": "transfer", "to": "bank", "amount": 1, "key": "\\udc00"}',
        token=game.tokens["Anna"],
    )
    assert status == 400 and body["error"]["code"] == "invalid_json"
    assert game.state() == before


# --- 2. six ways to a 500 --------------------------------------------------------------------


@pytest.mark.parametrize("since", [str(2**63), str(2**64), "9" * 30, "1" * 5000])
def test_since_beyond_64_bits_is_400(api, since):
    game = api.new_game().start()
    status, body = api.get(f"/api/v1/games/{game.id}/events?since={since}", game.banker)
    assert status == 400 and body["error"]["code"] == "invalid_since"
    assert body["error"]["message"] == "since must be a whole number from 0 to 9,223,372,036,854,775,807."


@pytest.mark.parametrize("since", [str(2**63 - 1), str(2**31), str(2**31 - 1)])
def test_since_within_64_bits_is_nothing_newer(api, since):
    game = api.new_game().start()
    status, body = api.get(f"/api/v1/games/{game.id}/events?since={since}", game.banker)
    assert status == 200 and body == {"events": [], "more": False}


@pytest.mark.parametrize("since", ["²", "٣", "1²", "-1", "1.5", " 1", "१"])
def test_since_in_other_digits_is_400(api, since):
    game = api.new_game().start()
    response = game.api.client.get(
        f"/api/v1/games/{game.id}/events",
        query_string={"since": since},
        headers={"Authorization": f"Bearer {game.banker}"},
    )
    refused(response, 400, "invalid_since")


@pytest.mark.parametrize("code", ["ÉÉÉÉÉÉ", "日本語コード", "ÄBÇ123", "é", "\u00a0ABCDE", "ａｂｃｄｅｆ"])
def test_a_join_code_outside_ascii_is_403_and_seats_nobody(app, api, code):
    game = api.new_game()
    before = counts(app)
    status, body = api.post(f"/api/v1/games/{game.id}/join", {"join_code": code, "name": "Zoe"})
    assert status == 403 and body["error"]["code"] == "wrong_join_code"
    assert counts(app) == before


@pytest.mark.parametrize("code", ["ÉÉÉÉÉÉ", "²²²²²²", "%C3%A9", "a" * 300])
def test_a_join_page_for_a_code_outside_ascii_is_404(client, code):
    assert client.get(f"/j/{code}").status_code == 404
    assert client.post(f"/j/{code}", data={"name": "Zoe"}).status_code == 404


@pytest.mark.parametrize("since", ["²", "٣", "9" * 5000, "-1", "a\u0000"])
def test_a_stream_resumed_from_no_number_starts_now(api, since):
    game = api.new_game().start()
    auth = {"Authorization": f"Bearer {game.banker}"}
    client = game.api.client
    for response in (
        client.get(f"/api/v1/games/{game.id}/stream", query_string={"since": since}, headers=auth),
        client.get(
            f"/api/v1/games/{game.id}/stream",
            headers={**auth, "Last-Event-ID": since.encode("utf-8").decode("latin-1")},
        ),
    ):
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
        assert f"id: {game.state()['version']}" in response.get_data(as_text=True)


# --- 6. HTTP manners -------------------------------------------------------------------------


def test_429_says_when_to_come_back(api):
    game = api.new_game()
    for _ in range(20):
        status, _body = api.post(f"/api/v1/games/{game.id}/join", {"join_code": "WRONG1", "name": "Zoe"})
        assert status == 403
    response = game.api.client.post(f"/api/v1/games/{game.id}/join", json={"join_code": game.join_code, "name": "Zoe"})
    body = refused(response, 429, "too_many_attempts")
    seconds = int(response.headers["Retry-After"])
    assert 1 <= seconds <= 60 and f"Try again in {seconds} s." in body["error"]["message"]
    assert len(game.state()["players"]) == 3  # the right code, refused all the same: nobody joined


def test_429_on_a_page_says_it_too(client):
    for _ in range(20):
        client.get("/j/NOSUCH")
    response = client.get("/j/NOSUCH")
    assert response.status_code == 429 and response.mimetype == "text/html"
    assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_retry_after_counts_down_to_the_oldest_attempt_leaving_the_window(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    limiter = RateLimiter(limit=3, window_seconds=60)
    for at in (1000.0, 1010.0, 1020.0):
        now[0] = at
        hit(limiter, "phone")
    now[0] = 1044.5
    with pytest.raises(TooManyAttempts) as refused_at:
        hit(limiter, "phone")
    assert refused_at.value.retry_after == 16 and refused_at.value.status == 429  # 15.5 s, rounded up
    now[0] = 1060.0  # the first attempt leaves the window: one slot free
    hit(limiter, "phone")
    with pytest.raises(TooManyAttempts) as refused_at:
        hit(limiter, "phone")
    assert refused_at.value.retry_after == 10


@pytest.mark.parametrize(
    "method, path, allowed",
    [
        ("DELETE", "/api/v1/games", {"POST"}),
        ("GET", "/api/v1/games", {"POST"}),
        ("PUT", "/api/v1/games/abc/actions", {"POST"}),
        ("DELETE", "/api/v1/editions", {"GET", "HEAD", "POST"}),
    ],
)
def test_405_says_which_methods_the_address_takes(client, method, path, allowed):
    response = client.open(path, method=method)
    refused(response, 405, "method_not_allowed")
    assert allowed <= {m.strip() for m in response.headers["Allow"].split(",")}


def test_405_on_a_page_says_it_too(client):
    response = client.put("/")
    assert response.status_code == 405 and response.mimetype == "text/html"
    assert "GET" in response.headers["Allow"]


def test_cookies_are_not_secure_by_default_so_plain_http_works(client):
    response = client.get("/lang/it")
    assert "Secure" not in response.headers["Set-Cookie"]


def test_behind_https_every_cookie_is_secure(tmp_path):
    secure = make_app(tmp_path, WTF_CSRF_ENABLED=False, SECURE_COOKIES=True)
    try:
        assert secure.config["SESSION_COOKIE_SECURE"] is True
        client = secure.test_client()
        response = client.get("/lang/it")
        assert "; Secure" in response.headers["Set-Cookie"] and response.headers["Set-Cookie"].startswith("lang=it")
        response = client.post(
            "/games", data={"edition": "classic-it", "name": ["Anna", "Bruno"]}, base_url="https://banco.test"
        )
        assert response.status_code == 302
        session = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
        assert session and all("; Secure" in c for c in session)
    finally:
        with secure.app_context():
            db.engine.dispose()


@pytest.mark.parametrize("value, secure", [("1", True), ("true", True), ("", False), ("0", False)])
def test_secure_cookies_follow_the_environment(monkeypatch, tmp_path, value, secure):
    monkeypatch.setenv("SECRET_KEY", "x")
    monkeypatch.setenv("BANCO_SECURE_COOKIES", value)
    assert config.from_environment(tmp_path)["SECURE_COOKIES"] is secure


# --- anything at all: never a 5xx ------------------------------------------------------------

ODD_TEXT = [
    "²",
    "٣",
    "\u0000",
    "é",
    "ÉÉÉÉÉÉ",
    "\ufeff",
    "\u202e",
    "💸",
    "%00",
    "%ff",
    "%C3%28",
    "..",
    "\\",
    "a" * 3000,
    "9" * 40,
    "-1",
    " ",
    "null",
    "[]",
    "{}",
    "<script>",
    "' OR 1=1 --",
]


def _odd_value(rng: random.Random):
    return rng.choice(
        [
            rng.choice(ODD_TEXT),
            rng.randint(-(2**70), 2**70),
            10 ** rng.randint(1, 300),
            -0.0,
            1.5,
            True,
            False,
            None,
            [],
            {},
            [rng.choice(ODD_TEXT)],
            {"cash": rng.choice(ODD_TEXT), "deeds": [rng.choice(ODD_TEXT)]},
            "x" * rng.randint(0, 500),
            "bank",
            "free_parking",
        ]
    )


def _odd_body(rng: random.Random, fields: dict) -> bytes:
    """A JSON body bent out of shape: fields swapped for odd values, unknown fields, truncated,
    bytes flipped, nested deep, or not JSON at all."""
    data = dict(fields)
    for _ in range(rng.randint(1, 3)):
        data[
            rng.choice(
                list(fields)
                + ["key", "player", "to", "from", "amount", "dice", "deed", "trade", "pending", "give", "get", "x"]
            )
        ] = _odd_value(rng)
    text = json.dumps(data)
    shape = rng.random()
    if shape < 0.1:
        text = text[: rng.randint(0, len(text))]
    elif shape < 0.2:
        i = rng.randint(0, len(text))
        text = text[:i] + rng.choice(["\\ud800", "\\", '"', "[" * 40, "NaN", "1e999", "\u0000", "}"]) + text[i:]
    elif shape < 0.25:
        text = "[" * rng.randint(30, 40) + text + "]" * rng.randint(0, 40)
    elif shape < 0.3:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))
    return text.encode("utf-8", "surrogatepass")


def test_a_few_hundred_odd_requests_never_get_a_5xx(app, api):
    rng = random.Random(20261130)
    extension.init_app(app, replace(extension.banco(app), limiter=RateLimiter(limit=10**6, window_seconds=60)))
    game = api.new_game().start()
    client = game.api.client
    tokens = [game.banker, game.tokens["Anna"], "", "x" * 300, "é", game.banker + "x"]
    actions = [
        "transfer",
        "collect",
        "pass_go",
        "buy",
        "pay_rent",
        "build",
        "mortgage",
        "bid",
        "auction_start",
        "trade_propose",
        "request",
        "approve",
        "undo",
        "pot_collect",
        "bankrupt",
        "nope",
        "",
    ]
    paths = [
        "/api/v1/games",
        f"/api/v1/games/{game.id}/join",
        f"/api/v1/games/{game.id}/actions",
        f"/api/v1/games/{game.id}",
        f"/api/v1/games/{game.id}/events",
        "/api/v1/editions/{}",
        "/api/v1/games/{}/actions",
        "/api/v1/games/{}/events",
        "/api/v1/games/{}",
        "/j/{}",
        "/r/{}",
        "/g/{}/me",
        "/g/{}/table",
        "/g/{}/deeds/{}",
        "/card/classic-it/{}",
        "/print/{}/money.pdf",
        "/lang/{}",
        "/print",
        "/",
        "/games",
        "/join",
    ]
    seen = 0
    for _ in range(400):
        path = rng.choice(paths)
        while "{}" in path:
            path = path.replace("{}", rng.choice(ODD_TEXT + [game.id, game.join_code, "classic-it"]), 1)
        headers = {"Authorization": f"Bearer {rng.choice(tokens)}"}
        for name in rng.sample(
            ["Last-Event-ID", "Accept-Language", "Content-Type", "Cookie", "X-Forwarded-For"], rng.randint(0, 3)
        ):
            headers[name] = (
                rng.choice(ODD_TEXT + ["it;q=x,,", "application/json; charset=utf-16", "session=garbage; lang=\u00ff"])
                .encode("utf-8")
                .decode("latin-1")
            )
        query = (
            {rng.choice(["since", "players", "paper", "lang", "code", "next", "edition", "as"]): rng.choice(ODD_TEXT)}
            if rng.random() < 0.5
            else {}
        )
        method = rng.choice(["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
        body = _odd_body(
            rng,
            {
                "type": rng.choice(actions),
                "amount": 10,
                "to": "bank",
                "edition": "classic-it",
                "players": ["Anna", "Bruno"],
                "join_code": game.join_code,
                "name": "Zoe",
            },
        )
        response = client.open(path, method=method, data=body, headers=headers, query_string=query)
        assert response.status_code < 500, (method, path, headers, query, body[:200], response.get_data()[:300])
        if path.startswith("/api/") and response.status_code >= 400 and method != "HEAD":
            assert set(response.get_json()["error"]) == {"code", "message"}
        seen += 1
    assert seen >= 350
    with app.app_context():
        checked, findings = services.verify_all()
        assert checked >= 1 and findings == []
