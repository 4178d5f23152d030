"""What the layers of one app share, typed: the built-in editions, the live broker and its ear on
the other processes, the newsroom, the limits on guessed secrets and new things, the auctions'
closer, and the counters (the actions' one door is ``services.door``'s own). Made once by ``create_app``, stored once in ``app.extensions`` and read by ``banco()``:
a link between layers that the imports show.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from flask import Flask, current_app

if TYPE_CHECKING:  # the types only: each layer imports this module, and this one none of them
    from .core.editions.edition import Edition
    from .live.broker import Broker
    from .live.fanout import Listener
    from .live.newsroom import Newsroom
    from .metrics import Metrics

KEY = "banco"


class Limiter(Protocol):
    """At most so many places per client (an address, or a kind and an address) in a moving
    window: ``web.ratelimit.RateLimiter`` in this process's memory, ``services.limits`` in the
    database, for every process on it."""

    def take(self, client: str) -> tuple[int, int]:
        """``(0, place)``: a place taken (``place`` 0: nothing to give back); ``(seconds, 0)``:
        refused, nothing taken, a place frees in ``seconds``."""
        ...

    def give_back(self, client: str, place: int) -> None:
        """Frees ``place``, taken for ``client`` by ``take``."""
        ...


class Places(Protocol):
    """So many places of one process, taken without waiting (``services.importing.Imports``:
    the game files being imported)."""

    def take(self) -> bool:
        """Takes a place: whether one was free."""
        ...

    def give_back(self) -> None:
        """Frees a place ``take`` took, and what the work in it left behind."""
        ...


class Waking(Protocol):
    """A thread that sleeps until there is work for it (``services.closer.Closer``)."""

    def wake(self) -> None:
        """There may be work now."""
        ...


@dataclass(frozen=True)
class Banco:
    # The editions of the files shipped with Banco, by id (a bad file is left out).
    editions: dict[str, Edition]
    # This process's latest version of each game, and the live streams waiting on it.
    broker: Broker
    # On PostgreSQL, the other server processes' versions heard (started by the server); else None.
    fanout: Listener | None
    # Guesses of a secret (a join or rejoin code, the host password) from one address.
    limiter: Limiter
    # New games, tournaments and editions stored from one address, each kind counted apart.
    creations: Limiter
    # Closes the auctions whose countdown has run out (``services.closer``): woken when one opens.
    closer: Waking
    # What committed versions tell the pages, drawn off the writer, then handed to the broker.
    newsroom: Newsroom
    # What the server counts for its host's monitoring (``GET /metrics``).
    metrics: Metrics
    # This process's places for game files being imported (``services.importing``).
    imports: Places
    # Set once the server begins to stop: ``GET /readyz`` says no from then on.
    stopping: threading.Event = field(default_factory=threading.Event)
    # Imported editions' contents, parsed once per process, by hash (``services.catalog``).
    pinned: dict[str, Edition] = field(default_factory=dict)


def init_app(app: Flask, parts: Banco) -> None:
    """Stores ``parts`` as ``app``'s, in place of any before (a test gives its own broker or limiter)."""
    app.extensions[KEY] = parts


def banco(app: Flask | None = None) -> Banco:
    """The shared parts of ``app``, else of the app of the current request or context."""
    return (app if app is not None else current_app).extensions[KEY]
