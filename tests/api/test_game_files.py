"""A game as a file: exported by its banker, imported on any server as the same game at the same
version, every entry checked on the way in; a file that does not check out is refused, naming
what is wrong, and nothing is stored."""

from __future__ import annotations

import copy
import json

import pytest
from sqlalchemy import func, select

from companion import services
from companion.core.editions.loading import EDITIONS_DIR
from companion.core.gamefile import entry_digest, first_difference
from companion.services.gamefiles import EXPORT_BATCH
from companion.store import EditionContent, Entry, Game, Player, Posting, db
from tests.api.gamekit import balanced, ok, refusal
from tests.conftest import Api, make_app
from tests.longgame import lengthen

# The import writes a whole game in one transaction, its rows as each database types them.
pytestmark = pytest.mark.database

EDITIONS = ["classic-it", "campionato-2015", "che-impresa", "motopolis", "niente-e-come-sembra", "petropolis"]


def export(game):
    status, body = game.api.get(f"/api/v1/games/{game.id}/export", game.banker)
    assert status == 200, body
    return body


def import_file(api, data, raw=None):
    return api.post("/api/v1/games/import", data, raw=raw)


def unowned(game):
    return [d["key"] for d in game.state()["deeds"] if d["owner"] is None]


def played(api, edition):
    """A game of ``edition`` played through the API with something of everything in it: dice,
    a request paid and one waiting, a payment, a purchase, an auction won and undone (open
    again), a bid in it, the clock paused and running again, a trade offered, and where the
    edition has fake money a payment checked."""
    game = api.new_game(edition=edition, players=("Anna", "Bruno", "Carla"), time_limit_minutes=60, seed=7)
    anna, bruno = game.ids["Anna"], game.ids["Bruno"]
    game.start()
    ok(game.act("Anna", {"type": "roll", "dice": "2d6"}))
    asked = ok(game.act("Anna", {"type": "request", "from": bruno, "amount": 50, "reason": "rent"}))
    ok(game.act("Bruno", {"type": "approve", "pending": asked["pending"]}))
    ok(game.act("Carla", {"type": "request", "from": anna, "amount": 20, "reason": "still waiting"}))
    paid = ok(game.act("Anna", {"type": "transfer", "to": bruno, "amount": 30}))
    if edition == "niente-e-come-sembra":
        assert ok(game.act("Carla", {"type": "check", "payment": paid["payment"]}))["face"]
    bought = unowned(game)[0]
    ok(game.act("Anna", {"type": "buy", "deed": bought}))
    ok(game.act("banker", {"type": "auction_start", "deed": unowned(game)[0]}))
    auction = game.state()["auction"]
    ok(game.act("Carla", {"type": "bid", "amount": auction["opening_bid"]}))
    ok(game.act("banker", {"type": "auction_close"}))
    ok(game.act("banker", {"type": "clock_pause"}))
    ok(game.act("banker", {"type": "clock_resume"}))
    ok(game.act("banker", {"type": "undo"}))  # the auction won: open again
    assert game.state()["auction"]["high_bidder"] == game.ids["Carla"]
    # Cash for a deed (Petropolis trades deeds only once the bank has sold them all: cash there).
    give = {"cash": 10, "deeds": [] if edition == "petropolis" else [bought], "jail_cards": 0}
    ok(game.act("Anna", {"type": "trade_propose", "to": bruno, "give": give, "get": {"cash": 5, "deeds": []}}))
    return game


