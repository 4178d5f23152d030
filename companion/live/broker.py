"""Live updates inside one server process: who is waiting for which game's next version.

A command that commits calls ``publish`` (from any of the app's threads); every open stream
of that game wakes at once, and only those: each game has its own waiters, so a busy table
never wakes another table's phones. The streams wait on the server's event loop
(``companion.serve``), so an idle phone costs a future, not a thread; ``publish`` hands the
wake-up to that loop. Waiting costs no database query: the stream compares the version it has
shown with the latest one published here. A stream that starts after a restart reads the
current version from the database once. With several server processes (PostgreSQL), each has
its own broker, and each hears the others' versions through ``companion.live.fanout``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Mapping

from .news import News

# The parts (``core.parts``) of each game's last versions, kept so that a stream a few versions
# behind is told what changed since without a database read.
KEPT_VERSIONS = 64


class Broker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._parts: dict[str, dict[int, frozenset[str]]] = {}
        self._news: dict[str, dict[int, News]] = {}  # of the versions whose parts are kept
        # The languages each game's readers have read it in here: its news is made in those alone.
        self._spoken: dict[str, frozenset[str]] = {}
        self._waiters: dict[str, set[asyncio.Future]] = {}  # touched on the loop only
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closing = False
        # Whether this process's last write found the database unable to save (a full disk, a
        # read-only file): every live page says so until a write succeeds again.
        self.cannot_save = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the streams wait on (the server's; a restarted server brings its own)."""
        self._loop = loop
        self.closing = False

    def publish(self, game_id: str, version: int, parts: frozenset[str] | None = None) -> None:
        """``game_id`` is at ``version`` now; ``parts``, when known, are what that version changed."""
        self.publish_all(game_id, {version: parts})

    def publish_all(
        self,
        game_id: str,
        versions: Mapping[int, frozenset[str] | None],
        news: Mapping[int, News | None] | None = None,
    ) -> None:
        """``game_id`` went through ``versions`` (each with the parts it changed, when known, and
        its ``news`` when made: ``companion.live.news``), committed together: its streams wake
        once, for the newest."""
        newest = max(versions)
        with self._lock:
            known = {version: parts for version, parts in versions.items() if parts is not None}
            kept = self._parts.setdefault(game_id, {}) if known else self._parts.get(game_id, {})
            kept.update(known)
            told = self._news.setdefault(game_id, {})
            for version in versions:
                said = (news or {}).get(version)
                if said is not None and version in known:
                    told[version] = said
                else:
                    told.pop(version, None)
            if len(kept) > KEPT_VERSIONS:
                for old in sorted(kept)[:-KEPT_VERSIONS]:
                    del kept[old]
                    told.pop(old, None)
            if newest <= self._versions.get(game_id, -1):
                return  # a slower writer's older version: its streams have heard of a newer one
            self._versions[game_id] = newest
        loop = self._loop
        if loop is not None and not loop.is_closed():
            # The loop may close between the check and the call: then no stream is left.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake, game_id)

    def saving(self, saved: bool) -> bool:
        """A write of this process was saved (``saved``), or failed as the database cannot
        save; every open stream wakes when that changes, to tell its page. Says whether it
        changed."""
        if self.cannot_save is not saved:
            return False  # as it was, as after nearly every write: no lock taken
        with self._lock:
            if self.cannot_save is not saved:
                return False
            self.cannot_save = not saved
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake_all)
        return True

    def read_in(self, game_id: str, lang: str) -> None:
        """A page or client of ``game_id`` reads it in ``lang`` (its stream opens, it catches
        up): from now on the game's news is made in that language too."""
        if lang not in self._spoken.get(game_id, ()):
            with self._lock:
                self._spoken[game_id] = self._spoken.get(game_id, frozenset()) | {lang}

    def spoken(self, game_id: str) -> frozenset[str]:
        """The languages ``game_id`` has been read in here (``read_in``): none for a game nobody
        has opened a stream or caught up on since this process started."""
        return self._spoken.get(game_id, frozenset())

    def known(self) -> list[str]:
        """Every game this process has a version of (those its streams are on among them)."""
        with self._lock:
            return list(self._versions)

    def latest(self, game_id: str) -> int | None:
        return self._versions.get(game_id)

    def parts_since(self, game_id: str, seen: int, upto: int | None = None) -> frozenset[str] | None:
        """The parts changed by ``game_id``'s versions after ``seen`` up to ``upto`` (the latest),
        or ``None`` when this process does not know them all (too far behind, heard of a
        version without its parts, started after them)."""
        with self._lock:
            upto = self._versions.get(game_id) if upto is None else upto
            if upto is None:
                return None
            kept = self._parts.get(game_id, {})
            parts: set[str] = set()
            for version in range(seen + 1, upto + 1):
                if version not in kept:
                    return None
                parts |= kept[version]
            return frozenset(parts)

    def news_since(self, game_id: str, seen: int, upto: int) -> list[News | None]:
        """The news of ``game_id``'s versions after ``seen`` up to ``upto``, oldest first, each
        ``None`` where this process has none (``companion.live.news.told`` then says nothing)."""
        with self._lock:
            told = self._news.get(game_id, {})
            return [told.get(version) for version in range(seen + 1, upto + 1)]

    def _wake(self, game_id: str) -> None:
        for waiter in self._waiters.pop(game_id, ()):
            if not waiter.done():
                waiter.set_result(None)

    def waiter(self, game_id: str, seen: int) -> asyncio.Future:
        """On the loop: a future done as soon as ``game_id`` passes version ``seen`` (at once
        when it already has) or the broker closes. Its owner calls ``forget`` when done with it."""
        future = asyncio.get_running_loop().create_future()
        # No wake-up can slip between the check and the registration: both run on the loop,
        # and ``publish`` sets the version before it schedules the wake-up.
        if self.closing or self._versions.get(game_id, -1) > seen:
            future.set_result(None)
        else:
            self._waiters.setdefault(game_id, set()).add(future)
        return future

    def forget(self, game_id: str, future: asyncio.Future) -> None:
        waiters = self._waiters.get(game_id)
        if waiters is not None:
            waiters.discard(future)
            if not waiters:
                del self._waiters[game_id]

    def close(self) -> None:
        """Ends every open stream at once (the server is stopping); browsers reconnect."""
        self.closing = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake_all)

    def _wake_all(self) -> None:
        for game_id in list(self._waiters):
            self._wake(game_id)
