"""The engine through the API (../shared/API.md, second part): game settings, the Free Parking
pot, payment requests, the strict bank, the championship's rent requests, integer amounts,
unknown accounts, and idempotency keys. The rules themselves are tested in tests/core."""

from __future__ import annotations

import datetime as dt

import pytest

from companion import services
from companion.store import Game, db, now_utc

# On PostgreSQL too (python -m tests), the tests marked ``database``: idempotency keys (unique
# rows), integer amounts, and settings stored as JSON. The others drive rules through the API and
# store nothing those and tests/api/test_api.py do not store on both databases already.

POT = "free_parking"


def journal_is_whole(app, game) -> None:
    """The players' cash and the pots equal the journal, which sums to zero."""
    with app.app_context():
        g = services.get_game(game.id)
        assert services.verify_game(g) == []
        assert sum(services.journal_balances(g).values()) == 0


def ok(result, status=200):
    code, body = result
    assert code == status, body
    return body


def refusal(result, status, code):
    got, body = result
    assert (got, body["error"]["code"]) == (status, code), body
    assert body["error"]["message"]
    return body["error"]["message"]


def games_count(app) -> int:
    with app.app_context():
        return db.session.query(Game).count()


def last_event(game):
    status, body = game.api.get(f"/api/v1/games/{game.id}/events", game.banker)
    assert status == 200
    return body["events"][-1]


# --- settings on creation --------------------------------------------------------------------


@pytest.mark.database
def test_settings_are_taken_at_creation_and_shown(api):
    game = api.new_game(
        settings={"strict_bank": True, "free_parking_pot": True, "request_seconds": 120, "auction_seconds": 45}
    )
    state = game.state()
    chosen = {"strict_bank": True, "free_parking_pot": True, "request_seconds": 120, "auction_seconds": 45}
    assert {k: state["settings"][k] for k in chosen} == chosen
    from companion.core.settings import SETTINGS

    assert set(state["settings"]) == set(SETTINGS)  # every setting shown, the others at their default
    assert all(state["settings"][k] == SETTINGS[k].default for k in SETTINGS if k not in chosen)
    assert state["pots"] == {POT: 0} and state["pending"] == []
    assert state["auction_seconds"] == 45
    assert game.state("Anna")["settings"] == state["settings"]


def test_without_settings_a_game_takes_the_defaults(api):
    from companion.core.settings import SETTINGS

    state = api.new_game().state()
    assert state["settings"] == {name: s.default for name, s in SETTINGS.items()}
    assert {
        k: state["settings"][k] for k in ("strict_bank", "free_parking_pot", "request_seconds", "auction_seconds")
    } == {"strict_bank": False, "free_parking_pot": False, "request_seconds": 0, "auction_seconds": 20}
    assert state["pots"] == {} and state["pending"] == []
    assert api.new_game(settings=None).state()["settings"] == state["settings"]


@pytest.mark.database
def test_a_game_stored_before_a_setting_existed_shows_its_default(app, api):
    game = api.new_game(settings={"strict_bank": True})
    with app.app_context():
        row = db.session.get(Game, game.id)
        row.extra = {**row.extra, "settings": {"strict_bank": True}}
        db.session.commit()
    from companion.core.settings import SETTINGS

    assert game.state()["settings"] == {**{name: s.default for name, s in SETTINGS.items()}, "strict_bank": True}


