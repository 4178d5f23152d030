"""``take_back`` through the API: a player reverses their own one-tap GO or tax while it is
still the game's newest entry, within the seconds; the journal still balances; every refusal
names its code and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from companion import services, store
from companion.core.take_back import TAKE_BACK_SECONDS
from companion.store import now_utc

from .gamekit import balanced, ok, refusal

# On PostgreSQL too (python -m tests): the seconds to take back, read from each database's stored times.
pytestmark = pytest.mark.database


def _events(game):
    status, body = game.api.get(f"/api/v1/games/{game.id}/events", game.banker)
    assert status == 200
    return body["events"]


def test_a_go_taken_back_by_its_player(app, api):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "pass_go"}))
    assert game.cash()["Anna"] == 1700
    back = ok(game.act("Anna", {"type": "take_back", "key": "tb-1"}))
    assert back["type"] == "take_back" and back["cash"] == 1500
    assert game.state()["players"][0]["laps"] == 0
    assert ok(game.act("Anna", {"type": "take_back", "key": "tb-1"})) == back  # the same key: the same answer
    events = _events(game)
    go, taken = events[-2], events[-1]
    assert go["type"] == "pass_go" and go["reversed"]
    assert taken["reverses"] == go["version"] and taken["actor"] == game.ids["Anna"]
    assert taken["summary"] == "Anna took back: GO +€\u00a0200."
    balanced(app, game)
    # Taken back once: there is nothing left to take back, and the banker's undo goes past both.
    refusal(game.act("Anna", {"type": "take_back"}), 409, "not_taken_back")


def test_a_tax_taken_back_and_the_refusals(app, api):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "pay_fixed", "payment": "wealth-tax"}))
    refusal(game.act("Bruno", {"type": "take_back"}), 409, "not_taken_back")  # not his
    refusal(game.act("Bruno", {"type": "take_back", "player": game.ids["Anna"]}), 403, "not_your_account")
    ok(game.act("Anna", {"type": "take_back"}))
    assert game.cash()["Anna"] == 1500

    ok(game.act("Anna", {"type": "pass_go"}))
    ok(game.act("Bruno", {"type": "transfer", "to": "bank", "amount": 1}))
    before = game.cash()
    message = refusal(game.act("Anna", {"type": "take_back"}), 409, "changed_since")
    assert message == "Something happened since: ask the banker."
    assert game.cash() == before

    ok(game.act("Anna", {"type": "transfer", "to": game.ids["Carla"], "amount": 5}))
    refusal(game.act("Anna", {"type": "take_back"}), 409, "not_taken_back")  # a payment is the banker's to undo

    ok(game.act("Carla", {"type": "pass_go"}))
    with app.app_context():
        row = services.entry_at(services.get_game(game.id), game.state()["version"])
        row.at -= timedelta(seconds=TAKE_BACK_SECONDS + 1)
        store.db.session.commit()
    before = game.cash()
    message = refusal(game.act("Carla", {"type": "take_back"}), 409, "too_late")
    assert message == "Too late to take it back: ask the banker."
    assert game.cash() == before
    balanced(app, game)


def test_take_back_is_in_the_openapi_document(api):
    status, body = api.get("/api/openapi.json")
    assert status == 200
    assert "take_back" in body["components"]["schemas"]["Action"]["properties"]["type"]["enum"]


def test_the_wallets_offer_is_the_same_read_from_the_newest_lines_or_from_the_journal(app, api):
    """The wallet looks for the player's newest entry in the game's newest lines (read once per
    version for every page) before it asks the journal; both say the same."""
    game = api.new_game().start()
    ok(game.act("Bruno", {"type": "transfer", "to": game.ids["Anna"], "amount": 5}))
    ok(game.act("Anna", {"type": "pass_go"}))
    with app.app_context():
        row = services.get_game(game.id)
        now = now_utc()
        lines = services.recent_lines(row, 40)
        anna, bruno = game.ids["Anna"], game.ids["Bruno"]
        offer = services.take_back_offer(row, anna, now)
        assert offer is not None and offer["kind"] == "pass_go"
        assert services.take_back_offer(row, anna, now, lines) == offer
        assert services.take_back_offer(row, anna, now, []) == offer  # not among the lines: the journal
        # Bruno's newest is a payment, found among the lines: nothing to take back.
        assert services.take_back_offer(row, bruno, now, lines) is None is services.take_back_offer(row, bruno, now)
    ok(game.act("Bruno", {"type": "transfer", "to": game.ids["Carla"], "amount": 1}))
    with app.app_context():
        row = services.get_game(game.id)
        lines = services.recent_lines(row, 40)
        # Anna's GO is no longer the game's newest entry: the rules refuse it, the lines say so
        # without reading further, and the journal agrees.
        assert services.take_back_offer(row, anna, now, lines) is None
        assert services.take_back_offer(row, anna, now, []) is None is services.take_back_offer(row, anna, now)
