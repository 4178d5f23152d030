"""The play-off of a tie for first place: where the edition says so (``end.tie`` ``play_off``,
Petropolis), the players tied for first at the final count play ``end.play_off_minutes`` more
among themselves. The banker starts it once the game is over: the game runs again, and when
the banker ends it the players of the play-off go before everyone else in the count
(``core.score``). The clock of those minutes is the service's (``services.clock``)."""

from __future__ import annotations

from .errors import N_, RuleViolation
from .policies.tiebreak import play_off_players
from .score import standings
from .state import FINISHED, RUNNING, Change, GameState, Outcome


def tied_for_first(state: GameState) -> list[str]:
    """The players still in the game who share the first place of the count now, in order."""
    return [r.player for r in standings(state) if r.rank == 1 and not r.out]


def due(state: GameState) -> list[str]:
    """The players who would play off now: the game is over and its count leaves two or more
    sharing the first place, in an edition whose ties play off; else none."""
    if state.status != FINISHED:
        return []
    return play_off_players(state, tied_for_first(state))


def play_off_start(state: GameState) -> Outcome:
    """The banker starts the play-off among the players tied for first: the game runs again
    (the others keep their places behind them). Undo takes the game back to its end.

    Refuses: a game that is not over, an edition whose tied players share the place, and a
    count with one player first.
    """
    if state.status != FINISHED:
        raise RuleViolation("game_not_over", N_("A play-off starts once the game is over."))
    tied = tied_for_first(state)
    if len(tied) < 2:
        raise RuleViolation("no_tie", N_("One player alone is first: there is nothing to play off."))
    players = play_off_players(state, tied)
    if not players:
        raise RuleViolation("no_play_off", N_("In this game players tied for first share the place."))
    minutes = state.edition.end.play_off_minutes
    changes = (
        Change("game", None, "status", state.status, RUNNING),
        Change("game", None, "play_offs", list(state.play_offs), list(state.play_offs) + [players]),
    )
    return Outcome(
        "play_off",
        changes=changes,
        params={"players": players, "minutes": minutes},
        result={"players": players, "minutes": minutes},
    )
