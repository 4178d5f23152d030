"""Limits per client address kept in PostgreSQL (the table ``limit_place``), so that every worker
process and every machine on the same database counts the same places, and a restart forgets
none (``web.ratelimit`` says what the limits are; on SQLite, with its one process, they stay in
memory).

Each place taken is one row, with the database's clock's time it leaves its window: machines
whose clocks disagree still count one window. Taking a place is one short transaction of its
own, on a small pool of its own: a request's rollback cannot undo a guess it counted, and a
request that holds one of the app's pooled connections never waits for another of the same pool
(with every request doing so, none would get one). In it, an advisory lock on the key queues
the attempts of one address, so two arriving at once cannot both take the last place; the
expired places of that key are deleted, then a new place is inserted only while fewer than the
limit are held. A place given back (a new thing refused) is deleted. Every ``SWEEP_SECONDS``
the places of every key that have left their window are deleted, so the table holds only the
places of the last window.
"""

from __future__ import annotations

import math
import threading
import time
import zlib

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url

# How often a process deletes every place that has left its window.
SWEEP_SECONDS = 60.0
# The connections a process keeps for its limits: one short transaction each attempt.
POOL_SIZE = 2
# The first half of the advisory locks' keys (``pg_advisory_xact_lock(int, int)``, a key space
# apart from the migrations' one-number lock): the limits' own, "BaLm".
_LOCKS = 0x42614C6D
APPLICATION_NAME = "banco-limits"  # how its sessions are named in pg_stat_activity
KEY_LENGTH = 200  # limit_place.key

# The expired places of the key deleted, and a place taken if fewer than the limit are held:
# its id (null when refused) and the seconds until the oldest held leaves its window. One
# statement, one instant (``now``): run under the key's lock, taken by the statement before,
# so it sees every place the attempt before took.
_TAKE = text(
    """
    WITH now AS (SELECT clock_timestamp() AS t),
    gone AS (DELETE FROM limit_place WHERE key = :key AND leaves_at <= (SELECT t FROM now)),
    held AS (
        SELECT count(*) AS n, min(leaves_at) AS first FROM limit_place
        WHERE key = :key AND leaves_at > (SELECT t FROM now)
    ),
    taken AS (
        INSERT INTO limit_place (key, taken_at, leaves_at)
        SELECT :key, now.t, now.t + make_interval(secs => :window) FROM now, held WHERE held.n < :limit
        RETURNING id
    )
    SELECT (SELECT id FROM taken), extract(epoch FROM held.first - now.t) FROM held, now
    """
)


class Places:
    """The places of every limit on the PostgreSQL database at ``url``, through a pool of its
    own (opened at the first attempt)."""

    def __init__(self, url: str, sweep_seconds: float = SWEEP_SECONDS) -> None:
        self.url = url
        self.sweep_seconds = sweep_seconds
        self._engine: Engine | None = None
        self._opening = threading.Lock()
        self._swept_at = time.monotonic()
        self._sweeping = threading.Lock()

    def limiter(self, scope: str, limit: int, window_seconds: float) -> SharedLimiter:
        """A limit of ``limit`` places per client in any ``window_seconds``, its keys
        ``scope`` and the client's (``limit`` 0: no limit)."""
        return SharedLimiter(self, scope, limit, window_seconds)

    def take(self, key: str, limit: int, window_seconds: float) -> tuple[int, int]:
        """``(0, place)``: a place taken for ``key``; ``(seconds, 0)``: refused, nothing
        taken, the oldest place held leaves its window in ``seconds``."""
        with self.engine().begin() as connection:
            connection.execute(
                text("SELECT pg_advisory_xact_lock(CAST(:space AS integer), CAST(:lock AS integer))"),
                {"space": _LOCKS, "lock": _lock(key)},
            )
            place, first_leaves_in = connection.execute(
                _TAKE, {"key": key, "limit": limit, "window": float(window_seconds)}
            ).one()
        self._sweep_now_and_then()
        if place is not None:
            return 0, int(place)
        return max(1, math.ceil(float(first_leaves_in))), 0

    def give_back(self, place: int) -> None:
        """Deletes ``place``: it counts no more. One already gone changes nothing."""
        with self.engine().begin() as connection:
            connection.execute(text("DELETE FROM limit_place WHERE id = :place"), {"place": place})

    def sweep(self) -> int:
        """Deletes every place, of every key, that has left its window; how many."""
        with self.engine().begin() as connection:
            return connection.execute(text("DELETE FROM limit_place WHERE leaves_at <= clock_timestamp()")).rowcount

    def close(self) -> None:
        """Closes the pool's connections (a new attempt opens them again)."""
        with self._opening:
            if self._engine is not None:
                self._engine.dispose()
                self._engine = None

    def engine(self) -> Engine:
        with self._opening:
            if self._engine is None:
                self._engine = create_engine(
                    self.url,
                    pool_size=POOL_SIZE,
                    max_overflow=0,
                    connect_args={"application_name": APPLICATION_NAME},
                )
            return self._engine

    def _sweep_now_and_then(self) -> None:
        """Sweeps when ``sweep_seconds`` have passed since the last sweep of this process; one
        thread at a time, the others go on."""
        if time.monotonic() - self._swept_at < self.sweep_seconds or not self._sweeping.acquire(blocking=False):
            return
        try:
            self._swept_at = time.monotonic()
            self.sweep()
        finally:
            self._sweeping.release()


class SharedLimiter:
    """At most ``limit`` places per client in any ``window_seconds``, kept in the database for
    every process on it (a ``companion.extension.Limiter``; ``limit`` 0: no limit, and nothing
    written)."""

    def __init__(self, places: Places, scope: str, limit: int, window_seconds: float) -> None:
        self.places = places
        self.scope = scope
        self.limit = limit
        self.window = window_seconds

    def take(self, client: str) -> tuple[int, int]:
        """``(0, place)``: a place taken for ``client`` (``place`` 0 where there is no limit);
        ``(seconds, 0)``: refused, nothing taken, a place frees in ``seconds``."""
        if not self.limit:
            return 0, 0
        return self.places.take(self.key(client), self.limit, self.window)

    def give_back(self, client: str, place: int) -> None:
        """Frees ``place``, which ``take`` gave ``client``."""
        if place:
            self.places.give_back(place)

    def key(self, client: str) -> str:
        """The key of ``client``'s places: the scope and the client, cut to the column's
        length (an address is far shorter)."""
        return f"{self.scope} {client}"[:KEY_LENGTH]


def shared_places(database_url: str) -> Places | None:
    """On PostgreSQL, the places of the limits kept in the database; ``None`` on any other
    database (one process: its limits stay in memory)."""
    if make_url(database_url).get_backend_name() != "postgresql":
        return None
    return Places(database_url)


def _lock(key: str) -> int:
    """The second half of ``key``'s advisory lock: a 32-bit signed number. Two keys that share
    it only queue behind each other."""
    number = zlib.crc32(key.encode("utf-8"))
    return number - (1 << 32) if number >= 1 << 31 else number
