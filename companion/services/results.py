"""The score and the results of a game: live standings during play, the final count after the
end, and every player's worth through the game replayed from the journal."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..core import play_off
from ..core.ledger import Posting as CorePosting
from ..core.replay import Step, starting_state, worth_through
from ..core.score import standings
from ..core.settings import pots_for
from ..core.state import FINISHED, Change
from ..store import Entry, Game, db
from .catalog import edition_of
from .journal import state_of


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


def worth_points(game: Game) -> list[tuple[int, dict[str, int]]]:
    """Every player's worth after each version that changed it, replayed from the journal."""
    state = state_of(game, deeds=False)
    start = starting_state(
        edition_of(game), [(p.id, p.name) for p in game.players], state.settings, pots_for(state.settings)
    )
    entries = db.session.execute(
        select(Entry).where(Entry.game_id == game.id).order_by(Entry.version).options(selectinload(Entry.postings))
    ).scalars()
    steps = (
        Step(e.version, [CorePosting(p.account, p.amount) for p in e.postings], [Change(*c) for c in e.changes or ()])
        for e in entries
    )
    return worth_through(start, steps)
