"""The deed actions through the API: each one, its refusals, and undo as a compensating change.
The rules themselves are tested in tests/core; here the service layer persists them."""

from __future__ import annotations

import datetime as dt

import pytest

from companion import services
from companion.store import Game, db
from tests.api.test_api import journal_matches


def deeds(game, who="banker"):
    return {d["key"]: d for d in game.state(who)["deeds"]}


def buy_group(game, who, keys):
    for key in keys:
        status, body = game.act(who, {"type": "buy", "deed": key})
        assert status == 200, body


def snapshot(game):
    state = game.state()
    return state["players"], state["deeds"], state["bank"], state["auction"], state["trades"]


def test_buy_at_the_printed_price(app, api):
    game = api.new_game().start()
    status, body = game.act("Anna", {"type": "buy", "deed": "parco-della-vittoria"})
    assert status == 200 and body["result"]["amount"] == 400 and body["result"]["cash"] == 1100
    assert deeds(game)["parco-della-vittoria"]["owner"] == game.ids["Anna"]
    journal_matches(app, game)


@pytest.mark.parametrize(
    "action, status, code",
    [
        ({"type": "buy", "deed": "vicolo-corto"}, 409, "deed_owned"),
        ({"type": "buy", "deed": "atlantis"}, 404, "unknown_deed"),
        ({"type": "buy"}, 404, "unknown_deed"),
        ({"type": "pay_rent", "deed": "vicolo-corto"}, 409, "own_deed"),
        ({"type": "build", "deed": "vicolo-corto"}, 409, "group_incomplete"),
        ({"type": "mortgage", "deed": "via-roma"}, 409, "not_owner"),
        ({"type": "unmortgage", "deed": "vicolo-corto"}, 409, "not_mortgaged"),
        ({"type": "sell_building", "deed": "vicolo-corto"}, 409, "no_buildings"),
        ({"type": "bid", "amount": 10}, 409, "no_auction"),
        ({"type": "trade_accept", "trade": "nope"}, 404, "unknown_trade"),
        ({"type": "auction_start", "deed": "vicolo-corto"}, 409, "deed_owned"),
    ],
)
def test_deed_refusals_change_nothing(api, action, status, code):
    game = api.new_game().start()
    game.act("Anna", {"type": "buy", "deed": "vicolo-corto"})
    before = snapshot(game)
    got, body = game.act("Anna", action)
    assert (got, body["error"]["code"]) == (status, code), body
    assert snapshot(game) == before


def test_rent_goes_to_the_owner_and_doubles_on_a_whole_group(app, api):
    game = api.new_game().start()
    buy_group(game, "Anna", ["vicolo-corto"])
    status, body = game.act("Bruno", {"type": "pay_rent", "deed": "vicolo-corto"})
    assert status == 200 and body["result"]["amount"] == 2
    buy_group(game, "Anna", ["vicolo-stretto"])
    status, body = game.act("Bruno", {"type": "pay_rent", "deed": "vicolo-corto"})
    assert body["result"]["amount"] == 4
    assert game.cash()["Anna"] == 1500 - 120 + 6
    journal_matches(app, game)


def test_utility_rent_needs_the_dice(api):
    game = api.new_game().start()
    buy_group(game, "Anna", ["societa-elettrica"])
    status, body = game.act("Bruno", {"type": "pay_rent", "deed": "societa-elettrica"})
    assert status == 400 and body["error"]["code"] == "invalid_dice"
    status, body = game.act("Bruno", {"type": "pay_rent", "deed": "societa-elettrica", "dice": 9})
    assert status == 200 and body["result"]["amount"] == 36


def test_building_evenly_then_selling_and_mortgaging(app, api):
    game = api.new_game().start()
    buy_group(game, "Anna", ["vicolo-corto", "vicolo-stretto"])
    assert game.act("Anna", {"type": "build", "deed": "vicolo-corto"})[0] == 200
    status, body = game.act("Anna", {"type": "build", "deed": "vicolo-corto"})
    assert status == 409 and body["error"]["code"] == "uneven_building"
    assert game.act("Anna", {"type": "build", "deed": "vicolo-stretto"})[0] == 200
    assert game.state()["bank"]["houses"] == 30
    status, body = game.act("Anna", {"type": "mortgage", "deed": "vicolo-corto"})
    assert status == 409
    assert game.act("Anna", {"type": "sell_building", "deed": "vicolo-corto"})[0] == 200
    assert game.act("Anna", {"type": "sell_building", "deed": "vicolo-stretto"})[0] == 200
    assert game.act("Anna", {"type": "mortgage", "deed": "vicolo-corto"})[0] == 200
    status, body = game.act("Anna", {"type": "unmortgage", "deed": "vicolo-corto"})
    assert status == 200 and body["result"]["amount"] == 33  # 30 + 10%, rounded up
    assert game.state()["bank"]["houses"] == 32
    journal_matches(app, game)


