"""A whole game of Che Impresa! for three players through the API: lands dealt at the start,
GO by the dice, the computed squares, a lot built with activities, an expropriation through
every face of both dice, jail and a bankruptcy; the journal balances all along."""

from __future__ import annotations

import pytest

from companion.core.editions.loading import load_editions
from tests.api.gamekit import balanced, ok, owners, refusal

# On PostgreSQL too (python -m tests): every kind of state this edition stores (JSON documents, entry kinds).
pytestmark = pytest.mark.database

CI = load_editions().editions["che-impresa"]
NAMES = ("Anna", "Bruno", "Carla")


def next_round(game):
    """Everyone ends their turn once: Anna plays again, in a new turn."""
    for _ in NAMES:
        player = game.state()["turn"]["player"]
        name = next(n for n, i in game.ids.items() if i == player)
        ok(game.act(name, {"type": "end_turn"}))


def test_the_edition_gives_the_starting_notes_by_the_number_of_players(api):
    """Seed 000 lines 92-115: five, four, three, two or one 500-note, beside 700 in small notes."""
    edition = ok(api.get("/api/v1/editions/che-impresa"))
    assert edition["starting_notes"] == {
        str(n): {"500": fives, "100": 5, "20": 7, "5": 10, "1": 10}
        for n, fives in ((2, 5), (3, 4), (4, 3), (5, 2), (6, 1))
    }
    assert ok(api.get("/api/v1/editions/classic-it"))["starting_notes"]["4"]["500"] == 2


def test_an_attempt_on_the_bar_covers_the_bar_only_when_its_owner_holds_every_restaurant(app, api):
    """Seed 000 lines 33-35 and 182-183: the restaurants are no coloured lot, so lines 206-207
    (an attempt on a whole lot) never reach them."""
    game = api.new_game(players=NAMES, edition="che-impresa", seed=3).start()
    bruno = game.ids["Bruno"]
    ok(game.act("banker", {"type": "transfer", "from": "bank", "to": bruno, "amount": 2000, "reason": "test"}))
    restaurants = [d.key for d in CI.deeds_in_group("ristorazione")]
    for key in restaurants:
        owner = owners(game)[key]
        if owner is None:
            ok(game.act("Bruno", {"type": "buy", "deed": key}))
        elif owner != bruno:
            name = next(n for n, i in game.ids.items() if i == owner)
            offer = {"type": "trade_propose", "to": bruno, "give": {"deeds": [key]}, "get": {"cash": 10}}
            ok(game.act("Bruno", {"type": "trade_accept", "trade": ok(game.act(name, offer))["trade"]}))
    assert all(owners(game)[k] == bruno for k in restaurants)
    ok(game.act("Anna", {"type": "pay_rent", "deed": "bar"}))
    started = ok(game.act("Anna", {"type": "expropriation_start", "deed": "bar"}))
    bar = CI.deed("bar")
    assert not started["whole_lot"] and (started["value"], started["penalty"]) == (bar.price, bar.penalty)
    ok(game.act("Anna", {"type": "expropriation_roll", "face": "si"}))
    ok(game.act("Bruno", {"type": "expropriation_roll", "face": "meta"}))
    assert [owners(game)[k] == bruno for k in restaurants] == [False, True, True, True]
    balanced(app, game)


