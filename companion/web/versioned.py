"""What a game shows at one version, computed once per process for all its pages.

A game at a given version never changes (every change makes a new version, undo too), and
after an event every open page of the game reads it at the same new version: the journal's
newest lines and the feed in each language are computed for the first page and reused by the
others. The last ``KEPT`` are kept; a key always names the game and its version, and the
database (``services.database_key``: two apps of one process, as the tests make, may hold the
same game id at the same version).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from .. import services

KEPT = 512

_values: OrderedDict[tuple, object] = OrderedDict()
_lock = threading.Lock()


def once(key: tuple, compute):
    """``compute()`` for ``key`` (which names a game and its version), computed once while kept."""
    key = (services.database_key(), *key)
    with _lock:
        if key in _values:
            _values.move_to_end(key)
            return _values[key]
    value = compute()
    with _lock:
        _values[key] = value
        while len(_values) > KEPT:
            _values.popitem(last=False)
    return value
