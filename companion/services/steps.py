"""The services' steps: the work an action's declaration names (``core.actions.action.Step``)
that no rule of the core can do, because it reads or writes what the core never sees: the
journal's own entries (undo, take back) and the game's clock, kept on its row.

``STEPS`` carries out an action no rule runs (its ``step``); ``CLOCK`` what the clock does once
an action's entry is written (its ``clock``) or undone (its ``clock_undone``). Every step a
declaration names is here (``tests/core/test_actions.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.actions import ACTIONS as DECLARED
from ..core.actions import Action, acting_player
from ..core.actions.action import (
    CLOCK_AT_THE_END,
    CLOCK_FROM_ZERO,
    CLOCK_OF_THE_UNDONE,
    PAUSE_CLOCK,
    PLAY_OFF_CLOCK,
    RESUME_CLOCK,
    TAKE_BACK,
    UNDO,
    Step,
)
from ..core.state import FINISHED
from ..store import Entry, Game, now_utc
from . import clock, journal
from .seats import Caller

# An entry as its step writes it: a row of the session, or ``journal.record``'s plain value.
Written = Entry | journal.Recorded


def _undo(game: Game, caller: Caller, fields: Mapping[str, Any]) -> Written:
    """The banker's undo of the newest entry not yet reversed; refuses what ``journal.undo``
    refuses."""
    return journal.undo(game)


def _take_back(game: Game, caller: Caller, fields: Mapping[str, Any]) -> Written:
    """The acting player takes back their own one-tap GO or tax; refuses what
    ``acting_player`` and ``journal.take_back`` refuse."""
    return journal.take_back(game, acting_player(caller, fields), caller.actor, now_utc())


def _pause_clock(game: Game, caller: Caller, fields: Mapping[str, Any]) -> Written:
    return clock.pause(game)


def _resume_clock(game: Game, caller: Caller, fields: Mapping[str, Any]) -> Written:
    return clock.resume(game)


# Each takes the game (its row locked), the caller and the payload's fields as read.
STEPS: dict[Step, Callable[[Game, Caller, Mapping[str, Any]], Written]] = {
    UNDO: _undo,
    TAKE_BACK: _take_back,
    PAUSE_CLOCK: _pause_clock,
    RESUME_CLOCK: _resume_clock,
}


def _clock_from_zero(game: Game, start: Written) -> None:
    clock.reset(game)


def _play_off_clock(game: Game, play_off: Written) -> None:
    clock.play_off(game, play_off.params["minutes"])


def _clock_at_the_end(game: Game, play_off: Written) -> None:
    """The play-off undone: the clock as the game's end left it, with the limit the play-off
    entry kept."""
    clock.play_off_undone(game, play_off.params.get("clock_limit"))


def _clock_of_the_undone(game: Game, undo: Written) -> None:
    """An undo: what the clock does when an entry of the undone action's kind is undone, given
    that entry (an entry no action declares, an auction's end or money approved, leaves the
    clock alone)."""
    undone = DECLARED.get(undo.params.get("undone", ""))
    if undone is not None and undone.clock_undone is not None:
        CLOCK[undone.clock_undone](game, journal.entry_at(game, undo.params["undone_version"]))


# Each takes the game and the entry the clock follows: the one just written, or the one undone.
CLOCK: dict[Step, Callable[[Game, Written], None]] = {
    CLOCK_FROM_ZERO: _clock_from_zero,
    PLAY_OFF_CLOCK: _play_off_clock,
    CLOCK_AT_THE_END: _clock_at_the_end,
    CLOCK_OF_THE_UNDONE: _clock_of_the_undone,
}


def carry_out(action: Action, game: Game, caller: Caller, fields: Mapping[str, Any]) -> Written:
    """The action no rule runs, by the step it names. Refuses whom the action does not allow,
    then whatever the step refuses."""
    action.allows(caller)
    assert action.step is not None  # only an action no rule runs names a step
    return STEPS[action.step](game, caller, fields)


def clock_after(action: Action, game: Game, entry: Written) -> None:
    """What the game's clock does once ``entry``, the action's, is written: what the action
    declares; else, where the game is now over (ended by the banker, by the last player
    standing, by the last deed sold), the clock stops."""
    if action.clock is not None:
        CLOCK[action.clock](game, entry)
    elif game.status == FINISHED:
        clock.stop(game)