def test_a_three_player_game(app, api):
    game = api.new_game(players=NAMES, edition="che-impresa", seed=11).start()
    a, b, c = (game.ids[n] for n in NAMES)
    state = game.state()
    # Dealt: six lands each, paid at their price out of 2700.
    held = owners(game)
    for name in NAMES:
        mine = [d for d in CI.deeds if held[d.key] == game.ids[name]]
        assert len(mine) == 6
        assert game.cash()[name] == 2700 - sum(d.price for d in mine)
    assert state["turn"] == {"player": a, "number": 1, "limit": None, "marked": False}
    assert state["clock"]["limit_seconds"] == 120 * 60
    events = ok(game.api.get(f"/api/v1/games/{game.id}/events", game.banker))["events"]
    dealt = next(e for e in events if e["type"] == "start")
    assert all(name in dealt["summary"] for name in NAMES)  # the feed says who got what

    # The same seed deals the same hands.
    twin = api.new_game(players=NAMES, edition="che-impresa", seed=11).start()
    assert [o and {game.ids[n]: n for n in NAMES}[o] for o in owners(game).values()] == [
        o and {twin.ids[n]: n for n in NAMES}[o] for o in owners(twin).values()
    ]

    # GO by the dice; the phone must send them.
    before = game.cash()["Anna"]
    ok(game.act("Anna", {"type": "pass_go", "dice": 8}))
    assert game.cash()["Anna"] == before + 80
    refusal(game.act("Anna", {"type": "pass_go"}), 400, "invalid_dice")

    # No mortgages in this game.
    mine = next(k for k, o in owners(game).items() if o == a)
    assert "mortgaged" in refusal(game.act("Anna", {"type": "mortgage", "deed": mine}), 409, "no_mortgages")

    # Anna gathers the light-blue lot (buying what is free, taking the rest by trades) and builds.
    lot = [d.key for d in CI.deeds_in_group("azzurro")]
    for key in lot:
        owner = owners(game)[key]
        if owner is None:
            ok(game.act("Anna", {"type": "buy", "deed": key}))
        elif owner != a:
            name = next(n for n, i in game.ids.items() if i == owner)
            trade = ok(
                game.act(
                    name,
                    {
                        "type": "trade_propose",
                        "to": a,
                        "give": {"cash": 0, "deeds": [key]},
                        "get": {"cash": 0, "deeds": []},
                    },
                )
            )["trade"]
            ok(game.act("Anna", {"type": "trade_accept", "trade": trade}))
    refusal(game.act("Anna", {"type": "build", "deed": lot[0]}), 409, "build_by_lot")
    # Lands bought or traded this turn take activities from the next turn on.
    refusal(
        game.act(
            "Anna", {"type": "build_lot", "group": "azzurro", "counts": dict.fromkeys(lot, 1), "place": "on_group"}
        ),
        409,
        "taken_this_turn",
    )
    next_round(game)
    refusal(
        game.act("Anna", {"type": "build_lot", "group": "azzurro", "counts": {lot[0]: 2}, "place": "on_group"}),
        409,
        "first_build_each",
    )
    before = game.cash()["Anna"]
    ok(
        game.act(
            "Anna",
            {"type": "build_lot", "group": "azzurro", "counts": {lot[0]: 2, lot[1]: 1, lot[2]: 1}, "place": "on_group"},
        )
    )
    assert game.cash()["Anna"] == before - 4 * 50
    assert game.state()["bank"]["houses"] == 75 - 4
    # IMU: 1 per deed and 5 per activity.
    deeds_held = sum(1 for o in owners(game).values() if o == a)
    imu = ok(game.act("Anna", {"type": "square", "square": "imu"}))
    assert imu["amount"] == deeds_held + 4 * 5
    # Banca: 10 x the dice.
    assert ok(game.act("Anna", {"type": "square", "square": "banca", "dice": 9}))["amount"] == 90

    # Expropriations by Anna, one per turn, through every face.
    def target():
        held = owners(game)
        for d in CI.deeds:
            owner = held[d.key]
            if owner in (b, c):
                whole = all(held[m.key] == owner for m in CI.deeds_in_group(d.group))
                if not whole:
                    return d, owner
        raise AssertionError("no single deed left to try")

    def attempt():
        deed, owner = target()
        refusal(game.act("Anna", {"type": "expropriation_start", "deed": deed.key}), 409, "rent_first")
        ok(game.act("Anna", {"type": "pay_rent", "deed": deed.key}))
        started = ok(game.act("Anna", {"type": "expropriation_start", "deed": deed.key}))
        assert started["penalty"] == deed.penalty and not started["whole_lot"]
        return deed, next(n for n, i in game.ids.items() if i == owner)

    def roll(name, face):
        return ok(game.act(name, {"type": "expropriation_roll", "face": face}))

    deed, owner = attempt()  # yellow NO: the penalty
    cash = game.cash()
    assert roll("Anna", "no")["ends"] == "penalty"
    assert game.cash()["Anna"] == cash["Anna"] - deed.penalty and game.cash()[owner] == cash[owner] + deed.penalty
    refusal(game.act("Anna", {"type": "expropriation_start", "deed": deed.key}), 409, "expropriation_once_per_turn")
    next_round(game)

    deed, owner = attempt()  # yellow VITA: a card, nothing paid
    cash = game.cash()
    assert roll("Anna", "vita")["ends"] == "card" and game.cash() == cash
    next_round(game)

    deed, owner = attempt()  # SI, then red NO: the penalty
    roll("Anna", "si")
    assert game.state("Anna")["expropriation"]["stage"] == "owner"
    refusal(game.act("Anna", {"type": "expropriation_roll", "face": "no"}), 403, "not_your_die")
    cash = game.cash()
    assert roll(owner, "no")["ends"] == "penalty" and game.cash()["Anna"] == cash["Anna"] - deed.penalty
    next_round(game)

    deed, owner = attempt()  # SI, RITIRA, SI, red VITA: nothing
    roll("Anna", "si")
    roll(owner, "ritira")
    roll("Anna", "si")
    cash = game.cash()
    assert roll(owner, "vita")["ends"] == "card" and game.cash() == cash
    next_round(game)

    deed, owner = attempt()  # SI, red METÀ: half the value
    roll("Anna", "si")
    cash = game.cash()
    done = roll(owner, "meta")
    assert done["ends"] == "taken" and done["amount"] == -(-deed.price // 2)
    assert owners(game)[deed.key] == a and game.cash()[owner] == cash[owner] + done["amount"]
    next_round(game)

    deed, owner = attempt()  # SI, red DOPPIO: double the value; undoable step by step
    roll("Anna", "si")
    cash = game.cash()
    done = roll(owner, "doppio")
    assert done["amount"] == 2 * deed.price and owners(game)[deed.key] == a
    ok(game.act("banker", {"type": "undo"}))
    assert owners(game)[deed.key] != a and game.cash() == cash
    assert game.state()["expropriation"]["stage"] == "owner"
    roll(owner, "doppio")
    # A virtual die: the server rolls it from the edition's faces.
    next_round(game)
    deed, owner = attempt()
    virtual = ok(game.act("Anna", {"type": "expropriation_roll"}))
    assert virtual["face"] in CI.expropriation.buyer_die

    balanced(app, game)

    # Jail: no rent collected while there; out by 20 before rolling, or 50 after a failed roll.
    next_round(game)
    if game.state()["expropriation"]:
        stage = game.state()["expropriation"]["stage"]
        ok(game.act(owner if stage == "owner" else "Anna", {"type": "expropriation_roll", "face": "vita"}))
    bruno_deed = next(k for k, o in owners(game).items() if o == b)
    ok(game.act("Bruno", {"type": "go_to_jail"}))
    refusal(game.act("Anna", {"type": "pay_rent", "deed": bruno_deed}), 409, "owner_in_jail")
    cash = game.cash()
    next_round(game)  # out only when the turn comes again (lines 174-176)
    ok(game.act("Bruno", {"type": "leave_jail_after_failed_roll"}))
    assert game.cash()["Bruno"] == cash["Bruno"] - 50
    ok(game.act("Carla", {"type": "go_to_jail"}))
    next_round(game)
    ok(game.act("Carla", {"type": "pay_jail_fine"}))
    assert game.cash()["Carla"] == cash["Carla"] - 20

    # Bankruptcy: Carla owes Bruno more than she has, her lands counted at their price (lines
    # 283-287); the bank takes everything and pays Bruno in full.
    cash = game.cash()
    carla_deeds = [k for k, o in owners(game).items() if o == c]
    debt = game.beyond_means("Carla")
    refusal(game.act("Carla", {"type": "bankrupt", "creditor": b, "amount": debt - 1}), 409, "can_still_pay")
    result = ok(game.act("Carla", {"type": "bankrupt", "creditor": b, "amount": debt}))
    assert game.cash()["Bruno"] == cash["Bruno"] + debt
    assert sorted(result["to_auction"]) == sorted(carla_deeds)
    assert all(owners(game)[k] is None for k in carla_deeds)
    balanced(app, game)

    # The final count: activities at half their cost.
    score = ok(game.api.get(f"/api/v1/games/{game.id}/score", game.banker))
    anna = next(r for r in score["standings"] if r["player"] == a)
    assert anna["breakdown"]["buildings"] == 4 * 25


def test_a_player_jailed_in_her_turn_pays_or_rolls_only_when_her_turn_comes_again(client, api):
    """Seed 000 lines 172-180: "Il giocatore rimarrà in prigione un solo turno [...] Finito il
    turno, quando il giocatore tornerà ad essere di mano dovrà uscire di prigione, e potrà farlo
    in 2 modi: pagando subito 20 Baiocchi, oppure tentando un tiro di dadi doppio." Refused in
    the turn she went in, in both languages, naming the rule; the phone offers neither."""
    game = api.new_game(players=NAMES, edition="che-impresa", seed=3).start()
    ok(game.act("Anna", {"type": "go_to_jail"}))
    cash = game.cash()
    for kind in ("pay_jail_fine", "leave_jail_on_doubles", "leave_jail_after_failed_roll"):
        message = refusal(game.act("Anna", {"type": kind}), 409, "jail_next_turn")
        assert message.startswith("Jail rule: Anna stays in jail for the rest of this turn"), message
    italian = client.post(
        f"/api/v1/games/{game.id}/actions",
        json={"type": "pay_jail_fine"},
        headers={"Authorization": f"Bearer {game.tokens['Anna']}", "Accept-Language": "it"},
    )
    assert italian.status_code == 409
    assert italian.get_json()["error"]["message"].startswith("Regola della Prigione: Anna resta in Prigione")
    assert game.cash() == cash and game.state()["players"][0]["in_jail"]
    next_round(game)  # Anna is again the one to play
    ok(game.act("Anna", {"type": "pay_jail_fine"}))
    assert game.cash()["Anna"] == cash["Anna"] - 20