def test_an_auction_with_bids_and_the_countdown(app, api):
    game = api.new_game(auction_seconds=5).start()
    assert game.act("Bruno", {"type": "auction_start", "deed": "via-roma"})[0] == 200
    assert game.state()["auction"]["deed"] == "via-roma"
    assert game.act("Anna", {"type": "bid", "amount": 100})[0] == 200
    status, body = game.act("Carla", {"type": "bid", "amount": 100})
    assert status == 409 and body["error"]["code"] == "bid_too_low"
    status, body = game.act("Carla", {"type": "bid", "amount": 1600})
    assert status == 409 and body["error"]["code"] == "bid_above_cash"
    assert game.act("Carla", {"type": "bid", "amount": 150})[0] == 200
    status, body = game.act("Anna", {"type": "auction_close"})
    assert status == 403 and body["error"]["code"] == "auction_running"
    with app.app_context():  # let the countdown run out without waiting for it
        g = db.session.get(Game, game.id)
        g.auction = {**g.auction, "ends_at": (dt.datetime.utcnow() - dt.timedelta(seconds=1)).isoformat()}
        db.session.commit()
    status, body = game.act("Anna", {"type": "auction_close"})
    assert status == 200 and body["result"]["winner"] == game.ids["Carla"]
    assert deeds(game)["via-roma"]["owner"] == game.ids["Carla"] and game.state()["auction"] is None
    assert game.cash()["Carla"] == 1350
    journal_matches(app, game)


def test_the_banker_closes_an_auction_nobody_bid_on(api):
    game = api.new_game().start()
    game.act("banker", {"type": "auction_start", "deed": "via-roma"})
    status, body = game.act("banker", {"type": "auction_close"})
    assert status == 200 and body["result"]["type"] == "auction_unsold"
    assert deeds(game)["via-roma"]["owner"] is None


def test_a_trade_proposed_accepted_and_undone(app, api):
    game = api.new_game().start()
    buy_group(game, "Anna", ["via-roma"])
    give = {"cash": 0, "deeds": ["via-roma"], "jail_cards": 0}
    get = {"cash": 350, "deeds": [], "jail_cards": 0}
    status, body = game.act("Anna", {"type": "trade_propose", "to": game.ids["Bruno"], "give": give, "get": get})
    assert status == 200
    trade = body["result"]["trade"]
    assert [t["id"] for t in game.state("Carla")["trades"]] == [trade]
    status, body = game.act("Carla", {"type": "trade_accept", "trade": trade})
    assert status == 403 and body["error"]["code"] == "not_your_trade"
    assert game.act("Bruno", {"type": "trade_accept", "trade": trade})[0] == 200
    assert deeds(game)["via-roma"]["owner"] == game.ids["Bruno"]
    assert game.cash() == {"Anna": 1550, "Bruno": 1150, "Carla": 1500}
    assert game.act("banker", {"type": "undo"})[0] == 200
    assert deeds(game)["via-roma"]["owner"] == game.ids["Anna"]
    assert game.cash() == {"Anna": 1200, "Bruno": 1500, "Carla": 1500}
    assert [t["id"] for t in game.state()["trades"]] == [trade]  # the offer is open again
    journal_matches(app, game)


def test_a_trade_refused_or_withdrawn(api):
    game = api.new_game().start()
    side = {"cash": 10, "deeds": [], "jail_cards": 0}
    empty = {"cash": 0, "deeds": [], "jail_cards": 0}
    trade = game.act("Anna", {"type": "trade_propose", "to": game.ids["Bruno"], "give": side, "get": empty})[1]
    assert game.act("Bruno", {"type": "trade_reject", "trade": trade["result"]["trade"]})[0] == 200
    trade = game.act("Anna", {"type": "trade_propose", "to": game.ids["Bruno"], "give": side, "get": empty})[1]
    status, body = game.act("Anna", {"type": "trade_reject", "trade": trade["result"]["trade"]})
    assert status == 200 and body["result"]["type"] == "trade_withdraw"
    assert game.state()["trades"] == [] and game.cash()["Anna"] == 1500


@pytest.mark.parametrize(
    "give, code",
    [
        ({"cash": -5, "deeds": [], "jail_cards": 0}, "invalid_trade"),
        ({"cash": 0, "deeds": ["via-roma"], "jail_cards": 0}, "not_owner"),
        ("everything", "invalid_trade"),
    ],
)
def test_bad_trades_are_refused(api, give, code):
    game = api.new_game().start()
    status, body = game.act(
        "Anna",
        {
            "type": "trade_propose",
            "to": game.ids["Bruno"],
            "give": give,
            "get": {"cash": 1, "deeds": [], "jail_cards": 0},
        },
    )
    assert status in (400, 409) and body["error"]["code"] == code, body
    assert game.state()["trades"] == []


