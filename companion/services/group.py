"""Group commit: the actions that arrive while a transaction is committing are committed
together by the next one, each answered only once that commit is on the disk.

No thread of its own: the first request to find nobody writing becomes the **leader**. It
takes every action waiting (its own among them), runs them in one transaction
(``run_batch``), commits once, then wakes each one's request with its answer. Requests that
arrive meanwhile wait in the queue; when the leader is done, the first of them leads the
next batch. A leader leads one batch only, so no request answers late because others kept
arriving. One commit (one ``fsync`` with ``synchronous=FULL``, one ``BEGIN IMMEDIATE``, one
turn of the process's write lock) then serves a whole batch.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Waiting:
    """One piece of work in the queue: ``run_batch`` sets its ``answer`` or its ``error``."""

    __slots__ = ("_leads", "_woken", "answer", "error")

    def __init__(self) -> None:
        self.answer = None
        self.error: BaseException | None = None
        # Made by ``Group.submit``, the only one that waits on it (the slot stays empty until
        # then): the server's writer runs most actions without a Group, and an Event (a
        # Condition and two locks) is not free.
        self._woken: threading.Event
        self._leads = False

    def outcome(self):
        if self.error is not None:
            raise self.error
        return self.answer


class Group:
    def __init__(self, run_batch: Callable[[list], None]) -> None:
        self._run_batch = run_batch
        self._lock = threading.Lock()
        self._queue: list[Waiting] = []
        self._leading = False

    def submit(self, work: Waiting):
        """Runs ``work`` in the next batch and returns its answer (or raises its error) once
        that batch has committed, or has failed as a whole."""
        work._woken = threading.Event()
        with self._lock:
            self._queue.append(work)
            leads = not self._leading
            self._leading = True
        if not leads:
            work._woken.wait()
            if not work._leads:
                return work.outcome()
        with self._lock:
            batch, self._queue = self._queue, []
        try:
            self._run_batch(batch)
        except BaseException as error:  # the batch failed as a whole (its commit): nothing of it holds
            for waiting in batch:
                waiting.answer, waiting.error = None, error
        finally:
            for waiting in batch:
                if waiting is not work:
                    waiting._woken.set()
            with self._lock:
                if self._queue:
                    following = self._queue[0]
                    following._leads = True
                    following._woken.set()
                else:
                    self._leading = False
        return work.outcome()