@pytest.mark.parametrize(
    "settings, code, named",
    [
        ({"strict_bank": True, "free_parking": True}, "unknown_setting", "free_parking"),
        ({"fake_note_share_typo": 0.5}, "unknown_setting", "fake_note_share_typo"),
        ({"strict_bank": "yes"}, "invalid_setting", "strict_bank"),
        ({"free_parking_pot": 1}, "invalid_setting", "free_parking_pot"),
        ({"auction_seconds": 2}, "invalid_setting", "auction_seconds"),
        ({"auction_seconds": "30"}, "invalid_setting", "auction_seconds"),
        ({"request_seconds": -5}, "invalid_setting", "request_seconds"),
        ({"request_seconds": 7200}, "invalid_setting", "request_seconds"),
        ([], "invalid_settings", None),
        ("strict_bank", "invalid_settings", None),
        (True, "invalid_settings", None),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_created(app, api, settings, code, named):
    before = games_count(app)
    message = refusal(
        api.post("/api/v1/games", {"edition": "classic-it", "players": ["Anna", "Bruno"], "settings": settings}),
        400,
        code,
    )
    if named:
        assert named in message
    assert games_count(app) == before


# --- the Free Parking pot --------------------------------------------------------------------


def test_the_free_parking_pot_end_to_end(app, api):
    game = api.new_game(settings={"free_parking_pot": True}).start()
    ok(game.act("Anna", {"type": "pay_fixed", "payment": "luxury-tax"}))
    ok(game.act("Bruno", {"type": "transfer", "to": POT, "amount": 50, "reason": "house rule fine"}))
    ok(game.act("banker", {"type": "pay_fixed", "payment": "jail-fine", "player": game.ids["Carla"]}))
    state = game.state()
    assert state["pots"] == {POT: 200}
    assert game.cash() == {"Anna": 1400, "Bruno": 1450, "Carla": 1450}
    assert game.state("Bruno")["pots"] == {POT: 200}
    assert last_event(game)["params"]["to"] == POT

    body = ok(game.act("Carla", {"type": "pot_collect", "pot": POT}))
    assert body["result"]["amount"] == 200 and body["result"]["cash"] == 1650
    assert game.state()["pots"] == {POT: 0}
    refusal(game.act("Anna", {"type": "pot_collect", "pot": POT}), 409, "pot_empty")
    refusal(game.act("Anna", {"type": "pot_collect", "pot": "jackpot"}), 404, "unknown_pot")
    refusal(game.act("Anna", {"type": "pot_collect"}), 404, "unknown_pot")

    ok(game.act("banker", {"type": "undo"}))
    assert game.state()["pots"] == {POT: 200} and game.cash()["Carla"] == 1450
    ok(game.act("banker", {"type": "undo"}))
    ok(game.act("banker", {"type": "undo"}))
    assert game.state()["pots"] == {POT: 100} and game.cash() == {"Anna": 1400, "Bruno": 1500, "Carla": 1500}
    journal_is_whole(app, game)


def test_a_game_without_the_pot_pays_taxes_to_the_bank(app, api):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "pay_fixed", "payment": "luxury-tax"}))
    assert game.state()["pots"] == {} and game.cash()["Anna"] == 1400
    assert last_event(game)["params"]["to"] == "bank"
    refusal(game.act("Anna", {"type": "pot_collect", "pot": POT}), 404, "unknown_pot")
    refusal(game.act("Anna", {"type": "transfer", "to": POT, "amount": 10}), 404, "unknown_player")
    journal_is_whole(app, game)


@pytest.mark.parametrize(
    "who, action",
    [
        ("Anna", {"type": "transfer", "to": "pot_that_does_not_exist", "amount": 10}),
        ("banker", {"type": "transfer", "from": "pot_that_does_not_exist", "to": "bank", "amount": 10}),
        ("banker", {"type": "transfer", "from": "bank", "to": "pot_that_does_not_exist", "amount": 10}),
        ("banker", {"type": "transfer", "from": POT, "to": "bank", "amount": 10}),
        ("Anna", {"type": "request", "from": "pot_that_does_not_exist", "amount": 10}),
        ("Anna", {"type": "pot_collect", "pot": "pot_that_does_not_exist"}),
    ],
)
@pytest.mark.database
def test_an_unknown_account_is_404_never_500(app, api, who, action):
    game = api.new_game(settings={"free_parking_pot": True}).start()
    status, body = game.act(who, action)
    assert status == 404, body
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    assert game.state()["pots"] == {POT: 0}
    journal_is_whole(app, game)


# --- payment requests between players ------------------------------------------------------


def test_a_request_waits_and_the_payer_approves_it(app, api):
    game = api.new_game().start()
    anna, bruno = game.ids["Anna"], game.ids["Bruno"]
    version = game.state()["version"]
    body = ok(game.act("Anna", {"type": "request", "from": bruno, "amount": 200, "reason": "half of Via Roma"}))
    pending_id = body["result"]["pending"]
    state = game.state("Bruno")
    assert state["version"] == version + 1
    [waiting] = state["pending"]
    assert {k: waiting[k] for k in ("id", "from", "to", "amount", "reason", "needs")} == {
        "id": pending_id,
        "from": bruno,
        "to": anna,
        "amount": 200,
        "reason": "half of Via Roma",
        "needs": "payer",
    }
    assert waiting["at"]
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}

    body = ok(game.act("Bruno", {"type": "approve", "pending": pending_id}))
    assert body["result"]["cash"] == 1300
    assert game.cash() == {"Anna": 1700, "Bruno": 1300, "Carla": 1500}
    assert game.state()["pending"] == []
    event = last_event(game)
    assert event["type"] == "transfer"
    assert (event["params"]["from"], event["params"]["to"], event["params"]["amount"]) == (bruno, anna, 200)
    assert "Bruno" in event["summary"] and "Anna" in event["summary"]
    refusal(game.act("Bruno", {"type": "approve", "pending": pending_id}), 404, "unknown_pending")
    assert game.cash() == {"Anna": 1700, "Bruno": 1300, "Carla": 1500}
    journal_is_whole(app, game)


