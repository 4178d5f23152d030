"""Jail as the money sees it: the fine, a card, doubles."""

import pytest
from conftest import EDITION_IDS, act, cash, new_state, refused, set_player

from companion.core.rules import draw_jail_card, go_to_jail, leave_jail_on_doubles, pay_jail_fine, use_jail_card


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_leaving_jail_by_the_fine(edition_id):
    state = new_state(edition_id)
    act(state, go_to_jail(state, "a"))
    refused("already_in_jail", go_to_jail, state, "a")
    act(state, pay_jail_fine(state, "a"))
    assert not state.players["a"].in_jail and cash(state)["a"] == 1450


def test_leaving_jail_by_a_card_or_doubles():
    state = new_state()
    act(state, draw_jail_card(state, "a"))
    act(state, go_to_jail(state, "a"))
    act(state, use_jail_card(state, "a"))
    assert state.players["a"].jail_cards == 0 and not state.players["a"].in_jail
    act(state, go_to_jail(state, "a"))
    act(state, leave_jail_on_doubles(state, "a"))
    assert not state.players["a"].in_jail and cash(state)["a"] == 1500


def test_jail_refusals_change_nothing():
    state = new_state()
    refused("not_in_jail", pay_jail_fine, state, "a")
    refused("not_in_jail", use_jail_card, state, "a")
    refused("not_in_jail", leave_jail_on_doubles, state, "a")
    act(state, go_to_jail(state, "a"))
    refused("no_jail_card", use_jail_card, state, "a")
    set_player(state, "a", cash=49)
    refused("insufficient_cash", pay_jail_fine, state, "a")
    act(state, draw_jail_card(state, "b"))
    act(state, draw_jail_card(state, "c"))
    refused("no_jail_cards_left", draw_jail_card, state, "a")
