"""The app's writer keeps its games loaded between batches (``services.keep_games``): it reads
a game's players and deeds again only when the game's version moved, and its row every time.
Every change made elsewhere (the app's own routes, another thread or process) is seen by the
writer's next batch, and nothing it did not change is written over.
"""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import event

from companion import services
from companion.services import door
from companion.services.repository import GAMES
from companion.store import db

# On PostgreSQL too (python -m tests): what the writer keeps against what each database's transactions show it.
pytestmark = pytest.mark.database


@pytest.fixture
def writer(app):
    """Runs batches as the app's writer thread does (``services.door.writer_context``): one
    thread, its session kept; a writer of its own, so the app's routes write elsewhere."""
    context = door.writer_context(app)
    pool = ThreadPoolExecutor(1, thread_name_prefix="kept-writer")
    entered: list[bool] = []
    statements: list[str] = []

    def batch(work) -> None:
        if not entered:  # at the first batch, as the writer's thread starts: after a test's settings
            context.__enter__()
            entered.append(True)
        services.run_batch([work])

    def run(game, who, payload: dict):
        token = game.banker if who == "banker" else game.tokens.get(who, who)
        work = services.prepare(game.id, None, payload, token)
        pool.submit(batch, work).result(30)
        return work

    def recording(conn, cursor, statement, *args):
        if threading.current_thread().name.startswith("kept-writer"):
            statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", recording)
    run.statements = statements
    run.inside = lambda fn: pool.submit(fn).result(30)  # in the writer's thread, with its session
    yield run
    event.remove(engine, "before_cursor_execute", recording)
    if entered:
        pool.submit(context.__exit__, None, None, None).result(30)
    pool.shutdown()


def reads_of(statements: list[str], table: str) -> int:
    """How many of ``statements`` read ``table``."""
    return sum(1 for s in statements if s.lstrip().upper().startswith("SELECT") and re.search(rf"\bFROM {table}\b", s))


def pay(to: str, amount: int) -> dict:
    return {"type": "transfer", "to": to, "amount": amount}


def test_players_are_read_again_only_when_the_version_moved_elsewhere(app, api, writer):
    game = api.new_game(("Anna", "Bruno")).start()
    assert writer(game, "Anna", pay(game.ids["Bruno"], 10)).answer["result"]["cash"] == 1490
    writer.statements.clear()
    assert writer(game, "Anna", pay(game.ids["Bruno"], 10)).answer["result"]["cash"] == 1480
    assert reads_of(writer.statements, "player") == 0  # kept: only the game's row is read
    assert reads_of(writer.statements, "game") == 1
    # Bruno pays through the app's own route: the version moves behind the writer's back.
    assert game.act("Bruno", pay(game.ids["Anna"], 100))[0] == 200
    writer.statements.clear()
    work = writer(game, "Anna", pay(game.ids["Bruno"], 10))
    assert work.answer["result"]["cash"] == 1570 and reads_of(writer.statements, "player") == 1
    assert game.cash() == {"Anna": 1570, "Bruno": 1430}
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def test_a_seat_rejoined_elsewhere_voids_the_old_token_in_the_writer(app, api, writer):
    game = api.new_game(("Anna", "Bruno")).start()
    old = game.tokens["Anna"]
    assert writer(game, old, pay(game.ids["Bruno"], 5)).error is None
    with app.app_context():
        secret = services.issue_rejoin(game.id, game.ids["Anna"])
        _game_id, _player, new = services.redeem_rejoin(secret)
    refused = writer(game, old, pay(game.ids["Bruno"], 5))
    assert refused.answer is None and refused.error.code == "invalid_token"
    assert writer(game, new, pay(game.ids["Bruno"], 5)).answer["result"]["cash"] == 1490


def test_the_bank_handed_off_elsewhere_is_seen_and_its_secret_not_written_over(app, api, writer):
    game = api.new_game(("Anna", "Bruno")).start()
    assert writer(game, "banker", pay(game.ids["Bruno"], 5) | {"from": "bank"}).error is None
    with app.app_context():
        secret = services.issue_bank_handoff(game.id)  # on the game's row, with no new version
    # An action that writes the same row's extra (a request for money waits there).
    asked = writer(game, "Anna", {"type": "request", "from": game.ids["Bruno"], "amount": 20})
    assert asked.error is None
    with app.app_context():
        new_banker = services.redeem_bank_handoff(game.id, secret)  # the secret survived
    refused = writer(game, "banker", pay(game.ids["Bruno"], 5) | {"from": "bank"})
    assert refused.error.code == "invalid_token"
    assert writer(game, new_banker, pay(game.ids["Bruno"], 5) | {"from": "bank"}).error is None


def test_a_refused_batch_forgets_nothing_it_should_know(api, writer):
    game = api.new_game(("Anna", "Bruno")).start()
    assert writer(game, "Anna", pay(game.ids["Bruno"], 10)).error is None
    assert writer(game, "Anna", pay(game.ids["Bruno"], 99999)).error.code == "insufficient_cash"
    assert game.act("Bruno", pay(game.ids["Anna"], 50))[0] == 200
    assert writer(game, "Anna", pay(game.ids["Bruno"], 10)).answer["result"]["cash"] == 1530
    assert game.cash() == {"Anna": 1530, "Bruno": 1470}


