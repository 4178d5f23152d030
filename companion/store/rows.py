"""A game read as plain rows: what a read snapshot (``services.reading``: the pages, the API's
reads) is given in place of the ORM's ``Game``.

After an event every open page of a game asks for its regions again, each in a request of its
own, and each first reads the game and its players. The ORM would give each of those reads
an identity map, instrumented attributes and a lazy load for the players, a large part of a
region's request, for rows that a read never changes. Here the same
rows come through ``Prepared`` statements on the snapshot's own connection, as plain objects
with the models' attribute names: ``game.players`` (by seat), ``game.holdings`` (by position,
read when first asked for, in the same snapshot), ``player.game``, ``player.claimed``.

They are read-only by contract: code that writes gets its game outside a snapshot, through the
ORM (``services.tx``); a value set on one of these is written nowhere. Their JSON values (the
game's ``extra``, a player's) are shared with every other reader of the same row (a row that
did not change is not decoded again), so they are frozen (``core.frozen``): changing one in
place fails.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from .models import Game, Holding, Player
from .statements import Prepared

# Rows kept decoded by each statement (``Prepared``'s memo), enough for a club (50 tables): a
# game's row changes at every version, so a few versions of each (its pages all read the newest
# one); players and deeds change far less often. A row that changed is a new key, and a memo
# empties when full.
GAME_MEMO, PLAYER_MEMO, HOLDING_MEMO = 256, 2048, 4096


def attributes(model) -> tuple[str, ...]:
    """The names of ``model``'s mapped columns, in the order ``row_select`` reads them."""
    return tuple(prop.key for prop in model.__mapper__.column_attrs)


def row_select(model):
    """A SELECT of every mapped column of ``model``, as plain values (no ORM object)."""
    return select(*(prop.columns[0] for prop in model.__mapper__.column_attrs))


def _of_game(model, memo: int, order=None) -> Prepared:
    table = model.__table__
    key = table.c.id if model is Game else table.c.game_id
    statement = row_select(model).where(key == bindparam("game_id"))
    return Prepared(statement if order is None else statement.order_by(order), memo=memo)


_GAME = _of_game(Game, GAME_MEMO)
_PLAYERS = _of_game(Player, PLAYER_MEMO, Player.__table__.c.seat)
_HOLDINGS = _of_game(Holding, HOLDING_MEMO, Holding.__table__.c.position)
_GAME_COLUMNS, _PLAYER_COLUMNS, _HOLDING_COLUMNS = attributes(Game), attributes(Player), attributes(Holding)


class _Row:
    def __init__(self, columns: tuple[str, ...], values: tuple) -> None:
        self.__dict__.update(zip(columns, values))

    if TYPE_CHECKING:
        # The model's columns, set from the row by name: for the checker, any attribute.
        def __getattr__(self, name: str) -> Any: ...

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.__dict__.get('id') or self.__dict__.get('deed_key')}>"


class PlayerRow(_Row):
    """A ``Player`` as read: its columns, ``game`` and ``claimed``."""

    game: GameRow  # set by the GameRow that reads it

    @property
    def claimed(self) -> bool:
        return self.token_hash is not None


class HoldingRow(_Row):
    """A ``Holding`` as read: its columns."""


class GameRow(_Row):
    """A ``Game`` as read: its columns, ``players`` by seat, ``holdings`` by position."""

    def __init__(self, values: tuple, players: list[tuple], holdings: Callable[[], list[tuple]]) -> None:
        super().__init__(_GAME_COLUMNS, values)
        self.players = [PlayerRow(_PLAYER_COLUMNS, row) for row in players]
        for player in self.players:
            player.game = self
        self._read_holdings = holdings

    @cached_property
    def holdings(self) -> list[HoldingRow]:
        return [HoldingRow(_HOLDING_COLUMNS, row) for row in self._read_holdings()]


def read_game(connection: Callable[[], Connection], game_id: str) -> GameRow | None:
    """The game ``game_id`` and its players, read on ``connection()`` (the snapshot's); its
    deeds are read there when first asked for. ``None`` for an unknown id."""
    params = {"game_id": game_id}
    values = _GAME.first(connection(), params)
    if values is None:
        return None
    return GameRow(values, _PLAYERS.all(connection(), params), lambda: _HOLDINGS.all(connection(), params))


# A game as the ORM holds it (to write) or as a read snapshot reads it: what a reader is given.
GameRecord = Game | GameRow