def test_a_request_declined_or_withdrawn_moves_nothing(app, api):
    game = api.new_game().start()
    bruno = game.ids["Bruno"]
    first = ok(game.act("Anna", {"type": "request", "from": bruno, "amount": 200}))["result"]["pending"]
    second = ok(game.act("Anna", {"type": "request", "from": bruno, "amount": 300}))["result"]["pending"]
    assert [p["id"] for p in game.state()["pending"]] == [first, second]
    ok(game.act("Bruno", {"type": "decline", "pending": first}))
    assert last_event(game)["type"] == "pending_declined"
    ok(game.act("Anna", {"type": "decline", "pending": second}))
    assert last_event(game)["type"] == "pending_withdrawn"
    assert game.state()["pending"] == []
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    journal_is_whole(app, game)


def test_only_the_payer_approves_a_request(app, api):
    game = api.new_game().start()
    bruno = game.ids["Bruno"]
    pending_id = ok(game.act("Anna", {"type": "request", "from": bruno, "amount": 200}))["result"]["pending"]
    refusal(game.act("Carla", {"type": "approve", "pending": pending_id}), 403, "not_your_request")
    refusal(game.act("Carla", {"type": "decline", "pending": pending_id}), 403, "not_your_request")
    refusal(game.act("Anna", {"type": "approve", "pending": pending_id}), 403, "not_your_request")
    refusal(game.act("Carla", {"type": "approve", "pending": pending_id, "player": bruno}), 403, "not_your_account")
    # The banker is the bank unless acting for the payer.
    refusal(game.act("banker", {"type": "approve", "pending": pending_id}), 403, "not_your_request")
    assert len(game.state()["pending"]) == 1 and game.cash()["Bruno"] == 1500
    ok(game.act("banker", {"type": "approve", "pending": pending_id, "player": bruno}))
    assert game.cash() == {"Anna": 1700, "Bruno": 1300, "Carla": 1500}
    journal_is_whole(app, game)


def test_approving_without_the_cash_is_refused_and_moves_nothing(app, api):
    game = api.new_game().start()
    bruno = game.ids["Bruno"]
    pending_id = ok(game.act("Anna", {"type": "request", "from": bruno, "amount": 1600}))["result"]["pending"]
    message = refusal(game.act("Bruno", {"type": "approve", "pending": pending_id}), 409, "insufficient_cash")
    assert "100" in message
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    assert [p["id"] for p in game.state()["pending"]] == [pending_id]
    ok(game.act("banker", {"type": "collect", "player": bruno, "amount": 100}))
    ok(game.act("Bruno", {"type": "approve", "pending": pending_id}))
    assert game.cash() == {"Anna": 3100, "Bruno": 0, "Carla": 1500}
    journal_is_whole(app, game)


@pytest.mark.parametrize(
    "action, status, code",
    [
        ({"type": "request", "amount": 10}, 400, "missing_field"),
        ({"type": "request", "from": "ANNA", "amount": 10}, 400, "same_account"),
        ({"type": "request", "from": "bank", "amount": 10}, 404, "unknown_player"),
        ({"type": "request", "from": "nobody", "amount": 10}, 404, "unknown_player"),
        ({"type": "request", "from": "BRUNO", "amount": 0}, 400, "invalid_amount"),
        ({"type": "request", "from": "BRUNO", "amount": 100001}, 400, "amount_too_large"),
        ({"type": "request", "from": "BRUNO", "amount": 10, "reason": ["x"]}, 400, "invalid_reason"),
        ({"type": "approve"}, 404, "unknown_pending"),
        ({"type": "approve", "pending": "nope"}, 404, "unknown_pending"),
        ({"type": "decline", "pending": 7}, 404, "unknown_pending"),
    ],
)
def test_request_refusals(app, api, action, status, code):
    game = api.new_game().start()
    action = {
        k: game.ids["Anna"] if v == "ANNA" else game.ids["Bruno"] if v == "BRUNO" else v for k, v in action.items()
    }
    version = game.state()["version"]
    refusal(game.act("Anna", action), status, code)
    state = game.state()
    assert state["version"] == version and state["pending"] == []


