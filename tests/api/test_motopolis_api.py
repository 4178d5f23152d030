"""A whole game of Motopolis through the API: deeds dealt at the start, GO 1000, a dealership
built on three stations a deed, a mortgage lost after three laps and reaching the land alone
(seed 002 line 73), half the rent of a mortgaged
deed to the bank, the board's squares, Attesa ricambi and the sosta bisognino, auctions opening
at 50, a bankruptcy paying the creditor half, and the end after the fortieth round; the journal
balances all along."""

from __future__ import annotations

import pytest

from companion import services
from companion.core.editions.loading import load_editions
from companion.core.errors import BancoError
from tests.api.gamekit import ok, owners, refusal

# On PostgreSQL too (python -m tests): every kind of state this edition stores (JSON documents, entry kinds).
pytestmark = pytest.mark.database

MP = load_editions().editions["motopolis"]
NAMES = ("Anna", "Bruno", "Carla")
BROWN = ["garelli", "benelli"]
LIGHT_BLUE = ["gilera", "moto-morini", "malaguti"]


def deed_state(game, key):
    return next(d for d in game.state()["deeds"] if d["key"] == key)


def player_state(game, name):
    return next(p for p in game.state()["players"] if p["name"] == name)


def name_of(game, player_id):
    return next(n for n, i in game.ids.items() if i == player_id)


def balanced(app, game):
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def end_turn(game):
    """Whoever's turn it is ends it."""
    player = game.state()["turn"]["player"]
    return ok(game.act(name_of(game, player), {"type": "end_turn"}))


def top_up(game, name, amount=5000):
    ok(game.act("banker", {"type": "transfer", "from": "bank", "to": game.ids[name], "amount": amount}))


def gather(game, name, keys):
    """``name`` comes to own ``keys``: buying what is free, taking the rest by trades."""
    me = game.ids[name]
    for key in keys:
        owner = owners(game)[key]
        if owner is None:
            ok(game.act(name, {"type": "buy", "deed": key}))
        elif owner != me:
            if deed_state(game, key)["mortgaged"]:
                ok(game.act(name_of(game, owner), {"type": "unmortgage", "deed": key}))
            offer = {"type": "trade_propose", "to": me, "give": {"deeds": [key]}, "get": {"cash": 300}}
            trade = ok(game.act(name_of(game, owner), offer))["trade"]
            ok(game.act(name, {"type": "trade_accept", "trade": trade}))


def test_a_mortgage_reaches_the_land_alone(app, api):
    """Seed 002 line 73, as written: a land is mortgaged when it has no buildings of its own,
    and only the mortgaged land takes no building; its groupmates still build, evenly among
    themselves."""
    game = api.new_game(players=NAMES, edition="motopolis", seed=4).start()
    top_up(game, "Anna", 20000)
    gilera, morini, malaguti = LIGHT_BLUE
    gather(game, "Anna", LIGHT_BLUE)
    ok(game.act("Anna", {"type": "build", "deed": gilera}))
    refusal(game.act("Anna", {"type": "mortgage", "deed": gilera}), 409, "deed_has_buildings")
    assert ok(game.act("Anna", {"type": "mortgage", "deed": malaguti}))["amount"] == 300
    refusal(game.act("Anna", {"type": "build", "deed": malaguti}), 409, "deed_mortgaged_no_building")
    ok(game.act("Anna", {"type": "build", "deed": morini}))
    ok(game.act("Anna", {"type": "build", "deed": gilera}))
    assert [deed_state(game, k)["houses"] for k in LIGHT_BLUE] == [2, 1, 0]
    balanced(app, game)


