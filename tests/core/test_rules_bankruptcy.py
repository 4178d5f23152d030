"""Bankruptcy to the bank and to another player."""

import pytest
from conftest import EDITION_IDS, NOW, act, cash, give, new_state, refused, set_player

from companion.core.rules import bankrupt, rent_request, trade_propose


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_bankrupt_to_the_bank_returns_everything_for_auction(edition_id):
    state = new_state(edition_id)
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=2)
    give(state, "a", "via-roma", mortgaged=True)
    set_player(state, "a", jail_cards=1)
    act(state, trade_propose(state, "t1", "b", "a", {"cash": 5}, {}))
    outcome = act(state, bankrupt(state, "a", "bank"))
    assert outcome.result["to_auction"] == ["vicolo-corto", "vicolo-stretto", "via-roma"]
    for key in ("vicolo-corto", "vicolo-stretto", "via-roma"):
        assert state.deeds[key].owner is None and not state.deeds[key].mortgaged
        assert state.deeds[key].houses == 0
    a = state.players["a"]
    assert a.bankrupt and a.cash == 0 and a.jail_cards == 0
    assert state.bank_small == 32 and state.trades == {}
    assert cash(state) == {"a": 0, "b": 1500, "c": 1500}


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_bankrupt_to_a_player_sells_buildings_and_hands_over_the_rest(edition_id):
    state = new_state(edition_id, cash=100)
    give(state, "a", "via-roma", "corso-impero", "largo-augusto", hotel=True)
    give(state, "a", "stazione-sud", mortgaged=True)
    set_player(state, "a", jail_cards=1)
    give(state, "b", "via-verdi")
    act(state, rent_request(state, "r1", "b", "a", "via-verdi", NOW))
    outcome = act(state, bankrupt(state, "a", "b"))
    assert cash(state) == {"a": 0, "b": 100 + 100 + 3 * 5 * 100, "c": 100}
    assert all(
        state.deeds[k].owner == "b" and not state.deeds[k].hotel
        for k in ("via-roma", "corso-impero", "largo-augusto", "stazione-sud")
    )
    assert state.deeds["stazione-sud"].mortgaged and state.deeds["stazione-sud"].fee_due
    assert outcome.result["fees_due"] == ["stazione-sud"]
    assert state.players["b"].jail_cards == 1 and state.bank_big == 12
    assert state.pending == {}


def test_bankruptcy_refusals():
    state = new_state()
    refused("same_account", bankrupt, state, "a", "a")
    refused("unknown_player", bankrupt, state, "a", "z")
    refused("unknown_player", bankrupt, state, "z", "bank")
    act(state, bankrupt(state, "b", "bank"))
    refused("player_bankrupt", bankrupt, state, "b", "bank")
    refused("player_bankrupt", bankrupt, state, "a", "b")
