"""The newsroom: what a game's committed versions tell its pages, drawn after the commit and off
the writer's thread, then handed to the broker (``docs/live.md``, *News*).

A write transaction records only which game and versions it made, and which parts each changed
(``services.tx``). Once committed it hands them here. For a game that some page reads
(``Broker.spoken``), the newsroom's own thread draws their news (``draw``, handed in by the
app: ``companion.web.news.draw_news``) from the committed state, in every language the game is
read in, and only then tells the broker, so a page never hears of a version before its news.
A game that no page reads is told at once, on the committing thread, when nothing is queued.

Whoever committed waits for its pages to be told (``after``), so an answer never runs ahead
of the pages: the writer's thread does not wait (its batches' answers do), a request's thread
does (``wait``). Versions of one game queued together are drawn together, once; a version the
game has already moved on from by the time it is drawn is told without news, and its pages
fetch what changed. Plain Python, on the loop's floor: no Flask, the drawing is handed in.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext

from .broker import Broker
from .news import News

IDLE_SECONDS = 30.0

Versions = Mapping[int, frozenset[str] | None]  # version -> the parts it changed, when known
# (game id, its versions, the languages to draw in) -> each version's news; none where it cannot say
Draw = Callable[[str, Versions, frozenset[str]], Mapping[int, News | None]]

log = logging.getLogger(__name__)


class Newsroom:
    """Draws the news of committed versions on its own thread (started by the first one that has
    a reader, ended after ``idle_seconds`` without one), inside ``surroundings()`` (entered once
    per thread: the app's context), and tells ``broker``."""

    def __init__(
        self,
        broker: Broker,
        draw: Draw | None = None,
        surroundings: Callable[[], AbstractContextManager] = nullcontext,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.broker = broker
        self._draw = draw
        self._surroundings = surroundings
        self._idle_seconds = idle_seconds
        self._lock = threading.Lock()
        self._woken = threading.Condition(self._lock)
        # In commit order: a game's versions to tell, or a call to make once those before are told.
        self._queue: list[tuple[str, dict[int, frozenset[str] | None]] | Callable[[], None]] = []
        self._telling = False  # the thread is telling what it took from the queue
        self._thread: threading.Thread | None = None
        self._stopping = False

    def committed(self, games: Mapping[str, Versions]) -> None:
        """``games``' versions are committed: their pages are told, with their news where some
        page reads them. Returns at once; ``after`` says when they are told."""
        with self._lock:
            if self._queue or self._telling or any(self._drawn(game_id) for game_id in games):
                self._queue.extend((game_id, dict(versions)) for game_id, versions in games.items())
                self._wake()
                return
        for game_id, versions in games.items():
            self.broker.publish_all(game_id, versions)

    def after(self, then: Callable[[], None]) -> None:
        """Calls ``then()`` once every version committed before it is told: at once when none
        waits, else on the newsroom's thread."""
        with self._lock:
            if self._queue or self._telling:
                self._queue.append(then)
                self._wake()
                return
        then()

    def wait(self, seconds: float | None = None) -> None:
        """Returns once every version committed before is told (or ``seconds`` have passed)."""
        told = threading.Event()
        self.after(told.set)
        told.wait(seconds)

    def stop(self, wait: float = 0) -> None:
        """Ends the thread once what is queued is told; a version with a reader starts it again.
        With ``wait``, returns once it has ended (or that many seconds have passed)."""
        with self._lock:
            self._stopping = True
            self._woken.notify()
            thread = self._thread
        if wait and thread is not None and thread is not threading.current_thread():
            thread.join(wait)

    def _drawn(self, game_id: str) -> bool:
        return self._draw is not None and bool(self.broker.spoken(game_id))

    def _wake(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="banco-newsroom", daemon=True)
            self._thread.start()
        else:
            self._woken.notify()

    def _serve(self) -> None:
        with self._surroundings():
            while True:
                with self._lock:
                    self._telling = False
                    while not self._queue:
                        idle = self._stopping or not self._woken.wait(self._idle_seconds)
                        if idle and not self._queue:
                            self._thread, self._stopping = None, False
                            return
                    taken, self._queue, self._telling = self._queue, [], True
                self._tell(taken)

    def _tell(self, taken: list) -> None:
        """Tells the broker of every game's versions in ``taken`` (each game's drawn once, for
        all of them), then makes the calls waiting on them, in order."""
        games: dict[str, dict[int, frozenset[str] | None]] = {}
        calls: list[Callable[[], None]] = []
        for item in taken:
            if callable(item):
                calls.append(item)
            else:
                games.setdefault(item[0], {}).update(item[1])
        for game_id, versions in games.items():
            try:
                self.broker.publish_all(game_id, versions, self._news(game_id, versions))
            except Exception:  # the calls below still run: an answer never waits for ever
                log.exception("game %s's versions %s could not be told", game_id, sorted(versions))
        for call in calls:
            try:
                call()
            except Exception:  # a server's loop closed meanwhile: nobody waits any more
                log.warning("a call waiting for the news found nobody waiting", exc_info=True)

    def _news(self, game_id: str, versions: Versions) -> Mapping[int, News | None]:
        spoken = self.broker.spoken(game_id)
        if self._draw is None or not spoken:
            return {}
        try:
            return self._draw(game_id, versions, spoken)
        except Exception:  # news is a saving: without it, the pages fetch what changed
            log.warning(
                "the news of game %s's versions %s could not be drawn", game_id, sorted(versions), exc_info=True
            )
            return {}
