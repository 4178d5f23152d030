"""The JSON API of ../shared/API.md: each endpoint, and every bad input refused with a clear
4xx that changes nothing."""

from __future__ import annotations

import re

import pytest

from companion import config, services, store
from companion.store import db

# On PostgreSQL too (python -m tests): the contract over what each database stores: lengths, characters, keys, order.
pytestmark = pytest.mark.database


def journal_matches(app, game) -> None:
    """Every player's cash equals the journal, and the journal sums to zero."""
    with app.app_context():
        g = services.get_game(game.id)
        balances = services.journal_balances(g)
        assert sum(balances.values()) == 0
        for p in g.players:
            assert p.cash == balances.get(p.id, 0)


# --- editions --------------------------------------------------------------------------------


def test_editions_list_the_built_in_rule_sets(api):
    status, body = api.get("/api/v1/editions")
    assert status == 200
    ids = {e["id"] for e in body["editions"]}
    assert {"classic-it", "campionato-2015"} <= ids
    classic = next(e for e in body["editions"] if e["id"] == "classic-it")
    assert classic["min_players"] == 2 and classic["max_players"] == 8 and classic["currency"]


def test_edition_shows_the_italian_board(api):
    status, body = api.get("/api/v1/editions/classic-it")
    assert status == 200
    deeds = {d["key"]: d for d in body["deeds"]}
    assert len(deeds) == 28
    assert deeds["parco-della-vittoria"]["price"] == 400
    assert deeds["parco-della-vittoria"]["rents"] == [50, 200, 600, 1400, 1700, 2000]
    assert deeds["vicolo-corto"]["group"] == "brown"
    assert {p["key"]: p["amount"] for p in body["fixed_payments"]} == {
        "wealth-tax": 200,
        "luxury-tax": 100,
        "jail-fine": 50,
    }


def test_unknown_edition_is_404(api):
    status, body = api.get("/api/v1/editions/nope")
    assert status == 404 and body["error"]["code"] == "unknown_edition"


# --- creating and joining --------------------------------------------------------------------


def test_create_game_hands_out_tokens(api):
    game = api.new_game(time_limit_minutes=90, seed=42)
    state = game.state()
    assert state["status"] == "setup" and state["version"] == 1
    assert [p["name"] for p in state["players"]] == ["Anna", "Bruno", "Carla"]
    assert all(p["cash"] == 0 for p in state["players"])
    assert len(state["deeds"]) == 28 and all(d["owner"] is None for d in state["deeds"])
    assert state["bank"] == {"houses": 32, "hotels": 12}
    assert state["clock"] == {
        "limit_seconds": 5400,
        "remaining_seconds": 5400,
        "running": False,
        "last_minutes": 0,
        "closing": False,
    }


@pytest.mark.parametrize(
    "body, code",
    [
        ({"edition": "nope", "players": ["A", "B"]}, "unknown_edition"),
        ({"players": ["A", "B"]}, "unknown_edition"),
        ({"edition": "classic-it", "players": "Anna"}, "invalid_players"),
        ({"edition": "classic-it", "players": ["A", ""]}, "invalid_name"),
        ({"edition": "classic-it", "players": ["A", "   "]}, "invalid_name"),
        ({"edition": "classic-it", "players": ["A", 7]}, "invalid_name"),
        ({"edition": "classic-it", "players": ["A", "x" * 41]}, "invalid_name"),
        ({"edition": "classic-it", "players": ["A", "bad\u0000name"]}, "invalid_name"),
        ({"edition": "classic-it", "players": ["Anna", "anna"]}, "duplicate_name"),
        ({"edition": "classic-it", "players": [f"P{i}" for i in range(9)]}, "too_many_players"),
        ({"edition": "classic-it", "players": ["A", "B"], "time_limit_minutes": 0}, "invalid_time_limit"),
        ({"edition": "classic-it", "players": ["A", "B"], "time_limit_minutes": -5}, "invalid_time_limit"),
        ({"edition": "classic-it", "players": ["A", "B"], "time_limit_minutes": 1.5}, "invalid_time_limit"),
        ({"edition": "classic-it", "players": ["A", "B"], "time_limit_minutes": "90"}, "invalid_time_limit"),
        ({"edition": "classic-it", "players": ["A", "B"], "time_limit_minutes": True}, "invalid_time_limit"),
        ({"edition": "classic-it", "players": ["A", "B"], "time_limit_minutes": 100000}, "invalid_time_limit"),
        ({"edition": "classic-it", "players": ["A", "B"], "seed": "x"}, "invalid_seed"),
        ({"edition": "classic-it", "players": ["A", "B"], "seed": 2**70}, "invalid_seed"),
    ],
)
def test_create_game_refuses_bad_input(app, api, body, code):
    status, answer = api.post("/api/v1/games", body)
    assert status == 400
    assert answer["error"]["code"] == code and answer["error"]["message"]
    with app.app_context():
        assert db.session.query(store.Game).count() == 0


