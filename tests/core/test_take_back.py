"""A player takes back their own one-tap GO or tax: only the newest entry of the game, only
their own, only those kinds, only within the window; every refusal changes nothing."""

from __future__ import annotations

from datetime import timedelta

from conftest import NOW, act, cash, new_state, play_on, refused, set_player, snapshot

from companion.core import commands
from companion.core.changes import apply_outcome
from companion.core.take_back import TAKE_BACK_SECONDS, MyEntry, seconds_left, take_back


def _entry(outcome, version=1, at=NOW, reversed=False) -> MyEntry:
    """The journal entry an outcome became, as the service layer hands it to take-back."""
    return MyEntry(outcome.kind, version, at, outcome.postings, outcome.changes, outcome.params, reversed)


def _go(state):
    return act(state, commands.pass_go(state, "a"))


def test_own_go_within_the_window_comes_back_exactly():
    state = new_state()
    before = snapshot(state)
    go = _go(state)
    assert cash(state)["a"] == 1500 + state.edition.salary.amount
    back = take_back(state, "a", _entry(go), 1, NOW + timedelta(seconds=TAKE_BACK_SECONDS - 1))
    play_on(state, apply_outcome(state, back))
    assert state == before  # cash, laps and everything else as before the tap
    assert back.kind == "take_back" and not back.undoable
    assert back.params["player"] == "a" and back.params["undone"] == "pass_go"
    assert back.params["undone_version"] == 1
    assert back.params["undone_params"]["amount"] == state.edition.salary.amount
    assert sum(p.amount for p in back.postings) == 0  # a compensating entry that balances


def test_own_tax_comes_back_from_the_free_parking_pot_too():
    state = new_state(settings={"free_parking_pot": True})
    before = snapshot(state)
    payment = state.edition.fixed_payments[0]
    tax = act(state, commands.pay_fixed(state, "a", payment.key))
    assert state.pots["free_parking"] == payment.amount
    play_on(state, apply_outcome(state, take_back(state, "a", _entry(tax, version=4), 4, NOW)))
    assert state == before


def test_too_late_is_refused_and_changes_nothing():
    state = new_state()
    go = _go(state)
    error = refused("too_late", take_back, state, "a", _entry(go), 1, NOW + timedelta(seconds=TAKE_BACK_SECONDS))
    assert str(error) == "Too late to take it back: ask the banker."


def test_something_happened_since_is_refused():
    state = new_state()
    go = _go(state)
    act(state, commands.transfer(state, "b", "c", 10))  # version 2: someone else's payment
    error = refused("changed_since", take_back, state, "a", _entry(go), 2, NOW)
    assert str(error) == "Something happened since: ask the banker."


def test_another_kind_is_refused():
    state = new_state()
    paid = act(state, commands.transfer(state, "a", "b", 24))
    refused("not_taken_back", take_back, state, "a", _entry(paid), 1, NOW)
    refused("not_taken_back", take_back, state, "a", None, 1, NOW)
    # A computed square (here a made-up tax square's entry) is the banker's to undo.
    refused("not_taken_back", take_back, state, "a", MyEntry("square", 1, NOW, paid.postings, (), {}), 1, NOW)


def test_someone_elses_go_is_not_mine():
    """The service hands over the caller's own newest entry; Bruno, who made none, has nothing
    to take back, and Anna's newest (a transfer) hides her earlier GO."""
    state = new_state()
    _go(state)
    refused("not_taken_back", take_back, state, "b", None, 1, NOW)
    paid = act(state, commands.transfer(state, "a", "b", 5))
    refused("not_taken_back", take_back, state, "a", _entry(paid, version=2), 2, NOW)


def test_an_undone_go_is_not_taken_back_twice():
    state = new_state()
    go = _go(state)
    play_on(state, apply_outcome(state, take_back(state, "a", _entry(go), 1, NOW)))
    refused("already_undone", take_back, state, "a", _entry(go, reversed=True), 1, NOW)


def test_a_bankrupt_player_or_a_finished_game_takes_nothing_back():
    state = new_state()
    go = _go(state)
    set_player(state, "a", bankrupt=True)
    refused("player_bankrupt", take_back, state, "a", _entry(go), 1, NOW)
    state = new_state()
    go = _go(state)
    play_on(state, apply_outcome(state, commands.end(state)))
    refused("game_finished", take_back, state, "a", _entry(go, version=1), 1, NOW)


def test_seconds_left_counts_down_to_zero():
    go = _entry(commands.pass_go(new_state(), "a"))
    assert seconds_left(go, NOW) == TAKE_BACK_SECONDS
    assert seconds_left(go, NOW + timedelta(seconds=3.2)) == TAKE_BACK_SECONDS - 3
    assert seconds_left(go, NOW + timedelta(seconds=TAKE_BACK_SECONDS + 5)) == 0
    assert seconds_left(go, NOW - timedelta(seconds=30)) == TAKE_BACK_SECONDS  # a clock ahead never gives more
