"""The API's actions answered on the server's loop at the app's door (``companion.services.door``,
``companion.serve.writer``), without the Flask app's request cycle: the same answers as the app's
route, byte for byte, refusals included, each worded in the reader's language by the code that
judged it and never run a second time; requests that arrive together committed as one batch; and
with either HTTP parser (httptools or h11), the server's manners with a request head it will not
take.

Every connection goes to 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import pytest
from sqlalchemy import event
from werkzeug.exceptions import HTTPException

from companion import services
from companion.serve import protocol
from companion.serve.gate import Gate
from companion.serve.mount import Mount
from companion.serve.writer import Handover
from companion.services import door
from companion.services.writer import Waiting, Writer
from companion.store import db
from tests.api.test_concurrency import call
from tests.conftest import LiveServer, make_app, new_key

# On PostgreSQL too (python -m tests): the writer's batches, committed in savepoints, answered after the commit.
pytestmark = pytest.mark.database


def raw(port: int, request: bytes) -> tuple[int, dict, bytes]:
    """One request on a connection of its own; the status, the headers (lower-case) and the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            part = sock.recv(65536)
            assert part, data
            data += part
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            part = sock.recv(65536)
            assert part, data
            body += part
    return int(lines[0].split()[1]), headers, body


def action(port: int, game_id: str, token: str | None, body: bytes, *extra: str) -> tuple[int, dict, bytes]:
    headers = [
        f"POST /api/v1/games/{game_id}/actions HTTP/1.1",
        "Host: banco.test",
        "Connection: close",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        *extra,
    ]
    if token is not None:
        headers.append(f"Authorization: Bearer {token}")
    return raw(port, ("\r\n".join(headers) + "\r\n\r\n").encode() + body)


def new_game(server, players=("Anna", "Bruno"), **extra) -> dict:
    status, game = call(
        f"{server.url}/api/v1/games", "POST", {"edition": "classic-it", "players": list(players), **extra}
    )
    assert status == 201
    game["ids"] = {p["name"]: p["id"] for p in game["players"]}
    game["tokens"] = {p["name"]: p["token"] for p in game["players"]}
    assert action(server.port, game["id"], game["banker_token"], b'{"type": "start"}')[0] == 200
    return game


def balanced(app, game_id: str) -> None:
    """The game's money equals its journal, entry by entry."""
    with app.app_context():
        assert services.verify_game(services.get_game(game_id)) == []


@pytest.fixture
def counted(monkeypatch):
    """The action requests the server handed to the Flask app (its route ``api.act``); the loop
    answers them all at the door itself, so none."""
    ran = []
    call_app = Mount._call

    def counting(self, environ, *rest):
        if environ["PATH_INFO"].endswith("/actions"):
            ran.append(environ["PATH_INFO"])
        return call_app(self, environ, *rest)

    monkeypatch.setattr(Mount, "_call", counting)
    return ran


def through_the_app(server, game_id: str, token: str | None, body: bytes, **headers):
    """The same request answered by the app's own route (Flask's test client), to compare."""
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return server.app.test_client().post(
        f"/api/v1/games/{game_id}/actions", data=body, headers={"Content-Type": "application/json", **headers}
    )


def same_answer(served: tuple[int, dict, bytes], app_answer) -> None:
    """The server's answer is the app's, byte for byte, headers included."""
    status, headers, body = served
    assert (status, body) == (app_answer.status_code, app_answer.data)
    apps = {k.lower(): v for k, v in app_answer.headers.items() if k.lower() != "content-length"}
    # (the server adds its date, and closes the connection this request asked it to close)
    assert {k: v for k, v in headers.items() if k not in ("content-length", "date", "connection")} == apps
    assert int(headers["content-length"]) == len(body)