def seen_as(game, names):
    """The game's state and journal as its banker reads them through the API, each player's id
    put as their name (a game made from a file has new ids), without what is the game's own
    (its id and join code) or moves with the wall clock (the clock's and a check window's
    seconds left)."""
    state = game.state()
    events = []
    since = 0
    while True:
        status, page = game.api.get(f"/api/v1/games/{game.id}/events?since={since}", game.banker)
        assert status == 200
        events += page["events"]
        if not page["more"]:
            break
        since = page["events"][-1]["version"]
    text = json.dumps({"state": state, "events": events})
    for player_id, name in names.items():
        text = text.replace(player_id, f"<{name}>")
    seen = json.loads(text, object_hook=lambda o: {k: v for k, v in o.items() if k != "seconds_left"})
    del seen["state"]["id"], seen["state"]["join_code"]
    remaining = seen["state"]["clock"].pop("remaining_seconds")
    return seen, remaining


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_game_exported_and_imported_is_the_same_game(app, api, edition):
    game = played(api, edition)
    data = export(game)
    kinds = {e["kind"] for e in data["journal"]}
    assert {"roll", "request", "transfer", "buy", "auction_start", "bid", "clock_pause", "undo"} <= kinds
    assert data["state"]["auction"] and data["state"]["pending"] and data["state"]["trades"]
    if edition == "niente-e-come-sembra":
        assert "check" in kinds and data["state"]["notes"]["hands"]
    made = ok(import_file(api, data), 201)
    assert set(made) == {"id", "join_code", "banker_token", "players"}
    assert made["id"] != game.id and made["join_code"] != game.join_code
    assert [p["name"] for p in made["players"]] == ["Anna", "Bruno", "Carla"]
    assert not {p["id"] for p in made["players"]} & set(game.ids.values())
    copy_ = type(game)(api, made)
    before, left_before = seen_as(game, {v: k for k, v in game.ids.items()})
    after, left_after = seen_as(copy_, {v: k for k, v in copy_.ids.items()})
    assert first_difference(before, after) is None, first_difference(before, after)
    assert after == before
    assert after["state"]["version"] == data["game"]["version"]
    assert abs(left_after - left_before) <= 2 and after["state"]["clock"]["running"] is True
    balanced(app, copy_)
    # It plays on as the same game: the same seed rolls the same dice next, on both tables.
    rolled = ok(game.act("Bruno", {"type": "roll", "dice": "2d6"}))["faces"]
    assert ok(copy_.act("Bruno", {"type": "roll", "dice": "2d6"}))["faces"] == rolled
    # The waiting request is paid with the new seat's token, the open auction closed by the new banker.
    waiting = copy_.state()["pending"][0]["id"]
    ok(copy_.act("Anna", {"type": "approve", "pending": waiting}))
    ok(copy_.act("banker", {"type": "auction_close"}))
    balanced(app, copy_)
    # Undo reaches back past the import, into the file's own entries: the auction just closed,
    # the request paid, then the roll on both tables.
    for _ in range(3):
        ok(copy_.act("banker", {"type": "undo"}))
    ok(game.act("banker", {"type": "undo"}))
    assert seen_as(copy_, {v: k for k, v in copy_.ids.items()})[0]["state"] | {"version": 0} == seen_as(
        game, {v: k for k, v in game.ids.items()}
    )[0]["state"] | {"version": 0}
    balanced(app, copy_)
    # And its own file is the first's journal with what it played since.
    again = export(copy_)
    assert [e["kind"] for e in again["journal"]][: len(data["journal"])] == [e["kind"] for e in data["journal"]]


def test_the_file_holds_no_secret(app, api):
    game = played(api, "classic-it")
    with app.app_context():
        rejoin = services.issue_rejoin(game.id, game.ids["Bruno"])
        handoff = services.issue_bank_handoff(game.id)
        hashes = [p.token_hash for p in services.get_game(game.id).players] + [
            services.get_game(game.id).banker_token_hash
        ]
    response = api.client.get(f"/api/v1/games/{game.id}/export", headers={"Authorization": f"Bearer {game.banker}"})
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith('attachment; filename="banco-classic-it-')
    text = response.get_data(as_text=True)
    secrets = [game.banker, game.join_code, *game.tokens.values(), rejoin, handoff, *hashes]
    assert all(secret not in text for secret in secrets)
    data = json.loads(text)
    assert data["format"] == "banco-game" and data["format_version"] == 1
    assert data["seats"] == [{"id": p["id"], "name": p["name"]} for p in game.players]
    assert "token" not in text and "join_code" not in text and "serial_secret" not in text


