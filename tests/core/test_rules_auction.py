"""Deed auctions: opening bid, raises, countdown, the banker's close, unpaid wins, no bids."""

from datetime import timedelta

import pytest
from conftest import EDITION_IDS, NOW, act, cash, give, new_state, owing, refused, set_player

from companion.core.rules import auction_close, auction_start, bankrupt, bid


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_the_high_bidder_pays_and_gets_the_deed(edition_id):
    state = new_state(edition_id)
    act(state, auction_start(state, "via-roma", NOW, 15))
    assert state.auction.opening_bid == 1 and state.auction.ends_at == (NOW + timedelta(seconds=15)).isoformat()
    act(state, bid(state, "a", 1, NOW))
    later = NOW + timedelta(seconds=10)
    outcome = act(state, bid(state, "b", 120, later))
    assert outcome.result["ends_at"] == (later + timedelta(seconds=15)).isoformat()
    act(state, auction_close(state, later))
    assert state.deeds["via-roma"].owner == "b" and cash(state)["b"] == 1380
    assert state.auction is None


def test_bid_refusals_change_nothing():
    state = new_state()
    refused("no_auction", bid, state, "a", 10, NOW)
    refused("no_auction", auction_close, state, NOW)
    act(state, auction_start(state, "via-roma", NOW, 15))
    act(state, bid(state, "a", 100, NOW))
    refused("bid_too_low", bid, state, "b", 100, NOW)
    refused("already_high_bidder", bid, state, "a", 150, NOW)
    refused("bid_above_cash", bid, state, "b", 1501, NOW)
    refused("invalid_amount", bid, state, "b", -5, NOW)
    refused("invalid_amount", bid, state, "b", 10.5, NOW)
    refused("unknown_player", bid, state, "z", 200, NOW)
    refused("auction_time_up", bid, state, "b", 200, NOW + timedelta(seconds=15))
    refused("auction_open", auction_start, state, "via-verdi", NOW, 15)


def test_auction_start_refusals():
    state = new_state()
    give(state, "a", "via-roma")
    refused("deed_owned", auction_start, state, "via-roma", NOW, 15)
    refused("unknown_deed", auction_start, state, "via-rome", NOW, 15)
    for countdown in (0, -1, 3601, 1.5, True, "10"):
        refused("invalid_countdown", auction_start, state, "via-verdi", NOW, countdown)


def test_campionato_reruns_without_a_winner_who_cannot_pay():
    state = new_state("campionato-2015")
    act(state, auction_start(state, "via-roma", NOW, 15))
    act(state, bid(state, "a", 300, NOW))
    set_player(state, "a", cash=200)
    refused("winner_raising_cash", auction_close, state, NOW)  # given the time to raise it first
    from datetime import timedelta

    refused("banker_only", auction_close, state, NOW + timedelta(seconds=60), by="b", rerun=True)
    outcome = act(state, auction_close(state, NOW, rerun=True))  # the banker: without them
    assert outcome.kind == "auction_rerun"
    assert state.auction.excluded == ["a"] and state.auction.high_bid is None and state.auction.id == "2"
    refused("excluded_from_auction", bid, state, "a", 10, NOW)
    act(state, bid(state, "b", 10, NOW))
    act(state, auction_close(state, NOW))
    assert state.deeds["via-roma"].owner == "b"


def test_classic_waits_for_the_winner_to_raise_the_cash():
    state = new_state("classic-it")
    act(state, auction_start(state, "via-roma", NOW, 15))
    act(state, bid(state, "a", 300, NOW))
    set_player(state, "a", cash=200)
    refused("insufficient_cash", auction_close, state, NOW)
    set_player(state, "a", cash=300)
    act(state, auction_close(state, NOW))
    assert state.deeds["via-roma"].owner == "a" and cash(state)["a"] == 0


@pytest.mark.parametrize("edition_id", EDITION_IDS)
def test_a_bankrupt_winner_is_always_dropped(edition_id):
    state = new_state(edition_id)
    act(state, auction_start(state, "via-roma", NOW, 15))
    act(state, bid(state, "a", 300, NOW))
    act(state, bankrupt(state, "a", "bank", owing(state, "a")))
    assert act(state, auction_close(state, NOW)).kind == "auction_rerun"


def test_classic_leaves_an_unbid_deed_with_the_bank():
    state = new_state("classic-it")
    act(state, auction_start(state, "via-roma", NOW, 15))
    assert act(state, auction_close(state, NOW)).kind == "auction_unsold"
    assert state.deeds["via-roma"].owner is None and state.auction is None


def test_campionato_gives_an_unbid_deed_to_the_richest_for_the_opening_bid():
    state = new_state("campionato-2015")
    set_player(state, "c", cash=1600)
    act(state, auction_start(state, "via-roma", NOW, 15))
    act(state, auction_close(state, NOW))
    assert state.deeds["via-roma"].owner == "c" and cash(state)["c"] == 1599


def test_campionato_asks_the_banker_to_break_a_tie_for_the_richest():
    state = new_state("campionato-2015")
    act(state, auction_start(state, "via-roma", NOW, 15))
    error = refused("richest_tie", auction_close, state, NOW)
    assert error.params["names"] == "Anna, Bruno, Carla"
    set_player(state, "c", cash=10)
    refused("not_richest", auction_close, state, NOW, award_to="c")
    act(state, auction_close(state, NOW, award_to="b"))
    assert state.deeds["via-roma"].owner == "b"


def test_campionato_takes_a_bid_above_cash_and_the_winner_raises_it():
    from companion.core.rules import mortgage

    state = new_state("campionato-2015", cash=100)
    give(state, "a", "vicolo-corto", "vicolo-stretto")  # mortgage 30 each
    act(state, auction_start(state, "bastioni-gran-sasso", NOW, 15))
    act(state, bid(state, "a", 150, NOW))  # 100 in hand
    error = refused("winner_raising_cash", auction_close, state, NOW)
    assert "150" in str(error) and "100" in str(error)
    act(state, mortgage(state, "a", "vicolo-corto"))
    act(state, mortgage(state, "a", "vicolo-stretto"))
    act(state, auction_close(state, NOW))
    assert state.deeds["bastioni-gran-sasso"].owner == "a" and cash(state)["a"] == 100 + 60 - 150