def test_bankruptcy_to_a_player_hands_everything_over(app, api):
    game = api.new_game().start()
    buy_group(game, "Anna", ["vicolo-corto", "vicolo-stretto"])
    game.act("Anna", {"type": "build", "deed": "vicolo-corto"})
    owed = game.beyond_means("Anna")
    status, body = game.act("Anna", {"type": "bankrupt", "creditor": game.ids["Bruno"], "amount": owed})
    assert status == 200
    state = game.state()
    anna = next(p for p in state["players"] if p["name"] == "Anna")
    assert anna["bankrupt"] and anna["cash"] == 0
    assert deeds(game)["vicolo-corto"]["owner"] == game.ids["Bruno"] and deeds(game)["vicolo-corto"]["houses"] == 0
    assert game.cash()["Bruno"] == 1500 + 1500 - 120 - 50 + 25
    status, body = game.act("Anna", {"type": "transfer", "to": "bank", "amount": 1})
    assert status == 403 and body["error"]["code"] == "spectator"
    assert game.state("Anna")["status"] == "running"  # a spectator still sees the game
    journal_matches(app, game)


def test_bankruptcy_to_the_bank_returns_the_deeds(api):
    game = api.new_game().start()
    buy_group(game, "Anna", ["via-roma"])
    status, body = game.act("Anna", {"type": "bankrupt", "creditor": "bank", "amount": game.beyond_means("Anna")})
    assert status == 200 and body["result"]["to_auction"] == ["via-roma"]
    assert deeds(game)["via-roma"]["owner"] is None


def test_jail_as_money_sees_it(api):
    game = api.new_game().start()
    assert game.act("Anna", {"type": "go_to_jail"})[0] == 200
    assert game.state()["players"][0]["in_jail"]
    assert game.act("Anna", {"type": "pay_jail_fine"})[0] == 200
    assert game.cash()["Anna"] == 1450 and not game.state()["players"][0]["in_jail"]
    game.act("Anna", {"type": "draw_jail_card"})
    game.act("Anna", {"type": "go_to_jail"})
    assert game.act("Anna", {"type": "use_jail_card"})[0] == 200
    status, _body = game.act("Anna", {"type": "use_jail_card"})
    assert status == 409


def test_the_banker_acts_on_deeds_for_a_player(api):
    game = api.new_game().start()
    status, body = game.act("banker", {"type": "buy", "deed": "via-roma", "player": game.ids["Carla"]})
    assert status == 200 and deeds(game)["via-roma"]["owner"] == game.ids["Carla"]
    status, body = game.act("Anna", {"type": "buy", "deed": "corso-impero", "player": game.ids["Carla"]})
    assert status == 403 and body["error"]["code"] == "not_your_account"


def test_campionato_rent_request_and_confirm(app, api):
    game = api.new_game(edition="campionato-2015").start()
    buy_group(game, "Anna", ["via-roma"])
    status, body = game.act("Anna", {"type": "rent_request", "deed": "via-roma", "payer": game.ids["Bruno"]})
    assert status == 200 and body["result"]["amount"] == 26
    request_id = body["result"]["request"]
    status, body = game.act("Carla", {"type": "rent_confirm", "request": request_id})
    assert status in (403, 409)
    assert game.act("Bruno", {"type": "rent_confirm", "request": request_id})[0] == 200
    assert game.cash()["Anna"] == 1500 - 300 + 26 and game.state()["rent_requests"] == []
    journal_matches(app, game)


def test_every_deed_action_is_undone_newest_first(app, api):
    game = api.new_game().start()
    start = snapshot(game)
    buy_group(game, "Anna", ["vicolo-corto", "vicolo-stretto"])
    game.act("Anna", {"type": "build", "deed": "vicolo-corto"})
    game.act("Bruno", {"type": "pay_rent", "deed": "vicolo-corto"})
    game.act("Carla", {"type": "auction_start", "deed": "via-roma"})
    game.act("Carla", {"type": "bid", "amount": 80})
    game.act("banker", {"type": "auction_close"})
    game.act("Carla", {"type": "mortgage", "deed": "via-roma"})
    for _ in range(8):
        assert game.act("banker", {"type": "undo"})[0] == 200
    assert snapshot(game) == start
    journal_matches(app, game)


def test_the_api_lists_the_deed_actions(api):
    _, doc = api.get("/api/openapi.json")
    types = set(doc["components"]["schemas"]["Action"]["properties"]["type"]["enum"])
    assert {
        "buy",
        "pay_rent",
        "build",
        "sell_building",
        "mortgage",
        "unmortgage",
        "auction_start",
        "bid",
        "auction_close",
        "trade_propose",
        "trade_accept",
        "trade_reject",
        "bankrupt",
    } <= types
    assert services.ACTIONS.keys() <= types
