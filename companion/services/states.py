"""The repository of game states: the core's view of each game (``core.state.GameState``), made
from its rows and written back to them, and every state the process keeps.

A state is frozen (``core.frozen``), so whoever holds one may share it. Two stores:

- the states read in snapshots (``tx.reading``: the pages), shared by every request of the
  process, by (database, game, version): after an event every open page of a game reads the same
  new version, and mapping its rows was a sixth of a wallet's fetch;
- the states of a session that keeps its games (``tx.keep_games``: the server's writer), by game,
  with the version each is of: the state an action's entry leaves is the one the next action
  reads, made from the rows again only when the version moved elsewhere.

A state is of a version, and a game's rows change only with its version (``tx``), so a state
kept is good for as long as its version is the game's. What a rolled-back write made is of a
version that never was: ``forget`` drops it.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict

from sqlalchemy.engine import Connection

from ..core.changes import Touched
from ..core.state import GameState, NotLoaded
from ..store import Game, GameRecord, db
from ..store.mapping import load_state, save
from .catalog import edition_of

_DATABASE_KEY = "_banco_database_key"
_SESSION = "banco.kept_states"  # session.info: the states a session keeps (``GameStates.keep``)


def database_key() -> str:
    """A name for this app's database, new with every engine: what process-wide memories of a
    game's versions (``GameStates``, ``web.versioned``) are keyed by, with the game and its
    version. Not the address: two apps of one process (as the tests make, each emptying the same
    PostgreSQL database) may hold games of the same id and version that differ."""
    engine = db.engine
    key = engine.__dict__.get(_DATABASE_KEY)
    if key is None:
        key = engine.__dict__.setdefault(_DATABASE_KEY, uuid.uuid4().hex)
    return str(key)


class _Kept(OrderedDict[str, tuple[int, bool, GameState]]):
    """A session's states by game id, the most recently used last: (version, holds the board, state)."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most


class GameStates:
    """Loads a game's state, saves the state an entry leaves, and keeps them (see the module)."""

    def __init__(self, shared_most: int = 256) -> None:
        self._shared: OrderedDict[tuple[str, str, int], tuple[bool, GameState]] = OrderedDict()
        self._shared_most = shared_most
        self._lock = threading.Lock()

    def load(self, game: GameRecord, deeds: bool = True, shared: bool = False) -> GameState:
        """The state of ``game`` at its version, without the board when ``deeds`` is false (it
        stands as ``NotLoaded``). ``shared``: the caller reads inside a snapshot and writes
        nothing (``tx.in_snapshot``), so the process's one state of this version will do."""
        if shared:
            return self._load_shared(game, deeds)
        kept = db.session.info.get(_SESSION)
        if kept is None:
            return load_state(game, edition_of(game), deeds=deeds)
        held = kept.get(game.id)
        if held is not None and held[0] == game.version and (held[1] or not deeds):
            kept.move_to_end(game.id)
            return held[2]
        state = load_state(game, edition_of(game), deeds=deeds)
        self._keep(kept, game, state)
        return state

    def save(self, connection: Connection, game: Game, state: GameState, touched: Touched, version: int) -> None:
        """Writes what ``touched`` says changed in ``state`` (``store.mapping.save``), with the
        game's new ``version``, on ``connection``; a session that keeps its states keeps this one
        as the game's at that version."""
        save(connection, game, state, touched, version=version)
        kept = db.session.info.get(_SESSION)
        if kept is not None:
            self._keep(kept, game, state)

    def keep(self, most: int) -> None:
        """Makes this thread's session keep the states of the last ``most`` games it read or
        wrote between its transactions (``tx.keep_games``)."""
        db.session.info[_SESSION] = _Kept(most)

    def forget(self) -> None:
        """Drops the states this session keeps: after a rollback, whatever the session made may
        be of a version that was never written."""
        kept = db.session.info.get(_SESSION)
        if kept is not None:
            kept.clear()

    def _keep(self, kept: _Kept, game: GameRecord, state: GameState) -> None:
        kept[game.id] = (game.version, not isinstance(state.deeds, NotLoaded), state)
        kept.move_to_end(game.id)
        if len(kept) > kept.most:
            kept.popitem(last=False)

    def _load_shared(self, game: GameRecord, deeds: bool) -> GameState:
        key = (database_key(), game.id, game.version)
        with self._lock:
            held = self._shared.get(key)
            if held is not None and (held[0] or not deeds):
                self._shared.move_to_end(key)
                return held[1]
        state = load_state(game, edition_of(game), deeds=deeds)
        with self._lock:
            self._shared[key] = (deeds, state)
            self._shared.move_to_end(key)
            while len(self._shared) > self._shared_most:
                self._shared.popitem(last=False)
        return state


# The process's one repository: its states are shared by every thread.
STATES = GameStates()
