"""The repository of games: finding a game's rows, locking them for a write, and the core's view
of each game (``core.state.GameState``) made from its rows and written back to them, with every
game and state the process keeps between transactions. ``tx`` holds the transactions that use it.

Three memories, all here:

- **the states read in snapshots** (``tx.reading``: the pages), shared by every request of the
  process, by (database, game, version): after an event every open page of a game reads the same
  new version, so its rows are mapped once, not once per page. A state is frozen
  (``core.frozen``), so whoever holds one may share it;
- **the rows read in one snapshot**, by game id, in that snapshot's session only: a page reads
  its game once however many parts of it ask;
- **a session that keeps its games** (``keep``: the server's writer): the rows of the last games
  it locked (players and deeds included) and their states, by game, with the version each is of.
  The state an action's entry leaves is the one the next action reads; the rows are read again
  only when the version moved elsewhere.

A game's rows change only with its version (``tx``), so whatever is kept is good for as long as
its version is the game's. What a rolled-back write made is of a version that never was:
``forget`` drops it.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections import OrderedDict

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm.attributes import set_committed_value

from ..core.changes import Touched
from ..core.errors import N_, NotFound
from ..core.state import GameState, NotLoaded
from ..store import Game, GameRecord, db
from ..store.mapping import load_state, save
from ..store.rows import attributes, read_game, row_select
from ..store.statements import Prepared
from .catalog import edition_of

_DATABASE_KEY = "_banco_database_key"
_READ = "banco.read_games"  # session.info: the games read as rows in this snapshot, by id
_KEPT = "banco.kept_games"  # session.info: the games a long-lived session keeps (``GameRepository.keep``)

_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_LOCK_GAME = select(Game).where(Game.id == bindparam("game_id")).with_for_update()  # built once
_GAME_ATTRIBUTES = attributes(Game)
_LOCK_GAME_ROW = Prepared(row_select(Game).where(Game.__table__.c.id == bindparam("game_id")).with_for_update())
_VERSION = _GAME_ATTRIBUTES.index("version")
_UNLOADED = object()


def database_key() -> str:
    """A name for this app's database, new with every engine: what process-wide memories of a
    game's versions (``GameRepository``, ``web.versioned``) are keyed by, with the game and its
    version. Not the address: two apps of one process (as the tests make, each emptying the same
    PostgreSQL database) may hold games of the same id and version that differ."""
    engine = db.engine
    key = engine.__dict__.get(_DATABASE_KEY)
    if key is None:
        key = engine.__dict__.setdefault(_DATABASE_KEY, uuid.uuid4().hex)
    return str(key)


def plausible_id(value) -> bool:
    """Whether ``value`` could be one of our ids at all: anything else (a NUL byte, a page of
    text) is answered "not found" before it reaches the database."""
    return isinstance(value, str) and _SAFE_ID.match(value) is not None


class _Kept:
    """What a session keeps: its last ``most`` games' rows by id and their states (version,
    holds the board, state), the most recently used last."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.states: OrderedDict[str, tuple[int, bool, GameState]] = OrderedDict()


def _use(kept: OrderedDict, key, value, most: int) -> None:
    kept[key] = value
    kept.move_to_end(key)
    if len(kept) > most:
        kept.popitem(last=False)


