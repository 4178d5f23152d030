"""Copies of a SQLite database: taken while the server writes, put back whole.

A copy is taken with SQLite's online backup (``sqlite3.Connection.backup``) from a connection
of its own: one read transaction, so it is the database as it was at one commit, while the
server goes on writing (in WAL mode a reader never stops a writer). It is written to a hidden
file beside its destination, checked (``PRAGMA quick_check``), made one self-contained file
(rollback journal, no ``-wal`` beside it), flushed to the disk, and only then renamed to its
name: a copy is there whole, or not at all.

Putting one back (``put_back``) is SQLite's backup the other way, into the database file
itself: one write transaction, so a crash half-way leaves the database as it was.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sqlite3
from pathlib import Path

SUFFIX = ".sqlite3"
AUTOMATIC = "auto"  # the server's rolling copies (``rolling``): the only ones ever removed
BEFORE_RESTORE = "before-restore"  # the database as it was, kept by ``banco restore``
RESERVE = 16 * 1024 * 1024  # room a copy leaves on the database's own disk, beyond the database's size
PARTIAL = ".partial"
STALE_PARTIAL_SECONDS = 3600


class CopyRefused(Exception):
    """A copy that cannot be taken, or a file that cannot be put back; the message says why."""


def name_for(database: Path, directory: Path, kind: str | None = None, now: dt.datetime | None = None) -> Path:
    """A new copy's path in ``directory``: the database's name, the local date and time,
    ``kind`` (``AUTOMATIC``, ``BEFORE_RESTORE``) when given: ``banco-2026-12-03-214005.sqlite3``,
    ``banco-2026-12-03-215000-auto.sqlite3``; ``-2``, ``-3``... when that name is taken."""
    stamp = (now or dt.datetime.now()).strftime("%Y-%m-%d-%H%M%S")
    base = f"{_stem(database)}-{stamp}" + (f"-{kind}" if kind else "")
    path, n = directory / f"{base}{SUFFIX}", 1
    while path.exists():
        n += 1
        path = directory / f"{base}-{n}{SUFFIX}"
    return path


def automatic_copies(database: Path, directory: Path) -> list[Path]:
    """The server's rolling copies of ``database`` in ``directory``, the oldest first."""
    if not directory.is_dir():
        return []
    found = directory.glob(f"{_stem(database)}-*-{AUTOMATIC}*{SUFFIX}")
    return sorted((p for p in found if p.is_file()), key=lambda p: (p.stat().st_mtime, p.name))


def size_of(database: Path) -> int:
    """The bytes of ``database`` with its write-ahead log: about what a copy needs."""
    return sum(p.stat().st_size for p in (database, Path(f"{database}-wal")) if p.exists())


def room(database: Path, directory: Path) -> tuple[int, int]:
    """The bytes free where ``directory`` is, and the bytes a copy of ``database`` needs there:
    its size, and on the database's own disk as much again (at least ``RESERVE``), so a copy
    never takes the room the next payments need."""
    size = size_of(database)
    free = shutil.disk_usage(directory).free
    same_disk = directory.stat().st_dev == database.parent.stat().st_dev
    return free, size + (max(size, RESERVE) if same_disk else 0)


def take(database: Path, destination: Path) -> int:
    """Copies ``database`` to ``destination`` (a new file) while it may be written; returns the
    copy's size. Refuses (``CopyRefused``, saying why; nothing is left behind) a destination
    that exists, a folder that does not or cannot be written, too little room (``room``), and a
    source that is no SQLite database."""
    folder = destination.parent
    if destination.exists():
        raise CopyRefused(f"{destination} exists already: name a new file, or a folder.")
    if not folder.is_dir():
        raise CopyRefused(f"the folder {folder} does not exist.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CopyRefused(f"the folder {folder} cannot be written by this user.")
    free, needed = room(database, folder)
    if free < needed:
        raise CopyRefused(
            f"too little room in {folder}: {_mb(free)} free, {_mb(needed)} needed "
            "(the copy, and as much again left for the game when it shares the database's disk)."
        )
    _sweep(folder)
    partial = folder / f".{destination.name}.{os.getpid()}{PARTIAL}"
    try:
        source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            target = sqlite3.connect(partial)
            try:
                source.backup(target)  # all pages in one step: one read transaction, one instant
                target.execute("PRAGMA journal_mode=DELETE")  # one file, whatever the source's journal
                verdict = target.execute("PRAGMA quick_check").fetchone()[0]
            finally:
                target.close()
        finally:
            source.close()
        if verdict != "ok":
            raise CopyRefused(f"the copy of {database} did not check out ({verdict}): the database may be damaged.")
        os.chmod(partial, 0o600)  # the whole database: for this user's eyes only, as its secrets
        _flush(partial)
        os.replace(partial, destination)
        _flush(folder)
    except sqlite3.DatabaseError as error:
        raise CopyRefused(f"{database} could not be copied: {error}.") from error
    except OSError as error:
        raise CopyRefused(f"{destination} could not be written: {error.strerror or error}.") from error
    finally:
        partial.unlink(missing_ok=True)
    return destination.stat().st_size


def banco_games(path: Path) -> int:
    """How many games the SQLite file at ``path`` holds, read without writing to it; refuses
    (``CopyRefused``) a file that is not a SQLite database, a damaged one, and a database that
    is not Banco's."""
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise CopyRefused(f"{path} cannot be opened: {error}.") from error
    try:
        verdict = connection.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise CopyRefused(f"{path} is damaged ({verdict}).")
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "game" not in tables or not tables & {"alembic_version", "banco_schema"}:
            raise CopyRefused(f"{path} is a SQLite database, but not Banco's: it has no games.")
        return connection.execute("SELECT count(*) FROM game").fetchone()[0]
    except sqlite3.DatabaseError as error:  # "file is not a database"
        raise CopyRefused(f"{path} is not a Banco database ({error}).") from error
    finally:
        connection.close()


def revision_of(path: Path) -> str | None:
    """The schema revision Alembic stamped in the Banco database at ``path`` (``banco_games``
    has said it is one); ``None`` for tables older than the revisions."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        return None
    finally:
        connection.close()
    return row[0] if row else None


def put_back(copy: Path, database: Path) -> None:
    """Replaces everything in ``database`` with ``copy``'s content, in one write transaction:
    the database is the copy, or, should anything fail half-way, as it was. Only while no one
    else has the database open (``lock.ServerLock.take``): it is switched to a rollback
    journal first (the server switches it back to WAL when it opens it)."""
    source = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(database)
        try:
            target.execute("PRAGMA journal_mode=DELETE")  # the WAL folded in and gone; the page size free
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def _stem(database: Path) -> str:
    return database.name[: -len(SUFFIX)] if database.name.endswith(SUFFIX) else database.stem


def _sweep(folder: Path) -> None:
    """Removes half-written copies an ended process left (``kill -9`` during a copy)."""
    now = dt.datetime.now().timestamp()
    for stale in folder.glob(f".*{PARTIAL}"):
        try:
            if now - stale.stat().st_mtime > STALE_PARTIAL_SECONDS:
                stale.unlink()
        except OSError:
            continue


def _flush(path: Path) -> None:
    """The file (or folder: its entries) on the disk, not only in the system's cache."""
    if os.name != "posix" and path.is_dir():
        return  # Windows cannot open a folder to flush it
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"
