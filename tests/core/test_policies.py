"""Rule policies on made-up editions: the shapes the next rulebooks need, each played through
the same rules the built-in editions use (big buildings that take back N small ones, no big
building, deeds that take none, mortgages with interest, a lap deadline or none, rent on a
mortgaged deed to the bank, the bank paying the creditor a share, GO by the dice, the final
count)."""

from __future__ import annotations

import copy
import json

import pytest
from conftest import NOW, act, cash, give, new_state, owing, refused, set_deed, set_player

from companion.core import commands
from companion.core.editions.loading import EDITIONS_DIR, parse_edition
from companion.core.ledger import BANK
from companion.core.policies import buildings as building_policies
from companion.core.policies import start as start_policies
from companion.core.policies.valuation import standings, worth
from companion.core.rules import (
    auction_start,
    bankrupt,
    build,
    lift_cost,
    mortgage,
    pay_rent,
    rent_due,
    rent_request,
    sell_building,
    trade_accept,
    trade_propose,
    unmortgage,
)
from companion.core.state import SETUP, GameState, PlayerState

CLASSIC = json.loads((EDITIONS_DIR / "classic-it.json").read_text(encoding="utf-8"))
NAMES = {"it": "x", "en": "x"}
BROWN = ("vicolo-corto", "vicolo-stretto")  # price 60, mortgage 30, building cost 50, base rent 2 and 4


def made_up(**sections):
    """The classic board with other rule sections (each given whole), parsed like a file.
    A street's rents are trimmed or padded to what its buildings policy needs."""
    data = copy.deepcopy(CLASSIC)
    data["id"] = "made-up"
    data.update(sections)
    b = data["buildings"]
    steps = b["max_small"] + 1 + (0 if b["policy"] == "small_only" else 1)
    streets = {g["key"] for g in data["groups"] if g["kind"] == "street"}
    for deed in data["deeds"]:
        if deed["group"] in streets and deed.get("buildable", True):
            rents = deed["rents"]
            deed["rents"] = (
                (rents[: steps - 1] + [rents[-1]])
                if len(rents) >= steps
                else rents + [rents[-1]] * (steps - len(rents))
            )
    return parse_edition(data)


def buildings(**fields):
    return {**CLASSIC["buildings"], **fields}


DEALERSHIP = buildings(
    policy="big_replaces_small",
    small={"it": "stazione", "en": "station"},
    small_plural={"it": "stazioni", "en": "stations"},
    big={"it": "concessionaria", "en": "dealer"},
    big_plural={"it": "concessionarie", "en": "dealers"},
    max_small=4,
    small_per_big=3,
    big_worth=5,
    big_sale="one_by_one",
)
PLATFORM = buildings(policy="big_replaces_small", max_small=3, small_per_big=3, big_worth=4, big_sale="one_by_one")
ACTIVITIES = {**buildings(policy="small_only", max_small=5, supply_big=None), "small": NAMES, "small_plural": NAMES}
for name in ("big", "big_plural"):
    ACTIVITIES.pop(name)


def game(edition, cash=1500, players=3):
    return new_state(edition=edition, cash=cash, players=players)


# --- buildings ------------------------------------------------------------------------------


def test_a_dealership_takes_back_three_stations_and_is_worth_five():
    state = game(made_up(buildings=DEALERSHIP), cash=2000)
    give(state, "a", *BROWN, houses=3)
    assert act(state, build(state, "a", "vicolo-corto")).params["building"] == "small"  # a 4th station
    small_before = state.bank_small
    outcome = act(state, build(state, "a", "vicolo-stretto", "big"))
    assert outcome.params == {"player": "a", "deed": "vicolo-stretto", "building": "big", "amount": 50}
    stretto = state.deeds["vicolo-stretto"]
    assert stretto.hotel and stretto.houses == 0
    assert state.bank_small == small_before + 3 and state.bank_big == 11
    assert rent_due(state, "vicolo-stretto") == state.edition.deed("vicolo-stretto").rents[-1]
    # whole, it sells at its worth: 5 stations at half their cost
    sold = act(state, sell_building(state, "a", "vicolo-stretto"))
    assert sold.params["amount"] == 5 * 25 and not state.deeds["vicolo-stretto"].hotel


