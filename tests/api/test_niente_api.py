"""A whole game of Monopoly Niente è come sembra (without the counterfeits) for three players
through the API: GO, buying, double rent, a hotel and its rent, a deed sold back to the bank
after its hotel, auctions from 10 by 10, jail, and the end by itself when the last deed is won
at auction (undone, and ended again); the final count by the rents collected from the bank,
worked out by hand; the journal balances all along."""

from __future__ import annotations

import pytest

from companion.core.editions.loading import load_editions
from tests.api.gamekit import balanced, ok, owners, refusal

# On PostgreSQL too (python -m tests): every kind of state this edition stores (JSON documents, entry kinds).
pytestmark = pytest.mark.database

NE = load_editions().editions["niente-e-come-sembra"]
NAMES = ("Anna", "Bruno", "Carla")


def auction(game, deed, winner, amount=10):
    ok(game.act("banker", {"type": "auction_start", "deed": deed}))
    ok(game.act(winner, {"type": "bid", "amount": amount}))
    return ok(game.act("banker", {"type": "auction_close"}))


def test_a_three_player_game_to_the_last_deed(app, api):
    edition = ok(api.get("/api/v1/editions/niente-e-come-sembra"))
    assert len(edition["deeds"]) == 22 and all(d["provisional"] for d in edition["deeds"])

    game = api.new_game(players=NAMES, edition="niente-e-come-sembra", seed=3).start()
    a, b, c = (game.ids[n] for n in NAMES)
    state = game.state()
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}
    assert state["bank"] == {"houses": 0, "hotels": 12}
    assert state["clock"] is None

    # GO pays 200.
    ok(game.act("Anna", {"type": "pass_go"}))
    # Anna buys the two browns (60 each); Bruno lands on one: 10, doubled on the whole group.
    for key in ("vicolo-storto", "vicolo-cieco"):
        assert ok(game.act("Anna", {"type": "buy", "deed": key}))["amount"] == 60
    assert ok(game.act("Bruno", {"type": "pay_rent", "deed": "vicolo-storto"}))["amount"] == 20
    assert game.cash() == {"Anna": 1600, "Bruno": 1480, "Carla": 1500}
    # No mortgages in this game.
    refusal(game.act("Anna", {"type": "mortgage", "deed": "vicolo-storto"}), 409, "no_mortgages")

    # A hotel (100) on Vicolo Cieco: its rent is 180.
    built = ok(game.act("Anna", {"type": "build", "deed": "vicolo-cieco"}))
    assert (built["building"], built["amount"]) == ("big", 100)
    assert game.state()["bank"] == {"houses": 0, "hotels": 11}
    assert ok(game.act("Bruno", {"type": "pay_rent", "deed": "vicolo-cieco"}))["amount"] == 180
    assert game.cash() == {"Anna": 1680, "Bruno": 1300, "Carla": 1500}

    # Selling the deed back to the bank: first its hotel, at half; then the deed, at its price.
    message = refusal(
        game.act("Anna", {"type": "sell_to_bank", "deed": "vicolo-cieco"}), 409, "deed_sale_buildings_first"
    )
    assert "Vicolo Cieco" in message
    refusal(
        game.act("Anna", {"type": "sell_building", "deed": "vicolo-cieco", "break_hotel": True}),
        409,
        "nothing_to_break",
    )
    assert ok(game.act("Anna", {"type": "sell_building", "deed": "vicolo-cieco"}))["amount"] == 50
    assert ok(game.act("Anna", {"type": "sell_to_bank", "deed": "vicolo-cieco"}))["amount"] == 60
    assert owners(game)["vicolo-cieco"] is None and game.state()["bank"]["hotels"] == 12
    refusal(game.act("Bruno", {"type": "sell_to_bank", "deed": "vicolo-storto"}), 409, "not_owner")
    assert game.cash()["Anna"] == 1790

    # The deed is the bank's again, and goes to auction: it opens at 10 and rises by 10.
    opened = ok(game.act("banker", {"type": "auction_start", "deed": "vicolo-cieco"}))
    assert game.state()["auction"]["opening_bid"] == 10 and game.state()["auction"]["min_raise"] == 10
    assert opened["auction"]
    refusal(game.act("Bruno", {"type": "bid", "amount": 5}), 409, "bid_too_low")
    ok(game.act("Bruno", {"type": "bid", "amount": 10}))
    refusal(game.act("Carla", {"type": "bid", "amount": 15}), 409, "bid_too_low")
    ok(game.act("Carla", {"type": "bid", "amount": 20}))
    assert ok(game.act("banker", {"type": "auction_close"}))["winner"] == c
    assert game.cash()["Carla"] == 1480

    # Jail: no GO salary there, but rent is collected and bids are made; out for 50.
    ok(game.act("Anna", {"type": "go_to_jail"}))
    refusal(game.act("Anna", {"type": "pass_go"}), 409, "no_salary_in_jail")
    assert ok(game.act("Bruno", {"type": "pay_rent", "deed": "vicolo-storto"}))["amount"] == 10  # group split now
    assert auction(game, "via-della-zecca", "Anna")["winner"] == a
    ok(game.act("Anna", {"type": "pay_jail_fine"}))
    assert game.cash() == {"Anna": 1740, "Bruno": 1290, "Carla": 1480}

    # Bruno's blues, a hotel on Parco dell'Illusione (400), and Carla lands there: 1400.
    ok(game.act("Bruno", {"type": "buy", "deed": "viale-dei-misteri"}))
    ok(game.act("Bruno", {"type": "buy", "deed": "parco-dell-illusione"}))
    ok(game.act("Bruno", {"type": "build", "deed": "parco-dell-illusione"}))
    assert ok(game.act("Carla", {"type": "pay_rent", "deed": "parco-dell-illusione"}))["amount"] == 1400
    assert game.cash() == {"Anna": 1740, "Bruno": 1540, "Carla": 80}
    balanced(app, game)

    # Every other deed at auction for 10, group by group; the last one won ends the game.
    plan = {
        "azzurro": "Anna",
        "rosa": "Bruno",
        "arancione": "Anna",
        "rosso": "Bruno",
        "giallo": "Anna",
        "verde": "Bruno",
    }
    free = [d for d in NE.deeds if owners(game)[d.key] is None]
    assert len(free) == 17
    for deed in free[:-1]:
        closed = auction(game, deed.key, plan[deed.group])
        assert "finished" not in closed
    assert game.state()["status"] == "running"
    assert sum(1 for o in owners(game).values() if o) == 21
    last = free[-1].key
    assert last == "largo-delle-sorprese"
    closed = auction(game, last, "Bruno")
    assert closed["finished"] is True and closed["winner"] == b
    assert game.state()["status"] == "finished"
    assert game.cash() == {"Anna": 1740 - 80, "Bruno": 1540 - 90, "Carla": 80}
    events = ok(api.get(f"/api/v1/games/{game.id}/events", game.banker))["events"]
    assert events[-1]["type"] == "auction_won"
    assert "Every deed is owned: the game is over." in events[-1]["summary"]
    refusal(game.act("Anna", {"type": "sell_to_bank", "deed": "vicolo-storto"}), 409, "game_finished")

    # The banker's undo reopens the game with the auction as it was; closing it ends it again.
    ok(game.act("banker", {"type": "undo"}))
    state = game.state()
    assert state["status"] == "running" and owners(game)[last] is None
    assert state["auction"]["deed"] == last and state["auction"]["high_bidder"] == b
    assert ok(game.act("banker", {"type": "auction_close"}))["finished"] is True
    assert game.state()["status"] == "finished"

    # The final count: cash, plus each deed's rent (doubled on a whole group), plus each hotel's.
    score = ok(api.get(f"/api/v1/games/{game.id}/score", game.banker))
    assert score["final"] is True
    rows = {r["player"]: r for r in score["standings"]}
    # Anna: Vicolo Storto 10 (its group split); light blue 20 + 20 + 40, orange 40 + 40 + 40,
    # yellow 60 + 60 + 60, every one a whole group.
    assert rows[a]["breakdown"] == {"cash": 1660, "rents": 10 + 80 + 120 + 180, "hotels": 0}
    # Bruno: Viale dei Misteri 80; pink 3 x 40, red 3 x 60, green 60 + 60 + 80; the hotel 1400.
    assert rows[b]["breakdown"] == {"cash": 1450, "rents": 80 + 120 + 180 + 200, "hotels": 1400}
    # Carla: Vicolo Cieco 10.
    assert rows[c]["breakdown"] == {"cash": 80, "rents": 10, "hotels": 0}
    assert [(r["player"], r["rank"], r["total"]) for r in score["standings"]] == [
        (b, 1, 3430),
        (a, 2, 2050),
        (c, 3, 90),
    ]
    balanced(app, game)


