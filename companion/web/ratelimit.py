"""Limits per client address: guesses of a secret (join codes, rejoin codes, the host password)
and new things stored (games, tournaments, editions).

Each limit is a ``Limiter`` (``companion.extension``) of places in a moving window: an attempt
takes a place, or is refused with the seconds until the oldest place leaves the window. Which
one counts is the composition's choice (``companion.shared_parts``): on PostgreSQL the database
keeps the places (``services.limits``), so every worker process and every machine on the same
database counts the same, on the database's clock, and a restart forgets nothing; on SQLite,
which one process serves, ``RateLimiter`` keeps them in this process's memory.

A new thing takes its place before it is made, not once it is stored, so that a burst from one
address, all let through before any was stored, cannot store more than the limit: ``may_create``
takes the place, ``count_created`` keeps it once the thing is stored, and a request that ends
without storing it (refused for its content, or failed) gives it back (``give_back_places``),
so a refused attempt costs no share.

The connections and live streams one address holds (``companion.serve.shares``) stay counted by
each server process, in its memory: they count sockets that process holds, and a socket lives
and dies with its process. A count in the database would outlive a server killed mid-evening
and lock its phones out until someone cleaned it, and it would cost a database write for every
connection opened and closed.
"""

from __future__ import annotations

import itertools
import logging
import math
import threading
import time
from collections import defaultdict, deque

from flask import Flask, g, request

from ..core.errors import N_, BancoError
from ..extension import Limiter, banco

log = logging.getLogger(__name__)


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
    """At most ``limit`` places per client in any ``window_seconds`` (``limit`` 0: no limit),
    kept in this process's memory (a ``Limiter``)."""

    def __init__(self, limit: int, window_seconds: float) -> None:
        self.limit = limit
        self.window = window_seconds
        # Each client's places, oldest first: when each was taken, and its number.
        self._places: dict[str, deque[tuple[float, int]]] = defaultdict(deque)
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    def take(self, client: str) -> tuple[int, int]:
        """``(0, place)``: a place taken for ``client`` (``place`` 0 where there is no limit:
        nothing to give back); ``(seconds, 0)``: refused, nothing taken, a place frees in
        ``seconds``."""
        if not self.limit:
            return 0, 0
        with self._lock:
            now = time.monotonic()
            places = self._places[client]
            while places and places[0][0] <= now - self.window:
                places.popleft()
            if len(places) >= self.limit:
                # The oldest place leaves the window at its time + window: a place is free then.
                return max(1, math.ceil(places[0][0] + self.window - now)), 0
            place = next(self._numbers)
            places.append((now, place))
            if len(self._places) > 10000:  # forget idle clients so memory stays bounded
                for key in [k for k, v in self._places.items() if not v or v[-1][0] <= now - self.window]:
                    del self._places[key]
            return 0, place

    def give_back(self, client: str, place: int) -> None:
        """Frees ``place``, which ``take`` gave ``client``; one already gone changes nothing."""
        with self._lock:
            places = self._places.get(client)
            if places:
                for taken in places:
                    if taken[1] == place:
                        places.remove(taken)
                        break


def hit(limiter: Limiter, client: str) -> None:
    """Counts one attempt of ``client``; refuses (``TooManyAttempts``, 429) past the limit,
    counting nothing."""
    wait, _place = limiter.take(client)
    if wait:
        raise TooManyAttempts(wait)


def count_attempt() -> None:
    """Counts one guess of a secret (a join or rejoin code) from this request's address;
    refuses (429) past the app's limit."""
    hit(banco().limiter, request.remote_addr or "?")


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

# This request's places taken by ``may_create`` and not yet kept by ``count_created``, as
# ``(kind, key, place)``, in ``flask.g``.
_TAKEN = "banco_creation_places"


def may_create(kind: str) -> None:
    """Takes a place of this request's address's share of ``kind`` (a key of ``_TOO_MANY``);
    refuses (``TooManyAttempts``, 429 ``too_many_created``, with ``Retry-After``), taking none,
    when the address has used its share in the window. The place is given back when the request
    ends without ``count_created`` (``give_back_places``): a refused attempt costs no share."""
    key = _key(kind)
    wait, place = banco().creations.take(key)
    if wait:
        raise TooManyAttempts(wait, "too_many_created", _TOO_MANY[kind])
    g.setdefault(_TAKEN, []).append((kind, key, place))


def count_created(kind: str) -> None:
    """Keeps the place ``may_create`` took for ``kind`` in this request: the thing is stored.
    Refuses (``RuntimeError``) a ``kind`` stored without its place taken first."""
    taken = g.get(_TAKEN, [])
    for held in taken:
        if held[0] == kind:
            taken.remove(held)
            return
    raise RuntimeError(f"a new {kind} stored without may_create({kind!r}) first")


def give_back_places(_error: BaseException | None = None) -> None:
    """At the end of a request: gives back every place ``may_create`` took and no
    ``count_created`` kept, as the thing was not stored (refused, or failed)."""
    taken = g.pop(_TAKEN, [])
    if taken:
        creations = banco().creations
        for _kind, key, place in taken:
            if place:
                try:
                    creations.give_back(key, place)
                except Exception:  # the answer is sent: the place stays taken, and leaves with the window
                    log.exception("a place of %s could not be given back", key)


def init_app(app: Flask) -> None:
    app.teardown_request(give_back_places)


def _key(kind: str) -> str:
    if kind not in _TOO_MANY:
        raise KeyError(f"no share of new {kind!r}: one of {sorted(_TOO_MANY)}")
    return f"{kind} {request.remote_addr or '?'}"
