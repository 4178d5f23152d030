"""A game's state cannot be changed by accident: a rule that writes to the state it read fails
at once, and the next state is made, never written over the last (the service layer shares one
state between every reader of a version)."""

from __future__ import annotations

import copy
import json
from dataclasses import FrozenInstanceError

import pytest
from conftest import NOW, give, new_state

from companion.core import commands, rules
from companion.core.changes import advance, apply_outcome
from companion.core.state import Change, DeedState, Outcome, TradeState


def careless_rule(state, write):
    """A rule as it must not be written: it changes what it read, then answers from it."""
    write(state)
    return commands.transfer(state, "a", "b", 10, "rent")


WRITES = {
    "a player's cash": lambda s: setattr(s.players["a"], "cash", 0),
    "a deed's owner": lambda s: setattr(s.deeds["via-roma"], "owner", "a"),
    "a field of the game": lambda s: setattr(s, "bank_small", 0),
    "a player added": lambda s: s.players.__setitem__("z", s.players["a"]),
    "a deed added": lambda s: s.deeds.__setitem__("via-roma", DeedState("via-roma", owner="a")),
    "a deed dropped": lambda s: s.deeds.pop("via-roma"),
    "the board updated": lambda s: s.deeds.update({}),
    "a setting": lambda s: s.settings.__setitem__("strict_bank", True),
    "a pot": lambda s: s.pots.__setitem__("free_parking", 1),
    "a list of the game": lambda s: s.auction_queue.append("via-roma"),
    "a list extended in place": lambda s: s.play_offs.__iadd__(["a"]),
    "a trade's side": lambda s: s.trades["t1"].give.__setitem__("cash", 1000),
    "a trade's deeds": lambda s: s.trades["t1"].give["deeds"].append("corso-impero"),
    "a trade replaced": lambda s: setattr(s.trades["t1"], "recipient", "c"),
    "a trade dropped": lambda s: s.trades.clear(),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_a_rule_writing_to_the_state_it_read_raises(write):
    state = new_state(settings={"free_parking_pot": True})
    give(state, "a", "via-roma")
    state = apply_outcome(state, rules.trade_propose(state, "t1", "a", "b", {"deeds": ["via-roma"]}, {"cash": 300}))
    before = copy.deepcopy(state, {id(state.edition): state.edition})
    with pytest.raises((FrozenInstanceError, TypeError)):
        careless_rule(state, write)
    assert state == before


def test_the_next_state_is_made_and_the_last_one_left_as_it_was():
    state = new_state()
    before = copy.deepcopy(state, {id(state.edition): state.edition})
    bought = rules.buy(state, "a", "via-roma")
    after, touched = advance(state, bought)
    assert state == before
    assert (
        after.deeds["via-roma"].owner == "a" and after.players["a"].cash == 1500 - state.edition.deed("via-roma").price
    )
    assert touched.players == {"a"} and touched.deeds == {"via-roma"}
    # What the action left alone is shared, not copied: an action costs a few small objects.
    assert after.players["b"] is state.players["b"] and after.deeds["corso-impero"] is state.deeds["corso-impero"]
    assert after.edition is state.edition and after.settings is state.settings


def test_documents_are_frozen_and_read_back_as_plain_json():
    state = new_state()
    give(state, "a", "via-roma")
    proposed = rules.trade_propose(state, "t1", "a", "b", {"deeds": ["via-roma"], "cash": 5}, {"cash": 300})
    state = apply_outcome(state, proposed)
    trade = state.trades["t1"]
    assert trade.give == {"cash": 5, "deeds": ["via-roma"], "jail_cards": 0}
    plain = trade.to_dict()
    plain["give"]["deeds"].append("corso-impero")  # the caller's own copy: the trade is untouched
    assert trade.give["deeds"] == ["via-roma"] and TradeState.from_dict(trade.to_dict()) == trade
    assert json.loads(json.dumps(trade.to_dict())) == trade.to_dict()
    with pytest.raises(TypeError):
        trade.give["deeds"].append("corso-impero")


def test_values_given_to_a_state_are_frozen_copies():
    """A state keeps no container its maker could still change."""
    queue = ["via-roma"]
    roll = {"player": "a", "dice": [3, 4]}
    state = apply_outcome(
        new_state(),
        Outcome(
            "hand_made",
            changes=(
                Change("game", None, "auction_queue", [], queue),
                Change("game", None, "last_roll", None, roll),
            ),
        ),
    )
    queue.append("corso-impero")
    roll["dice"].append(6)
    assert state.auction_queue == ["via-roma"] and state.last_roll == {"player": "a", "dice": [3, 4]}
    with pytest.raises(TypeError):
        state.last_roll["dice"].append(6)


def test_an_auction_bid_leaves_the_open_auction_as_it_was():
    state = new_state()
    state = apply_outcome(state, rules.auction_start(state, "via-roma", NOW, 30))
    opened = state.auction
    after = apply_outcome(state, rules.bid(state, "a", 10, NOW))
    assert state.auction is opened and opened.high_bid is None
    assert after.auction.high_bid == 10 and after.auction.high_bidder == "a"
