"""Bankruptcy to the bank and to another player."""

import pytest
from conftest import EDITION_IDS, NOW, act, cash, give, new_state, owing, refused, set_player

from companion.core import rules
from companion.core.rules import bankrupt, rent_request, trade_propose


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_bankrupt_to_the_bank_returns_everything_for_auction(edition_id):
    state = new_state(edition_id)
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=2)
    give(state, "a", "via-roma", mortgaged=True)
    set_player(state, "a", jail_cards=1)
    act(state, trade_propose(state, "t1", "b", "a", {"cash": 5}, {}))
    outcome = act(state, bankrupt(state, "a", "bank", owing(state, "a")))
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
    outcome = act(state, bankrupt(state, "a", "b", owing(state, "a")))
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
    act(state, bankrupt(state, "b", "bank", owing(state, "b")))
    refused("player_bankrupt", bankrupt, state, "b", "bank")
    refused("player_bankrupt", bankrupt, state, "a", "b")


# --- Bankruptcy only for a debt that cannot be paid (every edition; Che Impresa! lines 283-287,
# Motopolis line 74: "una somma superiore a tutto ciò che possiede").


def test_a_player_who_could_pay_is_refused_saying_how_much_they_could_raise():
    """The issue's case: €1,610 in hand, "owing 100" where the bank pays the creditor in full."""
    state = new_state("che-impresa", cash=1610)
    error = refused("can_still_pay", bankrupt, state, "a", "b", 100)
    assert "1610" in str(error) and "100" in str(error)
    state = new_state("classic-it", cash=40)
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=1)  # 2 houses at 25, 2 mortgages at 30
    refused("can_still_pay", bankrupt, state, "a", "b", 150)  # 40 + 50 + 60 = 150: payable
    outcome = act(state, bankrupt(state, "a", "b", 151))
    assert outcome.params["debt"] == 151 and outcome.params["debt_kind"] == "amount"


def test_the_debt_is_named_and_its_amount_and_creditor_come_from_the_rules():
    state = new_state("classic-it", cash=10)
    give(state, "b", "via-roma", "corso-impero", "largo-augusto", houses=1)  # one house on via-roma: 130
    refused("wrong_creditor", bankrupt, state, "a", "c", deed="via-roma")
    refused("two_debts", bankrupt, state, "a", "b", 500, deed="via-roma")
    refused("creditor_required", bankrupt, state, "a", None, 500)
    outcome = act(state, bankrupt(state, "a", deed="via-roma"))  # the rent names Bruno
    assert (outcome.params["creditor"], outcome.params["debt"], outcome.params["debt_kind"]) == ("b", 130, "rent")
    assert (outcome.params["heir"], outcome.params["cash"]) == ("b", 10)
    assert cash(state) == {"a": 0, "b": 10 + 10, "c": 10}

    taxed = new_state("classic-it", cash=150)
    refused("can_still_pay", bankrupt, taxed, "a", payment="luxury-tax")  # 100: payable
    refused("unknown_payment", bankrupt, taxed, "a", payment="nope")
    outcome = act(taxed, bankrupt(taxed, "a", "bank", payment="wealth-tax"))  # 200
    assert (outcome.params["creditor"], outcome.params["debt"]) == ("bank", 200)


def test_a_request_waiting_on_the_player_is_a_debt_until_it_lapses():
    from companion.core.pending import request_payment

    state = new_state("classic-it", cash=50)
    act(state, request_payment(state, "r1", "b", "a", 80, "the deal", NOW))
    act(state, request_payment(state, "r2", "a", "c", 20, "lunch", NOW))  # Anna asks Carla: not Anna's debt
    refused("unknown_request", bankrupt, state, "a", request="r2")
    refused("unknown_request", bankrupt, state, "a", request="nope")
    outcome = act(state, bankrupt(state, "a", request="r1", now=NOW))
    assert (outcome.params["creditor"], outcome.params["debt"], outcome.params["debt_ref"]) == ("b", 80, "r1")
    assert state.pending == {}  # the debtor's requests go with them


def test_naming_no_debt_as_older_clients_did_is_accepted_only_with_nothing_to_pay_with():
    state = new_state("classic-it", cash=1)
    error = refused("debt_required", bankrupt, state, "a", "bank")
    assert "1" in str(error)
    state = new_state("classic-it", cash=0)
    outcome = act(state, bankrupt(state, "a", "bank"))
    assert outcome.params["heir"] == "bank" and "debt" not in outcome.params


def test_the_bank_pays_the_creditor_the_rulebooks_share_of_the_debt_the_rules_computed():
    """Che Impresa!: the bank pays the rent in full; Motopolis (line 74): half. Never the
    debtor's whole estate, never a number typed over the rent."""
    state = new_state("che-impresa", cash=0)
    give(state, "b", "bar")
    rent = rules.rent_due(state, "bar")
    outcome = act(state, bankrupt(state, "a", "b", deed="bar"))
    assert outcome.params["creditor_paid"] == rent and cash(state)["b"] == 0 + rent
    moto = new_state("motopolis", cash=0)
    give(moto, "b", "garelli")
    rent = rules.rent_due(moto, "garelli")
    outcome = act(moto, bankrupt(moto, "a", deed="garelli"))
    assert outcome.params["creditor_paid"] == -(-rent // 2)
    to_bank = new_state("motopolis", cash=0)
    give(to_bank, "c", "benelli", mortgaged=True)  # a mortgaged deed's rent: half, to the bank
    outcome = act(to_bank, bankrupt(to_bank, "a", deed="benelli"))
    assert (outcome.params["creditor"], outcome.params["creditor_paid"]) == ("bank", 0)
    assert outcome.params["debt"] == rules.rent_due(to_bank, "benelli")  # half the rent, the bank's share
