"""A game as the rules see it: plain dataclasses loaded by the service layer, never saved
directly. Rules read a ``GameState`` and return an ``Outcome``; the service layer applies it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .editions import Edition
from .ledger import Posting

SETUP, RUNNING, FINISHED = "setup", "running", "finished"


@dataclass
class PlayerState:
    id: str
    name: str
    cash: int = 0
    in_jail: bool = False
    bankrupt: bool = False
    jail_cards: int = 0


@dataclass
class DeedState:
    key: str
    owner: str | None = None
    mortgaged: bool = False
    houses: int = 0
    hotel: bool = False


@dataclass
class GameState:
    edition: Edition
    status: str
    players: dict[str, PlayerState]  # in seat order
    deeds: dict[str, DeedState] = field(default_factory=dict)
    bank_small: int | None = None
    bank_big: int | None = None

    def player(self, player_id: str) -> PlayerState | None:
        return self.players.get(player_id)

    def active_players(self) -> list[PlayerState]:
        return [p for p in self.players.values() if not p.bankrupt]


@dataclass(frozen=True)
class Change:
    """One field of the state going from ``before`` to ``after``; undo swaps the two.

    ``target`` is ``"game"``, ``"player"`` or ``"deed"``; ``ref`` the player id or deed key
    (``None`` for the game itself).
    """

    target: str
    ref: str | None
    field: str
    before: Any
    after: Any

    def inverse(self) -> "Change":
        return Change(self.target, self.ref, self.field, self.after, self.before)


@dataclass(frozen=True)
class Outcome:
    """What a command does: the money it moves, the state it changes, and how the feed
    describes it (``kind`` plus ``params``, turned into words by the page in the reader's
    language). ``undoable`` is false for changes the banker cannot take back (a player
    joining)."""

    kind: str
    postings: tuple[Posting, ...] = ()
    changes: tuple[Change, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] = field(default_factory=dict)
    undoable: bool = True