def test_an_action_is_answered_without_the_app_and_exactly_as_the_app_answers_it(live_server, counted):
    game = new_game(live_server)
    body = json.dumps({"type": "transfer", "to": game["ids"]["Bruno"], "amount": 40, "key": new_key()}).encode()
    status, headers, answer = action(live_server.port, game["id"], game["tokens"]["Anna"], body)
    assert status == 200 and counted == []
    assert json.loads(answer)["result"]["cash"] == 1460
    # The same request again through the app itself: a repeat, answered with the first answer,
    # byte for byte: jsonify's keys, spacing, newline.
    same_answer((status, headers, answer), through_the_app(live_server, game["id"], game["tokens"]["Anna"], body))
    balanced(live_server.app, game["id"])


def test_money_asked_from_a_strict_bank_is_202_on_the_direct_path(live_server, counted):
    game = new_game(live_server, settings={"strict_bank": True})
    status, _headers, answer = action(
        live_server.port,
        game["id"],
        game["tokens"]["Anna"],
        b'{"type": "collect", "amount": 100, "reason": "beauty contest"}',
    )
    assert status == 202 and counted == []
    assert json.loads(answer)["result"]["held"] is True


def test_a_refusal_is_worded_at_the_door_in_the_readers_language_runs_once_and_changes_nothing(
    live_server, counted, monkeypatch
):
    game = new_game(live_server)
    before = call(f"{live_server.url}/api/v1/games/{game['id']}", token=game["banker_token"])[1]
    writer, ran = door.of(live_server.app).writer, []
    run_batch = writer.run_batch
    monkeypatch.setattr(writer, "run_batch", lambda batch: (ran.append(len(batch)), run_batch(batch)))
    body = json.dumps({"type": "transfer", "to": game["ids"]["Bruno"], "amount": 99999}).encode()
    token = game["tokens"]["Anna"]
    italian = action(live_server.port, game["id"], token, body, "Accept-Language: it")
    error = json.loads(italian[2])["error"]
    assert italian[0] == 409 and error["code"] == "insufficient_cash"
    assert "content-security-policy" in italian[1]
    english = action(live_server.port, game["id"], token, body)
    assert error["message"] != json.loads(english[2])["error"]["message"]  # worded for each reader
    chosen = action(live_server.port, game["id"], token, body, "Accept-Language: it", "Cookie: lang=en")
    assert chosen[2] == english[2]  # the reader's own choice first, as on the pages
    assert counted == [] and ran == [1, 1, 1]  # each judged once, in one batch, and answered from there
    after = call(f"{live_server.url}/api/v1/games/{game['id']}", token=game["banker_token"])[1]
    assert after["version"] == before["version"] and after["players"] == before["players"]
    # Exactly what the app's own route answers, headers included.
    same_answer(italian, through_the_app(live_server, game["id"], token, body, **{"Accept-Language": "it"}))
    same_answer(english, through_the_app(live_server, game["id"], token, body))


@pytest.mark.parametrize(
    "token, body, status, code",
    [
        (None, b'{"type": "start"}', 401, "missing_token"),
        (None, b'{"type": ', 401, "missing_token"),  # who asks is checked before what they send
        ("not-a-token", b'{"type": "start"}', 401, "invalid_token"),
        ("banker", b'{"type": ', 400, "invalid_json"),
        ("banker", b"[1, 2]", 400, "invalid_json"),
        ("banker", b'{"type": "fly"}', 400, "unknown_action"),
        ("banker", b'{"type": "end_turn", "key": ""}', 400, "invalid_key"),
        ("banker", b'{"type": "start", "type": "end"}', 400, "duplicate_key"),
        ("banker", b'{"type": "trade_propose", "give": {"cash": 1, "cash": 2}}', 400, "duplicate_key"),
    ],
)
def test_the_door_answers_its_refusals_itself_as_the_app_does(live_server, counted, token, body, status, code):
    game = new_game(live_server)
    token = game["banker_token"] if token == "banker" else token
    served = action(live_server.port, game["id"], token, body, "Accept-Language: it")
    assert (served[0], json.loads(served[2])["error"]["code"]) == (status, code)
    assert counted == []
    same_answer(served, through_the_app(live_server, game["id"], token, body, **{"Accept-Language": "it"}))


