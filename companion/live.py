"""Live updates inside one server process: who is waiting for which game's next version.

A command that commits calls ``publish``; every open stream of that game wakes at once, and
only those: each game has its own condition, so a busy table never wakes another table's
phones. Waiting costs no database query: the stream compares the version it has shown with
the latest one published here. Banco runs as one process (waitress with threads), so this
in-memory board is all the live layer needs; a stream that starts after a restart reads the
current version from the database once.
"""
from __future__ import annotations

import threading


class Broker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, threading.Condition] = {}
        self._versions: dict[str, int] = {}
        self._streams = 0
        self.closing = False

    def _condition(self, game_id: str) -> threading.Condition:
        with self._lock:
            cond = self._games.get(game_id)
            if cond is None:
                cond = self._games[game_id] = threading.Condition()
            return cond

    def publish(self, game_id: str, version: int) -> None:
        cond = self._condition(game_id)
        with cond:
            if version > self._versions.get(game_id, -1):
                self._versions[game_id] = version
            cond.notify_all()

    def latest(self, game_id: str) -> int | None:
        return self._versions.get(game_id)

    def wait(self, game_id: str, seen: int, timeout: float) -> int | None:
        """Blocks until ``game_id`` passes version ``seen`` or ``timeout`` seconds pass;
        returns the newer version, or ``None`` on time-out."""
        cond = self._condition(game_id)
        with cond:
            if cond.wait_for(lambda: self.closing or self._versions.get(game_id, -1) > seen, timeout):
                return None if self.closing else self._versions[game_id]
        return None

    def close(self) -> None:
        """Ends every open stream at once (the server is stopping); browsers reconnect."""
        self.closing = True
        with self._lock:
            conditions = list(self._games.values())
        for cond in conditions:
            with cond:
                cond.notify_all()

    def open_stream(self, limit: int) -> bool:
        """Counts one more open stream; refuses (False) past ``limit`` so streams never take
        the threads that payments need."""
        with self._lock:
            if self._streams >= limit:
                return False
            self._streams += 1
            return True

    def close_stream(self) -> None:
        with self._lock:
            self._streams -= 1

    @property
    def open_streams(self) -> int:
        return self._streams