def test_a_land_is_traded_once_it_is_unbuilt_itself(app, api):
    """Seed 002 line 70: a land with stations or a dealership is not sold or traded until they
    go back to the bank; its unbuilt groupmates are (line 69), whatever the others hold."""
    game = api.new_game(players=NAMES, edition="motopolis", seed=4).start()
    top_up(game, "Anna", 20000)
    gilera, _, malaguti = LIGHT_BLUE
    gather(game, "Anna", LIGHT_BLUE)
    ok(game.act("Anna", {"type": "build", "deed": gilera}))
    bruno = game.ids["Bruno"]
    offer = {"type": "trade_propose", "to": bruno, "give": {"deeds": [gilera]}, "get": {"cash": 500}}
    assert "Gilera" in refusal(game.act("Anna", offer), 409, "deed_has_buildings")
    offer["give"] = {"deeds": [malaguti]}
    trade = ok(game.act("Anna", offer))["trade"]
    ok(game.act("Bruno", {"type": "trade_accept", "trade": trade}))
    assert owners(game)[malaguti] == bruno and deed_state(game, gilera)["houses"] == 1
    balanced(app, game)


def test_seven_players_only_as_a_house_rule(app, api):
    """Seed 002 line 11 seats seven; the table of lines 18-23 gives no values for them: seven
    play only where the game ticks the house rule, at the file's own 7000 and 1 deed."""
    seven = [f"P{i}" for i in range(7)]
    assert ok(api.get("/api/v1/editions/motopolis"))["house_sizes"] == [7]
    message = refusal(
        api.post("/api/v1/games", {"edition": "motopolis", "players": seven}), 400, "house_size_not_chosen"
    )
    assert "7" in message and "house rule" in message
    italian = api.client.post(
        "/api/v1/games", json={"edition": "motopolis", "players": seven}, headers={"Accept-Language": "it"}
    )
    assert "regola della casa" in refusal((italian.status_code, italian.get_json()), 400, "house_size_not_chosen")
    six = api.new_game(players=seven[:6], edition="motopolis", seed=3)
    refusal(
        six.api.post(f"/api/v1/games/{six.id}/join", {"join_code": six.join_code, "name": "P6"}),
        409,
        "table_full_house_size",
    )
    ok(six.act("banker", {"type": "start"}))  # six, as the rulebook has them
    with app.app_context():
        assert services.create_game("motopolis", seven[:3])["id"]  # any other size needs nothing
    game = api.new_game(players=seven, edition="motopolis", seed=3, settings={"house_sizes": True})
    assert game.state()["settings"]["house_sizes"] is True
    game.start()  # the API's banker does not play
    held = owners(game)
    for name in seven:
        mine = [d for d in MP.deeds if held[d.key] == game.ids[name]]
        assert len(mine) == 1 and game.cash()[name] == 7000 - mine[0].price
    refusal(api.post("/api/v1/games", {"edition": "motopolis", "players": seven + ["P7"]}), 400, "too_many_players")
    with app.app_context():
        with pytest.raises(BancoError) as info:
            services.create_game("motopolis", seven, banker_seat=0, settings={"house_sizes": True})
        assert info.value.code == "too_many_players_banker_plays"
        created = services.create_game("motopolis", seven[:6], banker_seat=0, settings={"house_sizes": True})
    refusal(
        api.post(f"/api/v1/games/{created['id']}/join", {"join_code": created["join_code"], "name": "P7"}),
        409,
        "table_full_banker_plays",
    )