def test_other_editions_refuse_selling_a_deed_to_the_bank(api):
    game = api.new_game(edition="classic-it").start()
    ok(game.act("Anna", {"type": "buy", "deed": "vicolo-corto"}))
    message = refusal(game.act("Anna", {"type": "sell_to_bank", "deed": "vicolo-corto"}), 409, "no_deed_sale")
    assert message == "In this edition deeds cannot be sold to the bank."


def test_the_train_moves_on_to_the_next_free_deed(app, api):
    """Seed 004 lines 95-98: the Treno square moves the pawn on to the next free deed, which is
    then bought or auctioned; passing Start on the way collects 200. The player names the deed
    just before their square (the rulebook prints no board)."""
    game = api.new_game(players=NAMES, edition="niente-e-come-sembra", seed=5).start()
    ok(game.act("Bruno", {"type": "buy", "deed": "parco-dell-illusione"}))
    went = ok(game.act("Anna", {"type": "train", "after": "viale-dei-misteri"}))
    assert (went["stops_on"], went["passed_go"], went["salary"]) == ("vicolo-storto", True, 200)
    assert game.cash()["Anna"] == 1700
    ok(game.act("Anna", {"type": "buy", "deed": went["stops_on"]}))
    went = ok(game.act("Carla", {"type": "train"}))  # no deed between Start and her square
    assert (went["stops_on"], went["passed_go"], went["salary"]) == ("vicolo-cieco", False, 0)
    ok(game.act("banker", {"type": "auction_start", "deed": went["stops_on"]}))  # or auctioned
    refusal(game.act("Carla", {"type": "train", "after": "nowhere"}), 404, "unknown_deed")
    refusal(game.act("Carla", {"type": "train", "after": 3}), 404, "unknown_deed")
    events = ok(game.api.get(f"/api/v1/games/{game.id}/events", game.banker))["events"]
    said = [e["summary"] for e in events if e["type"] == "train"]
    assert said[0].startswith("Anna took the train to Vicolo Storto, passing Start:") and said[0].endswith("200.")
    assert said[1] == "Carla took the train to Vicolo Cieco."
    balanced(app, game)
    classic = api.new_game(edition="classic-it").start()
    assert "no train squares" in refusal(classic.act("Anna", {"type": "train"}), 409, "no_train")
    # With a strict bank the 200 wait for the banker; the phone still learns where the train stops.
    strict = api.new_game(players=NAMES, edition="niente-e-come-sembra", settings={"strict_bank": True}).start()
    held = ok(strict.act("Anna", {"type": "train", "after": "parco-dell-illusione"}), 202)
    assert held["held"] is True and held["stops_on"] == "vicolo-storto" and strict.cash()["Anna"] == 1500
    ok(strict.act("banker", {"type": "approve", "pending": held["pending"]}))
    assert strict.cash()["Anna"] == 1700
    balanced(app, strict)
