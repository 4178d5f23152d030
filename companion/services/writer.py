"""The writer: one thread that runs every action of the process, a batch at a time (group commit).

Whoever brings an action queues it here: a page's or the API's thread (``submit``, which waits
for its answer), or the server's event loop (``post``, told when its actions have run, so a
request waiting takes no thread). When the writer is idle it takes every action waiting as one
batch and runs it (``run_batch``: one transaction, one commit); the actions that arrive
meanwhile form the next batch. One commit (one ``fsync`` with ``synchronous=FULL``, one
``BEGIN IMMEDIATE``, one turn of the database's write lock) then serves a whole batch, and each
action is answered only once that commit is on the disk.

The thread starts with the first action and ends after ``IDLE_SECONDS`` without one (or when
told to ``stop``): an app that never acts, as most in the tests, keeps no thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from .faults import is_storage_fault

if TYPE_CHECKING:
    from ..metrics import Metrics

IDLE_SECONDS = 30.0

log = logging.getLogger(__name__)


class Waiting:
    """One action in the queue: ``run_batch`` sets its ``answer`` or its ``error``."""

    __slots__ = ("answer", "error")

    def __init__(self) -> None:
        self.answer: Any = None  # an action's ``{"version", "result"}``
        self.error: BaseException | None = None


class Writer:
    """Runs ``run_batch`` on its thread, inside ``surroundings()`` (entered once per thread: the
    app's context, a session that keeps what it read); counts its queue and its batches in
    ``metrics``, where given. With ``settle``, a batch is answered through it (``settle(answer)``:
    the newsroom calls it once the batch's versions are told to the pages), so the thread goes
    on to the next batch meanwhile."""

    def __init__(
        self,
        run_batch: Callable[[list], None],
        surroundings: Callable[[], AbstractContextManager] = nullcontext,
        idle_seconds: float = IDLE_SECONDS,
        metrics: Metrics | None = None,
        settle: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        self.run_batch = run_batch
        self._settle = settle
        self._metrics = metrics
        self._surroundings = surroundings
        self._idle_seconds = idle_seconds
        self._lock = threading.Lock()
        self._woken = threading.Condition(self._lock)
        self._queue: list[tuple[list[Waiting], Callable[[], None]]] = []
        self._thread: threading.Thread | None = None
        self._stopping = False

    def submit(self, work: Waiting) -> None:
        """Runs ``work`` in the next batch; returns once that batch has committed, or has failed
        as a whole (its ``answer`` or ``error`` set)."""
        ran = threading.Event()
        self.post([work], ran.set)
        ran.wait()

    def post(self, works: list[Waiting], done: Callable[[], None]) -> None:
        """Queues ``works`` for the next batch; ``done()`` is called once they have run (each
        one's ``answer`` or ``error`` set) and their game's pages are told, on the writer's
        thread or the newsroom's. Returns at once."""
        with self._lock:
            self._queue.append((works, done))
            if self._metrics is not None:
                self._metrics.queued(len(works))
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="banco-writer", daemon=True)
                self._thread.start()
            else:
                self._woken.notify()

    def stop(self, wait: float = 0) -> None:
        """Ends the thread once the actions queued have run; an action queued later starts it
        again. With ``wait``, returns once it has ended (or that many seconds have passed): the
        server's last backup is taken after the last commit."""
        with self._lock:
            self._stopping = True
            self._woken.notify()
            thread = self._thread
        if wait and thread is not None and thread is not threading.current_thread():
            thread.join(wait)

    def _serve(self) -> None:
        with self._surroundings():
            while True:
                with self._lock:
                    while not self._queue:
                        idle = self._stopping or not self._woken.wait(self._idle_seconds)
                        if idle and not self._queue:
                            self._thread, self._stopping = None, False
                            return
                    taken, self._queue = self._queue, []
                batch = [work for works, _ in taken for work in works]
                if self._metrics is not None:
                    self._metrics.taken(len(batch))
                self._run(batch)
                answer = _answerer([done for _, done in taken])
                if self._settle is None:
                    answer()
                else:
                    self._settle(answer)

    def _run(self, batch: list[Waiting]) -> None:
        """Runs ``batch``; when it fails as a whole (its commit: nothing of it holds), once more,
        as a request retried would be; failing again, each of its actions carries the error."""
        try:
            self.run_batch(batch)
            return
        except Exception as error:
            # A database that cannot save is said once, where it is found (``tx.writing``).
            log.warning(
                "a batch of %d actions failed; it runs once more", len(batch), exc_info=not is_storage_fault(error)
            )
        for work in batch:
            work.answer, work.error = None, None
        try:
            self.run_batch(batch)
        except BaseException as error:
            for work in batch:
                work.answer, work.error = None, error


def _answerer(calls: list[Callable[[], None]]) -> Callable[[], None]:
    """One call that makes each of ``calls`` (the batch's ``done``s), whatever the others do."""

    def answer() -> None:
        for done in calls:
            try:
                done()
            except Exception:  # a server's loop closed meanwhile: nobody waits any more
                log.warning("an action's answer found nobody waiting", exc_info=True)

    return answer
