"""A tournament as the championship rulebook plays it: rounds of tables, each table a game
whose tournament points add up into general standings.

Pure functions: how many tables of which sizes a round needs, who sits where (as even as the
count allows, and meeting again only where no other draw exists), and the standings from
each game's points. The service layer stores tournaments and creates each table's game.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .errors import N_, BadInput, RuleViolation

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
        raise BadInput(
            "cannot_seat",
            N_("%(n)s players cannot sit at tables of %(min)s to %(max)s."),
            n=players,
            min=min_players,
            max=max_players,
        )
    return best[1]


def met_before(rounds: Iterable[Sequence[Sequence[str]]]) -> dict[frozenset[str], int]:
    """How many times each pair of players sat at the same table, over earlier rounds (each a
    list of tables, each a list of player ids)."""
    met: dict[frozenset[str], int] = {}
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                pair = frozenset((a, b))
                met[pair] = met.get(pair, 0) + 1
    return met


def _repeats(tables: Sequence[Sequence[str]], met: Mapping[frozenset[str], int]) -> int:
    return sum(met.get(frozenset(pair), 0) for table in tables for pair in itertools.combinations(table, 2))


def _seat(order: list[str], sizes: list[int], met: Mapping[frozenset[str], int]) -> list[list[str]]:
    """Seats players in ``order`` one by one at the open table where they have met the fewest
    players already seated (the emptiest first on a tie)."""
    tables: list[list[str]] = [[] for _ in sizes]
    for player in order:
        open_tables = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
        best = min(
            open_tables,
            key=lambda i: (
                sum(met.get(frozenset((player, other)), 0) for other in tables[i]),
                len(tables[i]) - sizes[i],
                i,
            ),
        )
        tables[best].append(player)
    return tables


def draw(
    players: Sequence[str], sizes: Sequence[int], met: Mapping[frozenset[str], int], seed: object
) -> list[list[str]]:
    """The round's tables: ``players`` seated at tables of ``sizes``, with as few repeat
    meetings as the tries find (none where another draw exists among them), drawn from
    ``seed`` so the same seed and history give the same draw."""
    if sum(sizes) != len(players):
        raise ValueError("the table sizes must seat every player")
    rng = random.Random(f"{seed}:draw")
    best: list[list[str]] = []
    best_score: int | None = None
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


# --- The semi-finals and the final -------------------------------------------------------------
# The rulebook says only that the standings "decide who the finalists will be" and that the
# semi-finals and final keep trades open with two players left (FAQ 31): how many go on, at how
# many tables and how the final is filled are the tournament's settings.

ROUND, SEMI_FINAL, FINAL = "round", "semi_final", "final"
STAGES = (ROUND, SEMI_FINAL, FINAL)
# How the final is filled from the semi-finals: the tables' first places, then their seconds,
# and so on ("places"), or the best tournament points at the semi-final tables ("points").
FINALISTS_BY = ("places", "points")


@dataclass(frozen=True)
class Finals:
    """``semi_finalists`` players from the top of the standings play ``semi_final_tables``
    tables (0: no semi-finals, the final is drawn from the standings); the final seats
    ``final_players``, filled ``finalists_by`` ``"places"`` or ``"points"``."""

    semi_finalists: int = 8
    semi_final_tables: int = 2
    final_players: int = 4
    finalists_by: str = "places"


def check_finals(finals: Finals, min_players: int, max_players: int) -> None:
    """Refuses settings no semi-final or final could be seated with: a final outside the
    edition's player range, semi-final tables outside it (or more tables than players), a
    final larger than the semi-finals, and an unknown way of filling the final."""
    for value in (finals.semi_finalists, finals.semi_final_tables, finals.final_players):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 64:
            raise BadInput(
                "invalid_finals", N_("The semi-finals and the final take whole numbers of players and tables.")
            )
    if not min_players <= finals.final_players <= max_players:
        raise BadInput(
            "invalid_final_players", N_("The final seats %(min)s to %(max)s players."), min=min_players, max=max_players
        )
    if finals.finalists_by not in FINALISTS_BY:
        raise BadInput("invalid_finalists_by", N_("The final is filled by the semi-finals' places or points."))
    if finals.semi_finalists == 0 and finals.semi_final_tables == 0:
        return
    tables = finals.semi_final_tables
    if not tables or not tables * min_players <= finals.semi_finalists <= tables * max_players:
        raise BadInput(
            "invalid_semi_finals",
            N_("%(n)s semi-finalists cannot sit at tables of %(min)s to %(max)s (semi-final tables: %(tables)s)."),
            n=finals.semi_finalists,
            tables=tables,
            min=min_players,
            max=max_players,
        )
    if finals.final_players > finals.semi_finalists:
        raise BadInput("invalid_final_players", N_("The final cannot seat more players than the semi-finals."))


def _drawn_place(player: str, seed: object) -> float:
    # Players equal on every tiebreak are put in order by a draw from the tournament's seed
    # (the same every time it is asked), never by when they registered.
    return random.Random(f"{seed}:seeding:{player}").random()


def seeded(table: Sequence[Standing], eligible: Iterable[str], count: int, seed: object) -> list[str]:
    """The best ``count`` of the ``eligible`` players in the standings' order, the first seed
    first; players equal on points, wins and worth are ordered by a draw from ``seed``.
    Refuses when fewer than ``count`` are eligible."""
    allowed = set(eligible)
    rows = [s for s in table if s.player in allowed]
    if len(rows) < count:
        raise RuleViolation(
            "too_few_for_stage", N_("%(count)s players are needed; players left: %(n)s."), count=count, n=len(rows)
        )
    rows.sort(key=lambda s: (s.rank, _drawn_place(s.player, seed)))
    return [s.player for s in rows[:count]]


def snake(seeds: Sequence[str], tables: int) -> list[list[str]]:
    """Seeds dealt to ``tables`` tables back and forth, so each table's seeds add up alike: 8
    at 2 tables sit seeds 1, 4, 5, 8 and 2, 3, 6, 7."""
    out: list[list[str]] = [[] for _ in range(tables)]
    for i, player in enumerate(seeds):
        row, col = divmod(i, tables)
        out[col if row % 2 == 0 else tables - 1 - col].append(player)
    return out


def finalists(results: Iterable[Result], seeds: Sequence[str], count: int, by: str) -> list[str]:
    """The final's players from the semi-finals' ``results``: by ``"places"`` every table's
    winner, then every second, and so on, the better points first among equal places; by
    ``"points"`` the most tournament points, the better place first among equal points. A
    tie on both goes to the final count, then to the better seed. Refuses when fewer than
    ``count`` semi-finalists are left."""
    rank = {p: i for i, p in enumerate(seeds)}
    rows = [r for r in results if r.player in rank]
    if len(rows) < count:
        raise RuleViolation(
            "too_few_for_stage", N_("%(count)s players are needed; players left: %(n)s."), count=count, n=len(rows)
        )
    far = len(seeds) + 1

    def place(r: Result) -> int:
        return r.place if r.place is not None else far

    if by == "places":
        rows.sort(key=lambda r: (place(r), -r.points, -r.total, rank[r.player]))
    else:
        rows.sort(key=lambda r: (-r.points, place(r), -r.total, rank[r.player]))
    return [r.player for r in rows[:count]]
