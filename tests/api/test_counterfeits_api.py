"""Niente è come sembra's electronic fake money through the API: a payment answers its id and
``check_until`` and shows in ``checkable``; ``check`` answers ``{"fake", "face"}``; a catch keeps
the journal balanced; the notes never show which are fake; Chance cards are checked likewise."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from companion import services
from companion.store import now_utc

# On PostgreSQL too (python -m tests): checks open until a time stored in JSON, and the fake money's documents.
pytestmark = pytest.mark.database

NAMES = ("Anna", "Bruno", "Carla")


def ok(result, status=200):
    code, body = result
    assert code == status, body
    return body.get("result", body)


def refusal(result, status, code):
    got, body = result
    assert (got, body["error"]["code"]) == (status, code), body


def balanced(app, game):
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def notes_match_cash(app, game):
    from companion.core.counterfeits import notes

    with app.app_context():
        state = services.state_of(services.get_game(game.id))
        assert notes.conserved(state) == []


def new(api, **settings):
    return api.new_game(
        players=NAMES, edition="niente-e-come-sembra", seed=5, settings={"fake_note_share": 1.0, **settings}
    ).start()


def test_a_payment_opens_a_check_that_catches_a_fake(app, api):
    game = new(api)
    a, b, _c = (game.ids[n] for n in NAMES)
    state = game.state()
    assert state["settings"]["fake_note_share"] == 1.0
    assert [p["chips"] for p in state["players"]] == [2, 2, 2]
    assert game.state("Anna")["counterfeits"]["notes"] == {"500": 2, "100": 3, "50": 3, "20": 1, "10": 3}

    paid = ok(game.act("Anna", {"type": "transfer", "to": b, "amount": 100}))
    assert set(paid) >= {"payment", "check_until"}
    checkable = game.state("Carla")["checkable"]
    assert [(x["id"], x["from"], x["to"], x["amount"]) for x in checkable] == [(paid["payment"], a, b, 100)]
    assert "notes" not in checkable[0]

    # The payer and (by default) the receiver cannot check it.
    refusal(game.act("Anna", {"type": "check", "payment": paid["payment"]}), 403, "own_money")
    refusal(game.act("Bruno", {"type": "check", "payment": paid["payment"]}), 403, "receiver_cannot_check")
    got = ok(game.act("Carla", {"type": "check", "payment": paid["payment"]}))
    assert got["fake"] is True and got["face"] == 100  # every note is fake here
    assert game.cash() == {"Anna": 1300, "Bruno": 1600, "Carla": 1600}
    state = game.state()
    assert [p["chips"] for p in state["players"]] == [2, 2, 1]
    assert state["checkable"] == []
    refusal(game.act("Carla", {"type": "check", "payment": paid["payment"]}), 409, "already_checked")
    balanced(app, game)
    notes_match_cash(app, game)
    events = ok(api.get(f"/api/v1/games/{game.id}/events?since=0", token=game.banker))
    assert any(e["type"] == "check" for e in events["events"])


def test_secrecy_no_fake_flag_in_the_state(app, api):
    game = new(api)
    b = game.ids["Bruno"]
    ok(game.act("Anna", {"type": "transfer", "to": b, "amount": 60}))
    for who in ("banker", "Anna", "Bruno", "Carla"):
        text = json.dumps(game.state(who))
        assert '"fake"' not in text and "fake_note_share" in text
    assert game.state("Bruno")["counterfeits"]["notes"] != game.state("Anna")["counterfeits"]["notes"]
    assert game.state("banker")["counterfeits"]["notes"] is None


def test_the_window_closes_and_bank_payouts_are_never_open(app, api, monkeypatch):
    game = new(api, check_seconds=5)
    b = game.ids["Bruno"]
    assert "payment" not in ok(game.act("Anna", {"type": "pass_go"}))
    assert game.state()["checkable"] == []
    paid = ok(game.act("Anna", {"type": "pay_fixed", "payment": "jail-fine"}))  # to the bank: open
    assert game.state()["checkable"][0]["to"] == "bank"
    later = now_utc() + dt.timedelta(seconds=6)
    monkeypatch.setattr("companion.services.actions.now_utc", lambda: later)
    monkeypatch.setattr("companion.services.reads.now_utc", lambda: later)
    assert game.state()["checkable"] == []
    refusal(game.act("Carla", {"type": "check", "payment": paid["payment"]}), 409, "check_closed")
    ok(game.act("Anna", {"type": "transfer", "to": b, "amount": 10}))  # drops the closed one
    with app.app_context():
        state = services.state_of(services.get_game(game.id))
        assert paid["payment"] not in state.checkable
    balanced(app, game)


def test_the_receiver_checks_where_the_setting_says(app, api):
    game = new(api, receiver_checks=True, fake_note_share=0.0)
    b = game.ids["Bruno"]
    paid = ok(game.act("Anna", {"type": "transfer", "to": b, "amount": 500}))
    got = ok(game.act("Bruno", {"type": "check", "payment": paid["payment"]}))
    assert (got["fake"], got["face"]) == (False, 500)
    refusal(game.act("Carla", {"type": "check", "payment": paid["payment"]}), 409, "already_checked")


def test_a_genuine_note_changes_nothing_but_the_chip(app, api):
    game = new(api, fake_note_share=0.0)
    b = game.ids["Bruno"]
    paid = ok(game.act("Anna", {"type": "transfer", "to": b, "amount": 250}))
    got = ok(game.act("Carla", {"type": "check", "payment": paid["payment"]}))
    assert got["fake"] is False and got["face"] in (50, 100, 500, 20, 10)
    assert game.cash() == {"Anna": 1250, "Bruno": 1750, "Carla": 1500}
    assert [p["chips"] for p in game.state()["players"]] == [2, 2, 1]
    ok(game.act("banker", {"type": "undo"}))
    assert [p["chips"] for p in game.state()["players"]] == [2, 2, 2]
    balanced(app, game)


def test_settings_are_checked(api):
    code, body = api.post(
        "/api/v1/games",
        {"edition": "niente-e-come-sembra", "players": list(NAMES), "settings": {"fake_note_share": 1.5}},
    )
    assert code == 400 and body["error"]["code"] == "invalid_setting"


def test_chance_cards_are_drawn_played_and_checked(app, api):
    game = new(api)
    a = game.ids["Anna"]
    drawn = ok(game.act("Anna", {"type": "chance_draw"}))
    mine = game.state("Anna")["counterfeits"]
    assert mine["my_cards"] == [drawn["card"]] and mine["chance_hands"][a] == 1 and mine["chance_board"] == 3
    assert game.state("Bruno")["counterfeits"]["my_cards"] == []
    played = ok(game.act("Anna", {"type": "chance_play", "card": drawn["card"]}))
    assert game.state("Carla")["checkable"][0]["card"] is True
    got = ok(game.act("Carla", {"type": "check", "payment": played["payment"]}))
    cash = game.cash()
    if got["fake"]:
        assert cash["Carla"] == 1600
    else:
        assert cash["Carla"] == 1500
    assert game.state("Anna")["counterfeits"]["my_cards"] == []
    balanced(app, game)
    notes_match_cash(app, game)


def test_other_editions_show_nothing_of_it(api):
    game = api.new_game(players=NAMES, edition="classic-it", seed=5).start()
    paid = ok(game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 100}))
    assert "payment" not in paid
    state = game.state()
    assert state["checkable"] == [] and state["counterfeits"] is None
    refusal(game.act("Carla", {"type": "check", "payment": "x"}), 409, "no_counterfeits")


def test_a_bid_the_notes_cannot_pay_is_refused(app, api):
    game = new(api)
    ok(game.act("banker", {"type": "auction_start", "deed": "vicolo-storto"}))
    refusal(game.act("Anna", {"type": "bid", "amount": 15}), 409, "not_in_notes")
    ok(game.act("Anna", {"type": "bid", "amount": 20}))
    ok(game.act("banker", {"type": "auction_close"}))
    assert game.state("Carla")["checkable"][0]["to"] == "bank"
    balanced(app, game)
    notes_match_cash(app, game)
