"""Building evenly from the bank's limited supply, selling back at half, shortage auctions."""

import pytest
from conftest import (
    EDITION_IDS,
    NOW,
    act,
    cash,
    give,
    give_group,
    new_state,
    refused,
    set_deed,
    set_game,
    set_player,
    street_groups,
)

from companion.core.rules import auction_close, bid, build, building_auction_start, sell_building, trade_propose

GROUPS = [(e, g) for e in EDITION_IDS for g in street_groups(e)]


@pytest.mark.parametrize("edition_id,group", GROUPS)
def test_building_a_whole_group_evenly_up_to_hotels(edition_id, group):
    state = new_state(edition_id, cash=10000)
    keys = give_group(state, "a", group)
    cost = state.edition.deed(keys[0]).building_cost
    for _round in range(5):
        for key in keys:
            act(state, build(state, "a", key))
    assert all(state.deeds[k].hotel and state.deeds[k].houses == 0 for k in keys)
    assert cash(state)["a"] == 10000 - 5 * len(keys) * cost
    assert state.bank_small == 32 and state.bank_big == 12 - len(keys)


@pytest.mark.parametrize("edition_id,group", GROUPS)
def test_selling_a_whole_group_evenly_at_half(edition_id, group):
    state = new_state(edition_id)
    keys = give_group(state, "a", group, houses=4)
    half = state.edition.deed(keys[0]).building_cost // 2
    for _round in range(4):
        for key in keys:
            act(state, sell_building(state, "a", key))
    assert cash(state)["a"] == 1500 + 4 * len(keys) * half
    assert state.bank_small == 32


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_building_refusals_change_nothing(edition_id):
    state = new_state(edition_id)
    give(state, "a", "via-verdi", "corso-raffaello")
    give(state, "b", "piazza-dante")
    refused("group_incomplete", build, state, "a", "via-verdi")
    refused("not_owner", build, state, "a", "piazza-dante")
    refused("unknown_deed", build, state, "a", "piazza-verdi")
    give(state, "a", "piazza-dante", mortgaged=True)
    refused("group_mortgaged", build, state, "a", "via-verdi")
    set_deed(state, "piazza-dante", mortgaged=False)
    act(state, build(state, "a", "via-verdi"))
    refused("uneven_building", build, state, "a", "via-verdi")
    refused("not_owner", build, state, "b", "corso-raffaello")
    give(state, "a", "stazione-sud")
    refused("not_buildable", build, state, "a", "stazione-sud")
    give(state, "a", "vicolo-corto", "vicolo-stretto", hotel=True)
    refused("fully_built", build, state, "a", "vicolo-corto")
    set_player(state, "a", cash=99)
    refused("insufficient_cash", build, state, "a", "corso-raffaello")


def test_selling_refusals_change_nothing():
    state = new_state()
    give(state, "a", "via-verdi", "corso-raffaello", houses=2)
    give(state, "a", "piazza-dante", houses=1)
    refused("uneven_selling", sell_building, state, "a", "piazza-dante")
    refused("not_owner", sell_building, state, "b", "via-verdi")
    give(state, "a", "stazione-sud")
    refused("no_buildings", sell_building, state, "a", "stazione-sud")


def test_the_bank_supply_of_houses_is_enforced():
    state = new_state(cash=100000)
    for group in street_groups("classic-it"):
        give_group(state, "a", group)
    built = 0
    for _round in range(4):
        for deed in state.edition.deeds:
            if state.edition.group(deed.group).kind == "street" and state.bank_small:
                act(state, build(state, "a", deed.key))
                built += 1
    assert built == 32 and state.bank_small == 0
    refused("bank_out_of_small", build, state, "a", "vicolo-corto")


def test_the_bank_supply_of_hotels_is_enforced():
    state = new_state()
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=4)
    set_game(state, bank_big=0)
    refused("bank_out_of_big", build, state, "a", "vicolo-corto")


def test_a_hotel_returns_its_houses_to_the_bank():
    state = new_state()
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=4)
    assert state.bank_small == 24
    act(state, build(state, "a", "vicolo-corto"))
    assert state.bank_small == 28 and state.bank_big == 11


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_breaking_a_hotel_into_houses(edition_id):
    state = new_state(edition_id)
    give(state, "a", "via-roma", "corso-impero", "largo-augusto", hotel=True)
    act(state, sell_building(state, "a", "via-roma", break_hotel=True))
    assert state.deeds["via-roma"].houses == 4 and not state.deeds["via-roma"].hotel
    assert cash(state)["a"] == 1600 and state.bank_small == 28 and state.bank_big == 10
    set_game(state, bank_small=3)
    set_deed(state, "largo-augusto", houses=0)
    if edition_id == "classic-it":
        refused("bank_short_of_small", sell_building, state, "a", "corso-impero", break_hotel=True)
    else:  # FAQ 29: the 3 houses the bank has, and half the price of the fourth
        outcome = act(state, sell_building(state, "a", "corso-impero", break_hotel=True))
        assert outcome.params["amount"] == 100 + 100 and state.deeds["corso-impero"].houses == 3


def test_campionato_sells_one_hotel_whole_for_half_of_it_and_its_four_houses():
    state = new_state("campionato-2015")
    give(state, "a", "via-roma", hotel=True)
    give(state, "a", "corso-impero", "largo-augusto", houses=1)
    outcome = act(state, sell_building(state, "a", "via-roma"))
    assert outcome.result["amount"] == 500
    assert not state.deeds["via-roma"].hotel and state.deeds["corso-impero"].houses == 1
    assert state.bank_big == 12 and state.bank_small == 30
    full = new_state("campionato-2015")  # with the others' hotels standing, the group must stay even
    give(full, "a", "via-roma", "corso-impero", "largo-augusto", hotel=True)
    refused("uneven_selling", sell_building, full, "a", "via-roma")