def test_a_key_given_twice_is_refused_by_name_on_every_route(api):
    game = api.new_game(("Anna", "Bruno")).start()
    answer = api.client.post(
        f"/api/v1/games/{game.id}/actions",
        data=b'{"type": "transfer", "to": "x", "amount": 5, "amount": 500}',
        headers={"Authorization": f"Bearer {game.tokens['Anna']}", "Content-Type": "application/json"},
    )
    assert answer.status_code == 400
    assert answer.get_json()["error"] == {"code": "duplicate_key", "message": "The field 'amount' is given twice."}
    assert game.cash() == {"Anna": 1500, "Bruno": 1500}
    created = api.client.post(
        "/api/v1/games",
        data=b'{"edition": "classic-it", "players": ["A", "B"], "players": []}',
        content_type="application/json",
    )
    assert created.status_code == 400 and created.get_json()["error"]["code"] == "duplicate_key"
    assert "players" in created.get_json()["error"]["message"]


def test_an_unknown_game_is_404_as_the_app_says(live_server, counted):
    got, _headers, answer = action(live_server.port, "nosuchgame", "whatever", b'{"type": "start"}')
    assert (got, json.loads(answer)["error"]["code"]) == (404, "unknown_game")
    got, _headers, answer = action(live_server.port, "nosuchgame", None, b'{"type": ')
    assert (got, json.loads(answer)["error"]["code"]) == (404, "unknown_game")  # before the token, and the body
    assert counted == []


def test_a_repeated_key_on_the_direct_path_pays_once(live_server, counted):
    game = new_game(live_server)
    body = json.dumps({"type": "transfer", "to": game["ids"]["Bruno"], "amount": 25, "key": "tap-1"}).encode()
    first = action(live_server.port, game["id"], game["tokens"]["Anna"], body)
    second = action(live_server.port, game["id"], game["tokens"]["Anna"], body)
    assert first[0] == second[0] == 200 and first[2] == second[2]
    state = call(f"{live_server.url}/api/v1/games/{game['id']}", token=game["banker_token"])[1]
    assert {p["name"]: p["cash"] for p in state["players"]} == {"Anna": 1475, "Bruno": 1525}


def test_phones_paying_at_once_are_committed_in_batches_and_money_holds(live_server, counted):
    game = new_game(live_server, players=[f"P{i}" for i in range(8)])
    names = list(game["ids"])
    errors = []

    def phone(i: int) -> None:
        me, to = names[i], names[(i + 1) % 8]
        for _ in range(15):
            body = json.dumps({"type": "transfer", "to": game["ids"][to], "amount": 3, "key": new_key()}).encode()
            status = action(live_server.port, game["id"], game["tokens"][me], body)[0]
            if status != 200:
                errors.append(status)

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [] and counted == []
    state = call(f"{live_server.url}/api/v1/games/{game['id']}", token=game["banker_token"])[1]
    assert state["version"] == 2 + 8 * 15  # opened, started, then every payment
    assert sorted(p["cash"] for p in state["players"]) == [1500] * 8  # each paid and received 45
    balanced(live_server.app, game["id"])


def test_a_batch_that_fails_whole_runs_once_more_in_the_writer(live_server, counted, monkeypatch):
    game = new_game(live_server)
    failing = {"left": 1}
    writer = door.of(live_server.app).writer
    run_batch = writer.run_batch

    def once_broken(batch):
        if failing["left"]:
            failing["left"] -= 1
            raise RuntimeError("the disk is full")
        return run_batch(batch)

    monkeypatch.setattr(writer, "run_batch", once_broken)
    body = json.dumps({"type": "transfer", "to": game["ids"]["Bruno"], "amount": 10, "key": new_key()}).encode()
    status, _headers, answer = action(live_server.port, game["id"], game["tokens"]["Anna"], body)
    assert status == 200 and json.loads(answer)["result"]["cash"] == 1490
    assert failing["left"] == 0 and counted == []  # answered from the writer's second run, not by the app
    balanced(live_server.app, game["id"])


