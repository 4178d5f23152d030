"""A player taking back their own one-tap GO or tax within a few seconds of tapping it.

A mis-tap on a one-tap button (GO, a tax, the jail fine paid as a printed amount) is common
and cheap to mend while nothing else has happened: the player reverses it themselves, as a new
compensating entry made by the same undo the banker uses (nothing is deleted), and the feed
shows both. Everything else, and anything later, is the banker's undo.

The computed squares (``square``) are not taken back: their amounts can go by the dice (a
second try would be a second roll), and several change more than money (a deed bought, turns
to sit out), which is for the banker to judge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import commands
from .errors import N_, RuleViolation
from .guards import require_player
from .ledger import Posting
from .state import Change, GameState, Outcome

# "A few seconds": long enough to notice the wrong button, short enough that the table has not
# moved on.
TAKE_BACK_SECONDS = 10
# The one-tap entries a player may take back.
TAKE_BACK_KINDS = ("pass_go", "pay_fixed")


@dataclass(frozen=True)
class MyEntry:
    """A player's newest journal entry as take-back reads it: what it was, when, and what it
    moved and changed; ``reversed`` when an undo already reversed it."""

    kind: str
    version: int
    at: datetime
    postings: tuple[Posting, ...] = ()
    changes: tuple[Change, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    reversed: bool = False


def seconds_left(entry: MyEntry, now: datetime) -> int:
    """Whole seconds left to take ``entry`` back (0 once the window has passed)."""
    elapsed = (now - entry.at).total_seconds()
    return min(TAKE_BACK_SECONDS, max(0, math.ceil(TAKE_BACK_SECONDS - elapsed)))


def take_back(state: GameState, player_id: str, mine: MyEntry | None, latest_version: int, now: datetime) -> Outcome:
    """Reverses ``mine``, the player's own newest entry, as a ``take_back`` entry.

    Refuses: an unknown or bankrupt player, no entry of theirs or one of another kind than a
    one-tap GO or fixed payment (``not_taken_back``), one already undone (``already_undone``),
    one after which anything else happened in the game, ``mine`` not being the game's newest
    entry at ``latest_version`` (``changed_since``), one older than ``TAKE_BACK_SECONDS``
    (``too_late``), and whatever ``commands.undo`` refuses (a game that is over).
    """
    player = require_player(state, player_id)
    if mine is None or mine.kind not in TAKE_BACK_KINDS:
        raise RuleViolation(
            "not_taken_back", N_("Only a one-tap GO or tax can be taken back by the player: ask the banker.")
        )
    if mine.reversed:
        raise RuleViolation("already_undone", N_("That has already been undone."))
    if mine.version != latest_version:
        raise RuleViolation("changed_since", N_("Something happened since: ask the banker."))
    if seconds_left(mine, now) == 0:
        raise RuleViolation("too_late", N_("Too late to take it back: ask the banker."))
    undone = commands.undo(state, mine.kind, mine.version, mine.postings, mine.changes, mine.params)
    return Outcome(
        "take_back", undone.postings, undone.changes, params={"player": player.id, **undone.params}, undoable=False
    )
