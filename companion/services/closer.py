"""Auctions close themselves: when an auction's countdown runs out, the server closes it, whether
or not any page of the game is open, so an auction never waits on a browser that was closed or
put to sleep.

One thread per server process (``Closer``, started and stopped with the server) looks for running
games whose open auction's ``ends_at`` has passed, and hands each to the app's one writer as the
table's own ``auction_close`` (``actions.overdue_close``), which the writer runs like any action,
in its batch, under the game's lock: there it is refused, changing nothing, unless the countdown
has still run out at that moment (a bid that came first moved it on), so a close never races a
bid. The state is the database's, so this holds across worker processes (each looks; the second
close of one auction finds none) and across restarts (an auction whose countdown ran out while
the server was down is closed at the first look, as the server starts).

It looks every ``SWEEP_SECONDS`` while an auction is open, and otherwise sleeps: a commit of this
process that changed an auction wakes it (``wake``, from ``tx.writing``), and it looks anyway
every ``IDLE_SECONDS`` for an auction opened by another server process that has stopped since.
A table that is not auctioning costs it nothing: a query every second would be a large part of
what an idle server does.

A close the table may not make is left to the banker, as it needs a person's judgement: an auction
the banker reopened with undo (it runs again from the next bid, or the banker closes it), a
winner still raising cash or a tie the banker settles (the rules refuse those), and, where the
richest player buys at the opening bid when nobody bids (the championship), an auction nobody
bid in. Each is looked at again only once the game has moved on (its version changed), so a
stuck auction costs one read per change, not a write a second.
"""

from __future__ import annotations

import logging
import threading

from sqlalchemy import select

from ..core.errors import BancoError
from ..core.rules.common import is_past
from ..core.state import RUNNING
from ..store import Game, db, now_utc
from .actions import overdue_close, preview, require_overdue, table_may_close
from .journal import state_of
from .seats import Caller
from .writer import Writer

SWEEP_SECONDS = 1.0  # while an auction is open: how late a close may be
IDLE_SECONDS = 60.0  # with none open here: how late this process sees one another process opened

log = logging.getLogger(__name__)


def open_auctions() -> list[tuple[str, int, str | None]]:
    """The running games with an open auction, as ``(id, version, ends_at)``."""
    rows = db.session.execute(select(Game.id, Game.version, Game.auction).where(Game.status == RUNNING)).all()
    return [(gid, version, auction.get("ends_at")) for gid, version, auction in rows if auction]


def closable(game_id: str, now) -> bool:
    """Whether the table may close the game's auction now: read, as the writer will judge it
    (``require_overdue``, then the rules' own close, previewed, and ``table_may_close``)."""
    game = db.session.get(Game, game_id)
    if game is None:
        return False
    state = state_of(game)
    try:
        require_overdue(game, state, now)
        table_may_close(state, preview(game, Caller(game.id, True, None), {"type": "auction_close"}, state))
    except BancoError:
        return False
    finally:
        db.session.rollback()  # the read is over: hold no transaction while the writer writes
    return True


class Closer:
    """Closes the auctions whose countdown has run out through ``writer``: every ``seconds``
    while one is open, else when woken or every ``idle_seconds``."""

    def __init__(self, app, writer: Writer, seconds: float = SWEEP_SECONDS, idle_seconds: float = IDLE_SECONDS) -> None:
        self.app, self.writer = app, writer
        self.seconds, self.idle_seconds = seconds, idle_seconds
        self._stop = threading.Event()
        self._woken = threading.Event()
        self._thread: threading.Thread | None = None
        self._left: dict[str, int] = {}  # game id: the version at which its close was left to the banker
        self._watching = False  # whether the last look found an auction open

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="banco-auction-closer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._woken.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def wake(self) -> None:
        """An auction of this process changed (opened, bid on, closed): look now. From any thread;
        nothing happens when the closer does not run."""
        self._woken.set()

    def _serve(self) -> None:
        with self.app.app_context():
            while not self._stop.is_set():
                self._woken.clear()  # before the look: a wake during it makes the next one
                try:
                    self.sweep()
                except Exception:  # a database away for a moment: look again soon
                    self._watching = True
                    log.warning("closing the auctions whose countdown ran out failed", exc_info=True)
                finally:
                    db.session.remove()
                self._woken.wait(self.seconds if self._watching else self.idle_seconds)

    def sweep(self) -> list[str]:
        """Closes every auction whose countdown has run out and that the table may close;
        returns the ids of the games whose auction it closed."""
        now = now_utc()
        running = open_auctions()
        db.session.rollback()  # the read is over: hold no transaction while the writer writes
        self._watching = bool(running)
        due = [(game_id, version) for game_id, version, ends_at in running if is_past(now, ends_at)]
        closed = []
        for game_id, version in due:
            if self._left.get(game_id) == version:
                continue
            if not closable(game_id, now):
                self._left[game_id] = version
                continue
            work = overdue_close(game_id)
            self.writer.submit(work)
            if work.error is None:
                closed.append(game_id)
            elif not isinstance(work.error, BancoError):
                log.warning("closing the auction of game %s failed", game_id, exc_info=work.error)
        self._left = {gid: v for gid, v in self._left.items() if any(gid == g for g, _ in due)}
        return closed
