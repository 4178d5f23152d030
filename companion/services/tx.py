"""Transactions, locking and finding a game's row: the only code that commits.

Every change takes the game's write lock first (``BEGIN IMMEDIATE`` on SQLite, ``SELECT ...
FOR UPDATE`` on PostgreSQL), so two phones acting at the same instant are serialised: both
land, or the second is refused by the rules on the state the first left. Never a lost update.

**One lock order:** a write locks the game's row (``lock_game``) before it reads or writes any
other row of that game, and locks no other row itself. A transaction that locked a player
first and then waited for the game would deadlock on PostgreSQL against an action holding the
game and updating that player. A write that has to find its game from another row (a rejoin
secret) looks the game's id up without a lock, locks the game, then reads the row again.

**One snapshot per read:** ``reading()`` makes the reads of a page or an API answer see the
database at one instant (``REPEATABLE READ`` on PostgreSQL, whose default gives each statement
the latest commit; a deferred ``BEGIN`` on SQLite, whose WAL keeps the first read's snapshot),
so a game's cash is never from a later version than the ``version`` shown beside it.

**A game's players and deeds change only with its version:** every write to them is a journal
entry (an action, a join, a claimed seat, a rejoin), which moves the version. A session that
keeps its games loaded between transactions (``keep_games``: the server's writer) relies on it:
it reads each game's row afresh under the lock, and its players and deeds again only when the
version moved. Whatever else may change without an entry (a rejoin secret, the bank's hand-off,
the serial secret) is on rows it reads afresh or never writes.
"""

from __future__ import annotations

import contextvars
import logging
import re
import threading
from collections import OrderedDict
from contextlib import contextmanager, nullcontext

from sqlalchemy import bindparam, select
from sqlalchemy.orm.attributes import set_committed_value

from ..core.errors import N_, NotFound
from ..extension import banco
from ..live import fanout
from ..store import Game, db
from ..store.rows import GameRecord, attributes, read_game, row_select
from ..store.statements import Prepared
from .faults import is_storage_fault
from .states import STATES

log = logging.getLogger(__name__)

_SQLITE_WRITERS = threading.Lock()
_TO_PUBLISH = "banco_to_publish"

# Read by the SQLite "begin" hook in companion/__init__.py: a write transaction starts with
# BEGIN IMMEDIATE so it holds the write lock from its first statement.
WRITE_INTENT: contextvars.ContextVar[bool] = contextvars.ContextVar("banco_write_intent", default=False)
# Set inside ``reading()``'s snapshot: what is read there is of one version (``in_snapshot``).
_SNAPSHOT: contextvars.ContextVar[bool] = contextvars.ContextVar("banco_snapshot", default=False)

_SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_LOCK_GAME = select(Game).where(Game.id == bindparam("game_id")).with_for_update()  # built once
_GAME_ATTRIBUTES = attributes(Game)
_LOCK_GAME_ROW = Prepared(row_select(Game).where(Game.__table__.c.id == bindparam("game_id")).with_for_update())
_VERSION = _GAME_ATTRIBUTES.index("version")
_UNLOADED = object()
_READ = "banco.read_games"  # session.info: the games read as rows in this snapshot, by id
_KEPT = "banco_kept_games"  # session.info: the games a long-lived session keeps loaded (keep_games)


@contextmanager
def writing():
    """One write transaction: commits on success, rolls back on any refusal or error.

    On SQLite the writers of this process also queue on one lock before asking for the
    database's: SQLite makes a blocked writer sleep and retry with growing pauses, so without
    a queue an unlucky phone could wait seconds while others keep winning the lock.
    """
    db.session.rollback()  # end the read transaction the request may have begun
    queue = _SQLITE_WRITERS if db.engine.dialect.name == "sqlite" else nullcontext()
    with queue:
        token = WRITE_INTENT.set(True)
        try:
            yield
            versions = db.session.info.get(_TO_PUBLISH)
            if versions and db.engine.dialect.name == "postgresql":
                fanout.notify(db.session, versions)  # heard by every process, at commit only
            db.session.commit()
            _expire_all_but_kept()
        except BaseException as error:
            db.session.info.pop(_TO_PUBLISH, None)
            db.session.rollback()
            STATES.forget()
            if is_storage_fault(error) and banco().broker.saving(False):
                log.error(
                    "The database cannot save (%s): every change is refused until it can.",
                    getattr(error, "orig", error),
                )
            raise
        finally:
            WRITE_INTENT.reset(token)
    # Announced only once committed, so no phone is told of a version it cannot read yet; this
    # process's streams hear it at once, the other processes' through the NOTIFY above.
    broker = banco().broker
    if broker.saving(True):
        log.warning("The database saves again.")
    for game_id, versions in db.session.info.pop(_TO_PUBLISH, {}).items():
        broker.publish_all(game_id, versions)


@contextmanager
def reading():
    """The reads inside see the database as it was at one instant: the game's row, its
    players, its deeds and its journal all of the same version. Leaving the block ends the
    snapshot. Inside a write it changes nothing: the game's lock already holds the game still.
    """
    if WRITE_INTENT.get():
        yield
        return
    db.session.rollback()  # whatever the request read so far came from an earlier instant
    db.session.info.pop(_READ, None)
    if db.engine.dialect.name == "postgresql":
        # Before the transaction's first statement: PostgreSQL takes the snapshot at it.
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    token = _SNAPSHOT.set(True)
    try:
        yield
    finally:
        _SNAPSHOT.reset(token)
        db.session.info.pop(_READ, None)
        db.session.rollback()