def test_a_three_player_game(app, api):
    game = api.new_game(players=NAMES, edition="motopolis", seed=11).start()
    a, b, c = (game.ids[n] for n in NAMES)
    state = game.state()
    # Dealt: five deeds each, paid at their price out of 9000.
    held = owners(game)
    for name in NAMES:
        mine = [d for d in MP.deeds if held[d.key] == game.ids[name]]
        assert len(mine) == 5
        assert game.cash()[name] == 9000 - sum(d.price for d in mine)
    assert state["turn"] == {"player": a, "number": 1, "limit": 40, "marked": False}
    assert state["bank"] == {"houses": 32, "hotels": 12}
    events = ok(game.api.get(f"/api/v1/games/{game.id}/events", game.banker))["events"]
    assert all(name in next(e for e in events if e["type"] == "start")["summary"] for name in NAMES)
    edition = ok(game.api.get("/api/v1/editions/motopolis", game.banker))
    assert all(d["provisional"] for d in edition["deeds"])
    for name in NAMES:
        top_up(game, name, 20000)

    # GO pays 1000.
    before = game.cash()["Anna"]
    assert ok(game.act("Anna", {"type": "pass_go"}))["laps"] == 1
    assert game.cash()["Anna"] == before + 1000

    # Anna gathers the brown group (buying what is free, taking the rest by trades).
    gather(game, "Anna", BROWN)
    # Three stations on every deed, then the dealership in place of three of them.
    before = game.cash()["Anna"]
    for _ in range(2):
        for key in BROWN:
            ok(game.act("Anna", {"type": "build", "deed": key}))
    ok(game.act("Anna", {"type": "build", "deed": "garelli"}))
    refusal(game.act("Anna", {"type": "build", "deed": "garelli", "building": "big"}), 409, "uneven_building")
    ok(game.act("Anna", {"type": "build", "deed": "benelli"}))
    ok(game.act("Anna", {"type": "build", "deed": "garelli", "building": "big"}))
    assert game.cash()["Anna"] == before - 7 * 250
    assert (deed_state(game, "garelli")["hotel"], deed_state(game, "garelli")["houses"]) == (True, 0)
    assert game.state()["bank"] == {"houses": 32 - 6 + 3, "hotels": 11}
    cash = game.cash()
    ok(game.act("Bruno", {"type": "pay_rent", "deed": "garelli"}))
    assert game.cash()["Bruno"] == cash["Bruno"] - 1250 and game.cash()["Anna"] == cash["Anna"] + 1250

    # Carla mortgages one of her deeds at half its price, no interest, and cannot sell it.
    carla_streets = [
        d for d in MP.deeds if owners(game)[d.key] == c and MP.group(d.group).kind == "street" and d.key not in BROWN
    ]
    lost, kept = carla_streets[0], carla_streets[1]
    cash = game.cash()
    assert ok(game.act("Carla", {"type": "mortgage", "deed": lost.key}))["amount"] == lost.price // 2
    refusal(
        game.act("Carla", {"type": "trade_propose", "to": b, "give": {"deeds": [lost.key]}, "get": {"cash": 100}}),
        409,
        "mortgaged_not_tradable",
    )
    # Whoever lands on it pays half its rent to the bank; Carla gets nothing.
    ok(game.act("Carla", {"type": "mortgage", "deed": kept.key}))
    cash = game.cash()
    paid = ok(game.act("Anna", {"type": "pay_rent", "deed": kept.key}))
    assert (paid["to"], paid["amount"]) == ("bank", -(-kept.rents[0] // 2))
    assert game.cash()["Carla"] == cash["Carla"] and game.cash()["Anna"] == cash["Anna"] - paid["amount"]
    ok(game.act("Carla", {"type": "unmortgage", "deed": kept.key}))
    # Three laps of Carla's: the third forfeits the deed she did not lift.
    assert ok(game.act("Carla", {"type": "pass_go"}))["forfeited"] == []
    assert ok(game.act("Carla", {"type": "pass_go"}))["forfeited"] == []
    assert ok(game.act("Carla", {"type": "pass_go"}))["forfeited"] == [lost.key]
    assert deed_state(game, lost.key)["owner"] is None and not deed_state(game, lost.key)["mortgaged"]
    events = ok(game.api.get(f"/api/v1/games/{game.id}/events", game.banker))["events"]
    assert lost.name in events[-1]["summary"]
    balanced(app, game)

    # The squares: Benzinaio by the server's dice, A.S.I., a toll.
    roll = ok(game.act("Anna", {"type": "roll"}))
    cash = game.cash()
    fuel = ok(game.act("Anna", {"type": "square", "square": "benzinaio", "dice": roll["total"]}))
    assert game.cash()["Anna"] == cash["Anna"] - 20 + (5 if roll["total"] in (6, 7, 8) else 0)
    assert fuel["amount"] == 20
    ok(game.act("Anna", {"type": "square", "square": "asi"}))
    ok(game.act("Anna", {"type": "pay_fixed", "payment": "casello"}))
    assert game.cash()["Anna"] == cash["Anna"] - 20 + (5 if roll["total"] in (6, 7, 8) else 0) + 50 - 10

    # Attesa ricambi, from the Posto di blocco: out only from the next turn; no bids while there.
    ok(game.act("Carla", {"type": "square", "square": "posto-di-blocco", "dice": 3}))
    assert player_state(game, "Carla")["in_jail"]
    refusal(game.act("Carla", {"type": "pay_jail_fine"}), 409, "jail_next_turn")
    # An auction opens at 50, and Carla cannot bid.
    free = next(d for d in MP.deeds if owners(game)[d.key] is None)
    assert ok(game.act("Anna", {"type": "auction_start", "deed": free.key}))
    assert game.state()["auction"]["opening_bid"] == 50
    refusal(game.act("Bruno", {"type": "bid", "amount": 49}), 409, "bid_too_low")
    refusal(game.act("Carla", {"type": "bid", "amount": 60}), 409, "bidder_in_jail")
    ok(game.act("Bruno", {"type": "bid", "amount": 50}))
    cash = game.cash()
    ok(game.act("banker", {"type": "auction_close"}))
    assert owners(game)[free.key] == b and game.cash()["Bruno"] == cash["Bruno"] - 50

    # Bruno stops for a bisognino: his turn is passed over and he cannot trade until then.
    ok(game.act("Bruno", {"type": "square", "square": "sosta-bisognino"}))
    refusal(
        game.act("Anna", {"type": "trade_propose", "to": b, "give": {"cash": 10}, "get": {"deeds": [free.key]}}),
        409,
        "no_trades_now",
    )
    assert end_turn(game)["skipped"] == [b]  # Anna's turn ends: Carla plays, in Attesa ricambi
    summaries = [e["summary"] for e in ok(game.api.get(f"/api/v1/games/{game.id}/events", game.banker))["events"]]
    assert "Sitting out this turn: Bruno." in summaries[-1]
    assert any("Bruno stops at" in line and "no trades until then" in line for line in summaries)
    assert any("Carla rolled 3 at" in line for line in summaries)
    assert game.state()["turn"]["player"] == c and player_state(game, "Carla")["jail_turns"] == 1
    cash = game.cash()
    ok(game.act("Carla", {"type": "pay_jail_fine"}))
    assert game.cash()["Carla"] == cash["Carla"] - 500
    end_turn(game)
    assert game.state()["turn"] == {"player": a, "number": 2, "limit": 40, "marked": True}
    balanced(app, game)

    # Bruno owes Carla more than he could pay (line 74): the bank takes everything and pays
    # Carla half.
    cash = game.cash()
    bruno_deeds = [k for k, o in owners(game).items() if o == b]
    debt = game.beyond_means("Bruno")
    result = ok(game.act("Bruno", {"type": "bankrupt", "creditor": c, "amount": debt}))
    half = -(-debt // 2)
    assert result["creditor_paid"] == half and game.cash()["Carla"] == cash["Carla"] + half
    assert sorted(result["to_auction"]) == sorted(bruno_deeds)
    assert all(owners(game)[k] is None for k in bruno_deeds)
    balanced(app, game)

    # The game lasts 40 rounds, counted by the bank.
    while game.state()["status"] == "running":
        turn = game.state()["turn"]
        assert turn["number"] <= 40
        ok(game.act("banker", {"type": "end_turn"}))
    assert game.state()["turn"]["number"] == 40
    score = ok(game.api.get(f"/api/v1/games/{game.id}/score", game.banker))
    assert score["final"]
    anna = next(r for r in score["standings"] if r["player"] == a)
    assert anna["breakdown"]["buildings"] == 5 * 250 + 3 * 250  # the dealership as 5 stations, and 3 stations
    balanced(app, game)
