"""The server's own backups: a copy of its SQLite database every few minutes while games change,
one more when it stops, the newest few kept.

``Keeping`` is what a server runs beside its database from start to stop: the lock that tells
``banco restore`` a server is running (``lock``), and a thread that every ``minutes`` asks the
database whether anything was committed since its last copy (``PRAGMA data_version``, which
moves with every commit of another connection: no copy of a quiet evening) and, if so, takes
one (``copies.take``: online, whole or not at all) into ``directory``, then removes the oldest
automatic copies past ``kept``. Copies taken by hand (``banco backup``) and those a restore
kept are never removed. A copy that cannot be taken (a full disk) is logged and tried again
next time; serving goes on.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import sqlite3
import threading
from pathlib import Path

from .copies import AUTOMATIC, CopyRefused, automatic_copies, name_for, take
from .lock import ServerLock

log = logging.getLogger(__name__)

STOP_SECONDS = 60  # how long stopping waits for the last copy


class Keeping:
    def __init__(self, database: Path, directory: Path, minutes: float, kept: int, address: str = "") -> None:
        self.database = database
        self.address = address  # where the phones reach this server, for another to name
        self.directory = directory
        self.minutes = minutes
        self.kept = kept
        self.lock = ServerLock(database)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.taken: list[Path] = []  # this run's copies, in order
        self.started = False

    def start(self) -> None:
        """Takes the server's lock (refusing, ``lock.Locked``, while another server or a restore
        runs) and starts the copies, when ``minutes`` is above 0. Once: started again, it changes
        nothing."""
        if self.started:
            return
        self.started = True
        started = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        try:
            at = f", at {self.address}" if self.address else ""
            self.lock.hold(f"process {os.getpid()}, serving since {started}{at}")
        except BaseException:
            self.started = False
            raise
        if self.minutes > 0:
            # What the database holds now is what the last run's last copy holds: read before
            # start returns, so a commit made right after it is never taken for the start.
            watch = None
            try:
                watch = sqlite3.connect(self.database, check_same_thread=False)
                copied = _data_version(watch)
            except sqlite3.Error as error:
                if watch is not None:
                    watch.close()
                log.error("No automatic backups of %s: it cannot be opened (%s).", self.database, error)
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, args=(watch, copied), name="banco-backups", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """The last copy, if anything changed since the one before (call it once the server's
        writes are over), then the lock let go."""
        try:
            if self._thread is not None:
                self._stop.set()
                self._thread.join(STOP_SECONDS)
                self._thread = None
        finally:
            self.lock.release()
            self.started = False

    def _run(self, watch: sqlite3.Connection, copied: int | None) -> None:
        try:
            while not self._stop.wait(self.minutes * 60):
                copied = self._copy_if_changed(watch, copied)
            self._copy_if_changed(watch, copied)  # stopping: the last one
        finally:
            watch.close()

    def _copy_if_changed(self, watch: sqlite3.Connection, copied: int | None) -> int | None:
        try:
            now = _data_version(watch)
        except sqlite3.Error as error:
            log.warning("Automatic backup skipped: %s cannot be read (%s).", self.database, error)
            return copied
        if now == copied:
            return copied
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            destination = name_for(self.database, self.directory, AUTOMATIC)
            take(self.database, destination)
        except (CopyRefused, OSError) as error:
            log.warning("Automatic backup skipped, tried again in %g minutes: %s", self.minutes, error)
            return copied
        self.taken.append(destination)
        for old in automatic_copies(self.database, self.directory)[: -self.kept]:
            old.unlink(missing_ok=True)
        return now


def _data_version(connection: sqlite3.Connection) -> int:
    return connection.execute("PRAGMA data_version").fetchone()[0]