def test_a_dealership_needs_three_stations_on_every_deed_of_the_group():
    state = game(made_up(buildings=DEALERSHIP), cash=2000)
    give(state, "a", "vicolo-corto", houses=3)
    give(state, "a", "vicolo-stretto", houses=2)
    refused("uneven_building", build, state, "a", "vicolo-corto", "big")
    refused("cannot_build_here", build, state, "a", "vicolo-stretto", "big")
    refused("invalid_building", build, state, "a", "vicolo-corto", "tower")
    set_deed(state, "vicolo-corto", houses=4)
    set_deed(state, "vicolo-stretto", houses=4)
    refused("too_many_small", build, state, "a", "vicolo-corto")
    refused("too_many_small", build, state, "a", "vicolo-corto", "big")


def test_breaking_a_dealership_gives_back_its_three_stations_and_the_rest_of_its_worth():
    state = game(made_up(buildings=DEALERSHIP))
    give(state, "a", *BROWN, hotel=True)
    outcome = act(state, sell_building(state, "a", "vicolo-corto", break_hotel=True))
    assert state.deeds["vicolo-corto"].houses == 3 and outcome.params["amount"] == 2 * 25
    assert state.bank_small == 29


def test_a_platform_comes_after_three_towers_and_is_worth_four():
    state = game(made_up(buildings=PLATFORM), cash=5000)
    give(state, "a", *BROWN)
    for _ in range(3):
        for key in BROWN:
            assert act(state, build(state, "a", key)).params["building"] == "small"
    assert act(state, build(state, "a", "vicolo-corto")).params["building"] == "big"
    assert state.bank_small == 32 - 3 and state.bank_big == 11
    assert worth(state, state.players["a"]) == cash(state)["a"] + 2 * 60 + 4 * 50 + 3 * 50
    assert act(state, sell_building(state, "a", "vicolo-corto")).params["amount"] == 4 * 25


def test_without_a_big_building_a_deed_stops_at_its_small_ones():
    edition = made_up(buildings=ACTIVITIES)
    assert edition.buildings.big is None and len(edition.deed("vicolo-corto").rents) == 6
    state = game(edition, cash=5000)
    give(state, "a", *BROWN, houses=4)
    for key in BROWN:
        act(state, build(state, "a", key))
    assert rent_due(state, "vicolo-corto") == edition.deed("vicolo-corto").rents[5]
    refused("fully_built", build, state, "a", "vicolo-corto")
    refused("fully_built", build, state, "a", "vicolo-corto", "big")


def test_a_deed_that_cannot_be_built_on():
    data = copy.deepcopy(CLASSIC)
    data["groups"].append({"key": "restaurants", "name": NAMES, "color": "#aa3300", "kind": "street"})
    data["deeds"] += [
        {
            "key": f"bar-{i}",
            "name": f"Bar {i}",
            "group": "restaurants",
            "position": 40 + i,
            "price": 100,
            "mortgage": 50,
            "rents": [10],
            "buildable": False,
        }
        for i in (1, 2)
    ]
    state = game(parse_edition(data))
    give(state, "a", "bar-1")
    assert rent_due(state, "bar-1") == 10
    give(state, "a", "bar-2")
    assert rent_due(state, "bar-1") == 20  # the whole group still doubles, as the edition's rent says
    refused("not_buildable", build, state, "a", "bar-1")


def test_the_buildings_policy_gives_the_big_buildings_terms():
    classic = new_state().edition
    assert building_policies.big_building(classic) == building_policies.BigBuilding(4, 5)
    assert building_policies.big_building(made_up(buildings=DEALERSHIP)) == building_policies.BigBuilding(3, 5)
    assert building_policies.big_building(made_up(buildings=ACTIVITIES)) is None


