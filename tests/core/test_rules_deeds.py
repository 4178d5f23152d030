"""Buying deeds, mortgaging them, lifting mortgages and the fee on deeds received mortgaged."""

import pytest
from conftest import EDITION_IDS, EDITIONS, NOW, act, cash, give, new_state, refused, set_deed, set_game, set_player

from companion.core.money import percent_up
from companion.core.rules import auction_start, buy, mortgage, pay_mortgage_fee, unmortgage

DEEDS = [(e, d.key) for e in EDITION_IDS for d in EDITIONS[e].deeds]


@pytest.mark.parametrize("edition_id,deed_key", DEEDS)
def test_buying_pays_the_printed_price(edition_id, deed_key):
    state = new_state(edition_id)
    act(state, buy(state, "b", deed_key))
    assert state.deeds[deed_key].owner == "b"
    assert cash(state)["b"] == 1500 - state.edition.deed(deed_key).price


@pytest.mark.parametrize("edition_id,deed_key", DEEDS)
def test_mortgage_pays_the_printed_value_and_lifting_costs_ten_percent_more(edition_id, deed_key):
    state = new_state(edition_id)
    give(state, "a", deed_key)
    value = state.edition.deed(deed_key).mortgage
    act(state, mortgage(state, "a", deed_key))
    assert state.deeds[deed_key].mortgaged and cash(state)["a"] == 1500 + value
    act(state, unmortgage(state, "a", deed_key))
    assert not state.deeds[deed_key].mortgaged
    assert cash(state)["a"] == 1500 - percent_up(value, 10)


def test_lifting_rounds_the_interest_up():
    state = new_state()
    give(state, "a", "societa-elettrica", mortgaged=True)
    assert act(state, unmortgage(state, "a", "societa-elettrica")).result["amount"] == 83


def test_buy_refusals_change_nothing():
    state = new_state()
    give(state, "a", "via-roma")
    refused("deed_owned", buy, state, "b", "via-roma")
    refused("deed_owned", buy, state, "a", "via-roma")
    refused("unknown_deed", buy, state, "b", "boardwalk")
    refused("unknown_deed", buy, state, "b", None)
    refused("unknown_player", buy, state, "z", "via-verdi")
    set_player(state, "c", cash=399)
    refused("insufficient_cash", buy, state, "c", "parco-della-vittoria")
    act(state, auction_start(state, "via-verdi", NOW, 30))
    refused("deed_in_auction", buy, state, "b", "via-verdi")
    set_game(state, status="finished")
    refused("game_finished", buy, state, "b", "corso-impero")


def test_mortgage_refusals_change_nothing():
    state = new_state()
    give(state, "a", "vicolo-corto", "vicolo-stretto")
    give(state, "a", "via-roma", mortgaged=True)
    set_deed(state, "vicolo-stretto", houses=1)
    set_game(state, bank_small=state.bank_small - 1)
    refused("group_has_buildings", mortgage, state, "a", "vicolo-corto")
    refused("group_has_buildings", mortgage, state, "a", "vicolo-stretto")
    refused("already_mortgaged", mortgage, state, "a", "via-roma")
    refused("not_owner", mortgage, state, "b", "via-roma")
    refused("not_owner", mortgage, state, "b", "via-verdi")
    refused("not_mortgaged", unmortgage, state, "a", "vicolo-corto")
    refused("not_owner", unmortgage, state, "b", "via-roma")
    set_player(state, "a", cash=164)
    refused("insufficient_cash", unmortgage, state, "a", "via-roma")


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_a_deed_received_mortgaged_costs_the_fee_or_is_lifted(edition_id):
    state = new_state(edition_id)
    give(state, "a", "via-roma", "corso-impero", mortgaged=True)
    set_deed(state, "via-roma", fee_due=True)
    set_deed(state, "corso-impero", fee_due=True)
    refused("mortgage_fee_due", buy, state, "a", "via-verdi")
    act(state, pay_mortgage_fee(state, "a", "via-roma"))
    assert cash(state)["a"] == 1485
    assert state.deeds["via-roma"].mortgaged and not state.deeds["via-roma"].fee_due
    refused("no_fee_due", pay_mortgage_fee, state, "a", "via-roma")
    act(state, unmortgage(state, "a", "corso-impero"))
    assert cash(state)["a"] == 1485 - 165
    assert not state.deeds["corso-impero"].fee_due
    act(state, buy(state, "a", "via-verdi"))


def test_mortgage_fee_refusals():
    state = new_state()
    give(state, "a", "via-roma", mortgaged=True)
    set_deed(state, "via-roma", fee_due=True)
    refused("not_owner", pay_mortgage_fee, state, "b", "via-roma")
    set_player(state, "a", cash=14)
    refused("insufficient_cash", pay_mortgage_fee, state, "a", "via-roma")