def in_snapshot() -> bool:
    """Whether this code runs inside ``reading()``'s snapshot and writes nothing: the game's
    rows it reads are all of the version its row says."""
    return _SNAPSHOT.get() and not WRITE_INTENT.get() and _KEPT not in db.session.info


def announce(game: Game, parts: frozenset[str]) -> None:
    """Marks the game's new version, which changed ``parts`` (``core.parts``), to be announced
    to its live pages after the commit."""
    db.session.info.setdefault(_TO_PUBLISH, {}).setdefault(game.id, {})[game.version] = parts


def rollback() -> None:
    """Drops whatever the request's session holds (the error handlers' way out), the states it
    keeps included (``states.GameStates.forget``)."""
    db.session.rollback()
    STATES.forget()


def lock_game(game_id) -> Game:
    """The game's row, locked for this write transaction; refuses an unknown id (404)."""
    if not plausible_id(game_id):
        raise NotFound("unknown_game", N_("There is no such game."))
    kept = db.session.info.get(_KEPT)
    if kept is None:
        game = db.session.execute(_LOCK_GAME, {"game_id": game_id}).scalar_one_or_none()
    else:
        game = _lock_kept(kept, game_id)
    if game is None:
        raise NotFound("unknown_game", N_("There is no such game."))
    return game


def keep_games(most: int) -> None:
    """Makes this thread's session keep the last ``most`` games it locked loaded between its
    transactions, players and deeds included, instead of reading them all again after each
    commit: for a session that does nothing but write actions (the server's writer thread),
    where those reads were a fifth of an action's work. Each lock still reads the game's row
    afresh; its players and deeds are read again only when its version moved meanwhile (a
    write elsewhere: another thread, another process). A rollback forgets them all, as it
    always does. The session keeps the games' states too (``states.GameStates.keep``)."""
    session = db.session()
    session.expire_on_commit = False  # _expire_all_but_kept does it, sparing the kept games
    session.info[_KEPT] = _Kept(most)
    STATES.keep(most)


class _Kept(OrderedDict[str, Game]):
    """The kept games by id, the most recently locked last."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most


def _lock_kept(kept: _Kept, game_id: str) -> Game | None:
    known = kept.get(game_id)
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
        kept.pop(game_id, None)
        return None
    kept[game_id] = game
    kept.move_to_end(game_id)
    if len(kept) > kept.most:
        kept.popitem(last=False)
    return game


def _expire_all_but_kept() -> None:
    """After a commit, what ``expire_on_commit`` would do, but for the kept games, their
    players and their deeds: the next transaction reads everything else afresh."""
    kept = db.session.info.get(_KEPT)
    if kept is None:
        return
    rows = sum(
        1 + len(game.__dict__.get("players", ())) + len(game.__dict__.get("holdings", ())) for game in kept.values()
    )
    if len(db.session.identity_map) == rows:
        return  # the session holds the kept games and nothing else (they are never expunged)
    spared = set()
    for game in kept.values():
        spared.add(id(game))
        spared.update(id(row) for row in game.__dict__.get("players", ()))
        spared.update(id(row) for row in game.__dict__.get("holdings", ()))
    for row in list(db.session.identity_map.values()):
        if id(row) not in spared:
            db.session.expire(row)


def plausible_id(value) -> bool:
    """Whether ``value`` could be one of our ids at all: anything else (a NUL byte, a page of
    text) is answered "not found" before it reaches the database."""
    return isinstance(value, str) and _SAFE_ID.match(value) is not None


def find_game(game_id) -> GameRecord | None:
    """The game with this id, or ``None``. Inside a read snapshot (``reading``) it is read as
    plain rows (``store.rows``: the same attributes, read-only, one object per snapshot);
    anywhere else it is the ORM's ``Game``, to write."""
    if not plausible_id(game_id):
        return None
    if not in_snapshot():
        return db.session.get(Game, game_id)
    read = db.session.info.setdefault(_READ, {})
    if game_id not in read:
        read[game_id] = read_game(db.session.connection, game_id)
    return read[game_id]


def get_game(game_id) -> GameRecord:
    """The game with this id; refuses an unknown id (404)."""
    game = find_game(game_id)
    if game is None:
        raise NotFound("unknown_game", N_("There is no such game."))
    return game


@contextmanager
def savepoint():
    """One part of a write transaction (one action of a batch) that a refusal undoes alone:
    its rows, and the versions it would have announced. The rows written with direct
    statements are read again after such a refusal (the ORM does not know they changed)."""
    announced = {game_id: dict(versions) for game_id, versions in db.session.info.get(_TO_PUBLISH, {}).items()}
    part = db.session.begin_nested()
    try:
        yield
        part.commit()
    except BaseException:
        if part.is_active:
            part.rollback()
        db.session.info[_TO_PUBLISH] = announced
        db.session.expire_all()
        STATES.forget()
        raise
