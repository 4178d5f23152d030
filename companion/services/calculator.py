"""The score calculator for paper games, as the pages reach it: the entries are checked and
counted by the core (``core.calculator`` builds the state, ``core.score`` counts it, the same
code as a game's final count). Nothing here touches the database: a calculation lives in the
browser's session, not in a game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.calculator import clean_names, game_state, player_id
from ..core.editions.edition import Deed, Edition
from ..core.policies.buildings import big_building
from ..core.policies.mortgage import terms as mortgage_terms
from ..core.score import standings


def check_names(edition: Edition, names: Sequence[Any]) -> list[str]:
    """The players' names, trimmed; refuses what ``core.calculator.clean_names`` refuses."""
    return clean_names(edition, names)


def builds_big(edition: Edition) -> bool:
    """Whether a deed of ``edition`` can carry a big building, by its buildings policy."""
    return big_building(edition) is not None


def mortgageable(edition: Edition, deed: Deed) -> bool:
    """Whether ``deed`` can be mortgaged: it has a mortgage value and the edition's mortgage
    policy allows mortgages."""
    return bool(deed.mortgage) and mortgage_terms(edition) is not None


def check(edition: Edition, players: Sequence[Any], deeds: Sequence[Any]) -> None:
    """Refuses impossible entries, naming the entry; a cash not entered yet (``None``) is
    allowed: the calculation is still being typed."""
    game_state(edition, players, deeds, cash_required=False)


def count(edition: Edition, players: Sequence[Any], deeds: Sequence[Any]) -> dict:
    """The score of the entries, in the shape of a game's ``services.score``: ``standings``
    best first, each with the player's ``index`` in the entries, name, rank, total, breakdown
    by part and tournament points (``None`` where the edition has no points table). Refuses
    what ``check`` refuses and a cash not entered."""
    state = game_state(edition, players, deeds)
    index = {player_id(i): i for i in range(len(state.players))}
    table = edition.tournament_points
    return {
        "final": True,
        "currency": edition.currency_symbol,
        "points_table_rows": table.beyond if table else None,
        "standings": [
            {
                "player": r.player,
                "index": index[r.player],
                "name": state.players[r.player].name,
                "rank": r.rank,
                "total": r.total,
                "breakdown": r.breakdown,
                "out": r.out,
                "tournament_points": r.tournament_points,
            }
            for r in standings(state)
        ],
    }
