"""A small in-memory limiter for guessable secrets (join codes, rejoin codes)."""

from __future__ import annotations

import math
import threading
import time
from collections import defaultdict, deque

from ..core.errors import N_, BancoError
from ..extension import banco


class TooManyAttempts(BancoError):
    """429; ``retry_after`` is the whole seconds until the window frees a slot, which the
    answer's ``Retry-After`` header carries."""

    status = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            "too_many_attempts", N_("Too many attempts. Try again in %(seconds)s seconds."), seconds=retry_after
        )
        self.retry_after = retry_after


class RateLimiter:
    """At most ``limit`` attempts per client address in any ``window_seconds``."""

    def __init__(self, limit: int, window_seconds: float) -> None:
        self.limit = limit
        self.window = window_seconds
        self._hits: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def hit(self, client: str) -> None:
        """Counts one attempt; refuses (``TooManyAttempts``, 429) past the limit."""
        now = time.monotonic()
        with self._lock:
            hits = self._hits[client]
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                # The oldest attempt leaves the window at hits[0] + window: a slot is free then.
                raise TooManyAttempts(max(1, math.ceil(hits[0] + self.window - now)))
            hits.append(now)
            if len(self._hits) > 10000:  # forget idle clients so memory stays bounded
                for key in [k for k, v in self._hits.items() if not v or v[-1] <= now - self.window]:
                    del self._hits[key]


def count_attempt() -> None:
    """Counts one guess of a secret (a join or rejoin code) from this request's address;
    refuses (429) past the app's limit."""
    from flask import request

    banco().limiter.hit(request.remote_addr or "?")