def test_a_request_before_the_start_is_refused(api):
    game = api.new_game()
    refusal(game.act("Anna", {"type": "request", "from": game.ids["Bruno"], "amount": 10}), 409, "game_not_started")


@pytest.mark.database
def test_the_same_key_makes_one_request(app, api):
    game = api.new_game().start()
    action = {"type": "request", "from": game.ids["Bruno"], "amount": 200, "key": "ask-1"}
    first = game.act("Anna", action)
    again = game.act("Anna", action)
    assert first == again and first[0] == 200
    assert len(game.state()["pending"]) == 1
    message = refusal(game.act("Anna", {**action, "amount": 300}), 409, "key_reused")
    assert message
    refusal(game.act("Anna", {**action, "reason": "other"}), 409, "key_reused")
    refusal(game.act("Anna", {"type": "transfer", "to": "bank", "amount": 10, "key": "ask-1"}), 409, "key_reused")
    state = game.state()
    assert len(state["pending"]) == 1 and state["version"] == first[1]["version"]
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    # The same key, from another token, is another request.
    ok(game.act("Carla", {**action, "from": game.ids["Bruno"]}))
    assert len(game.state()["pending"]) == 2


@pytest.mark.database
def test_the_same_key_approves_once(app, api):
    game = api.new_game().start()
    pending_id = ok(game.act("Anna", {"type": "request", "from": game.ids["Bruno"], "amount": 200}))["result"][
        "pending"
    ]
    action = {"type": "approve", "pending": pending_id, "key": "pay-1"}
    assert game.act("Bruno", action) == game.act("Bruno", action)
    assert game.cash() == {"Anna": 1700, "Bruno": 1300, "Carla": 1500}
    journal_is_whole(app, game)


def test_a_request_lapses_after_the_games_request_seconds(app, api, monkeypatch):
    game = api.new_game(settings={"request_seconds": 60}).start()
    bruno = game.ids["Bruno"]
    body = ok(game.act("Anna", {"type": "request", "from": bruno, "amount": 200}))
    pending_id = body["result"]["pending"]
    [waiting] = game.state()["pending"]
    assert waiting["expires_at"] is not None
    later = now_utc() + dt.timedelta(seconds=61)
    monkeypatch.setattr("companion.services.actions.now_utc", lambda: later)
    monkeypatch.setattr("companion.services.reads.now_utc", lambda: later)
    assert game.state()["pending"] == []
    # Approving a lapsed request is refused as lapsed, and moves nothing.
    refusal(game.act("Bruno", {"type": "approve", "pending": pending_id}), 409, "pending_expired")
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    # The next change that lands clears it, as an entry of its own.
    ok(game.act("Carla", {"type": "transfer", "to": "bank", "amount": 5}))
    types = [e["type"] for e in api.get(f"/api/v1/games/{game.id}/events", game.banker)[1]["events"]]
    assert types[-2:] == ["transfer", "pending_expired"]
    refusal(game.act("Bruno", {"type": "approve", "pending": pending_id}), 404, "unknown_pending")
    journal_is_whole(app, game)