def test_a_batch_that_fails_twice_is_answered_500_and_changes_nothing(live_server, counted, monkeypatch):
    game = new_game(live_server)

    def broken(batch):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(door.of(live_server.app).writer, "run_batch", broken)
    body = json.dumps({"type": "transfer", "to": game["ids"]["Bruno"], "amount": 10}).encode()
    status, _headers, answer = action(live_server.port, game["id"], game["tokens"]["Anna"], body)
    assert status == 500 and json.loads(answer)["error"]["code"] == "internal_error"
    assert counted == []
    monkeypatch.undo()
    state = call(f"{live_server.url}/api/v1/games/{game['id']}", token=game["banker_token"])[1]
    assert {p["name"]: p["cash"] for p in state["players"]} == {"Anna": 1500, "Bruno": 1500}


def test_the_loop_knows_the_actions_route_as_the_app_declares_it(app):
    gate = Gate(app)
    try:
        routes = app.url_map.bind("")
        for path in (
            "/api/v1/games/ab12cd34/actions",
            "/api/v1/games/x/actions",
            "/api/v1/games//actions",
            "/api/v1/games/a/b/actions",
            "/api/v1/games/ab12cd34/actions/",
            "/api/v1/games/ab12cd34/action",
            "/api/v1/games/ab12cd34",
            "/api/v1/games/actions",
            "/g/ab12cd34/actions",
        ):
            try:
                endpoint, values = routes.match(path, "POST")
                expected = values["game_id"] if endpoint == "api.act" else None
            except HTTPException:
                expected = None
            assert gate._action_route(path) == expected, path
    finally:
        gate.mount.shutdown()


# --- the batch itself -------------------------------------------------------------------------


def test_a_batch_where_every_action_stands_takes_no_savepoint(app, api):
    game = api.new_game(("Anna", "Bruno")).start()
    statements = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        batch = [
            services.prepare(
                game.id, None, {"type": "transfer", "to": game.ids["Bruno"], "amount": 5}, game.tokens["Anna"]
            )
            for _ in range(4)
        ]
        services.run_batch(batch)
    assert [w.error for w in batch] == [None] * 4
    assert [w.answer["version"] for w in batch] == [3, 4, 5, 6]
    assert not [s for s in statements if "SAVEPOINT" in s.upper()]
    assert game.cash() == {"Anna": 1480, "Bruno": 1520}


def test_the_requests_of_one_turn_of_the_loop_are_one_batch():
    batches = []

    def numbered(n: int) -> Waiting:
        work = Waiting()
        work.answer = n
        return work

    async def scenario(handover):
        await asyncio.gather(*(handover.submit(numbered(n)) for n in range(3)))
        await handover.submit(numbered(3))

    writer = Writer(lambda batch: batches.append([w.answer for w in batch]))
    try:
        asyncio.run(scenario(Handover(writer)))
    finally:
        writer.stop()
    assert batches == [[0, 1, 2], [3]]


# --- either HTTP parser -----------------------------------------------------------------------


@pytest.fixture(params=["httptools", "h11"])
def any_parser(request, tmp_path):
    app = make_app(tmp_path)
    server = LiveServer(app, parser=request.param).start()
    server.parser = request.param
    yield server
    server.stop()
    with app.app_context():
        db.engine.dispose()


def test_both_parsers_serve_an_action_directly(any_parser, counted):
    game = new_game(any_parser)
    body = json.dumps({"type": "transfer", "to": game["ids"]["Bruno"], "amount": 1}).encode()
    assert action(any_parser.port, game["id"], game["tokens"]["Anna"], body)[0] == 200
    assert counted == []


def test_both_parsers_refuse_a_head_too_large_in_the_apps_words(any_parser):
    head = b"GET /api/v1/editions HTTP/1.1\r\nHost: x\r\n" + b"X-Padding: " + b"a" * (protocol.HEAD_BYTES + 100)
    status, headers, body = raw(any_parser.port, head)
    assert status == 431 and headers["connection"] == "close"
    assert json.loads(body)["error"]["code"]


