"""Game files imported a few at a time, each read within a bound on what it builds.

A game file may be 32 MB (``MAX_GAME_FILE_BYTES``), and reading one builds ten times that in
Python objects; a file made to hurt (30 MB of ``[]`` or ``{}``) builds fifty times. So a server
process imports at most ``IMPORTS_AT_ONCE`` files at once and tells any other to come back
(503 ``busy_importing`` with ``Retry-After``), and before a file is parsed its text is counted
(``bodies.json_shapes``): one holding more objects and values than a game's file of its size can
hold is refused unread. After each import, what it built is given back to the system.

Measured with ``bench/bench_imports.py`` (docs/benchmarks.md).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import threading
from typing import Any

from ..core.errors import N_, BancoError
from ..core.gamefile import refused
from ..extension import Places
from .bodies import json_shapes
from .gamefiles import import_game, read_game_file

# A game file's text holds one object or array for about every 36 bytes and one value for about
# every 9 (measured on Niente è come sembra with six players, the densest edition; the classic
# game's entries are no denser), whatever its length: these leave half again as much room.
BYTES_PER_CONTAINER = 24
BYTES_PER_VALUE = 6
# When a file turned away may come again: a file near the limit takes about ten seconds to import.
RETRY_SECONDS = 10


class BusyImporting(BancoError):
    """503: this server is importing as many game files as it takes at once; ``retry_after``
    seconds is when to send the file again (the answer's ``Retry-After``)."""

    status = 503

    def __init__(self) -> None:
        super().__init__(
            "busy_importing",
            N_("The bank is carrying on other saved games right now. Send the file again in %(seconds)s s."),
            seconds=RETRY_SECONDS,
        )
        self.retry_after = RETRY_SECONDS


class Imports:
    """The places of one server process for game files being imported: ``at_once`` of them,
    taken without waiting."""

    def __init__(self, at_once: int) -> None:
        self._places = threading.BoundedSemaphore(max(1, at_once))

    def take(self) -> bool:
        """Takes a place: whether one was free."""
        return self._places.acquire(blocking=False)

    def give_back(self) -> None:
        """Frees a place, and gives the memory the import left back to the system."""
        self._places.release()
        give_memory_back()


def carry_on(imports: Places | None, raw: bytes, most_bytes: int, hand_out_tokens: bool = True) -> dict[str, Any]:
    """A new game from the game file ``raw``, as ``gamefiles.import_game`` makes it, in one of
    ``imports``' places (None: the server took one before it read ``raw``); what the import
    built is given back to the system afterwards, refused or not. Refuses (503 ``busy_importing``) when every place is taken, and (400
    ``invalid_game_file``) a file holding more than ``most_bytes`` allows (``read_within``), or
    that ``import_game`` refuses; nothing is stored then."""
    if imports is not None and not imports.take():
        raise BusyImporting()
    try:
        return _imported(raw, most_bytes, hand_out_tokens)
    finally:
        if imports is not None:
            imports.give_back()
        else:  # the server gives the place back, and the memory again, once its body is gone too
            give_memory_back()


def _imported(raw: bytes, most_bytes: int, hand_out_tokens: bool) -> dict[str, Any]:
    # Its own frame, so that the parsed file is garbage by the time memory is given back.
    return import_game(read_within(raw, most_bytes), hand_out_tokens=hand_out_tokens)


def read_within(raw: bytes, most_bytes: int) -> dict[str, Any]:
    """The game file in ``raw`` as ``gamefiles.read_game_file`` reads it, once its text is
    counted: refuses (400 ``invalid_game_file``) one holding more objects and arrays than
    ``most_bytes // BYTES_PER_CONTAINER`` or more values than ``most_bytes // BYTES_PER_VALUE``,
    before anything of it is built."""
    containers, values = most_bytes // BYTES_PER_CONTAINER, most_bytes // BYTES_PER_VALUE
    try:
        text = raw.decode(json.detect_encoding(raw))
    except (UnicodeDecodeError, LookupError):
        text = ""  # not text: read_game_file says so
    for shape in json_shapes(text):
        if shape.containers > containers or shape.values > values:
            raise refused(
                N_(
                    "This game file holds more than a game's file can: at most %(containers)s objects and "
                    "lists and %(values)s values. Nothing was read."
                ),
                containers=containers,
                values=values,
            )
    del text
    return read_game_file(raw)


def give_memory_back() -> None:
    """Frees what the last import left and returns the freed memory to the system. Without this
    a burst of imports keeps its peak for the life of the process: CPython's cycles wait for the
    collector, its small-object arenas are freed only when wholly empty, and glibc keeps freed
    heap pages (and raises its threshold for large blocks past 30 MB bodies) until asked to trim."""
    gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _libc() -> Any:
    """glibc, whose ``malloc_trim`` returns free heap pages to the system; None elsewhere
    (macOS, Windows, musl), where the collector alone runs."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


_LIBC = _libc()
