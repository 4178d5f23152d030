"""The classic and championship rules the first version missed, through the API."""

from __future__ import annotations

from companion import services


def ok(result):
    code, body = result
    assert code == 200, body
    return body["result"]


def test_a_bankrupt_players_deeds_are_auctioned_one_after_another_by_the_table(app, api):
    game = api.new_game().start()
    for key in ("vicolo-corto", "vicolo-stretto"):
        ok(game.act("Carla", {"type": "buy", "deed": key}))
    ok(game.act("Carla", {"type": "bankrupt", "creditor": "bank", "amount": game.beyond_means("Carla")}))
    auction = game.state()["auction"]
    assert auction["deed"] == "vicolo-corto"  # opened by itself
    ok(game.act("Anna", {"type": "bid", "amount": 10}))
    ok(game.act("banker", {"type": "auction_close"}))
    assert game.state()["auction"]["deed"] == "vicolo-stretto"  # the next one follows
    ok(game.act("Bruno", {"type": "bid", "amount": 5}))
    ok(game.act("banker", {"type": "auction_close"}))
    state = game.state()
    assert state["auction"] is None
    owners = {d["key"]: d["owner"] for d in state["deeds"]}
    assert owners["vicolo-corto"] == game.ids["Anna"] and owners["vicolo-stretto"] == game.ids["Bruno"]
    events = game.api.get(f"/api/v1/games/{game.id}/events", game.banker)[1]["events"]
    assert any("1 more deed of the bankrupt player" in e["summary"] for e in events)
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def test_no_trades_between_the_last_two_is_a_setting(api):
    game = api.new_game(edition="campionato-2015", settings={"no_trades_two_left": True}).start()
    ok(game.act("Anna", {"type": "buy", "deed": "vicolo-corto"}))
    ok(game.act("Carla", {"type": "bankrupt", "creditor": "bank", "amount": game.beyond_means("Carla")}))
    code, body = game.act(
        "Anna",
        {
            "type": "trade_propose",
            "to": game.ids["Bruno"],
            "give": {"cash": 0, "deeds": ["vicolo-corto"]},
            "get": {"cash": 100, "deeds": []},
        },
    )
    assert (code, body["error"]["code"]) == (409, "no_trades_two_left")


def test_an_auction_won_above_cash_is_paid_after_a_mortgage(app, api):
    game = api.new_game(edition="campionato-2015").start()
    for key in ("via-roma", "corso-impero", "largo-augusto", "viale-dei-giardini"):
        ok(game.act("Anna", {"type": "buy", "deed": key}))
    cash = game.cash()["Anna"]  # 1500 - 300 - 300 - 320 - 350 = 230
    ok(game.act("Bruno", {"type": "auction_start", "deed": "parco-della-vittoria"}))
    ok(game.act("Anna", {"type": "bid", "amount": 400}))
    code, body = game.act("banker", {"type": "auction_close"})
    assert (code, body["error"]["code"]) == (409, "winner_raising_cash")
    ok(game.act("Anna", {"type": "mortgage", "deed": "via-roma"}))  # + 150
    ok(game.act("Anna", {"type": "mortgage", "deed": "corso-impero"}))  # + 150
    ok(game.act("banker", {"type": "auction_close"}))
    assert game.cash()["Anna"] == cash + 300 - 400
    owners = {d["key"]: d["owner"] for d in game.state()["deeds"]}
    assert owners["parco-della-vittoria"] == game.ids["Anna"]
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def test_faq_26_a_trade_closed_in_a_turn_must_involve_its_player(app, api):
    """Seed 001, FAQ 26, lines 517-528: once the table marks its turns, Carla and Bruno may
    agree during Anna's turn but close only when one of them plays."""
    game = api.new_game(edition="campionato-2015").start()
    ok(game.act("Carla", {"type": "buy", "deed": "vicolo-corto"}))
    ok(game.act("banker", {"type": "end_turn", "to": game.ids["Anna"]}))  # the table marks its turns
    trade = ok(
        game.act(
            "Carla",
            {
                "type": "trade_propose",
                "to": game.ids["Bruno"],
                "give": {"deeds": ["vicolo-corto"]},
                "get": {"cash": 90},
            },
        )
    )["trade"]
    code, body = game.act("Bruno", {"type": "trade_accept", "trade": trade})
    assert (code, body["error"]["code"]) == (409, "trade_outside_turn")
    assert "Anna" in body["error"]["message"]
    ok(game.act("Anna", {"type": "end_turn"}))  # Bruno's turn: he may close it now
    ok(game.act("Bruno", {"type": "trade_accept", "trade": trade}))
    assert {d["key"]: d["owner"] for d in game.state()["deeds"]}["vicolo-corto"] == game.ids["Bruno"]
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def _time_up(app, game) -> None:
    """The game's clock reaches its limit (as 90 minutes of play would)."""
    from companion.store import db

    with app.app_context():
        row = services.get_game(game.id)
        row.clock_elapsed_seconds = float(row.time_limit_seconds)
        db.session.commit()