def test_classic_sells_the_hotels_of_a_group_all_at_once():
    state = new_state("classic-it")
    give(state, "a", "via-roma", "corso-impero", "largo-augusto", hotel=True)
    outcome = act(state, sell_building(state, "a", "corso-impero"))
    assert outcome.result["amount"] == 1500
    assert not any(state.deeds[k].hotel for k in ("via-roma", "corso-impero", "largo-augusto"))
    assert state.bank_big == 12


def test_classic_refuses_a_whole_hotel_sale_while_the_group_is_not_all_hotels():
    state = new_state("classic-it")
    give(state, "a", "via-roma", "corso-impero", hotel=True)
    give(state, "a", "largo-augusto", houses=4)
    refused("hotels_sold_together", sell_building, state, "a", "via-roma")
    act(state, sell_building(state, "a", "via-roma", break_hotel=True))


def _shortage(edition_id="campionato-2015"):
    state = new_state(edition_id)
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=2)
    give(state, "b", "via-roma", "corso-impero", "largo-augusto", houses=3)
    give(state, "c", "viale-dei-giardini", "parco-della-vittoria", houses=4)
    set_game(state, bank_small=1)
    return state


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_a_shortage_auction_opens_at_the_lowest_building_price(edition_id):
    state = _shortage(edition_id)
    act(state, building_auction_start(state, "small", ["vicolo-corto", "corso-impero"], NOW, 20))
    assert state.auction.opening_bid == 50 and state.auction.lot == "small"
    refused("building_auction_open", build, state, "a", "vicolo-stretto")
    refused("trading_paused", trade_propose, state, "t1", "a", "b", {"cash": 1}, {})
    refused("deed_not_in_auction", bid, state, "a", 60, NOW, "vicolo-stretto")
    refused("not_owner", bid, state, "a", 60, NOW, "corso-impero")
    refused("bid_too_low", bid, state, "a", 49, NOW, "vicolo-corto")
    act(state, bid(state, "a", 60, NOW, "vicolo-corto"))
    act(state, bid(state, "b", 90, NOW, "corso-impero"))
    act(state, auction_close(state, NOW))
    assert state.deeds["corso-impero"].houses == 4 and state.bank_small == 0
    assert cash(state)["b"] == 1410 and state.auction is None


def test_shortage_auction_refusals():
    state = _shortage()
    refused("no_competition", building_auction_start, state, "small", ["vicolo-corto"], NOW, 20)
    refused(
        "cannot_build_here", building_auction_start, state, "small", ["vicolo-corto", "viale-dei-giardini"], NOW, 20
    )
    refused("invalid_building", building_auction_start, state, "castle", ["vicolo-corto"], NOW, 20)
    refused("invalid_deeds", building_auction_start, state, "small", [], NOW, 20)
    refused("invalid_deeds", building_auction_start, state, "small", ["vicolo-corto", "vicolo-corto"], NOW, 20)
    refused("unknown_deed", building_auction_start, state, "small", ["vicolo-largo"], NOW, 20)
    refused("invalid_countdown", building_auction_start, state, "small", ["vicolo-corto", "via-roma"], NOW, 0)
    set_game(state, bank_small=0)
    refused("bank_out_of_small", building_auction_start, state, "small", ["vicolo-corto", "via-roma"], NOW, 20)
    set_game(state, bank_small=None)
    refused("no_shortage", building_auction_start, state, "small", ["vicolo-corto", "via-roma"], NOW, 20)
    state = new_state(buildings={"shortage_auction": False})
    refused("no_building_auctions", building_auction_start, state, "small", ["vicolo-corto"], NOW, 20)


def test_a_shortage_auction_of_a_hotel():
    state = new_state("campionato-2015")
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=4)
    give(state, "b", "via-roma", "corso-impero", "largo-augusto", houses=4)
    give(state, "c", "viale-dei-giardini", "parco-della-vittoria", houses=4)
    set_game(state, bank_big=1)
    act(state, building_auction_start(state, "big", ["vicolo-corto", "via-roma"], NOW, 20))
    refused("building_auction_open", build, state, "c", "parco-della-vittoria")
    act(state, bid(state, "a", 50, NOW, "vicolo-corto"))
    act(state, auction_close(state, NOW))
    assert state.deeds["vicolo-corto"].hotel and state.bank_big == 0 and state.bank_small == 8


def test_a_building_nobody_bids_for_stays_with_the_bank():
    state = _shortage()
    act(state, building_auction_start(state, "small", ["vicolo-corto", "via-roma"], NOW, 20))
    outcome = act(state, auction_close(state, NOW))
    assert outcome.kind == "auction_unsold" and state.bank_small == 1


def test_breaking_a_hotel_waits_for_a_house_shortage_auction():
    state = _shortage()
    give(state, "c", "viale-dei-giardini", "parco-della-vittoria", hotel=True)
    set_game(state, bank_big=10, bank_small=5)
    set_deed(state, "viale-dei-giardini", houses=0)
    act(state, building_auction_start(state, "small", ["vicolo-corto", "via-roma"], NOW, 20))
    refused("building_auction_open", sell_building, state, "c", "viale-dei-giardini", break_hotel=True)
