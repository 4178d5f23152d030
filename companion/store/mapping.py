"""Rows to the core's ``GameState`` and back.

Fields with a column of their own are stored there; every other field the core declares on
``GameState``, ``PlayerState`` or ``DeedState`` lives in that row's ``extra`` JSON, so a new
kind of per-game state is a declaration in ``core/state.py`` and nothing here. Writing goes
through ``core.changes.apply_outcome`` first: ``save`` stores only what it touched.

``save`` writes with direct statements (one ``UPDATE`` per row it touched, only the columns
that changed), not through the ORM's unit of work: an action's write costs a few statements
and no flush. The rows already loaded are brought up to date in place, as committed values,
so the rest of the transaction reads what was written and the ORM has nothing left to flush.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

from sqlalchemy import bindparam, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm.attributes import set_committed_value

from ..core.changes import Touched
from ..core.editions.edition import Edition
from ..core.frozen import build
from ..core.state import DOCUMENT_FIELDS, DeedState, GameState, NotLoaded, PlayerState
from .models import Game, Holding, Player
from .rows import GameRecord
from .statements import Prepared

T = TypeVar("T")
_GAME, _PLAYER, _HOLDING = Game.__table__, Player.__table__, Holding.__table__
# Built once: the columns to set come from each execution's parameters, and the compiled form
# of each combination is kept, so an action builds and compiles no statement.
_UPDATE_GAME = Prepared(update(_GAME).where(_GAME.c.id == bindparam("row_id")))
_UPDATE_PLAYER = Prepared(update(_PLAYER).where(_PLAYER.c.id == bindparam("row_id")))
_UPDATE_HOLDING = Prepared(
    update(_HOLDING).where((_HOLDING.c.game_id == bindparam("row_game")) & (_HOLDING.c.deed_key == bindparam("row_id")))
)

GAME_COLUMNS = ("status", "bank_small", "bank_big", "auctions_held", "auction", "trades", "seed")
PLAYER_COLUMNS = ("cash", "in_jail", "bankrupt", "jail_cards")
DEED_COLUMNS = {
    "owner": "owner_id",
    "mortgaged": "mortgaged",
    "houses": "houses",
    "hotel": "hotel",
    "fee_due": "fee_due",
}
_DOCUMENTS = {spec.attr: spec for spec in DOCUMENT_FIELDS.values()}
_GAME_FIELDS = [f for f in fields(GameState) if f.name not in ("edition", "players", "deeds")]
_PLAYER_EXTRA = [f for f in fields(PlayerState) if f.name not in ("id", "name", *PLAYER_COLUMNS)]
_DEED_EXTRA = [f for f in fields(DeedState) if f.name not in ("key", *DEED_COLUMNS)]
# Where each field of a player's and of a deed's state is read: (field, its column or None for
# the row's extra, its default).
_PLAYER_FIELDS = [
    (f.name, f.name if f.name in ("id", "name", *PLAYER_COLUMNS) else None, f.default) for f in fields(PlayerState)
]
_DEED_FIELDS = [
    (f.name, "deed_key" if f.name == "key" else DEED_COLUMNS.get(f.name), f.default) for f in fields(DeedState)
]


def _default(f):
    return f.default_factory() if f.default_factory is not MISSING else f.default


def _decode(name: str, value):
    spec = _DOCUMENTS.get(name)
    if spec is None or value is None:
        return dict(value) if isinstance(value, dict) else value
    if spec.many:
        return {k: spec.kind.from_dict(v) for k, v in value.items()}
    return spec.kind.from_dict(value)


def _encode(name: str, value):
    spec = _DOCUMENTS.get(name)
    if spec is None or value is None:
        return dict(value) if isinstance(value, dict) else value
    if spec.many:
        return {k: v.to_dict() for k, v in value.items()}
    return value.to_dict()


def load_state(game: GameRecord, edition: Edition, deeds: bool = True) -> GameState:
    """The core's view of a game, read from its rows. Without ``deeds`` the board is left out
    (it is most of the rows) and stands as ``NotLoaded``: a rule that reads it anyway fails
    loudly instead of seeing an empty board."""
    extra = game.extra or {}
    values: dict[str, Any] = {}
    for f in _GAME_FIELDS:
        if f.name in GAME_COLUMNS:
            raw = getattr(game, f.name)
        else:
            raw = extra.get(f.name, MISSING)
        values[f.name] = _default(f) if raw is MISSING else _decode(f.name, raw)
    players = {p.id: _made(PlayerState, _PLAYER_FIELDS, p) for p in game.players}
    board: Any = NotLoaded("deeds")
    if deeds:
        board = {h.deed_key: _made(DeedState, _DEED_FIELDS, h) for h in game.holdings}
    return GameState(edition=edition, players=players, deeds=board, **values)


def _made(kind: type[T], sources: list[tuple[str, str | None, Any]], row: Any) -> T:
    """A player's or a deed's state from its row: each field from its column, or from the
    row's ``extra`` (its default when not there). Made at once (``core.frozen.build``): a board
    is dozens of them, and their fields are plain values (numbers, strings), frozen as they are."""
    more = row.extra or {}
    return build(
        kind,
        {name: getattr(row, column) if column else more.get(name, default) for name, column, default in sources},
    )


def save(connection: Connection, game: Game, state: GameState, touched: Touched, version: int | None = None) -> None:
    """Writes back what ``touched`` says changed in ``state`` (and the game's new ``version``,
    when given) on ``connection``, the session's: one statement per row, the game's row first."""
    values: dict[str, Any] = {} if version is None else {"version": version}
    extra = None
    names = set(touched.game) | set(touched.documents) | ({"pots"} if touched.pots else set())
    for name in names:
        value = _encode(name, getattr(state, name))
        if name in GAME_COLUMNS:
            values[name] = value
        else:
            if extra is None:
                extra = dict(game.extra or {})  # a new dict: the row's old one stays as it was read
            extra[name] = value
    if extra is not None:
        values["extra"] = extra
    _write(connection, _UPDATE_GAME, game, values, row_id=game.id)
    if touched.players:
        rows = {p.id: p for p in game.players}
        for player_id in touched.players:
            row = rows[player_id]
            changed = _changed(row, state.players[player_id], {c: c for c in PLAYER_COLUMNS}, _PLAYER_EXTRA)
            _write(connection, _UPDATE_PLAYER, row, changed, row_id=player_id)
    if touched.deeds:
        holdings = {h.deed_key: h for h in game.holdings}
        for key in touched.deeds:
            holding = holdings[key]
            changed = _changed(holding, state.deeds[key], DEED_COLUMNS, _DEED_EXTRA)
            _write(connection, _UPDATE_HOLDING, holding, changed, row_game=game.id, row_id=key)


def _changed(row, obj, columns: dict[str, str], extra_fields) -> dict[str, Any]:
    """The columns of ``row`` whose value differs from ``obj``'s."""
    values = {}
    for name, column in columns.items():
        value = getattr(obj, name)
        if getattr(row, column) != value:
            values[column] = value
    if extra_fields:
        more = {f.name: getattr(obj, f.name) for f in extra_fields}
        if more != (row.extra or {}):
            values["extra"] = more
    return values


def _write(connection: Connection, statement: Prepared, row, values: dict[str, Any], **where) -> None:
    """One ``UPDATE`` of ``values``, then the same values in the loaded ``row`` as committed
    ones (whatever the ORM held as changed there is superseded, so nothing is flushed twice)."""
    if not values:
        return
    statement.execute(connection, {**values, **where})
    for column, value in values.items():
        set_committed_value(row, column, value)


def initial_extra(settings: dict[str, Any], pots: dict[str, int]) -> dict[str, Any]:
    """The ``extra`` of a new game: its settings and its empty pots."""
    return {"settings": dict(settings), "pots": dict(pots)}
