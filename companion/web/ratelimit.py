"""Small in-memory limiters, per client address: guesses of a secret (join codes, rejoin codes,
the host password) and new things stored (games, tournaments, editions).

Each server process counts its own (``BANCO_WORKERS``: an address may make as many again in
each worker), in memory: a restart forgets them.
"""

from __future__ import annotations

import math
import threading
import time
from collections import defaultdict, deque

from flask import request

from ..core.errors import N_, BancoError
from ..extension import banco


class TooManyAttempts(BancoError):
    """429; ``retry_after`` is the whole seconds until the window frees a slot, which the
    answer's ``Retry-After`` header carries; the message may say them as ``seconds`` or, for a
    long window, as whole ``minutes`` rounded up."""

    status = 429

    def __init__(
        self,
        retry_after: int,
        code: str = "too_many_attempts",
        message: str = N_("Too many attempts. Try again in %(seconds)s s."),
    ) -> None:
        super().__init__(code, message, seconds=retry_after, minutes=math.ceil(retry_after / 60))
        self.retry_after = retry_after


class RateLimiter:
    """At most ``limit`` attempts per client in any ``window_seconds`` (``limit`` 0: no limit)."""

    def __init__(self, limit: int, window_seconds: float) -> None:
        self.limit = limit
        self.window = window_seconds
        self._hits: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def hit(self, client: str) -> None:
        """Counts one attempt; refuses (``TooManyAttempts``, 429) past the limit, counting nothing."""
        with self._lock:
            now = time.monotonic()
            wait = self._wait(client, now)
            if wait:
                raise TooManyAttempts(wait)
            self._count(client, now)

    def wait(self, client: str) -> int:
        """The whole seconds until ``client`` may make an attempt; 0 when it may now. Counts nothing."""
        with self._lock:
            return self._wait(client, time.monotonic())

    def count(self, client: str) -> None:
        """Counts one attempt, whatever ``wait`` says: one made after ``wait`` let it through."""
        with self._lock:
            self._count(client, time.monotonic())

    def _wait(self, client: str, now: float) -> int:
        hits = self._hits.get(client)
        if hits is None or not self.limit:
            return 0
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if len(hits) < self.limit:
            return 0
        # The oldest attempt leaves the window at hits[0] + window: a slot is free then.
        return max(1, math.ceil(hits[0] + self.window - now))

    def _count(self, client: str, now: float) -> None:
        self._hits[client].append(now)
        if len(self._hits) > 10000:  # forget idle clients so memory stays bounded
            for key in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.window]:
                del self._hits[key]


def count_attempt() -> None:
    """Counts one guess of a secret (a join or rejoin code) from this request's address;
    refuses (429) past the app's limit."""
    banco().limiter.hit(request.remote_addr or "?")


# --- new things stored -----------------------------------------------------------------------

# The window of ``CREATIONS_PER_ADDRESS``: a table opens a game or two an evening, a club's
# director a tournament whose rounds open their games themselves (not counted here).
CREATION_WINDOW_SECONDS = 600

# What one kind of new thing is refused with, past its share. A game carried on from its file
# (``/games/import``) is a new game: it counts as one.
_TOO_MANY = {
    "game": N_("Many tables were opened from your address in the last few minutes. Try again in %(minutes)s min."),
    "tournament": N_(
        "Many tournaments were created from your address in the last few minutes. Try again in %(minutes)s min."
    ),
    "edition": N_("Many editions were stored from your address in the last few minutes. Try again in %(minutes)s min."),
}


def may_create(kind: str) -> None:
    """Refuses (``TooManyAttempts``, 429 ``too_many_created``, with ``Retry-After``) when this
    request's address stored its share of ``kind`` (a key of ``_TOO_MANY``) in the window;
    counts nothing: ``count_created`` counts what was stored, so a refused attempt costs no share."""
    wait = banco().creations.wait(_key(kind))
    if wait:
        raise TooManyAttempts(wait, "too_many_created", _TOO_MANY[kind])


def count_created(kind: str) -> None:
    """Counts one ``kind`` stored from this request's address, once ``may_create`` let it through."""
    banco().creations.count(_key(kind))


def _key(kind: str) -> str:
    if kind not in _TOO_MANY:
        raise KeyError(f"no share of new {kind!r}: one of {sorted(_TOO_MANY)}")
    return f"{kind} {request.remote_addr or '?'}"
