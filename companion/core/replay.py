"""A game replayed from its journal: the state after every version, through the same
interpreter that wrote it. The results page draws every player's worth through the game from
this, so the chart is the journal's own account, not a log kept on the side."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .changes import apply_outcome
from .editions.edition import Edition
from .ledger import Posting
from .policies.valuation import worth
from .settings import building_supply
from .state import SETUP, Change, DeedState, GameState, Outcome, PlayerState


@dataclass(frozen=True)
class Step:
    """One journal entry as replay needs it."""

    version: int
    postings: Sequence[Posting]
    changes: Sequence[Change]


def starting_state(
    edition: Edition,
    players: Sequence[tuple[str, str]],
    settings: Mapping[str, Any],
    pots: Iterable[str],
    seed: int | None = None,
) -> GameState:
    """A game as it stood when it was opened: ``players`` as (id, name) with no cash, the bank
    holding every deed and every building, the ``pots`` empty, the game's ``seed``."""
    return GameState(
        edition,
        SETUP,
        {pid: PlayerState(pid, name) for pid, name in players},
        {d.key: DeedState(d.key) for d in edition.deeds},
        *building_supply(settings, edition.buildings.supply_small, edition.buildings.supply_big),
        settings=dict(settings),
        pots=dict.fromkeys(pots, 0),
        seed=seed,
    )


def replay(state: GameState, steps: Iterable[Step]) -> Iterator[tuple[int, GameState]]:
    """Applies each step in turn from ``state`` and yields (version, the state after it). Refuses
    (``BancoError`` from the interpreter) a journal that would take an account below zero: a
    broken journal is not drawn."""
    for step in steps:
        state = apply_outcome(state, Outcome("replay", tuple(step.postings), tuple(step.changes)))
        yield step.version, state


def worth_through(state: GameState, steps: Iterable[Step]) -> list[tuple[int, dict[str, int]]]:
    """Every player's worth (by the edition's valuation) after each version that moved money or
    changed the board, starting from version 0."""
    points = [(0, dict.fromkeys(state.players, 0))]
    for version, now in replay(state, steps):
        values = {p.id: worth(now, p) for p in now.players.values()}
        if values != points[-1][1]:
            points.append((version, values))
    return points