def test_both_parsers_refuse_a_transfer_coding_other_than_chunked(any_parser):
    status, _headers, body = raw(
        any_parser.port,
        b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/json\r\n"
        b"Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
    )
    assert status == 400 and json.loads(body)["error"]["code"] == "bad_request"


def test_both_parsers_read_a_chunked_action(any_parser, counted):
    game = new_game(any_parser)
    body = json.dumps({"type": "transfer", "to": game["ids"]["Bruno"], "amount": 2}).encode()
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:10], body[10:])) + b"0\r\n\r\n"
    request = (
        f"POST /api/v1/games/{game['id']}/actions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        f"Authorization: Bearer {game['tokens']['Anna']}\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    status, _headers, answer = raw(any_parser.port, request + chunks)
    assert status == 200 and json.loads(answer)["result"]["cash"] == 1498 and counted == []


def test_a_stream_asked_right_behind_another_request_is_not_taken_for_a_silent_client(any_parser, monkeypatch):
    """httptools reads a request sent behind another before that one is answered: the head
    timeout must not start again for it when the first answer ends (it once cut such a stream,
    a page's live updates, after ten seconds)."""
    monkeypatch.setattr(protocol, "HEAD_SECONDS", 0.5)
    game = new_game(any_parser)
    with socket.create_connection(("127.0.0.1", any_parser.port), timeout=10) as sock:
        sock.sendall(
            b"GET /api/v1/editions HTTP/1.1\r\nHost: x\r\n\r\n"
            + (
                f"GET /api/v1/games/{game['id']}/stream HTTP/1.1\r\nHost: x\r\n"
                f"Authorization: Bearer {game['banker_token']}\r\n\r\n"
            ).encode()
        )
        data = b""
        while b"retry:" not in data:
            part = sock.recv(65536)
            assert part, data
            data += part
        time.sleep(1.5)  # three head timeouts
        body = json.dumps({"type": "transfer", "to": game["ids"]["Bruno"], "amount": 1}).encode()
        version = json.loads(action(any_parser.port, game["id"], game["tokens"]["Anna"], body)[2])["version"]
        while b"id: %d\n" % version not in data:
            part = sock.recv(65536)
            assert part, data  # the server closed the stream
            data += part


def test_a_huge_head_sent_behind_a_stream_ends_the_connection_and_nothing_else(any_parser):
    game = new_game(any_parser)
    with socket.create_connection(("127.0.0.1", any_parser.port), timeout=10) as sock:
        sock.sendall(
            (
                f"GET /api/v1/games/{game['id']}/stream HTTP/1.1\r\nHost: x\r\n"
                f"Authorization: Bearer {game['banker_token']}\r\n\r\n"
            ).encode()
        )
        data = b""
        while b"retry:" not in data:
            data += sock.recv(65536)
        sent = 0
        try:
            sock.sendall(b"GET /api/v1/editions HTTP/1.1\r\nX-Padding: ")
            while sent < 4 * protocol.HEAD_BYTES:
                sock.sendall(b"a" * 4096)
                sent += 4096
        except (BrokenPipeError, ConnectionResetError):
            pass
        if any_parser.parser == "httptools":  # h11 reads nothing behind a request being answered
            sock.settimeout(10)
            try:
                while sock.recv(65536):
                    pass
            except ConnectionResetError:
                pass  # ended by the server either way
    assert call(f"{any_parser.url}/api/v1/editions")[0] == 200  # and the server serves on


def test_actions_queued_after_the_writer_stopped_still_run():
    ran = []
    writer = Writer(ran.extend, idle_seconds=0.1)

    async def scenario():
        writer.stop()
        await asyncio.wait_for(Handover(writer).submit(Waiting()), 5)  # not left waiting

    asyncio.run(scenario())
    threading.Event().wait(0.3)  # idle: its thread has ended
    writer.submit(Waiting())  # and starts again
    writer.stop()
    assert len(ran) == 2
