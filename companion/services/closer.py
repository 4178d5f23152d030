"""Auctions close themselves: when an auction's countdown runs out, the server closes it, whether
or not any page of the game is open (before, only the Bank's page, or the wallet of a banker who
plays, closed it from the browser).

One thread per server process (``Closer``, started and stopped with the server) looks every
``SWEEP_SECONDS`` for running games whose open auction's ``ends_at`` has passed, and hands each
to the app's one writer as the table's own ``auction_close`` (``actions.overdue_close``), which
the writer runs like any action, in its batch, under the game's lock: there it is refused,
changing nothing, unless the countdown has still run out at that moment (a bid that came first
moved it on), so a close never races a bid. The state is the database's, so this holds across
worker processes (each sweeps; the second close of one auction finds none) and across restarts
(an auction whose countdown ran out while the server was down is closed at the first sweep).

A close the table may not make is left to the banker, as the Bank's page left it: an auction
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

SWEEP_SECONDS = 1.0

log = logging.getLogger(__name__)


def overdue_auctions(now) -> list[tuple[str, int]]:
    """The running games whose open auction's countdown has run out at ``now``, as
    ``(id, version)``."""
    rows = db.session.execute(select(Game.id, Game.version, Game.auction).where(Game.status == RUNNING)).all()
    return [(gid, version) for gid, version, auction in rows if auction and is_past(now, auction.get("ends_at"))]


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
    """Closes the auctions whose countdown has run out, every ``seconds``, through ``writer``."""

    def __init__(self, app, writer: Writer, seconds: float = SWEEP_SECONDS) -> None:
        self.app, self.writer, self.seconds = app, writer, seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._left: dict[str, int] = {}  # game id: the version at which its close was left to the banker

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="banco-auction-closer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None

    def _serve(self) -> None:
        with self.app.app_context():
            while not self._stop.wait(self.seconds):
                try:
                    self.sweep()
                except Exception:  # a database away for a moment: the next sweep tries again
                    log.warning("closing the auctions whose countdown ran out failed", exc_info=True)
                finally:
                    db.session.remove()

    def sweep(self) -> list[str]:
        """Closes every auction whose countdown has run out and that the table may close;
        returns the ids of the games whose auction it closed."""
        now = now_utc()
        due = overdue_auctions(now)
        db.session.rollback()  # the read is over: hold no transaction while the writer writes
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
