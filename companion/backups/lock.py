"""Which server is running on a SQLite database: the lock each one holds on it while it serves.

A server holds a lock on a file beside its database (``banco.sqlite3-server``) from its start
to its stop, and writes there who it is and where the phones reach it; ``banco restore`` takes
the same lock, so it runs only while no server does, and no server starts while it runs. One
server at a time: a second one on the same file would serve, and its money would stay right, but
each server's live pages would miss the other's moves (on SQLite nothing tells one process of
another's commits), so it is refused, naming the first. The system lets go of
a lock when its process ends, however it ends (Ctrl+C, a crash, ``kill -9``): a stale file
never stops anyone. POSIX file locks (``flock``): Linux and macOS. Where the system has none
(Windows), a server holds nothing and a restore refuses to run, unable to tell.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

LOCKS = fcntl is not None


RESTORING = "a restore"  # what a restore writes in the lock's file, for a server to name


class Locked(Exception):
    """The database is another's now (a server running, or a restore); the message says whose."""


class ServerLock:
    def __init__(self, database: Path) -> None:
        self.path = database.with_name(f"{database.name}-server")
        self._file: IO[str] | None = None

    def hold(self, who: str) -> None:
        """Held by a server while it serves; ``who`` is written for a restore or another server to
        name. Refuses (``Locked``, saying whose it is) while another server runs on the database,
        or a restore."""
        if fcntl is None:
            return
        self._file = self._open()
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.seek(0)
            holder = self._file.read().strip()
            self.release()
            if holder.startswith(RESTORING):
                raise Locked(
                    f"a restore is under way on {self._database()}: start the server once it is done."
                ) from None
            raise Locked(
                f"another Banco server is serving {self._database()}"
                + (f" ({holder})" if holder else "")
                + ". Open that one on the phones: one server holds every table's game. Or stop it"
                " (Ctrl+C where it runs) and start this one again, or give this one a DATABASE_URL of its own."
            ) from None
        self._write(who)

    def _write(self, who: str) -> None:
        assert self._file is not None
        self._file.seek(0)
        self._file.truncate()
        self._file.write(who)
        self._file.flush()

    def take(self) -> None:
        """Held by a restore: refuses (``Locked``, naming the server from what it wrote) while
        any server runs on the database, and where the system has no file locks."""
        if fcntl is None:
            raise Locked(
                "this system has no file locks to tell whether a server is running on "
                f"{self._database()}: copy the backup over the database by hand once the server is stopped."
            )
        self._file = self._open()
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.seek(0)
            who = self._file.read().strip()
            self.release()
            running = f"a Banco server is running on {self._database()}" + (f" ({who})" if who else "")
            raise Locked(f"{running}. Stop it (Ctrl+C where it runs), then restore again.") from None
        self._write(f"{RESTORING} by process {os.getpid()}")

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # the lock goes with it
            self._file = None

    def _open(self) -> IO[str]:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as error:
            raise Locked(f"{self.path} cannot be written ({error.strerror or error}).") from error
        return os.fdopen(fd, "r+", encoding="utf-8")

    def _database(self) -> Path:
        return self.path.with_name(self.path.name[: -len("-server")])
