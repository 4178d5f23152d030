"""A tournament as the championship rulebook plays it: rounds of tables, each table a game
whose tournament points add up into general standings.

Pure functions: how many tables of which sizes a round needs, who sits where (as even as the
count allows, and meeting again only where no other draw exists), and the standings from
each game's points. The service layer stores tournaments and creates each table's game.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .errors import N_, BadInput

# Draws tried per round: each a shuffle of the players, seated to keep repeat meetings down.
DRAW_TRIES = 200


def table_sizes(players: int, table_size: int, min_players: int, max_players: int) -> list[int]:
    """The sizes of a round's tables: each as near ``table_size`` as the count allows (the
    fewest seats off it in all, then the fewest off at the worst table, then more tables),
    sizes differing by at most one, each within the edition's player range: 7 players at
    tables of 4 sit 4 and 3, 5 sit at one table of 5. Refuses a count that cannot be seated."""
    if players < min_players:
        raise BadInput("too_few_players", N_("A round needs at least %(min)s players."), min=min_players)
    best = None
    for tables in range(1, players // min_players + 1):
        base, extra = divmod(players, tables)
        sizes = [base + 1] * extra + [base] * (tables - extra)
        if min(sizes) < min_players or max(sizes) > max_players:
            continue
        off = [abs(size - table_size) for size in sizes]
        key = (sum(off), max(off), -tables)
        if best is None or key < best[0]:
            best = (key, sizes)
    if best is None:
        raise BadInput("cannot_seat", N_("%(n)s players cannot sit at tables of %(min)s to %(max)s."),
                       n=players, min=min_players, max=max_players)
    return best[1]


def met_before(rounds: Iterable[Sequence[Sequence[str]]]) -> dict[frozenset, int]:
    """How many times each pair of players sat at the same table, over earlier rounds (each a
    list of tables, each a list of player ids)."""
    met: dict[frozenset, int] = {}
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                pair = frozenset((a, b))
                met[pair] = met.get(pair, 0) + 1
    return met


def _repeats(tables: Sequence[Sequence[str]], met: Mapping[frozenset, int]) -> int:
    return sum(met.get(frozenset(pair), 0) for table in tables for pair in itertools.combinations(table, 2))


def _seat(order: list[str], sizes: list[int], met: Mapping[frozenset, int]) -> list[list[str]]:
    """Seats players in ``order`` one by one at the open table where they have met the fewest
    players already seated (the emptiest first on a tie)."""
    tables: list[list[str]] = [[] for _ in sizes]
    for player in order:
        open_tables = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
        best = min(open_tables, key=lambda i: (sum(met.get(frozenset((player, other)), 0) for other in tables[i]),
                                               len(tables[i]) - sizes[i], i))
        tables[best].append(player)
    return tables


def draw(players: Sequence[str], sizes: Sequence[int], met: Mapping[frozenset, int], seed) -> list[list[str]]:
    """The round's tables: ``players`` seated at tables of ``sizes``, with as few repeat
    meetings as the tries find (none where another draw exists among them), drawn from
    ``seed`` so the same seed and history give the same draw."""
    if sum(sizes) != len(players):
        raise ValueError("the table sizes must seat every player")
    rng = random.Random(f"{seed}:draw")
    best, best_score = None, None
    for _ in range(DRAW_TRIES):
        order = list(players)
        rng.shuffle(order)
        tables = _seat(order, list(sizes), met)
        score = _repeats(tables, met)
        if best_score is None or score < best_score:
            best, best_score = tables, score
        if score == 0:
            break
    return best


@dataclass(frozen=True)
class Result:
    """One player's result at one finished table: tournament points, place, final count."""

    player: str
    points: int
    place: int | None
    total: int


@dataclass(frozen=True)
class Standing:
    player: str
    points: int
    played: int
    wins: int
    worth: int
    rank: int


def standings(players: Sequence[str], results: Iterable[Result]) -> list[Standing]:
    """The general standings: points summed over the finished tables. The rulebook gives no
    tiebreak between equal points, so Banco breaks ties by tables won, then by the sum of
    the final counts; players equal on all three share the rank. Every registered player is
    listed, those with no table yet at 0."""
    totals = {p: [0, 0, 0, 0] for p in players}  # points, played, wins, worth
    for r in results:
        row = totals.setdefault(r.player, [0, 0, 0, 0])
        row[0] += r.points
        row[1] += 1
        row[2] += 1 if r.place == 1 else 0
        row[3] += r.total
    order = sorted(totals.items(), key=lambda kv: (-kv[1][0], -kv[1][2], -kv[1][3]))
    out, rank, last = [], 0, None
    for index, (player, (points, played, wins, worth)) in enumerate(order, start=1):
        key = (points, wins, worth)
        if key != last:
            rank, last = index, key
        out.append(Standing(player, points, played, wins, worth, rank))
    return out