# --- mortgages ------------------------------------------------------------------------------


def _mortgage(**fields):
    return {"transfer_fee_percent": 10, **fields}


@pytest.mark.parametrize(
    "percent, value, cost", [(10, 30, 33), (10, 75, 83), (20, 30, 36), (20, 33, 40), (20, 100000, 120000)]
)
def test_lifting_costs_the_value_plus_interest_rounded_up(percent, value, cost):
    data = copy.deepcopy(CLASSIC)
    data["deeds"][0]["mortgage"] = value
    data["mortgage"] = _mortgage(policy="interest", interest_percent=percent)
    edition = parse_edition(data)
    state = game(edition, cash=200000)
    key = edition.deeds[0].key
    give(state, "a", key)
    act(state, mortgage(state, "a", key))
    assert lift_cost(edition, edition.deeds[0]) == cost
    assert act(state, unmortgage(state, "a", key)).params["amount"] == cost


def test_a_mortgage_with_a_lap_deadline_goes_back_to_the_bank_when_it_passes():
    state = game(made_up(mortgage=_mortgage(policy="lap_deadline", laps=3, transfer_fee_percent=0)))
    give(state, "a", "vicolo-corto", "via-roma")
    act(state, commands.pass_go(state, "a"))
    act(state, mortgage(state, "a", "vicolo-corto"))
    assert state.deeds["vicolo-corto"].mortgage_lap == 1
    assert lift_cost(state.edition, state.edition.deed("vicolo-corto")) == 30  # no interest
    act(state, commands.pass_go(state, "a"))
    act(state, commands.pass_go(state, "a"))
    act(state, mortgage(state, "a", "via-roma"))  # mortgaged at lap 3
    outcome = act(state, commands.pass_go(state, "a"))  # lap 4: three laps since lap 1
    assert outcome.result == {"laps": 4, "forfeited": ["vicolo-corto"]}
    corto = state.deeds["vicolo-corto"]
    assert corto.owner is None and not corto.mortgaged and corto.mortgage_lap is None
    assert state.deeds["via-roma"].owner == "a" and state.players["a"].laps == 4
    act(state, unmortgage(state, "a", "via-roma"))
    assert state.deeds["via-roma"].mortgage_lap is None and cash(state)["a"] == 1500 + 4 * 200 + 30


def test_a_mortgaged_deed_changing_hands_keeps_the_laps_it_has_left():
    state = game(made_up(mortgage=_mortgage(policy="lap_deadline", laps=3, transfer_fee_percent=0)))
    give(state, "a", "vicolo-corto")
    set_player(state, "a", laps=5)
    set_player(state, "b", laps=1)
    act(state, mortgage(state, "a", "vicolo-corto"))
    act(state, commands.pass_go(state, "a"))  # one lap gone, two left
    act(state, trade_propose(state, "t1", "a", "b", {"deeds": ["vicolo-corto"]}, {"cash": 10}))
    act(state, trade_accept(state, "t1", "b"))
    assert state.deeds["vicolo-corto"].mortgage_lap == 0
    act(state, commands.pass_go(state, "b"))
    assert state.deeds["vicolo-corto"].owner == "b"
    act(state, commands.pass_go(state, "b"))
    assert state.deeds["vicolo-corto"].owner is None


def test_going_round_the_board_counts_a_lap_and_nothing_else_under_interest():
    state = new_state()
    give(state, "a", "vicolo-corto", mortgaged=True)
    set_player(state, "a", laps=50)
    outcome = act(state, commands.pass_go(state, "a"))
    assert [(c.target, c.field, c.before, c.after) for c in outcome.changes] == [("player", "laps", 50, 51)]
    assert state.deeds["vicolo-corto"].owner == "a"


def test_an_edition_without_mortgages_refuses_them():
    state = game(made_up(mortgage={"policy": "none"}))
    give(state, "a", "vicolo-corto")
    error = refused("no_mortgages", mortgage, state, "a", "vicolo-corto")
    assert "cannot be mortgaged" in str(error)


