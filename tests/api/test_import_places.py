"""Game files imported a few at a time, each counted before it is read: a file past what this
process imports at once is told to come back (503 with Retry-After), a file holding more than a
game's file can is refused unread, and neither stores anything (``services.importing``)."""

from __future__ import annotations

import io
import json
import threading

import pytest

from companion.extension import banco
from companion.services import bodies, importing
from tests.api.gamekit import ok, refusal
from tests.api.test_game_files import counts, export, import_file, played
from tests.web.test_pages import csrf

pytestmark = pytest.mark.database

BUSY = "The bank is carrying on other saved games right now. Send the file again in 10 s."


def held(app, places=2):
    """Every place of ``app``'s imports taken, as two imports running would hold them."""
    imports = banco(app).imports
    for _ in range(places):
        assert imports.take()
    return imports


def test_a_third_import_while_two_run_is_told_to_come_back_and_nothing_is_stored(app, api, monkeypatch):
    data = export(played(api, "classic-it"))
    inside, go_on = threading.Barrier(3, timeout=60), threading.Event()
    real = importing.import_game

    def slow_import(file, hand_out_tokens=True):
        inside.wait()  # both imports hold their place
        assert go_on.wait(60)
        return real(file, hand_out_tokens=hand_out_tokens)

    monkeypatch.setattr(importing, "import_game", slow_import)
    answers: list[int] = []

    def carry_on():
        answers.append(app.test_client().post("/api/v1/games/import", json=data).status_code)

    running = [threading.Thread(target=carry_on) for _ in range(2)]
    for thread in running:
        thread.start()
    inside.wait()
    before = counts(app)
    response = api.client.post("/api/v1/games/import", json=data)
    assert response.status_code == 503 and response.headers["Retry-After"] == "10"
    assert response.get_json()["error"] == {"code": "busy_importing", "message": BUSY}
    assert counts(app) == before
    go_on.set()
    for thread in running:
        thread.join(60)
    assert answers == [201, 201]
    monkeypatch.setattr(importing, "import_game", real)
    ok(import_file(api, data), 201)  # the places are free again


def test_the_refusal_to_come_back_is_in_the_readers_language(app, api):
    data = export(played(api, "classic-it"))
    imports = held(app)
    try:
        response = api.client.post("/api/v1/games/import", json=data, headers={"Accept-Language": "it"})
    finally:
        imports.give_back()
        imports.give_back()
    assert response.status_code == 503
    assert response.get_json()["error"]["message"].startswith("La banca sta già riprendendo altre partite salvate.")


def test_a_refused_import_gives_its_place_back(app, api):
    data = export(played(api, "classic-it"))
    forged = {**data, "format_version": 2}
    for _ in range(3):  # more than the places: each refusal gave its own back
        refusal(import_file(api, forged), 400, "invalid_game_file")
    imports = held(app)  # both places are free
    imports.give_back()
    imports.give_back()
    ok(import_file(api, data), 201)


def test_the_home_page_says_when_to_come_back_and_stores_nothing(app, client):
    imports = held(app)
    before = counts(app)
    try:
        page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
        response = client.post(
            "/games/import",
            data={"csrf_token": csrf(page), "file": (io.BytesIO(b'{"format": "banco-game"}'), "game.json")},
            content_type="multipart/form-data",
            headers={"Accept-Language": "en"},
        )
    finally:
        imports.give_back()
        imports.give_back()
    assert response.status_code == 302 and response.location.endswith("/")
    home = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert BUSY in home.replace("\u00a0", " ")
    assert counts(app) == before


def _file_of(journal: str) -> bytes:
    return (
        '{"format": "banco-game", "format_version": 1, "exported_at": "2026-12-07T20:30:00Z", "game": {}, '
        '"edition": {}, "seats": [], "state": {}, "journal": ' + journal + "}"
    ).encode()