@pytest.mark.parametrize("raw", [b"{", b"[]", b"42", b'"text"', b"null", b"\xff\xfe"])
def test_malformed_json_is_400(api, raw):
    status, body = api.post("/api/v1/games", raw=raw)
    assert status == 400 and body["error"]["code"] == "invalid_json"


def test_a_script_name_is_just_a_name(api):
    game = api.new_game(players=("<script>alert(1)</script>", "Bruno"))
    assert game.state()["players"][0]["name"] == "<script>alert(1)</script>"


def test_join_while_in_setup(api):
    game = api.new_game(players=("Anna",))
    status, body = api.post(f"/api/v1/games/{game.id}/join", {"join_code": game.join_code.lower(), "name": "Dario"})
    assert status == 201 and body["name"] == "Dario" and body["token"]
    assert [p["name"] for p in game.state()["players"]] == ["Anna", "Dario"]
    assert [p["name"] for p in game.state("Anna")["players"]] == ["Anna", "Dario"]


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"join_code": "WRONG1", "name": "Dario"}, 403, "wrong_join_code"),
        ({"name": "Dario"}, 403, "wrong_join_code"),
        ({"join_code": 12, "name": "Dario"}, 403, "wrong_join_code"),
        ({"join_code": None, "name": ""}, 400, "invalid_name"),
    ],
)
def test_join_refusals(api, body, status, code):
    game = api.new_game()
    got, answer = api.post(f"/api/v1/games/{game.id}/join", body)
    assert (got, answer["error"]["code"]) == (status, code)
    assert len(game.state()["players"]) == 3


def test_join_refuses_taken_name_full_table_and_started_game(api):
    game = api.new_game(players=[f"P{i}" for i in range(7)])
    status, body = api.post(f"/api/v1/games/{game.id}/join", {"join_code": game.join_code, "name": "p0"})
    assert status == 409 and body["error"]["code"] == "name_taken"
    assert api.post(f"/api/v1/games/{game.id}/join", {"join_code": game.join_code, "name": "P7"})[0] == 201
    status, body = api.post(f"/api/v1/games/{game.id}/join", {"join_code": game.join_code, "name": "P8"})
    assert status == 409 and body["error"]["code"] == "table_full"
    game.start()
    other = api.new_game()
    other.start()
    status, body = api.post(f"/api/v1/games/{other.id}/join", {"join_code": other.join_code, "name": "Late"})
    assert status == 409 and body["error"]["code"] == "already_started"


def test_join_unknown_game_is_404(api):
    status, body = api.post("/api/v1/games/nope/join", {"join_code": "ABC", "name": "X"})
    assert status == 404 and body["error"]["code"] == "unknown_game"
    for odd in ("%00", "x" * 300, "a%00b"):  # never reaches the database (PostgreSQL refuses NUL)
        assert api.post(f"/api/v1/games/{odd}/join", {"join_code": "ABC", "name": "X"})[0] == 404
        assert api.get(f"/api/v1/games/{odd}", token="t")[0] == 404


def test_join_attempts_are_rate_limited(api):
    game = api.new_game()
    codes = [api.post(f"/api/v1/games/{game.id}/join", {"join_code": "GUESS1", "name": "X"})[0] for _ in range(25)]
    assert codes[:20] == [403] * 20
    assert set(codes[20:]) == {429}


# --- tokens ----------------------------------------------------------------------------------


def test_state_needs_a_token_of_this_game(api):
    game, other = api.new_game(), api.new_game()
    assert api.get(f"/api/v1/games/{game.id}")[0] == 401
    assert api.get(f"/api/v1/games/{game.id}", token="made-up")[0] == 401
    assert api.get(f"/api/v1/games/{game.id}", token=other.banker)[0] == 401
    assert api.get(f"/api/v1/games/{game.id}", token=other.tokens["Anna"])[0] == 401
    assert api.get("/api/v1/games/nope", token=game.banker)[0] == 404


