"""Trades: proposed by one player, accepted or refused by the other."""

import pytest
from conftest import EDITION_IDS, act, cash, give, new_state, refused, set_deed, set_player

from companion.core.rules import buy, pay_mortgage_fee, trade_accept, trade_propose, trade_reject, unmortgage


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_an_accepted_trade_moves_cash_deeds_and_cards_both_ways(edition_id):
    state = new_state(edition_id)
    give(state, "a", "via-roma", "stazione-sud")
    give(state, "b", "corso-impero")
    set_player(state, "b", jail_cards=1)
    act(
        state,
        trade_propose(
            state,
            "t1",
            "a",
            "b",
            {"deeds": ["via-roma"], "cash": 100},
            {"deeds": ["corso-impero"], "jail_cards": 1, "cash": 30},
        ),
    )
    assert state.trades["t1"].give == {"cash": 100, "deeds": ["via-roma"], "jail_cards": 0}
    act(state, trade_accept(state, "t1", "b"))
    assert state.deeds["via-roma"].owner == "b" and state.deeds["corso-impero"].owner == "a"
    assert cash(state) == {"a": 1430, "b": 1570, "c": 1500}
    assert state.players["a"].jail_cards == 1 and state.players["b"].jail_cards == 0
    assert state.trades == {}


def test_refusing_and_withdrawing():
    state = new_state()
    give(state, "a", "via-roma")
    act(state, trade_propose(state, "t1", "a", "b", {"deeds": ["via-roma"]}, {"cash": 300}))
    refused("not_your_trade", trade_accept, state, "t1", "a")
    refused("not_your_trade", trade_accept, state, "t1", "c")
    refused("not_your_trade", trade_reject, state, "t1", "c")
    assert act(state, trade_reject(state, "t1", "b")).kind == "trade_reject"
    act(state, trade_propose(state, "t2", "a", "b", {"deeds": ["via-roma"]}, {"cash": 300}))
    assert act(state, trade_reject(state, "t2", "a")).kind == "trade_withdraw"
    refused("unknown_trade", trade_accept, state, "t2", "b")
    assert cash(state)["b"] == 1500 and state.deeds["via-roma"].owner == "a"


@pytest.mark.parametrize(
    "give_side,get_side,code",
    [
        ({}, {}, "empty_trade"),
        ({"cash": -1}, {}, "invalid_trade"),
        ({"cash": True}, {}, "invalid_trade"),
        ({"cash": 1.5}, {}, "invalid_trade"),
        ({"money": 5}, {}, "invalid_trade"),
        ("cash", {}, "invalid_trade"),
        ({"deeds": "via-roma"}, {}, "invalid_trade"),
        ({"deeds": ["via-roma", "via-roma"]}, {}, "invalid_trade"),
        ({"deeds": ["via-roma"]}, {"deeds": ["via-roma"]}, "invalid_trade"),
        ({"deeds": ["via-rome"]}, {}, "unknown_deed"),
        ({"cash": 100001}, {}, "amount_too_large"),
        ({"cash": 1501}, {}, "insufficient_cash"),
        ({}, {"cash": 1501}, "insufficient_cash"),
        ({"deeds": ["corso-impero"]}, {}, "not_owner"),
        ({}, {"deeds": ["via-roma"]}, "not_owner"),
        ({"deeds": ["vicolo-corto"]}, {}, "group_has_buildings"),
        ({"jail_cards": 1}, {}, "not_enough_jail_cards"),
    ],
)
def test_trade_proposal_refusals(give_side, get_side, code):
    state = new_state()
    give(state, "a", "via-roma")
    give(state, "a", "vicolo-corto")
    give(state, "b", "vicolo-stretto", houses=1)
    refused(code, trade_propose, state, "t1", "a", "b", give_side, get_side)


def test_trade_id_and_player_refusals():
    state = new_state()
    refused("same_player", trade_propose, state, "t1", "a", "a", {"cash": 1}, {})
    refused("unknown_player", trade_propose, state, "t1", "a", "z", {"cash": 1}, {})
    refused("invalid_trade_id", trade_propose, state, "", "a", "b", {"cash": 1}, {})
    act(state, trade_propose(state, "t1", "a", "b", {"cash": 1}, {}))
    refused("trade_exists", trade_propose, state, "t1", "a", "c", {"cash": 1}, {})


def test_acceptance_checks_the_trade_still_holds():
    state = new_state()
    give(state, "a", "via-roma")
    act(state, trade_propose(state, "t1", "a", "b", {"deeds": ["via-roma"]}, {"cash": 300}))
    set_player(state, "b", cash=299)
    refused("insufficient_cash", trade_accept, state, "t1", "b")
    set_player(state, "b", cash=1500)
    set_deed(state, "via-roma", owner="c")
    refused("not_owner", trade_accept, state, "t1", "b")


def test_a_deed_received_mortgaged_owes_the_fee():
    state = new_state()
    give(state, "a", "via-roma", "corso-impero", mortgaged=True)
    act(state, trade_propose(state, "t1", "a", "b", {"deeds": ["via-roma", "corso-impero"]}, {"cash": 10}))
    outcome = act(state, trade_accept(state, "t1", "b"))
    assert outcome.result["fees_due"] == ["via-roma", "corso-impero"]
    assert state.deeds["via-roma"].fee_due and state.deeds["via-roma"].mortgaged
    refused("mortgage_fee_due", buy, state, "b", "via-verdi")
    refused("mortgage_fee_due", trade_propose, state, "t2", "b", "c", {"deeds": ["via-roma"]}, {})
    act(state, pay_mortgage_fee(state, "b", "via-roma"))
    act(state, unmortgage(state, "b", "corso-impero"))
    assert cash(state)["b"] == 1490 - 15 - 165
    act(state, buy(state, "b", "via-verdi"))


def test_a_trade_is_refused_when_the_receiver_could_not_pay_the_fee():
    state = new_state()
    give(state, "a", "via-roma", mortgaged=True)
    set_player(state, "b", cash=14)
    act(state, trade_propose(state, "t1", "a", "b", {"deeds": ["via-roma"]}, {}))
    refused("cannot_pay_mortgage_fees", trade_accept, state, "t1", "b")


def test_campionato_caps_the_price_of_a_jail_card():
    state = new_state("campionato-2015")
    set_player(state, "a", jail_cards=2)
    refused("jail_card_too_dear", trade_propose, state, "t1", "a", "b", {"jail_cards": 1}, {"cash": 51})
    refused("jail_card_too_dear", trade_propose, state, "t1", "b", "a", {"cash": 101}, {"jail_cards": 2})
    act(state, trade_propose(state, "t1", "a", "b", {"jail_cards": 2}, {"cash": 100}))
    act(state, trade_accept(state, "t1", "b"))
    assert state.players["b"].jail_cards == 2 and cash(state)["a"] == 1600


def test_classic_lets_a_jail_card_go_for_any_price():
    state = new_state("classic-it")
    set_player(state, "a", jail_cards=1)
    act(state, trade_propose(state, "t1", "a", "b", {"jail_cards": 1}, {"cash": 500}))