def test_a_long_game_s_file_is_sent_as_it_is_written_and_carries_on_the_same_game(app, api):
    game = played(api, "classic-it")
    with app.app_context():
        lengthen(db.session.connection(), game.id, 2 * EXPORT_BATCH + 500)
        db.session.commit()
    version = game.state()["version"]
    response = api.client.get(f"/api/v1/games/{game.id}/export", headers={"Authorization": f"Bearer {game.banker}"})
    assert response.status_code == 200 and response.is_streamed
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="banco-classic-it-{game.id}-v{version}.json"'
    )
    text = response.get_data(as_text=True)
    data = json.loads(text)
    # The bytes the file was written as whole: compact JSON, not ASCII-escaped, and a newline.
    assert text == json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert [e["version"] for e in data["journal"]] == list(range(1, version + 1))
    previous = ""
    for item in data["journal"]:
        previous = entry_digest(previous, {k: v for k, v in item.items() if k != "digest"})
        assert item["digest"] == previous
    made = ok(import_file(api, data), 201)
    with app.app_context():
        copied = services.get_game(made["id"])
        assert copied.version == version
        assert {p.name: p.cash for p in copied.players} == {p.name: p.cash for p in services.get_game(game.id).players}
        again = services.export_game(made["id"])
        assert (again.version, again.name) == (version, f"banco-classic-it-{made['id']}-v{version}.json")
        again.pieces.close()  # a download cut short: its snapshot ends with it
    balanced(app, game)


def test_only_the_banker_exports(api):
    game = api.new_game().start()
    refusal(api.get(f"/api/v1/games/{game.id}/export", game.tokens["Anna"]), 403, "banker_only")
    refusal(api.get(f"/api/v1/games/{game.id}/export"), 401, "missing_token")
    refusal(api.get("/api/v1/games/nosuchgame/export", game.banker), 404, "unknown_game")


def test_a_game_in_setup_with_nobody_at_the_table_goes_in_too(api):
    status, created = api.post("/api/v1/games", {"edition": "classic-it", "players": []})
    assert status == 201
    game = type(api.new_game())(api, created)
    made = ok(import_file(api, export(game)), 201)
    assert made["players"] == []
    status, joined = api.post(f"/api/v1/games/{made['id']}/join", {"join_code": made["join_code"], "name": "Anna"})
    assert status == 201, joined


def test_the_same_file_imported_twice_makes_two_games(app, api):
    game = played(api, "classic-it")
    data = export(game)
    first, second = ok(import_file(api, data), 201), ok(import_file(api, data), 201)
    assert first["id"] != second["id"] and first["join_code"] != second["join_code"]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(EditionContent)) == 1


def test_an_edition_this_server_lacks_is_played_from_the_file(tmp_path, api):
    game = played(api, "petropolis")
    data, cash = export(game), game.cash()
    # Another server, whose editions folder holds only the classic game (on PostgreSQL the same
    # database, kept: its catalog of editions is still the folder's alone).
    folder = tmp_path / "editions"
    folder.mkdir()
    for name in ("classic-it.json", "editions.schema.json"):
        (folder / name).write_bytes((EDITIONS_DIR / name).read_bytes())
    (tmp_path / "other").mkdir()
    other = make_app(tmp_path / "other", fresh=False, WTF_CSRF_ENABLED=False, EDITIONS_DIR=str(folder))
    other_api = Api(other.test_client())
    assert [e["id"] for e in other_api.get("/api/v1/editions")[1]["editions"]] == ["classic-it"]
    made = ok(import_file(other_api, data), 201)
    copy_ = type(game)(other_api, made)
    assert copy_.state()["edition"] == "petropolis"
    assert copy_.cash() == cash
    ok(copy_.act("Anna", {"type": "roll", "dice": "2d6"}))
    with other.app_context():
        db.engine.dispose()


# --- files that do not check out ---------------------------------------------------------------


def rechained(data):
    """``data`` with every entry's digest made again, as a forger who knows the format would."""
    previous = ""
    for entry in data["journal"]:
        entry["digest"] = previous = entry_digest(previous, entry)
    return data


def counts(app):
    with app.app_context():
        return [db.session.scalar(select(func.count()).select_from(t)) for t in (Game, Player, Entry, Posting)]


def first_transfer(data):
    return next(e for e in data["journal"] if e["kind"] == "transfer" and len(e["postings"]) == 2)


def _reason_changed(data):
    first_transfer(data)["params"]["reason"] = "a gift"


def _amount_changed(data):
    entry = first_transfer(data)
    entry["postings"][0][1] -= 1000
    entry["postings"][1][1] += 1000


def _unbalanced(data):
    first_transfer(data)["postings"][0][1] -= 1
    rechained(data)


def _both_legs_changed(data):
    _amount_changed(data)
    rechained(data)