def test_a_token_of_another_game_spends_nothing(api):
    game, other = api.new_game().start(), api.new_game().start()
    status, _body = api.post(
        f"/api/v1/games/{game.id}/actions",
        {"type": "transfer", "to": game.ids["Bruno"], "amount": 100},
        other.tokens["Anna"],
    )
    assert status == 401
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}


def test_the_join_code_alone_spends_nothing(api):
    game = api.new_game().start()
    status, _ = api.post(
        f"/api/v1/games/{game.id}/actions", {"type": "transfer", "to": game.ids["Bruno"], "amount": 100}, game.join_code
    )
    assert status == 401


def test_private_cash_is_hidden_from_other_players(api):
    game = api.new_game(edition="campionato-2015").start()
    seen_by_anna = {p["name"]: p["cash"] for p in game.state("Anna")["players"]}
    assert seen_by_anna == {"Anna": 1500, "Bruno": None, "Carla": None}
    assert all(p["cash"] == 1500 for p in game.state("banker")["players"])


# --- money -----------------------------------------------------------------------------------


def test_start_pays_the_starting_cash(app, api):
    game = api.new_game().start()
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    assert game.state()["status"] == "running"
    journal_matches(app, game)


def test_start_refusals(api):
    game = api.new_game()
    status, body = game.act("Anna", {"type": "start"})
    assert status == 403 and body["error"]["code"] == "banker_only"
    game.start()
    status, body = game.act("banker", {"type": "start"})
    assert status == 409 and body["error"]["code"] == "already_started"
    lonely = api.new_game(players=("Solo",))
    status, body = lonely.act("banker", {"type": "start"})
    assert status == 409 and body["error"]["code"] == "too_few_players"


def test_transfer_between_players(app, api):
    game = api.new_game().start()
    status, body = game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 120, "reason": "rent"})
    assert status == 200 and body["result"]["cash"] == 1380 and body["version"] == 3
    assert game.cash() == {"Anna": 1380, "Bruno": 1620, "Carla": 1500}
    journal_matches(app, game)


def test_transfer_to_the_bank_and_collect_from_it(app, api):
    game = api.new_game().start()
    assert game.act("Anna", {"type": "transfer", "to": "bank", "amount": 60})[0] == 200
    assert game.act("Bruno", {"type": "collect", "amount": 25, "reason": "Probabilità"})[0] == 200
    assert game.cash() == {"Anna": 1440, "Bruno": 1525, "Carla": 1500}
    journal_matches(app, game)


def test_insufficient_cash_says_how_much_is_missing(api):
    game = api.new_game().start()
    status, body = game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 1600})
    assert status == 409 and body["error"]["code"] == "insufficient_cash"
    assert "100" in body["error"]["message"]
    assert game.cash()["Anna"] == 1500


@pytest.mark.parametrize(
    "amount, code",
    [
        (-5, "invalid_amount"),
        (0, "invalid_amount"),
        (1.5, "invalid_amount"),
        ("abc", "invalid_amount"),
        ("12.5", "invalid_amount"),
        ("-3", "invalid_amount"),
        (True, "invalid_amount"),
        (None, "invalid_amount"),
        ([100], "invalid_amount"),
        ({"v": 1}, "invalid_amount"),
        (10**12, "amount_too_large"),
        (100001, "amount_too_large"),
        ("1e3", "invalid_amount"),
        (float("nan"), "invalid_json"),
    ],
)
def test_bad_amounts_are_refused(api, amount, code):
    game = api.new_game().start()
    body = {"type": "transfer", "to": game.ids["Bruno"]}
    if amount is not None:
        body["amount"] = amount
    if isinstance(amount, float) and amount != amount:
        status, answer = api.post(
            f"/api/v1/games/{game.id}/actions",
            token=game.tokens["Anna"],
            raw=b'{"type": "transfer", "to": "%s", "amount": NaN}' % game.ids["Bruno"].encode(),
        )
    else:
        status, answer = game.act("Anna", body)
    assert status == 400 and answer["error"]["code"] == code
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    assert game.state()["version"] == 2


@pytest.mark.parametrize("amount", ["75", "abc", 75.0, "75.5"])
def test_amounts_must_be_json_integers(api, amount):
    game = api.new_game().start()
    status, body = game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": amount})
    assert status == 400 and body["error"]["code"] == "invalid_amount"
    assert game.cash()["Bruno"] == 1500