def test_the_deeds_kept_are_read_again_after_a_purchase_elsewhere(api, writer):
    game = api.new_game(("Anna", "Bruno")).start()
    deed = game.state()["deeds"][0]["key"]
    assert writer(game, "Anna", {"type": "buy", "deed": deed}).error is None  # the board loaded and kept
    assert game.act("Anna", {"type": "mortgage", "deed": deed})[0] == 200
    refused = writer(game, "Anna", {"type": "mortgage", "deed": deed})  # already mortgaged, as the app left it
    assert refused.error.code == "already_mortgaged"
    assert writer(game, "Anna", {"type": "unmortgage", "deed": deed}).error is None


def test_only_the_most_recent_games_stay_loaded(api, writer, monkeypatch):
    monkeypatch.setattr("companion.services.door.KEPT_GAMES", 2)
    games = [api.new_game(("Anna", "Bruno")).start() for _ in range(3)]
    for game in games * 2:
        assert writer(game, "Anna", pay(game.ids["Bruno"], 1)).error is None
    assert writer.inside(lambda: GAMES.kept()[0]) == (games[1].id, games[2].id)
    writer.statements.clear()
    assert writer(games[0], "Anna", pay(games[0].ids["Bruno"], 1)).error is None  # read again
    assert reads_of(writer.statements, "player") == 1
    assert writer.inside(lambda: GAMES.kept()[0]) == (games[2].id, games[0].id)
    for game in games:
        assert game.cash() == {"Anna": 1498 - (game is games[0]), "Bruno": 1502 + (game is games[0])}


def test_the_view_kept_between_actions_is_the_one_the_rows_give(app, api, writer):
    """After each action of a varied evening, the core's view the writer kept of the game is the
    view its rows give when read afresh: what a batch's next action would otherwise have read."""
    game = api.new_game(("Anna", "Bruno", "Carla")).start()
    anna, bruno, carla = game.ids["Anna"], game.ids["Bruno"], game.ids["Carla"]
    evening = [
        ("Anna", {"type": "buy", "deed": "vicolo-corto"}),
        ("Anna", {"type": "buy", "deed": "vicolo-stretto"}),
        ("Anna", {"type": "build", "deed": "vicolo-corto", "building": "small"}),
        ("Bruno", {"type": "pay_rent", "deed": "vicolo-corto"}),
        ("Bruno", {"type": "buy", "deed": "stazione-sud"}),
        ("Bruno", {"type": "mortgage", "deed": "stazione-sud"}),
        ("Carla", {"type": "request", "from": anna, "amount": 30, "reason": "a loan"}),
        ("Anna", {"type": "approve", "pending": None}),
        ("Bruno", {"type": "trade_propose", "to": carla, "give": {"cash": 10}, "get": {"cash": 0}}),
        ("Carla", {"type": "go_to_jail"}),
        ("Carla", {"type": "pay_jail_fine"}),
        ("Carla", {"type": "pay_fixed", "payment": "wealth-tax"}),
        ("banker", {"type": "auction_start", "deed": "via-accademia"}),
        ("Anna", {"type": "bid", "amount": 50}),
        ("Bruno", {"type": "bid", "amount": 60}),
        ("banker", {"type": "auction_close"}),
        ("banker", {"type": "undo"}),
        ("Anna", {"type": "roll"}),
        ("Carla", {"type": "trade_accept", "trade": None}),
        ("Anna", {"type": "transfer", "to": bruno, "amount": 99999}),  # refused: the view is dropped
        ("Anna", {"type": "transfer", "to": bruno, "amount": 5}),
    ]
    stood = 0
    for who, payload in evening:
        if payload.get("pending", 0) is None:
            payload = {**payload, "pending": game.state()["pending"][0]["id"]}
        if payload.get("trade", 0) is None:
            payload = {**payload, "trade": game.state()["trades"][0]["id"]}
        work = writer(game, who, payload)
        stood += work.error is None
        # The writer keeps the state each action left; a refusal drops it.
        assert writer.inside(_kept_view_is_the_rows_view) == (work.error is None)
    assert stood == len(evening) - 1  # all but the payment of more than Anna has
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def _kept_view_is_the_rows_view() -> int:
    from dataclasses import fields

    from sqlalchemy.orm import Session

    from companion.core.state import NotLoaded
    from companion.services.catalog import edition_of
    from companion.store import Game
    from companion.store.mapping import load_state

    states = GAMES.kept()[1]
    for game_id, (version, deeds, kept) in states.items():
        with Session(db.engine) as fresh_session:
            row = fresh_session.get(Game, game_id)
            assert row.version == version
            fresh = load_state(row, edition_of(row), deeds=deeds)
        for f in fields(kept):
            if not isinstance(getattr(kept, f.name), NotLoaded):
                assert getattr(kept, f.name) == getattr(fresh, f.name), f.name
    return len(states)