def _version_missing(data):
    del data["journal"][3]
    rechained(data)


def _last_versions_missing(data):
    del data["journal"][-2:]
    rechained(data)


def _before_changed(data):
    entry = next(e for e in data["journal"] if e["kind"] == "buy")
    entry["changes"][0][3] = entry["changes"][0][4]  # the deed owned already before it was bought
    rechained(data)


def _overdrawn(data):
    entry = first_transfer(data)
    entry["postings"] = [[entry["postings"][0][0], -(10**6)], [entry["postings"][1][0], 10**6]]
    rechained(data)


def _edition_changed(data):
    data["edition"]["content"]["deeds"][0]["price"] += 1


def _edition_broken(data):
    data["edition"]["content"]["deeds"][0]["price"] = "free"
    from companion.services.catalog import content_hash

    data["edition"]["hash"] = content_hash(data["edition"]["content"])


def _state_changed(data):
    seat = data["seats"][0]["id"]
    data["state"]["players"][seat]["cash"] += 1


def _format(data):
    data["format"] = "monopoly-save"


def _format_version(data):
    data["format_version"] = 2


def _stranger(data):
    first_transfer(data)["actor"] = "zzzzzzzz"
    rechained(data)


def _seat_as_bank(data):
    data["seats"][0]["id"] = "bank"


FORGERIES = [
    (_reason_changed, "Entry 5 of the game file has been changed."),
    (_amount_changed, "Entry 5 of the game file has been changed."),
    (_unbalanced, "Entry 5 of the game file does not balance: its postings add up to -1."),
    # The engine, approving the request again, moves the amount asked, not the one written.
    (_both_legs_changed, "Entry 5 of the game file is not what the rules make of it (at postings)."),
    (_version_missing, "Version 4 is missing from the game file's journal."),
    (_last_versions_missing, "Version 14 is missing from the game file's journal."),
    (_before_changed, "Entry 8 of the game file does not follow from the one before it."),
    (
        _overdrawn,
        "Entry 5 of the game file cannot be replayed: Bruno has € 1,500: € 998,500 missing to pay € 1,000,000.",
    ),
    (_edition_changed, "The edition in the game file does not match its hash."),
    (_edition_broken, "The edition in the game file cannot be played: "),
    (_state_changed, "The state in the game file does not match its journal (at players.Anna.cash)."),
    (_format, "This is not a Banco game file."),
    (_format_version, "This game file is of format version 2; this Banco reads version 1."),
    (_stranger, "Entry 5 of the game file is by someone who is not at the table."),
    (_seat_as_bank, "The game file's seats are not a table of this edition."),
]


@pytest.mark.parametrize(("forge", "message"), FORGERIES, ids=[f.__name__.strip("_") for f, _ in FORGERIES])
def test_a_file_that_does_not_check_out_is_refused_and_nothing_is_stored(app, api, forge, message):
    game = played(api, "classic-it")
    data = export(game)
    forged = copy.deepcopy(data)
    forge(forged)
    before = counts(app)
    got = refusal(import_file(api, forged), 400, "invalid_game_file")
    assert got.replace("\u00a0", " ").startswith(message)
    assert counts(app) == before
    # The file as exported still goes in.
    ok(import_file(api, data), 201)


@pytest.mark.parametrize(
    "raw", [b"{not json", b"[]", b"", "\ufeff{}".encode(), b'{"format": "banco-game", "format": "banco-game"}']
)
def test_a_body_that_is_no_game_file_is_refused(app, api, raw):
    before = counts(app)
    status, body = import_file(api, None, raw=raw)
    assert status == 400 and body["error"]["code"] == "invalid_game_file", body
    assert counts(app) == before


def test_the_refusal_is_in_the_readers_language(api):
    game = played(api, "classic-it")
    data = export(game)
    _unbalanced(data)
    response = api.client.post("/api/v1/games/import", json=data, headers={"Accept-Language": "it"})
    assert response.status_code == 400
    assert response.get_json()["error"]["message"].startswith("La voce 5 del file")