# --- rent on a mortgaged deed ----------------------------------------------------------------

HALF_TO_BANK = {"policy": "share_to_bank", "share_percent": 50}


def test_rent_on_a_mortgaged_deed_goes_half_to_the_bank():
    state = game(made_up(mortgaged_rent=HALF_TO_BANK, rent={**CLASSIC["rent"], "policy": "double_if_none_mortgaged"}))
    give(state, "a", *BROWN)
    give(state, "a", "parco-della-vittoria", mortgaged=True)  # 50: half is 25
    set_deed(state, "vicolo-stretto", mortgaged=True)
    assert rent_due(state, "vicolo-corto") == 2  # not doubled: one of the group is mortgaged
    assert rent_due(state, "vicolo-stretto") == 2  # half of 4
    outcome = act(state, pay_rent(state, "b", "parco-della-vittoria"))
    assert outcome.params["to"] == BANK and outcome.params["amount"] == 25
    assert cash(state) == {"a": 1500, "b": 1475, "c": 1500}
    refused("deed_mortgaged", rent_request, state, "r1", "a", "b", "vicolo-stretto", NOW)


def test_half_of_an_odd_rent_rounds_up_and_a_mortgaged_utility_asks_the_dice():
    state = game(made_up(mortgaged_rent=HALF_TO_BANK))
    give(state, "a", "vicolo-corto", mortgaged=True)
    give(state, "a", "societa-elettrica", mortgaged=True)
    assert rent_due(state, "societa-elettrica", 7) == 14  # half of 4 x 7
    refused("invalid_dice", pay_rent, state, "b", "societa-elettrica")
    data = copy.deepcopy(CLASSIC)
    data["deeds"][0]["rents"][0] = 3
    data["mortgaged_rent"] = HALF_TO_BANK
    odd = game(parse_edition(data))
    give(odd, "a", data["deeds"][0]["key"], mortgaged=True)
    assert rent_due(odd, data["deeds"][0]["key"]) == 2


# --- bankruptcy --------------------------------------------------------------------------------

SHARE = {"policy": "bank_pays_creditor_share", "share_percent": 50}


def test_the_bank_takes_everything_and_pays_the_creditor_half_the_debt():
    state = game(made_up(bankruptcy=SHARE), cash=100)
    give(state, "a", *BROWN, houses=2)
    give(state, "a", "via-roma", mortgaged=True)
    set_player(state, "a", jail_cards=1)
    outcome = act(state, bankrupt(state, "a", "b", 301))
    assert outcome.result["to_auction"] == ["vicolo-corto", "vicolo-stretto", "via-roma"]
    assert outcome.result["creditor_paid"] == 151 and outcome.params["debt"] == 301
    assert cash(state) == {"a": 0, "b": 100 + 151, "c": 100}
    assert all(
        state.deeds[k].owner is None and not state.deeds[k].mortgaged and not state.deeds[k].houses
        for k in ("vicolo-corto", "vicolo-stretto", "via-roma")
    )
    assert state.bank_small == 32 and state.players["b"].jail_cards == 0


def test_a_share_needs_the_debt_and_going_bankrupt_to_the_bank_does_not():
    state = game(made_up(bankruptcy=SHARE))
    refused("debt_required", bankrupt, state, "a", "b")
    refused("invalid_amount", bankrupt, state, "a", "b", 0)
    refused("invalid_amount", bankrupt, state, "a", "b", "300")
    outcome = act(state, bankrupt(state, "a", BANK, owing(state, "a")))
    assert outcome.result["creditor_paid"] == 0 and cash(state)["b"] == 1500


def test_the_bank_can_pay_the_creditor_in_full():
    state = game(made_up(bankruptcy={"policy": "bank_pays_creditor_share", "share_percent": 100}), cash=10)
    act(state, bankrupt(state, "a", "c", 700))
    assert cash(state) == {"a": 0, "b": 10, "c": 710}


