"""What a running game waits on, and on whom (the referee's view), on hand-made positions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from conftest import act, give, new_state, set_game

from companion.core.pending import request_payment
from companion.core.rules import auction_start, trade_propose
from companion.core.waiting import Wait, waiting_on

NOW = datetime(2026, 12, 2, 21, 0, tzinfo=UTC)
EMPTY = {"cash": 0, "deeds": [], "jail_cards": 0}


def test_a_quiet_game_waits_on_nobody_and_a_finished_one_neither():
    state = new_state("campionato-2015")
    assert waiting_on(state, NOW) == []
    act(state, trade_propose(state, "t1", "a", "b", {**EMPTY, "cash": 10}, EMPTY))
    set_game(state, status="finished")
    assert waiting_on(state, NOW) == []


def test_a_trade_and_a_request_wait_on_who_must_answer():
    state = new_state("campionato-2015")
    give(state, "a", "vicolo-corto")
    act(state, trade_propose(state, "t1", "a", "b", {**EMPTY, "deeds": ["vicolo-corto"]}, {**EMPTY, "cash": 60}))
    act(state, request_payment(state, "p1", "c", "a", 40, "rent", NOW))
    assert waiting_on(state, NOW) == [Wait("trade", "b"), Wait("request", "a")]
    late = NOW + timedelta(hours=1)
    act(state, request_payment(state, "p2", "c", "b", 10, "loan", NOW, expires_seconds=60))
    assert Wait("request", "b") not in waiting_on(state, late)  # lapsed: nobody is held by it


def test_an_auction_waits_on_its_bidders_then_on_the_banker():
    state = new_state("campionato-2015")
    act(state, auction_start(state, "vicolo-corto", NOW, 20))
    assert waiting_on(state, NOW) == [Wait("auction", None, "vicolo-corto")]
    assert waiting_on(state, NOW + timedelta(seconds=30)) == [Wait("auction_over", "banker", "vicolo-corto")]