def test_a_long_games_file_goes_past_the_body_limit_of_other_requests(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=False, MAX_CONTENT_LENGTH=4096)
    api = Api(app.test_client())
    game = api.new_game().start()
    for _ in range(30):
        ok(game.act("Anna", {"type": "transfer", "to": "bank", "amount": 1}))
    data = export(game)
    assert len(json.dumps(data)) > 4096
    ok(import_file(api, data), 201)
    assert api.post("/api/v1/games", {"edition": "classic-it", "players": ["x" * 5000]})[0] == 413
    app.config["MAX_GAME_FILE_BYTES"] = 4096
    assert import_file(api, data)[0] == 413


# --- the command line --------------------------------------------------------------------------


def test_the_command_line_exports_and_imports_a_game(app, api, tmp_path):
    game = played(api, "che-impresa")
    runner = app.test_cli_runner()
    path = tmp_path / "saved.json"
    result = runner.invoke(args=["banco", "export", game.id, str(path)])
    assert result.exit_code == 0, result.output
    assert f"game {game.id} at version {game.state()['version']} written to {path}" in result.output
    written, given = json.loads(path.read_text("utf-8")), export(game)
    assert written["journal"] == given["journal"] and written["state"] == given["state"]
    before = counts(app)
    result = runner.invoke(args=["banco", "import", str(path)])
    assert result.exit_code == 0, result.output
    new_id = result.output.split()[1]
    with app.app_context():
        made = db.session.get(Game, new_id)
        assert made.version == game.state()["version"] and made.join_code in result.output
        assert all(p.token_hash is None for p in made.players)  # the players claim their seats
    assert f"/g/{new_id}/bank/" in result.output
    assert counts(app)[0] == before[0] + 1
    assert runner.invoke(args=["banco", "verify"]).exit_code == 0
    data = json.loads(path.read_text("utf-8"))
    _unbalanced(data)
    path.write_text(json.dumps(data), "utf-8")
    before = counts(app)
    result = runner.invoke(args=["banco", "import", str(path)])
    assert result.exit_code == 1 and "does not balance" in result.output
    assert counts(app) == before
    result = runner.invoke(args=["banco", "export", "nosuchgame"])
    assert result.exit_code == 1 and "There is no such game" in result.output


def test_banco_s_server_reads_a_game_file_past_the_body_limit_of_other_requests(tmp_path):
    import urllib.error
    import urllib.request

    from tests.conftest import LiveServer

    app = make_app(tmp_path, MAX_CONTENT_LENGTH=4096)
    api = Api(app.test_client())
    game = api.new_game().start()
    for _ in range(30):
        ok(game.act("Anna", {"type": "transfer", "to": "bank", "amount": 1}))
    body = json.dumps(export(game)).encode()
    assert len(body) > 4096
    server = LiveServer(app).start()
    try:

        def post(path, data):
            request = urllib.request.Request(server.url + path, data, {"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.status, json.loads(answer.read())
            except urllib.error.HTTPError as refused:
                return refused.code, json.loads(refused.read())

        status, made = post("/api/v1/games/import", body)
        assert status == 201 and made["join_code"], made
        status, refused = post("/api/v1/games", body)
        assert status == 413 and refused["error"]["code"] == "too_large"
    finally:
        server.stop()
        with app.app_context():
            db.engine.dispose()


def test_banco_s_server_sends_a_long_game_s_file_piece_by_piece(tmp_path):
    import urllib.request

    from companion.serve.mount import WHOLE_MOST
    from tests.conftest import LiveServer

    app = make_app(tmp_path)
    api = Api(app.test_client())
    game = api.new_game().start()
    with app.app_context():
        lengthen(db.session.connection(), game.id, 4000)  # a file past WHOLE_MOST
        db.session.commit()
    version = game.state()["version"]
    server = LiveServer(app).start()
    try:
        request = urllib.request.Request(
            f"{server.url}/api/v1/games/{game.id}/export", headers={"Authorization": f"Bearer {game.banker}"}
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.status == 200 and answer.headers["Transfer-Encoding"] == "chunked"
            raw = answer.read()
    finally:
        server.stop()
        with app.app_context():
            db.engine.dispose()
    assert len(raw) > WHOLE_MOST
    data = json.loads(raw)
    assert raw.decode() == json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert len(data["journal"]) == version and data["journal"][-1]["digest"] == export(game)["journal"][-1]["digest"]
    made = ok(import_file(api, data), 201)
    with app.app_context():
        assert services.get_game(made["id"]).version == version
