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
import threading
from contextlib import contextmanager, nullcontext

from ..core.errors import N_, NotFound
from ..core.parts import AUCTION
from ..extension import banco
from ..live import fanout
from ..store import Game, db
from ..store.rows import GameRecord
from .faults import is_storage_fault
from .repository import GAMES

log = logging.getLogger(__name__)

_SQLITE_WRITERS = threading.Lock()
_TO_PUBLISH = "banco_to_publish"

# Read by the SQLite "begin" hook in companion/__init__.py: a write transaction starts with
# BEGIN IMMEDIATE so it holds the write lock from its first statement.
WRITE_INTENT: contextvars.ContextVar[bool] = contextvars.ContextVar("banco_write_intent", default=False)
# Set on the writer's thread, whose batches' answers wait for their news (``Writer``), not its
# transactions: it goes on to the next batch while the newsroom draws.
ANSWERS_AFTER_NEWS: contextvars.ContextVar[bool] = contextvars.ContextVar("banco_answers_after_news", default=False)
# Set inside ``reading()``'s snapshot: what is read there is of one version (``in_snapshot``).
_SNAPSHOT: contextvars.ContextVar[bool] = contextvars.ContextVar("banco_snapshot", default=False)


@contextmanager
def writing():
    """One write transaction: commits on success, rolls back on any refusal or error. Tells the
    broker when a write finds the database unable to save (``faults``), and when one is saved
    again: the live pages say so.

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
            GAMES.committed()
        except BaseException as error:
            db.session.info.pop(_TO_PUBLISH, None)
            db.session.rollback()
            GAMES.forget()
            if is_storage_fault(error) and banco().broker.saving(False):
                log.error(
                    "The database cannot save (%s): every change is refused until it can.",
                    getattr(error, "orig", error),
                )
            raise
        finally:
            WRITE_INTENT.reset(token)
    # Announced only once committed, so no phone is told of a version it cannot read yet; this
    # process's streams hear it from the newsroom, with its news, the other processes' through
    # the NOTIFY above.
    shared = banco()
    if shared.broker.saving(True):
        log.warning("The database saves again.")
    published = db.session.info.pop(_TO_PUBLISH, {})
    if not published:
        return
    GAMES.share(published)
    shared.newsroom.committed(published)
    if any(changed is None or AUCTION in changed for versions in published.values() for changed in versions.values()):
        shared.closer.wake()  # it sleeps while no auction is open (``services.closer``)
    if not ANSWERS_AFTER_NEWS.get():
        shared.newsroom.wait()  # a request's own answer never runs ahead of its game's pages


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
    GAMES.snapshot_ended()
    if db.engine.dialect.name == "postgresql":
        # Before the transaction's first statement: PostgreSQL takes the snapshot at it.
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    token = _SNAPSHOT.set(True)
    try:
        yield
    finally:
        _SNAPSHOT.reset(token)
        GAMES.snapshot_ended()
        db.session.rollback()


def in_snapshot() -> bool:
    """Whether this code runs inside ``reading()``'s snapshot and writes nothing: the game's
    rows it reads are all of the version its row says."""
    return _SNAPSHOT.get() and not WRITE_INTENT.get() and not GAMES.keeps()


def announce(game: Game, parts: frozenset[str]) -> None:
    """Marks the game's new version, which changed ``parts`` (``core.parts``), to be announced
    to its live pages after the commit."""
    db.session.info.setdefault(_TO_PUBLISH, {}).setdefault(game.id, {})[game.version] = parts


def rollback() -> None:
    """Drops whatever the request's session holds (the error handlers' way out), the states it
    keeps included (``repository.GameRepository.forget``)."""
    db.session.rollback()
    GAMES.forget()


def lock_game(game_id) -> Game:
    """The game's row, locked for this write transaction (``repository.GameRepository.lock``);
    refuses an unknown id (404)."""
    return GAMES.lock(game_id)


def keep_games(most: int) -> None:
    """Makes this thread's session keep its last ``most`` games between its transactions
    (``repository.GameRepository.keep``): the server's writer."""
    GAMES.keep(most)


def find_game(game_id) -> GameRecord | None:
    """The game with this id, or ``None``: as plain rows inside a read snapshot (``reading``),
    else the ORM's ``Game``, to write (``repository.GameRepository.find``)."""
    return GAMES.find(game_id, snapshot=in_snapshot())


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
        GAMES.forget()
        raise