@pytest.mark.parametrize(
    "journal",
    [
        "[" + ",".join(["{}"] * 200) + "]",  # more objects than a file of its limit holds
        "[" + ",".join(["[[]]"] * 60) + "]",
        "[" + ",".join(["0"] * 500) + "]",  # more values
        '[{"a": "[,[,[,[,"}, ' + ",".join(['"x"'] * 450) + "]",
    ],
    ids=["objects", "lists", "values", "strings"],
)
def test_a_file_holding_more_than_a_game_file_can_is_refused_unread(app, api, monkeypatch, journal):
    app.config["MAX_GAME_FILE_BYTES"] = 2400  # at most 100 objects and lists, 400 values
    raw = _file_of(journal)
    assert len(raw) <= 2400

    def never(raw):
        raise AssertionError("parsed")

    monkeypatch.setattr(importing, "read_game_file", never)
    before = counts(app)
    message = refusal(import_file(api, None, raw=raw), 400, "invalid_game_file")
    assert message == (
        "This game file holds more than a game's file can: at most 100 objects and lists and 400 values. "
        "Nothing was read."
    )
    assert counts(app) == before


def test_brackets_and_commas_in_text_do_not_count(app, api):
    app.config["MAX_GAME_FILE_BYTES"] = 2400
    raw = _file_of('[{"a": "' + "[{,}]" * 300 + '"}]')
    assert len(raw) <= 2400
    # Read, so refused for what it says, not for its size.
    message = refusal(import_file(api, None, raw=raw), 400, "invalid_game_file")
    assert "holds more" not in message


def test_a_whole_game_file_is_within_its_bound(app, api):
    game = played(api, "niente-e-come-sembra")
    for _ in range(20):
        ok(game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 10}))
    raw = json.dumps(export(game), separators=(",", ":")).encode()
    shape = list(bodies.json_shapes(raw.decode()))[-1]
    # The densest edition's file, at its own size as the limit, leaves room to spare.
    assert shape.containers * importing.BYTES_PER_CONTAINER * 1.4 < len(raw)
    assert shape.values * importing.BYTES_PER_VALUE * 1.4 < len(raw)
    app.config["MAX_GAME_FILE_BYTES"] = len(raw)
    ok(import_file(api, None, raw=raw), 201)


def test_a_file_over_the_byte_limit_is_refused_413(app, api):
    app.config["MAX_GAME_FILE_BYTES"] = 1000
    before = counts(app)
    status, body = import_file(api, None, raw=_file_of("[" + " " * 1000 + "]"))
    assert status == 413 and body["error"] == {"code": "too_large", "message": "The request is too large."}
    assert counts(app) == before


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("", 0),
        ('{"a": "[[[", "b": [1, [2, {"c": "\\\\"}]]}', 4),
        ('"\\"[[["', 0),
        ('{"a":"\\\\\\"[{"}', 1),
        ('{"a": "unfinished [[[', 1),
        ("[" * 40 + "]" * 40, 40),
    ],
)
def test_the_depth_is_counted_outside_strings(text, depth):
    assert bodies.json_depth(text) == depth


def test_the_depth_is_counted_across_the_pieces_of_a_long_text(monkeypatch):
    monkeypatch.setattr(bodies, "_SCAN_STEP", 3)
    text = '{"a\\\\\\"[": [[1, "]]]]"], {"b": "\\\\"}], "c": [[[[]]]]}'
    assert bodies.json_depth(text) == 5
    assert list(bodies.json_shapes(text))[-1] == bodies.Shape(containers=8, values=11, depth=5)


def test_banco_s_server_turns_a_file_away_before_keeping_its_body(tmp_path):
    import urllib.error
    import urllib.request

    from tests.conftest import Api, LiveServer, make_app

    app = make_app(tmp_path)
    api = Api(app.test_client())
    raw = json.dumps(export(played(api, "classic-it"))).encode()
    server = LiveServer(app).start()

    def post():
        request = urllib.request.Request(server.url + "/api/v1/games/import", raw, {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, answer.headers, json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return refused.code, refused.headers, json.loads(refused.read())

    try:
        imports = held(app)
        before = counts(app)
        status, headers, body = post()
        assert status == 503 and headers["Retry-After"] == "10"
        assert body["error"] == {"code": "busy_importing", "message": BUSY}
        assert counts(app) == before
        # Turned away by the server itself, before the app kept the body.
        assert b'banco_refusals_total{limit="busy_importing"} 1.0' in banco(app).metrics.exposition()
        imports.give_back()
        status, _, made = post()  # the place the server takes is the app's own: one is free
        assert status == 201 and made["join_code"], made
        imports.give_back()
        assert held(app) is imports  # the server gave back the place it took
    finally:
        server.stop()
        with app.app_context():
            from companion.store import db

            db.engine.dispose()
