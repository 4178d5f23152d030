"""The score: every player's worth by the edition's own final count, their place, and the
tournament points the edition gives for it. The same code serves the live standings during a
game and the final result."""

from __future__ import annotations

from dataclasses import dataclass

from .policies.tiebreak import tiebreak_key
from .policies.valuation import breakdown
from .state import GameState


@dataclass(frozen=True)
class Row:
    """One player's line: ``rank`` 1 for the first (players the tiebreak cannot separate share
    a rank; players out of the game come after, the last out first), ``total`` the sum of
    ``breakdown``, and ``tournament_points`` when the edition has a points table."""

    player: str
    rank: int
    total: int
    breakdown: dict[str, int]
    out: bool
    tournament_points: int | None


def standings(state: GameState) -> list[Row]:
    """Every player of the game, best first, by the edition's valuation and tiebreak. After a
    play-off of a tie for first place (``core.play_off``) its players go first, ranked among
    themselves by the count; the others keep their places behind them."""
    active = state.active_players()
    valued = [
        (_play_offs_played(state, p.id), sum(parts.values()), tiebreak_key(state, p), p, parts)
        for p in active
        for parts in (breakdown(state, p),)
    ]
    valued.sort(key=lambda v: v[:3], reverse=True)
    table = state.edition.tournament_points
    rows = []
    for depth, total, key, player, parts in valued:
        rank = 1 + sum(1 for v in valued if v[:3] > (depth, total, key))
        points = table.points(rank, len(active)) if table else None
        rows.append(Row(player.id, rank, total, parts, False, points))
    out = sorted((p for p in state.players.values() if p.bankrupt), key=lambda p: p.out_order or 0, reverse=True)
    for i, player in enumerate(out):
        parts = dict.fromkeys(rows[0].breakdown if rows else {"cash": 0}, 0)
        rows.append(Row(player.id, len(active) + i + 1, 0, parts, True, 0 if table else None))
    return rows


def _play_offs_played(state: GameState, player_id: str) -> int:
    """How many play-offs of a tie for first place the player has played (0 in most games)."""
    return sum(1 for players in state.play_offs if player_id in players)


def winner(state: GameState) -> str | None:
    """The one player left when everyone else is out of the game, else ``None``."""
    active = state.active_players()
    return active[0].id if len(active) == 1 and len(state.players) > 1 else None