# --- the strict bank -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action, amount, kind",
    [
        ({"type": "collect", "amount": 100, "reason": "beauty contest"}, 100, "transfer"),
        ({"type": "pass_go"}, 200, "pass_go"),
        ({"type": "transfer", "from": "bank", "amount": 50}, 50, "transfer"),
        ({"type": "transfer", "from": "bank", "to": "ANNA", "amount": 50}, 50, "transfer"),
    ],
)
def test_money_asked_from_a_strict_bank_waits_for_the_banker(app, api, action, amount, kind):
    game = api.new_game(settings={"strict_bank": True}).start()
    anna = game.ids["Anna"]
    status, body = game.act("Anna", {k: anna if v == "ANNA" else v for k, v in action.items()})
    assert status == 202, body
    pending_id = body["result"]["pending"]
    assert body["result"]["held"] is True and body["version"] == game.state()["version"]
    [waiting] = game.state()["pending"]
    assert (waiting["id"], waiting["from"], waiting["to"], waiting["amount"], waiting["needs"]) == (
        pending_id,
        "bank",
        anna,
        amount,
        "banker",
    )
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    assert last_event(game)["type"] == "bank_request"

    refusal(game.act("Anna", {"type": "approve", "pending": pending_id}), 403, "banker_only")
    refusal(game.act("Bruno", {"type": "approve", "pending": pending_id}), 403, "banker_only")
    refusal(game.act("Bruno", {"type": "decline", "pending": pending_id}), 403, "not_your_request")
    refusal(game.act("banker", {"type": "approve", "pending": pending_id, "player": anna}), 403, "banker_only")
    assert game.cash()["Anna"] == 1500

    ok(game.act("banker", {"type": "approve", "pending": pending_id}))
    assert game.cash() == {"Anna": 1500 + amount, "Bruno": 1500, "Carla": 1500}
    assert game.state()["pending"] == []
    assert last_event(game)["type"] == kind
    journal_is_whole(app, game)


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("to", ["BRUNO", "bank", POT, "nobody"])
def test_a_player_asks_the_bank_only_for_themselves(app, api, strict, to):
    """A player's transfer from the bank pays that player: one naming another payee is refused,
    never paid to the asker instead."""
    game = api.new_game(settings={"strict_bank": strict, "free_parking_pot": True}).start()
    to = game.ids["Bruno"] if to == "BRUNO" else to
    refusal(game.act("Anna", {"type": "transfer", "from": "bank", "to": to, "amount": 50}), 403, "not_your_account")
    state = game.state()
    assert state["pending"] == [] and state["pots"] == {POT: 0}
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}


def test_the_banker_declines_and_the_player_withdraws(app, api):
    game = api.new_game(settings={"strict_bank": True}).start()
    first = ok(game.act("Anna", {"type": "collect", "amount": 100}), 202)["result"]["pending"]
    second = ok(game.act("Anna", {"type": "pass_go"}), 202)["result"]["pending"]
    ok(game.act("banker", {"type": "decline", "pending": first}))
    assert last_event(game)["type"] == "pending_declined"
    ok(game.act("Anna", {"type": "decline", "pending": second}))
    assert last_event(game)["type"] == "pending_withdrawn"
    assert game.state()["pending"] == [] and game.cash()["Anna"] == 1500
    journal_is_whole(app, game)


def test_the_bankers_own_payouts_and_payments_to_the_bank_do_not_wait(app, api):
    game = api.new_game(settings={"strict_bank": True, "free_parking_pot": True}).start()
    anna = game.ids["Anna"]
    for action in (
        {"type": "collect", "amount": 100, "player": anna},
        {"type": "pass_go", "player": anna},
        {"type": "transfer", "from": "bank", "to": anna, "amount": 50},
    ):
        ok(game.act("banker", action))
    assert game.cash()["Anna"] == 1850
    for action in (
        {"type": "transfer", "to": "bank", "amount": 50},
        {"type": "pay_fixed", "payment": "luxury-tax"},
        {"type": "buy", "deed": "vicolo-corto"},
        {"type": "transfer", "to": game.ids["Bruno"], "amount": 10},
        {"type": "transfer", "to": POT, "amount": 20},
    ):
        ok(game.act("Anna", action))
    ok(game.act("Bruno", {"type": "pot_collect", "pot": POT}))
    assert game.state()["pending"] == []
    assert game.cash() == {"Anna": 1850 - 50 - 100 - 60 - 10 - 20, "Bruno": 1510 + 120, "Carla": 1500}
    journal_is_whole(app, game)


@pytest.mark.database
def test_a_held_request_sent_twice_with_its_key_waits_once(app, api):
    game = api.new_game(settings={"strict_bank": True}).start()
    action = {"type": "collect", "amount": 100, "key": "prize-1"}
    first = game.act("Anna", action)
    assert first == game.act("Anna", action) and first[0] == 202
    assert len(game.state()["pending"]) == 1
    refusal(game.act("Anna", {**action, "amount": 101}), 409, "key_reused")


def test_without_a_strict_bank_nothing_waits(api):
    game = api.new_game().start()
    body = ok(game.act("Anna", {"type": "collect", "amount": 100}))
    assert "held" not in body["result"] and game.cash()["Anna"] == 1600


