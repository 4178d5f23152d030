"""The score and the results of a game: live standings during play, the final count after the
end, and every player's worth through the game replayed from the journal."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from sqlalchemy import Text, cast, func, select

from ..core import play_off
from ..core.changes import apply_outcome
from ..core.ledger import Posting as CorePosting
from ..core.policies.valuation import worth
from ..core.replay import Step, starting_state
from ..core.score import standings
from ..core.settings import pots_for
from ..core.state import FINISHED, Change, GameState, Outcome
from ..store import Entry, Game, Posting, db
from .catalog import edition_of
from .journal import state_of
from .repository import database_key


def score(game: Game) -> dict:
    """``GET /api/v1/games/{id}/score``: ``final`` once the game has ended, and each player's
    rank, total, breakdown by part and tournament points (``null`` where the edition has no
    points table). Where ties for first play off (``tie_rule`` ``play_off``): the players who
    would play off now (``play_off_due``, at a tied final count), the play-offs played or under
    way (``play_offs``) and how long one lasts (``play_off_minutes``)."""
    edition = edition_of(game)
    names = {p.id: p.name for p in game.players}
    table = edition.tournament_points
    state = state_of(game)
    return {
        "final": game.status == FINISHED,
        "currency": edition.currency_symbol,
        "points_table_rows": table.beyond if table else None,
        "standings": [
            {
                "player": r.player,
                "name": names[r.player],
                "rank": r.rank,
                "total": r.total,
                "breakdown": r.breakdown,
                "out": r.out,
                "tournament_points": r.tournament_points,
            }
            for r in standings(state)
        ],
        "tie_rule": edition.end.tie,
        "play_off_minutes": edition.end.play_off_minutes,
        "play_off_due": play_off.due(state) or None,
        "play_offs": [list(players) for players in state.play_offs],
    }


# The most points the chart of worth is drawn from, however long the game: a page of the same
# size at version 100 and at version 100,000.
CHART_POINTS = 200
# The games whose chart so far the process keeps, by database and game (``_SERIES``).
KEPT_SERIES = 64


@dataclass(frozen=True)
class _Series:
    """A game's worth so far: the state the journal left at version ``upto`` (its cash and
    board: all worth reads), and the worth at the end of every span of ``width`` versions up to
    there (``marks``, ``[(version, {player: worth})]``). The journal only grows, so what a series
    holds stays true: the next read replays only the entries after ``upto``."""

    width: int
    upto: int
    state: GameState
    marks: tuple[tuple[int, dict[str, int]], ...]


_SERIES: OrderedDict[tuple[str, str], _Series] = OrderedDict()
_SERIES_LOCK = threading.Lock()


def worth_points(game: Game, most: int = CHART_POINTS) -> list[tuple[int, dict[str, int]]]:
    """Every player's worth at version 0 and then wherever it changed, at no more than ``most``
    versions after 0: in a game of up to ``most`` versions, after each version that changed it;
    in a longer one, at the end of each span of versions (a power of two long, as few as keep
    within ``most``) and at the game's version, exact. Read from the journal: only the entries
    since this process last drew the game's chart."""
    key = (database_key(), game.id)
    with _SERIES_LOCK:
        series = _SERIES.get(key)
    if series is None or series.upto > game.version:
        series = _Series(1, 0, _starting(game), ())
    series = _grown(series, game, _width(game.version, most))
    with _SERIES_LOCK:
        _SERIES[key] = series
        _SERIES.move_to_end(key)
        if len(_SERIES) > KEPT_SERIES:
            _SERIES.popitem(last=False)
    now = _worth(series.state)
    tail = [(series.upto, now)] if series.upto % series.width else []
    points = [(0, dict.fromkeys(now, 0))]
    for version, values in (*series.marks, *tail):
        if values != points[-1][1]:
            points.append((version, values))
    return points


def chart_span(version: int, most: int = CHART_POINTS) -> int:
    """How many versions each point of the chart of a game at ``version`` stands for (1: every
    version that changed a worth has its own)."""
    return _width(version, most)


def _width(version: int, most: int) -> int:
    """The shortest span, a power of two, that cuts ``version`` versions into ``most`` or fewer:
    a longer game's spans are whole spans of a shorter one's, so its marks are kept, thinned."""
    width = 1
    while width * most < version:
        width *= 2
    return width


def _starting(game: Game) -> GameState:
    """``game`` as it stood when it was opened (``core.replay.starting_state``)."""
    state = state_of(game, deeds=False)
    return starting_state(
        edition_of(game), [(p.id, p.name) for p in game.players], state.settings, pots_for(state.settings)
    )


def _worth(state: GameState) -> dict[str, int]:
    return {p.id: worth(state, p) for p in state.players.values()}


def _grown(series: _Series, game: Game, width: int) -> _Series:
    """``series`` carried on to the game's version with spans of ``width`` (never shorter than
    its own): its marks thinned to the new spans' ends, then the entries after it replayed, one
    step a span."""
    width = max(width, series.width)
    marks = [m for m in series.marks if m[0] % width == 0]
    state, upto = series.state, series.upto
    if game.version > upto:
        steps = _spans(game.id, upto, game.version, width)
        for index in range(upto // width, (game.version - 1) // width + 1):
            step = steps.get(index)
            if step is not None:
                state = apply_outcome(state, Outcome("replay", tuple(step.postings), tuple(step.changes)))
            end = (index + 1) * width
            if end <= game.version:
                marks.append((end, _worth(state)))
    return _Series(width, game.version, state, tuple(marks))


def _spans(game_id: str, after: int, upto: int, width: int) -> dict[int, Step]:
    """The entries of ``game_id`` after version ``after`` up to ``upto`` as one step per span of
    ``width`` versions (by index: span ``i`` ends at version ``(i + 1) * width``): each account's
    postings summed over the span, and the span's changes to the board in order. Worth reads only
    cash and the board (``policies.valuation``), and every account is there from the start, so
    the state a span's step leaves is worth what its last entry left; the database does the
    summing, so a journal is never read entry by entry."""
    span = (Entry.version - 1) // width
    within = (Entry.game_id == game_id, Entry.version > after, Entry.version <= upto)
    moved: dict[int, list[CorePosting]] = {}
    sums = db.session.execute(
        select(span, Posting.account, func.sum(Posting.amount))
        .join(Entry, Entry.id == Posting.entry_id)
        .where(Posting.game_id == game_id, *within)
        .group_by(span, Posting.account)
    )
    for index, account, amount in sums:
        if amount:  # a sum of zero moves nothing (and a posting of zero is not one)
            moved.setdefault(index, []).append(CorePosting(account, int(amount)))
    changed: dict[int, list[Change]] = {}
    # A change to the board is a list whose first item is "deed": the text test is a cheap first
    # sieve, the test of each change the exact one.
    boards = db.session.execute(
        select(Entry.version, Entry.changes)
        .where(*within, cast(Entry.changes, Text).like('%"deed"%'))
        .order_by(Entry.version)
    )
    for version, changes in boards:
        deeds = [Change(*c) for c in changes if c[0] == "deed"]
        if deeds:
            changed.setdefault((version - 1) // width, []).extend(deeds)
    return {
        index: Step(min((index + 1) * width, upto), moved.get(index, []), changed.get(index, []))
        for index in moved.keys() | changed.keys()
    }