def test_to_the_creditor_the_debt_changes_nothing():
    state = new_state(cash=100)
    outcome = act(state, bankrupt(state, "a", "b", 500))
    assert cash(state) == {"a": 0, "b": 200, "c": 100} and outcome.result["creditor_paid"] == 0


# --- salary, auctions, the start ---------------------------------------------------------------


def test_go_can_pay_ten_times_the_dice():
    state = game(made_up(salary={"policy": "dice_times", "dice_multiplier": 10}))
    assert act(state, commands.pass_go(state, "a", 7)).params["amount"] == 70
    for dice in (None, 1, 13, True, "7"):
        refused("invalid_dice", commands.pass_go, state, "a", dice)
    assert cash(state)["a"] == 1570 and state.players["a"].laps == 1


def test_an_auction_can_open_at_the_printed_price():
    state = game(made_up(auction={**CLASSIC["auction"], "policy": "printed_price"}))
    outcome = act(state, auction_start(state, "parco-della-vittoria", NOW, 20))
    assert outcome.params["opening_bid"] == 400 and state.auction.opening_bid == 400


def test_deeds_dealt_at_the_start_are_paid_at_their_price(monkeypatch):
    edition = new_state().edition
    players = {p: PlayerState(p, p.upper()) for p in ("a", "b")}
    state = GameState(edition, SETUP, players, {d.key: new_state().deeds[d.key] for d in edition.deeds})
    assert start_policies.dealt(edition, ["a", "b"]) == []
    monkeypatch.setitem(
        start_policies.POLICIES, "none", lambda e, ids, seed: [("a", "vicolo-corto"), ("b", "via-roma")]
    )
    outcome = act(state, commands.start(state))
    assert state.deeds["vicolo-corto"].owner == "a" and state.deeds["via-roma"].owner == "b"
    assert cash(state) == {"a": 1500 - 60, "b": 1500 - 300}
    assert outcome.params["dealt"] == [["a", "vicolo-corto"], ["b", "via-roma"]]


# --- the final count ---------------------------------------------------------------------------


def test_classic_worth_is_cash_deeds_at_price_mortgaged_at_half_and_buildings_at_cost():
    state = new_state(cash=1000)
    give(state, "a", "vicolo-corto", mortgaged=True)  # 30
    give(state, "a", "via-roma", "corso-impero", houses=2)  # 300 each + 2 x 200 each
    give(state, "a", "parco-della-vittoria", hotel=True)  # 400 + 5 x 200
    assert worth(state, state.players["a"]) == 1000 + 30 + 2 * (300 + 400) + 400 + 1000
    assert worth(state, state.players["b"]) == 1000


def test_other_valuations_are_numbers_of_the_same_policy():
    valuation = {
        "policy": "cash_deeds_buildings",
        "deed_percent": 0,
        "mortgaged_deed_percent": 0,
        "building_percent": 50,
    }
    state = game(made_up(valuation=valuation), cash=1000)
    give(state, "a", "via-roma", houses=3)
    assert worth(state, state.players["a"]) == 1000 + 300


@pytest.mark.parametrize(
    "tiebreak, places",
    [("shared", [1, 1, 3]), ("unmortgaged_deeds_value", [1, 2, 3]), ("unmortgaged_property_value", [1, 2, 3])],
)
def test_standings_break_ties_as_the_edition_says(tiebreak, places):
    state = new_state(cash=1000, tiebreak={"policy": tiebreak})
    give(state, "a", "vicolo-corto")  # worth 1060
    give(state, "b", "via-roma", mortgaged=True)  # 150
    set_player(state, "b", cash=910)
    set_player(state, "c", cash=5)
    result = standings(state)
    assert [s.place for s in result] == places and result[2].player == "c"
    assert {s.player: s.worth for s in result} == {"a": 1060, "b": 1060, "c": 5}
    if tiebreak != "shared":
        assert result[0].player == "a"
    set_player(state, "c", bankrupt=True)
    assert [s.player for s in standings(state)] == [s.player for s in result[:2]]
