"""A game of Petropolis for three players through the API: three deeds dealt to each (never
Saudi Arabia), GO at 500,000, deeds traded only once the bank has sold them all, the box's
building counts as settings, towers and a platform, a mortgage lifted at +20%, an auction at the printed price among the other players, a
bankruptcy to the creditor, and a tie at the count played off for ten more minutes; the journal
balances all along."""

from __future__ import annotations

import pytest

from companion.core.editions.loading import load_editions
from tests.api.gamekit import balanced, ok, owners, refusal

# On PostgreSQL too (python -m tests): every kind of state this edition stores (JSON documents, entry kinds, big amounts).
pytestmark = pytest.mark.database

PP = load_editions().editions["petropolis"]
NAMES = ("Anna", "Bruno", "Carla")
SAUDI = "arabia-saudita"


def events(game):
    return ok(game.api.get(f"/api/v1/games/{game.id}/events", game.banker))["events"]


def score(game):
    return ok(game.api.get(f"/api/v1/games/{game.id}/score", game.banker))


def test_a_three_player_game(app, api):
    game = api.new_game(
        players=NAMES, edition="petropolis", seed=5, settings={"supply_small": 20, "supply_big": 5}
    ).start()
    a, b, c = (game.ids[n] for n in NAMES)
    name_of = {i: n for n, i in game.ids.items()}
    state = game.state()
    assert state["settings"]["supply_small"] == 20 and state["bank"] == {"houses": 20, "hotels": 5}
    assert state["clock"]["limit_seconds"] == 60 * 60

    # Dealt: three deeds each, paid at their price out of 2,000,000; Saudi Arabia stays on the board.
    held = owners(game)
    assert held[SAUDI] is None
    for name in NAMES:
        mine = [d for d in PP.deeds if held[d.key] == game.ids[name]]
        assert len(mine) == 3
        assert game.cash()[name] == 2_000_000 - sum(d.price for d in mine)
    dealt = next(e for e in events(game) if e["type"] == "start")
    assert all(name in dealt["summary"] for name in NAMES)

    # GO: 500,000.
    before = game.cash()["Anna"]
    assert ok(game.act("Anna", {"type": "pass_go"}))["cash"] == before + 500_000

    # Carla declines a free deed: the auction opens at its printed price, among the others, by 50,000.
    free = next(d for d in PP.deeds if owners(game)[d.key] is None and d.price <= 300_000)
    opened = ok(game.act("Carla", {"type": "auction_start", "deed": free.key}))
    auction = game.state()["auction"]
    assert (auction["opening_bid"], auction["min_raise"], auction["decliner"]) == (free.price, 50_000, c)
    assert "declined" in events(game)[-1]["summary"]
    refusal(game.act("Carla", {"type": "bid", "amount": free.price}), 409, "decliner_does_not_bid")
    refusal(game.act("Anna", {"type": "bid", "amount": free.price - 1_000}), 409, "bid_too_low")
    ok(game.act("Anna", {"type": "bid", "amount": free.price}))
    refusal(game.act("Bruno", {"type": "bid", "amount": free.price + 49_000}), 409, "bid_too_low")
    ok(game.act("Bruno", {"type": "bid", "amount": free.price + 50_000}))
    cash = game.cash()["Bruno"]
    won = ok(game.act("banker", {"type": "auction_close"}))
    assert won["winner"] == b and owners(game)[free.key] == b and game.cash()["Bruno"] == cash - free.price - 50_000
    assert opened["auction"]
    # The banker opens one for everyone, or names who declined.
    other = next(d for d in PP.deeds if owners(game)[d.key] is None)
    ok(game.act("banker", {"type": "auction_start", "deed": other.key, "player": b}))
    refusal(game.act("Bruno", {"type": "bid", "amount": other.price}), 409, "decliner_does_not_bid")
    ok(game.act("banker", {"type": "auction_close"}))
    assert owners(game)[other.key] is None  # nobody bid: the bank keeps it

    # Anna takes Iran and Saudi Arabia. No deed changes hands between players while the bank
    # still holds one (seed 003 line 35): she buys every free deed first, then trades for Iran.
    ok(game.act("banker", {"type": "transfer", "from": "bank", "to": a, "amount": 10_000_000, "reason": "test"}))
    group = [d.key for d in PP.deeds_in_group("nero")]
    theirs = next(d.key for d in PP.deeds if owners(game)[d.key] not in (None, a))
    offer = {"type": "trade_propose", "to": a, "give": {"cash": 0, "deeds": [theirs]}, "get": {"cash": 0, "deeds": []}}
    owner = owners(game)[theirs]
    message = refusal(game.act(name_of[owner], offer), 409, "deeds_not_all_sold")
    assert str(sum(1 for o in owners(game).values() if o is None)) in message
    for key, owner in owners(game).items():
        if owner is None:
            ok(game.act("Anna", {"type": "buy", "deed": key}))
    for key in group:
        owner = owners(game)[key]
        if owner != a:
            trade = ok(
                game.act(
                    name_of[owner],
                    {
                        "type": "trade_propose",
                        "to": a,
                        "give": {"cash": 0, "deeds": [key]},
                        "get": {"cash": 0, "deeds": []},
                    },
                )
            )
            ok(game.act("Anna", {"type": "trade_accept", "trade": trade["trade"]}))
    iran, saudi = group
    before = game.cash()["Anna"]
    for key in (iran, saudi) * 3:
        assert ok(game.act("Anna", {"type": "build", "deed": key}))["amount"] == 200_000
    # The platform: three towers back to the bank and the difference, 200,000.
    platform = ok(game.act("Anna", {"type": "build", "deed": iran}))
    assert platform["building"] == "big" and platform["amount"] == 200_000
    assert game.cash()["Anna"] == before - 7 * 200_000
    assert game.state()["bank"] == {"houses": 20 - 6 + 3, "hotels": 4}
    standing = next(r for r in score(game)["standings"] if r["player"] == a)
    assert standing["breakdown"]["deeds"] == 0 and standing["breakdown"]["buildings"] == 800_000 + 3 * 200_000
    # Sold whole beside Saudi Arabia's three towers, the platform would leave 0 and 3: sales go
    # "in modo omogeneo" (seed 003 line 45), so it is broken instead, or sold with the group's others.
    refusal(game.act("Anna", {"type": "sell_building", "deed": iran}), 409, "hotels_sold_together")
    assert game.cash()["Anna"] == before - 7 * 200_000 and game.state()["bank"] == {"houses": 17, "hotels": 4}

    # Mortgages: never on a built group; half the price, lifted at +20%.
    refusal(game.act("Anna", {"type": "mortgage", "deed": saudi}), 409, "group_has_buildings")
    bruno_deed = next(d for d in PP.deeds if owners(game)[d.key] == b)
    cash = game.cash()["Bruno"]
    assert ok(game.act("Bruno", {"type": "mortgage", "deed": bruno_deed.key}))["amount"] == bruno_deed.price // 2
    lift = ok(game.act("Bruno", {"type": "unmortgage", "deed": bruno_deed.key}))["amount"]
    assert lift == bruno_deed.price // 2 * 120 // 100
    assert game.cash()["Bruno"] == cash + bruno_deed.price // 2 - lift

    # In court Anna still collects her rent; she leaves by paying 500,000.
    ok(game.act("Anna", {"type": "go_to_jail"}))
    ok(game.act("banker", {"type": "transfer", "from": "bank", "to": b, "amount": 3_000_000, "reason": "test"}))
    cash = game.cash()["Anna"]
    assert ok(game.act("Bruno", {"type": "pay_rent", "deed": iran}))["amount"] == 2_600_000
    assert ok(game.act("Anna", {"type": "pay_jail_fine"}))["amount"] == 500_000
    assert game.cash()["Anna"] == cash + 2_600_000 - 500_000
    balanced(app, game)

    # Anna goes bankrupt to Carla: the platform (400,000) and three towers (300,000) are sold to
    # the bank for Carla, who gets them with Anna's cash and deeds.
    cash = game.cash()
    anna_deeds = [k for k, o in owners(game).items() if o == a]
    ok(game.act("Anna", {"type": "bankrupt", "creditor": c, "amount": game.beyond_means("Anna")}))
    assert game.cash()["Carla"] == cash["Carla"] + cash["Anna"] + 700_000
    assert all(owners(game)[k] == c for k in anna_deeds)
    assert game.state()["bank"] == {"houses": 20, "hotels": 5}
    balanced(app, game)

    # The clock runs out with Bruno and Carla worth the same: they play ten more minutes.
    cash = game.cash()
    richer, poorer = ("Bruno", "Carla") if cash["Bruno"] > cash["Carla"] else ("Carla", "Bruno")
    if cash[richer] != cash[poorer]:
        ok(
            game.act(
                "banker",
                {"type": "transfer", "from": game.ids[richer], "to": "bank", "amount": cash[richer] - cash[poorer]},
            )
        )
    ok(game.act("banker", {"type": "end"}))
    final = score(game)
    assert final["final"] and final["tie_rule"] == "play_off" and final["play_off_minutes"] == 10
    assert set(final["play_off_due"]) == {b, c}
    assert [r["rank"] for r in final["standings"]] == [1, 1, 3]
    refusal(game.act("Bruno", {"type": "play_off"}), 403, "banker_only")
    started = ok(game.act("banker", {"type": "play_off"}))
    assert set(started["players"]) == {b, c} and started["minutes"] == 10
    state = game.state()
    assert state["status"] == "running" and state["play_offs"] == [started["players"]]
    assert state["clock"]["running"] and 590 <= state["clock"]["remaining_seconds"] <= 600
    assert "10" in events(game)[-1]["summary"]
    # Undo takes the game back to its end, with the clock it had.
    ok(game.act("banker", {"type": "undo"}))
    state = game.state()
    assert state["status"] == "finished" and state["play_offs"] == []
    assert state["clock"] == {
        "limit_seconds": 3600,
        "remaining_seconds": state["clock"]["remaining_seconds"],
        "running": False,
        "last_minutes": 0,
        "closing": False,
    }
    ok(game.act("banker", {"type": "play_off"}))
    ok(game.act("Bruno", {"type": "transfer", "to": c, "amount": 10_000, "reason": "royalties"}))
    ok(game.act("banker", {"type": "end"}))
    final = score(game)
    assert final["play_off_due"] is None
    assert [(r["player"], r["rank"]) for r in final["standings"]] == [(c, 1), (b, 2), (a, 3)]
    refusal(game.act("banker", {"type": "play_off"}), 409, "no_tie")
    balanced(app, game)