def test_undo_takes_back_a_held_request_and_an_approval(app, api):
    game = api.new_game(settings={"strict_bank": True}).start()
    pending_id = ok(game.act("Anna", {"type": "pass_go"}), 202)["result"]["pending"]
    ok(game.act("banker", {"type": "approve", "pending": pending_id}))
    ok(game.act("banker", {"type": "undo"}))
    assert game.cash()["Anna"] == 1500 and [p["id"] for p in game.state()["pending"]] == [pending_id]
    ok(game.act("banker", {"type": "undo"}))
    assert game.state()["pending"] == []
    journal_is_whole(app, game)


# --- the championship's rent requests -----------------------------------------------------------


def test_championship_rent_requests_go_through_pending(app, api):
    game = api.new_game(edition="campionato-2015").start()
    anna, bruno = game.ids["Anna"], game.ids["Bruno"]
    ok(game.act("Anna", {"type": "buy", "deed": "via-roma"}))
    body = ok(game.act("Anna", {"type": "rent_request", "deed": "via-roma", "payer": bruno}))
    request_id = body["result"]["request"]
    assert body["result"]["pending"] == request_id and body["result"]["amount"] == 26
    state = game.state()
    [waiting] = state["pending"]
    assert (waiting["id"], waiting["from"], waiting["to"], waiting["amount"], waiting["needs"], waiting["deed"]) == (
        request_id,
        bruno,
        anna,
        26,
        "payer",
        "via-roma",
    )
    assert [r["id"] for r in state["rent_requests"]] == [request_id]
    assert game.cash() == {"Anna": 1200, "Bruno": 1500, "Carla": 1500}
    refusal(
        game.act("Anna", {"type": "rent_request", "deed": "via-roma", "payer": bruno}), 409, "rent_already_requested"
    )
    refusal(game.act("Carla", {"type": "rent_confirm", "request": request_id}), 403, "not_your_rent_request")
    ok(game.act("Bruno", {"type": "rent_confirm", "request": request_id}))
    assert game.cash() == {"Anna": 1226, "Bruno": 1474, "Carla": 1500}
    assert game.state()["pending"] == [] and game.state()["rent_requests"] == []
    assert last_event(game)["type"] == "pay_rent"

    second = ok(game.act("Anna", {"type": "rent_request", "deed": "via-roma", "payer": game.ids["Carla"]}))
    second_id = second["result"]["request"]
    refusal(game.act("Carla", {"type": "rent_lapse", "request": second_id}), 403, "not_your_rent_request")
    ok(game.act("Anna", {"type": "rent_lapse", "request": second_id}))
    assert game.state()["pending"] == [] and game.cash()["Carla"] == 1500

    # A rent request is money waiting for a yes like any other: the generic approve pays it.
    third = ok(game.act("Anna", {"type": "rent_request", "deed": "via-roma", "payer": bruno}))["result"]["pending"]
    ok(game.act("Bruno", {"type": "approve", "pending": third}))
    assert game.cash() == {"Anna": 1252, "Bruno": 1448, "Carla": 1500}
    assert last_event(game)["type"] == "pay_rent"
    journal_is_whole(app, game)


def test_rent_actions_and_generic_requests_do_not_mix(app, api):
    game = api.new_game(edition="campionato-2015").start()
    bruno = game.ids["Bruno"]
    ok(game.act("Anna", {"type": "buy", "deed": "via-roma"}))
    asked = ok(game.act("Anna", {"type": "request", "from": bruno, "amount": 40}))["result"]["pending"]
    refusal(game.act("Bruno", {"type": "rent_confirm", "request": asked}), 404, "unknown_rent_request")
    refusal(game.act("Anna", {"type": "rent_lapse", "request": asked}), 404, "unknown_rent_request")
    rent = ok(game.act("Anna", {"type": "rent_request", "deed": "via-roma", "payer": bruno}))["result"]["pending"]
    ok(game.act("Bruno", {"type": "decline", "pending": rent}))
    assert last_event(game)["type"] == "pending_declined"
    assert [p["id"] for p in game.state()["pending"]] == [asked]
    assert game.cash() == {"Anna": 1200, "Bruno": 1500, "Carla": 1500}
    journal_is_whole(app, game)


# --- amounts are JSON integers -----------------------------------------------------------------