@pytest.mark.parametrize(
    "action, status, code",
    [
        ({"type": "transfer", "to": "nobody", "amount": 10}, 404, "unknown_player"),
        ({"type": "transfer", "amount": 10}, 400, "missing_field"),
        ({"type": "transfer", "to": None, "amount": 10}, 404, "unknown_player"),
        ({"type": "transfer", "to": ["x"], "amount": 10}, 404, "unknown_player"),
        ({"type": "transfer", "to": "bank", "amount": 10, "reason": "x" * 81}, 400, "invalid_reason"),
        ({"type": "transfer", "to": "bank", "amount": 10, "reason": 5}, 400, "invalid_reason"),
        ({"type": "fly"}, 400, "unknown_action"),
        ({}, 400, "unknown_action"),
        ({"type": ["transfer"]}, 400, "unknown_action"),
        ({"type": "transfer", "to": "bank", "amount": 10, "key": "k" * 101}, 400, "invalid_key"),
        ({"type": "transfer", "to": "bank", "amount": 10, "key": 5}, 400, "invalid_key"),
        ({"type": "transfer", "to": "bank", "amount": 10, "key": "tap\u0000"}, 400, "invalid_key"),
        ({"type": "transfer", "to": "bank", "amount": 10, "reason": "rent\u0000"}, 400, "invalid_reason"),
        ({"type": "pay_fixed", "payment": "nope"}, 404, "unknown_payment"),
        ({"type": "undo"}, 403, "banker_only"),
        ({"type": "end"}, 403, "banker_only"),
        ({"type": "clock_pause"}, 403, "banker_only"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(api, action, status, code):
    game = api.new_game().start()
    got, body = game.act("Anna", action)
    assert (got, body["error"]["code"]) == (status, code), body
    assert game.state()["version"] == 2
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}


def test_paying_oneself_is_refused(api):
    game = api.new_game().start()
    status, body = game.act("Anna", {"type": "transfer", "to": game.ids["Anna"], "amount": 10})
    assert status == 400 and body["error"]["code"] == "same_account"


def test_a_player_cannot_spend_for_another(api):
    game = api.new_game().start()
    status, body = game.act(
        "Anna", {"type": "transfer", "from": game.ids["Bruno"], "to": game.ids["Anna"], "amount": 500}
    )
    assert status == 403 and body["error"]["code"] == "not_your_account"
    status, body = game.act("Anna", {"type": "pass_go", "player": game.ids["Bruno"]})
    assert status == 403 and body["error"]["code"] == "not_your_account"
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}


def test_the_banker_moves_money_for_anyone(app, api):
    game = api.new_game().start()
    assert (
        game.act("banker", {"type": "transfer", "from": game.ids["Anna"], "to": game.ids["Carla"], "amount": 300})[0]
        == 200
    )
    assert game.act("banker", {"type": "transfer", "from": "bank", "to": game.ids["Bruno"], "amount": 50})[0] == 200
    assert game.act("banker", {"type": "pass_go", "player": game.ids["Anna"]})[0] == 200
    assert game.cash() == {"Anna": 1400, "Bruno": 1550, "Carla": 1800}
    status, body = game.act("banker", {"type": "pass_go"})
    assert status == 400 and body["error"]["code"] == "player_required"
    journal_matches(app, game)


def test_pass_go_and_fixed_payments_read_the_edition(api):
    game = api.new_game().start()
    assert game.act("Anna", {"type": "pass_go"})[0] == 200
    assert game.act("Bruno", {"type": "pay_fixed", "payment": "luxury-tax"})[0] == 200
    assert game.act("Carla", {"type": "pay_fixed", "payment": "wealth-tax"})[0] == 200
    assert game.act("Carla", {"type": "pay_fixed", "payment": "jail-fine"})[0] == 200
    assert game.cash() == {"Anna": 1700, "Bruno": 1400, "Carla": 1250}


def test_money_moves_only_while_the_game_runs(api):
    game = api.new_game()
    status, body = game.act("Anna", {"type": "transfer", "to": "bank", "amount": 10})
    assert status == 409 and body["error"]["code"] == "game_not_started"
    game.start()
    assert game.act("banker", {"type": "end"})[0] == 200
    assert game.state()["status"] == "finished"
    for action in ({"type": "transfer", "to": "bank", "amount": 10}, {"type": "pass_go"}):
        status, body = game.act("Anna", action)
        assert status == 409 and body["error"]["code"] == "game_finished"
    status, body = game.act("banker", {"type": "end"})
    assert status == 409 and body["error"]["code"] == "game_finished"


# --- idempotency -----------------------------------------------------------------------------


def test_the_same_key_pays_once(api):
    game = api.new_game().start()
    action = {"type": "transfer", "to": game.ids["Bruno"], "amount": 100, "key": "tap-1"}
    first = game.act("Anna", action)
    again = game.act("Anna", action)
    assert first == again
    assert game.cash() == {"Anna": 1400, "Bruno": 1600, "Carla": 1500}


def test_keys_belong_to_their_token(api):
    game = api.new_game().start()
    assert game.act("Anna", {"type": "transfer", "to": "bank", "amount": 10, "key": "same"})[0] == 200
    assert game.act("Bruno", {"type": "transfer", "to": "bank", "amount": 10, "key": "same"})[0] == 200
    assert game.cash() == {"Anna": 1490, "Bruno": 1490, "Carla": 1500}


def test_a_refused_request_can_be_retried_with_its_key(api):
    game = api.new_game().start()
    action = {"type": "transfer", "to": game.ids["Bruno"], "amount": 1600, "key": "retry"}
    assert game.act("Anna", action)[0] == 409
    game.act("banker", {"type": "transfer", "from": "bank", "to": game.ids["Anna"], "amount": 200})
    assert game.act("Anna", action)[0] == 200
    assert game.cash()["Anna"] == 100


# --- undo and the journal --------------------------------------------------------------------


def test_undo_goes_newest_first_and_is_a_new_entry(app, api):
    game = api.new_game().start()
    game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 100})
    game.act("Bruno", {"type": "transfer", "to": game.ids["Carla"], "amount": 1600})
    assert game.cash() == {"Anna": 1400, "Bruno": 0, "Carla": 3100}
    assert game.act("banker", {"type": "undo"})[0] == 200
    assert game.cash() == {"Anna": 1400, "Bruno": 1600, "Carla": 1500}
    assert game.act("banker", {"type": "undo"})[0] == 200
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    _status, body = api.get(f"/api/v1/games/{game.id}/events?since=0", game.tokens["Anna"])
    kinds = [(e["version"], e["type"], e["reversed"], e["reverses"]) for e in body["events"]]
    assert kinds[-4:] == [
        (3, "transfer", True, None),
        (4, "transfer", True, None),
        (5, "undo", False, 4),
        (6, "undo", False, 3),
    ]
    journal_matches(app, game)