def test_faq_6_at_time_up_ending_the_marked_turn_ends_the_game(app, api):
    """Seed 001, FAQ 6, lines 402-406: the active player finishes the turn, then the game is
    over and nobody but the count acts."""
    game = api.new_game(edition="campionato-2015", time_limit_minutes=90).start()
    assert game.state()["time_up"] is None
    ok(game.act("Anna", {"type": "end_turn"}))  # the table marks its turns: Bruno's turn
    _time_up(app, game)
    state = game.state()
    assert state["time_up"] == {"ends_with_turn": True, "player": game.ids["Bruno"]}
    assert state["turn"]["marked"] is True
    ok(game.act("Bruno", {"type": "buy", "deed": "vicolo-corto"}))  # Bruno finishes his turn
    result = ok(game.act("Bruno", {"type": "end_turn"}))
    assert result["finished"] and result["time_up"] and result["player"] is None
    state = game.state()
    assert state["status"] == "finished" and state["time_up"] is None and state["clock"]["running"] is False
    code, body = game.act("Carla", {"type": "buy", "deed": "vicolo-stretto"})  # the next player cannot buy
    assert (code, body["error"]["code"]) == (409, "game_finished")
    events = game.api.get(f"/api/v1/games/{game.id}/events", game.banker)[1]["events"]
    assert events[-1]["summary"] == "Time is up and Bruno's turn is over: the game ends."
    assert game.api.get(f"/api/v1/games/{game.id}/score", game.banker)[1]["final"] is True
    ok(game.act("banker", {"type": "undo"}))  # the banker's undo reopens it, the clock paused
    assert game.state()["status"] == "running"


def test_faq_6_a_table_not_marking_turns_is_asked_to_end_the_game(app, api, client):
    game = api.new_game(edition="campionato-2015", time_limit_minutes=90).start()
    _time_up(app, game)
    assert game.state()["time_up"] == {"ends_with_turn": False, "player": None}
    screen = client.get(f"/g/{game.id}/screen", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Time's up!" in screen and "The banker ends the game now" in screen
    ok(game.act("banker", {"type": "end"}))
    assert game.state()["status"] == "finished"


def test_bankruptcy_only_for_a_debt_that_cannot_be_paid(app, api):
    """Che Impresa! lines 283-287 (and Motopolis line 74): bankrupt only owing "una somma
    superiore a tutto ciò che possiede". The issue's case: a player with money to spare
    declaring bankruptcy "owing 100", which the bank would have paid in full."""
    game = api.new_game(edition="che-impresa").start()
    b = game.ids["Bruno"]
    code, body = game.act("Carla", {"type": "bankrupt", "creditor": b, "amount": 100})
    assert (code, body["error"]["code"]) == (409, "can_still_pay")
    payable = game.beyond_means("Carla") - 1
    assert f"Carla can still pay B\u00a0{payable:,}" in body["error"]["message"]  # in Che Impresa's currency
    code, body = game.act("Carla", {"type": "bankrupt", "creditor": b})  # no debt named, as before
    assert (code, body["error"]["code"]) == (400, "debt_required")
    code, body = game.act("Carla", {"type": "bankrupt", "creditor": b, "amount": 100, "payment": "agenzia-viaggi"})
    assert (code, body["error"]["code"]) == (400, "two_debts")
    cash = game.cash()
    result = ok(game.act("Carla", {"type": "bankrupt", "creditor": b, "amount": payable + 1}))
    assert result["creditor_paid"] == payable + 1  # the debt in full, no more
    assert game.cash()["Bruno"] == cash["Bruno"] + payable + 1
    events = game.api.get(f"/api/v1/games/{game.id}/events", game.banker)[1]["events"]
    said = next(e["summary"] for e in events if e["type"] == "bankrupt").replace("\u00a0", " ")
    assert "Carla cannot pay Bruno" in said and "passed to the bank" in said and "The bank paid Bruno" in said
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def test_a_bankruptcy_names_a_rent_and_the_rules_compute_it(app, api):
    game = api.new_game().start()
    ok(game.act("Bruno", {"type": "buy", "deed": "parco-della-vittoria"}))
    code, body = game.act("Anna", {"type": "bankrupt", "deed": "parco-della-vittoria"})
    assert (code, body["error"]["code"]) == (409, "can_still_pay")  # 50 of rent, 1,500 in hand
    code, body = game.act("Anna", {"type": "bankrupt", "creditor": game.ids["Carla"], "deed": "parco-della-vittoria"})
    assert (code, body["error"]["code"]) == (409, "wrong_creditor")
    ok(game.act("banker", {"type": "transfer", "from": game.ids["Anna"], "to": "bank", "amount": 1480}))
    result = ok(game.act("Anna", {"type": "bankrupt", "deed": "parco-della-vittoria"}))  # 20 left: out
    assert result["to_auction"] == [] and game.cash()["Bruno"] == 1500 - 400 + 20
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []
