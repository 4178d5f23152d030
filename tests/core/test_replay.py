"""Replaying the journal gives back the game, version by version, through the same
interpreter; the worth drawn on the results page comes from it."""

from __future__ import annotations

from companion.core import commands, rules
from companion.core.changes import apply_outcome
from companion.core.replay import Step, replay, starting_state, worth_through
from companion.core.settings import clean_settings
from tests.core.conftest import EDITIONS, snapshot

PLAYERS = [("a", "Anna"), ("b", "Bruno")]


def played():
    """A short game played rule by rule: the steps of its journal and the state after each."""
    settings = clean_settings({"free_parking_pot": True})
    state = starting_state(EDITIONS["classic-it"], PLAYERS, settings, ["free_parking"])
    moves = [
        lambda s: commands.start(s),
        lambda s: rules.buy(s, "a", "vicolo-corto"),
        lambda s: rules.buy(s, "a", "vicolo-stretto"),
        lambda s: rules.build(s, "a", "vicolo-corto"),
        lambda s: rules.pay_rent(s, "b", "vicolo-corto"),
        lambda s: commands.pay_fixed(s, "b", "luxury-tax"),
        lambda s: commands.pot_collect(s, "a", "free_parking"),
        lambda s: commands.transfer(s, "b", "a", 100, "deal"),
    ]
    steps, states = [], []
    for version, move in enumerate(moves, start=1):
        outcome = move(state)
        state = apply_outcome(state, outcome)
        steps.append(Step(version, outcome.postings, outcome.changes))
        states.append(snapshot(state))
    return settings, steps, states


def test_the_replayed_journal_is_the_game_at_every_version():
    settings, steps, states = played()
    fresh = starting_state(EDITIONS["classic-it"], PLAYERS, settings, ["free_parking"])
    seen = [(version, snapshot(state)) for version, state in replay(fresh, steps)]
    assert [v for v, _ in seen] == list(range(1, len(steps) + 1))
    assert [s for _, s in seen] == states


def test_worth_through_the_game_is_the_valuation_of_each_version():
    settings, steps, states = played()
    fresh = starting_state(EDITIONS["classic-it"], PLAYERS, settings, ["free_parking"])
    points = worth_through(fresh, steps)
    assert points[0] == (0, {"a": 0, "b": 0})
    assert points[1] == (1, {"a": 1500, "b": 1500})
    # Buying and building at the printed price leave the worth where it was: no point for them.
    assert [v for v, _ in points] == [0, 1, 5, 6, 7, 8]
    final = points[-1][1]
    last = states[-1]
    houses = 50  # one house on Vicolo Corto at its building cost
    assert final["a"] == last.players["a"].cash + 60 + 60 + houses
    assert final["b"] == last.players["b"].cash