class GameRepository:
    """Finds, locks, loads and saves games, and keeps them (see the module)."""

    def __init__(self, shared_most: int = 256) -> None:
        self._shared: OrderedDict[tuple[str, str, int], tuple[bool, GameState]] = OrderedDict()
        self._shared_most = shared_most
        self._lock = threading.Lock()

    # The rows

    def find(self, game_id, snapshot: bool) -> GameRecord | None:
        """The game with this id, or ``None``. In a read snapshot (``snapshot``: ``tx.reading``)
        it is read as plain rows (``store.rows``: the same attributes, read-only, one object per
        snapshot); anywhere else it is the ORM's ``Game``, to write."""
        if not plausible_id(game_id):
            return None
        if not snapshot:
            return db.session.get(Game, game_id)
        read = db.session.info.setdefault(_READ, {})
        if game_id not in read:
            read[game_id] = read_game(db.session.connection, game_id)
        return read[game_id]

    def lock(self, game_id) -> Game:
        """The game's row, locked for this write transaction (``SELECT ... FOR UPDATE``; on SQLite
        the transaction already holds the write lock); in a session that keeps its games, the
        kept one with its row read afresh. Refuses an unknown id (404)."""
        kept = self._kept()
        game = None
        if plausible_id(game_id):
            if kept is None:
                game = db.session.execute(_LOCK_GAME, {"game_id": game_id}).scalar_one_or_none()
            else:
                game = self._lock_kept(kept, game_id)
        if game is None:
            raise NotFound("unknown_game", N_("There is no such game."))
        return game

    def _lock_kept(self, kept: _Kept, game_id: str) -> Game | None:
        known = kept.games.get(game_id)
        # The version this session last saw, if the game is still loaded (a rollback expires it).
        seen = known.__dict__.get("version") if known is not None and known in db.session else None
        if seen is None:
            game = db.session.execute(_LOCK_GAME, {"game_id": game_id}).scalar_one_or_none()
        else:
            # The row through a Core statement, put into the loaded game: an ORM load of it would
            # also drop the players and deeds loaded with it.
            row = _LOCK_GAME_ROW.first(db.session.connection(), {"game_id": game_id})
            game = known if row is not None else None
            if row is not None:
                if row[_VERSION] != seen:  # written elsewhere meanwhile
                    for child in (*known.__dict__.get("players", ()), *known.__dict__.get("holdings", ())):
                        db.session.expire(child)
                    db.session.expire(known, ["players", "holdings"])
                for name, value in zip(_GAME_ATTRIBUTES, row):
                    if known.__dict__.get(name, _UNLOADED) != value:  # changed without a new version: a hand-off secret
                        set_committed_value(known, name, value)
        if game is None:
            kept.games.pop(game_id, None)
            return None
        _use(kept.games, game_id, game, kept.most)
        return game

    # The states

    def load(self, game: GameRecord, deeds: bool = True, shared: bool = False) -> GameState:
        """The state of ``game`` at its version, without the board when ``deeds`` is false (it
        stands as ``NotLoaded``). ``shared``: the caller reads inside a snapshot and writes
        nothing (``tx.in_snapshot``), so the process's one state of this version will do."""
        if shared:
            return self._load_shared(game, deeds)
        kept = self._kept()
        if kept is None:
            return load_state(game, edition_of(game), deeds=deeds)
        held = kept.states.get(game.id)
        if held is not None and held[0] == game.version and (held[1] or not deeds):
            kept.states.move_to_end(game.id)
            return held[2]
        state = load_state(game, edition_of(game), deeds=deeds)
        self._keep_state(kept, game, state)
        return state

    def save(self, connection: Connection, game: Game, state: GameState, touched: Touched, version: int) -> None:
        """Writes what ``touched`` says changed in ``state`` (``store.mapping.save``), with the
        game's new ``version``, on ``connection``; a session that keeps its games keeps this
        state as the game's at that version."""
        save(connection, game, state, touched, version=version)
        kept = self._kept()
        if kept is not None:
            self._keep_state(kept, game, state)

    def _keep_state(self, kept: _Kept, game: GameRecord, state: GameState) -> None:
        _use(kept.states, game.id, (game.version, not isinstance(state.deeds, NotLoaded), state), kept.most)

    def _load_shared(self, game: GameRecord, deeds: bool) -> GameState:
        key = (database_key(), game.id, game.version)
        with self._lock:
            held = self._shared.get(key)
            if held is not None and (held[0] or not deeds):
                self._shared.move_to_end(key)
                return held[1]
        state = load_state(game, edition_of(game), deeds=deeds)
        with self._lock:
            _use(self._shared, key, (deeds, state), self._shared_most)
        return state

    # The session's memories

    def keep(self, most: int) -> None:
        """Makes this thread's session keep the last ``most`` games it locked loaded between its
        transactions, players, deeds and states included, instead of reading them all again
        after each commit: for a session that does nothing but write actions (the server's
        writer thread), which writes the same games again and again all evening. Each lock still
        reads the game's row afresh; its players and deeds are read again only when its version
        moved meanwhile (a write elsewhere: another thread, another process). A rollback forgets
        them all, as it always does."""
        session = db.session()
        session.expire_on_commit = False  # committed() does it, sparing the kept games
        session.info[_KEPT] = _Kept(most)

    def keeps(self) -> bool:
        """Whether this thread's session keeps its games (``keep``)."""
        return _KEPT in db.session.info

    def kept(self) -> tuple[tuple[str, ...], dict[str, tuple[int, bool, GameState]]]:
        """What this thread's session keeps: its games' ids, the least recently locked first, and
        their states by id as (version, holds the board, state); nothing for any other session."""
        kept = self._kept()
        return (tuple(kept.games), dict(kept.states)) if kept is not None else ((), {})

    def _kept(self) -> _Kept | None:
        return db.session.info.get(_KEPT)

    def snapshot_ended(self) -> None:
        """Forgets the rows read in this session's snapshot (``tx.reading``, as one begins and as
        it ends): they are of that instant only."""
        db.session.info.pop(_READ, None)

    def committed(self) -> None:
        """After a commit, what ``expire_on_commit`` would do, but for the kept games, their
        players and their deeds: the next transaction reads everything else afresh."""
        kept = self._kept()
        if kept is None:
            return
        games = kept.games.values()
        rows = sum(1 + len(game.__dict__.get("players", ())) + len(game.__dict__.get("holdings", ())) for game in games)
        if len(db.session.identity_map) == rows:
            return  # the session holds the kept games and nothing else (they are never expunged)
        spared = set()
        for game in games:
            spared.add(id(game))
            spared.update(id(row) for row in game.__dict__.get("players", ()))
            spared.update(id(row) for row in game.__dict__.get("holdings", ()))
        for row in list(db.session.identity_map.values()):
            if id(row) not in spared:
                db.session.expire(row)

    def share(self, committed) -> None:
        """Offers the states this session keeps of the games just ``committed`` (game id ->
        versions) to every reader of the process, as the state of their newest version: the
        newsroom and the pages that read them next need not map their rows again. Frozen, so
        sharing them is safe; only a state of exactly that version is offered."""
        kept = self._kept()
        if kept is None:
            return
        for game_id, versions in committed.items():
            held = kept.states.get(game_id)
            if held is None or held[0] != max(versions):
                continue
            key = (database_key(), game_id, held[0])
            with self._lock:
                if key not in self._shared:
                    _use(self._shared, key, (held[1], held[2]), self._shared_most)

    def forget(self) -> None:
        """Drops the states this session keeps: after a rollback, whatever the session made may
        be of a version that was never written (the rollback itself expires the kept rows, which
        the next lock then reads again)."""
        kept = self._kept()
        if kept is not None:
            kept.states.clear()


# The process's one repository: its shared states serve every thread.
GAMES = GameRepository()