@pytest.mark.parametrize("amount", ["100", "abc", 100.0, 1.5, "1,5", " 42 ", True, None, [100], {"n": 1}])
@pytest.mark.parametrize(
    "who, action",
    [
        ("Anna", {"type": "transfer", "to": "BRUNO"}),
        ("banker", {"type": "transfer", "from": "bank", "to": "BRUNO"}),
        ("Anna", {"type": "collect"}),
        ("Anna", {"type": "request", "from": "BRUNO"}),
        ("Anna", {"type": "transfer", "to": POT}),
    ],
)
@pytest.mark.database
def test_amounts_that_are_not_json_integers_are_refused(app, api, who, action, amount):
    game = api.new_game(settings={"free_parking_pot": True}).start()
    action = {k: game.ids["Bruno"] if v == "BRUNO" else v for k, v in action.items()}
    version = game.state()["version"]
    refusal(game.act(who, {**action, "amount": amount}), 400, "invalid_amount")
    state = game.state()
    assert state["version"] == version and state["pending"] == []


@pytest.mark.parametrize(
    "raw",
    [
        b'{"type": "transfer", "to": "bank", "amount": 100.0}',
        b'{"type": "transfer", "to": "bank", "amount": 1e2}',
        b'{"type": "transfer", "to": "bank", "amount": "100"}',
    ],
)
@pytest.mark.database
def test_amounts_in_raw_json_must_be_integers(api, raw):
    game = api.new_game().start()
    refusal(api.post(f"/api/v1/games/{game.id}/actions", token=game.tokens["Anna"], raw=raw), 400, "invalid_amount")
    assert game.cash()["Anna"] == 1500


@pytest.mark.database
def test_a_bid_must_be_an_integer(api):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "auction_start", "deed": "via-roma"}))
    for amount in ("100", 100.0):
        refusal(game.act("Bruno", {"type": "bid", "amount": amount}), 400, "invalid_amount")
    ok(game.act("Bruno", {"type": "bid", "amount": 100}))


# --- the API's description ------------------------------------------------------------------------


def test_openapi_describes_the_engine(api):
    _, doc = api.get("/api/openapi.json")
    schemas = doc["components"]["schemas"]
    assert {"request", "approve", "decline", "pot_collect"} <= set(schemas["Action"]["properties"]["type"]["enum"])
    assert {"pending", "pot", "from", "reason"} <= set(schemas["Action"]["properties"])
    assert {"settings", "pots", "pending"} <= set(schemas["Game"]["properties"])
    from companion.core.settings import SETTINGS

    assert set(schemas["Settings"]["properties"]) == set(SETTINGS)  # each setting described
    assert {"id", "from", "to", "amount", "reason", "needs", "at"} <= set(schemas["Pending"]["properties"])
    create = doc["paths"]["/api/v1/games"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert "settings" in create["properties"]
    assert "202" in doc["paths"]["/api/v1/games/{game_id}/actions"]["post"]["responses"]


# --- no input makes the server fail -------------------------------------------------------------


@pytest.mark.database
def test_no_input_to_the_new_actions_makes_the_server_fail(app, api):
    """Random payloads for the new actions on a game with every setting: each answer is a
    JSON refusal or a success, never a 5xx, and the money stays whole."""
    import random

    game = api.new_game(settings={"strict_bank": True, "free_parking_pot": True, "request_seconds": 30}).start()
    rng = random.Random(7)
    ids = list(game.ids.values())
    held = []
    values = [
        None,
        True,
        0,
        -1,
        1,
        50,
        2**70,
        1.5,
        "",
        "100",
        "x" * 300,
        "bank",
        POT,
        "jackpot",
        [],
        {},
        "\u0000",
        *ids,
    ]
    fields = ["from", "to", "amount", "reason", "pending", "pot", "player", "payment", "key"]
    kinds = ["request", "approve", "decline", "pot_collect", "transfer", "collect", "pass_go", "pay_fixed", "undo"]
    for _ in range(200):
        body = {"type": rng.choice(kinds)}
        for name in rng.sample(fields, rng.randint(0, 4)):
            body[name] = rng.choice(values + held)
        status, answer = game.act(rng.choice(["Anna", "Bruno", "Carla", "banker"]), body)
        assert status < 500, (body, answer)
        if status >= 400:
            assert answer["error"]["code"] and answer["error"]["message"]
        elif "pending" in answer["result"]:
            held.append(answer["result"]["pending"])
    journal_is_whole(app, game)