def test_undo_of_start_takes_the_money_back(app, api):
    game = api.new_game().start()
    assert game.act("banker", {"type": "undo"})[0] == 200
    state = game.state()
    assert state["status"] == "setup" and all(p["cash"] == 0 for p in state["players"])
    status, body = game.act("banker", {"type": "undo"})
    assert status == 409 and body["error"]["code"] == "nothing_to_undo"
    game.start()
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    journal_matches(app, game)


def test_undo_of_end_reopens_the_game_with_the_clock_paused(api):
    game = api.new_game(time_limit_minutes=30).start()
    game.act("banker", {"type": "end"})
    assert game.act("banker", {"type": "undo"})[0] == 200
    state = game.state()
    assert state["status"] == "running" and state["clock"]["running"] is False
    assert game.act("Anna", {"type": "transfer", "to": "bank", "amount": 10})[0] == 200
    assert game.act("banker", {"type": "clock_resume"})[0] == 200


def test_events_since_a_version(api):
    game = api.new_game().start()
    game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 100})
    status, body = api.get(f"/api/v1/games/{game.id}/events?since=2", game.tokens["Carla"])
    assert status == 200
    assert [(e["version"], e["type"], e["actor"]) for e in body["events"]] == [(3, "transfer", game.ids["Anna"])]
    assert body["events"][0]["summary"] == "Anna paid Bruno € 100.".replace(" 1", "\u00a01")
    for bad in ("-1", "x", "1.5"):
        status, body = api.get(f"/api/v1/games/{game.id}/events?since={bad}", game.tokens["Carla"])
        assert status == 400 and body["error"]["code"] == "invalid_since"


