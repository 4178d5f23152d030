"""What a server counts for its host's monitoring, in Prometheus' terms (``GET /metrics``,
docs/operations.md): the requests answered and the actions taken, by kind and outcome; how long
an action takes, from its request read to its answer; the live streams open; the writer's queue
and its batches; the refusals, by the limit that refused them.

Each app counts in its own registry (the tests make hundreds of apps in one process). With
``BANCO_WORKERS`` above 1 a scrape reaches one worker of several through the shared socket, so
the workers count in files of one folder that the parent makes before it starts them
(``shared_folder``: prometheus_client's multiprocess mode, chosen by
``PROMETHEUS_MULTIPROC_DIR`` in each worker's environment before it imports the library), and
whichever worker is asked reads every worker's files: the numbers are the whole server's.

Counting sits on the action's path, so it costs a dictionary lookup and a few additions: the
labelled counters' children are kept by their labels (``labels`` looks them up, under a lock,
at several times the cost of counting).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import values as _values
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST
# An action waits for its batch's commit: a few milliseconds on a quiet table, longer in a
# club's burst or on a slow disk.
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
# An action's answer by its status: done, money held for the banker, the database unable to
# save, an unexpected failure; any other status is a refusal (the caller's, or the rules').
OUTCOMES = {200: "done", 202: "held", 503: "unavailable", 500: "failed"}


class Metrics:
    """One app's counters (``companion.extension.Banco.metrics``)."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.requests = Counter(
            "banco_requests",
            "Requests answered by the server, by kind (action, stream, api, page, static, operator) and status.",
            ["kind", "status"],
            registry=registry,
        )
        self.actions = Counter(
            "banco_actions",
            "Actions answered, by type and outcome (done, held, refused, unavailable, failed).",
            ["kind", "outcome"],
            registry=registry,
        )
        self.action_seconds = Histogram(
            "banco_action_seconds",
            "Seconds from an action's request read to its answer, its batch's commit included.",
            buckets=ACTION_BUCKETS,
            registry=registry,
        )
        self.streams = Gauge(
            "banco_streams_open",
            "Live streams held open.",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.writer_queue = Gauge(
            "banco_writer_queue",
            "Actions handed to the writer and not yet taken into a batch.",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self.batch_actions = Histogram(
            "banco_writer_batch_actions",
            "Actions in each batch the writer runs (one transaction, one commit).",
            buckets=BATCH_BUCKETS,
            registry=registry,
        )
        self.refusals = Counter(
            "banco_refusals",
            "Requests and connections refused by a limit, by which (crowded, full, streams, guesses, "
            "creations, body_too_large, body_too_slow, head_too_large, head_too_slow, busy_importing).",
            ["limit"],
            registry=registry,
        )
        self._answered: dict = {}
        self._acted: dict = {}
        self._refused: dict = {}

    def answered(self, kind: str, status: int) -> None:
        """One request answered (its answer begun): ``kind`` as the server tells it apart."""
        child = self._answered.get((kind, status))
        if child is None:
            child = self._answered[kind, status] = self.requests.labels(kind, str(status))
        child.inc()

    def acted(self, kind: str | None, status: int, seconds: float) -> None:
        """One action answered with ``status`` after ``seconds``; ``kind`` its type (``None``
        when the request did not name one the bank knows)."""
        child = self._acted.get((kind, status))
        if child is None:
            child = self._acted[kind, status] = self.actions.labels(kind or "unknown", OUTCOMES.get(status, "refused"))
        child.inc()
        self.action_seconds.observe(seconds)

    def refused(self, limit: str) -> None:
        """One request (or connection) refused by ``limit``."""
        child = self._refused.get(limit)
        if child is None:
            child = self._refused[limit] = self.refusals.labels(limit)
        child.inc()

    def queued(self, count: int) -> None:
        """``count`` actions handed to the writer."""
        self.writer_queue.inc(count)

    def taken(self, count: int) -> None:
        """A batch of ``count`` actions taken from the writer's queue."""
        self.writer_queue.dec(count)
        self.batch_actions.observe(count)

    def exposition(self) -> bytes:
        """The text a scrape reads: this app's counters, or, in a worker of several, every
        worker's (``shared_folder``)."""
        if not multiprocess():
            return generate_latest(self.registry)
        everyone = CollectorRegistry()
        MultiProcessCollector(everyone)
        return generate_latest(everyone)


def multiprocess() -> bool:
    """Whether this process counts in the workers' shared folder: decided once, when
    prometheus_client was imported, by ``PROMETHEUS_MULTIPROC_DIR``."""
    return _values.ValueClass is not _values.MutexValue


@contextlib.contextmanager
def shared_folder() -> Iterator[str]:
    """A new, empty folder where the workers started inside count together, named to them
    by ``PROMETHEUS_MULTIPROC_DIR`` in this process's environment (which each worker inherits);
    removed after, and the environment as it was. A folder of an earlier run would add its
    numbers to this one's, so the host's own setting of the variable is set aside too."""
    before = os.environ.get(MULTIPROCESS_VARIABLE)
    folder = tempfile.mkdtemp(prefix="banco-metrics-")
    os.environ[MULTIPROCESS_VARIABLE] = folder
    try:
        yield folder
    finally:
        if before is None:
            os.environ.pop(MULTIPROCESS_VARIABLE, None)
        else:
            os.environ[MULTIPROCESS_VARIABLE] = before
        shutil.rmtree(folder, ignore_errors=True)


def gone(pid: int, folder: str) -> None:
    """Forgets the gauges of the worker ``pid``, which has stopped (its streams and its queue
    are no longer open); its counters stay in the whole server's."""
    mark_process_dead(pid, folder)