def test_the_journal_answers_in_pages_saying_when_more_follow(app, api):
    app.config["EVENTS_PAGE"] = 100
    game = api.new_game().start()
    for _ in range(100):
        assert game.act("Anna", {"type": "transfer", "to": "bank", "amount": 1})[0] == 200
    status, body = api.get(f"/api/v1/games/{game.id}/events?since=0", game.banker)
    assert status == 200 and body["more"] is True
    assert [e["version"] for e in body["events"]] == list(range(1, 101))
    status, body = api.get(f"/api/v1/games/{game.id}/events?since=100", game.banker)
    assert body["more"] is False and body["events"][0]["version"] == 101
    assert body["events"][-1]["version"] == game.state()["version"]
    # Exactly a page left: no more, and nothing after it.
    last = game.state()["version"]
    status, body = api.get(f"/api/v1/games/{game.id}/events?since={last - 100}", game.banker)
    assert len(body["events"]) == 100 and body["more"] is False
    assert api.get(f"/api/v1/games/{game.id}/events?since={last}", game.banker)[1] == {"events": [], "more": False}


@pytest.mark.parametrize("raw", ["99", "0", "-5", "lots", "100001"])
def test_a_page_of_the_journal_is_at_least_100_entries(raw):
    with pytest.raises(config.BadSetting, match="BANCO_EVENTS_PAGE must be a whole number from 100 to 100000"):
        config.events_page({"BANCO_EVENTS_PAGE": raw})
    assert config.events_page({}) == 500 and config.events_page({"BANCO_EVENTS_PAGE": "100"}) == 100


# --- the clock -------------------------------------------------------------------------------


def test_the_clock_starts_with_the_game_and_pauses(api):
    game = api.new_game(time_limit_minutes=60)
    assert game.state()["clock"]["running"] is False
    game.start()
    clock = game.state()["clock"]
    assert clock["running"] is True and 3590 <= clock["remaining_seconds"] <= 3600
    assert game.act("banker", {"type": "clock_pause"})[0] == 200
    assert game.state()["clock"]["running"] is False
    status, body = game.act("banker", {"type": "clock_pause"})
    assert status == 409 and body["error"]["code"] == "clock_paused"
    assert game.act("banker", {"type": "clock_resume"})[0] == 200
    status, body = game.act("banker", {"type": "clock_resume"})
    assert status == 409 and body["error"]["code"] == "clock_running"


def test_no_clock_without_a_time_limit(api):
    game = api.new_game().start()
    assert game.state()["clock"] is None
    status, body = game.act("banker", {"type": "clock_pause"})
    assert status == 409 and body["error"]["code"] == "no_clock"


# --- the API describes itself ----------------------------------------------------------------


def test_openapi_lists_every_api_route(app, api):
    status, doc = api.get("/api/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.")
    documented = set(doc["paths"])
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
            assert path in documented, path
    action_types = doc["components"]["schemas"]["Action"]["properties"]["type"]["enum"]
    assert {"start", "transfer", "pass_go", "undo", "end"} <= set(action_types)


def test_unknown_api_path_and_method_answer_json(api, client):
    status, body = api.get("/api/v1/nothing-here")
    assert status == 404 and body["error"]["code"] == "not_found"
    r = client.delete("/api/v1/editions")
    assert r.status_code == 405 and r.get_json()["error"]["code"] == "method_not_allowed"


ROUNDS = 400


def test_no_input_makes_the_server_fail(app, api):
    """Random payloads of every shape: each answer is a JSON refusal or a success, never a 5xx."""
    import random

    game = api.new_game().start()
    rng = random.Random(2026)
    values = [
        None,
        True,
        0,
        -1,
        1,
        2**70,
        1.5,
        "",
        "x" * 500,
        "bank",
        "via-roma",
        [],
        [1, "a"],
        {},
        {"cash": -1},
        game.ids["Bruno"],
        {"cash": 1, "deeds": ["via-roma"], "jail_cards": 0},
        "\u0000",
        "<script>",
    ]
    fields = [
        "to",
        "from",
        "amount",
        "reason",
        "payment",
        "player",
        "deed",
        "dice",
        "payer",
        "request",
        "trade",
        "creditor",
        "building",
        "deeds",
        "give",
        "get",
        "award_to",
        "break_hotel",
        "key",
    ]
    kinds = [*services.ACTIONS, "undo", "clock_pause", "nope", 7, None]
    for _ in range(ROUNDS):
        body = {"type": rng.choice(kinds)}
        for name in rng.sample(fields, rng.randint(0, 5)):
            body[name] = rng.choice(values)
        status, answer = game.act(rng.choice(["Anna", "Bruno", "banker"]), body)
        assert status < 500, (body, answer)
        if status >= 400:
            assert answer["error"]["code"] and answer["error"]["message"]
    journal_matches(app, game)
