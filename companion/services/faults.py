"""A database that cannot save: a full disk, a read-only file or disk, a disk that fails.

Such a fault is no one's mistake and no bug of Banco's: it is answered 503
``storage_unavailable`` with words ("The bank's computer cannot save right now: nothing was
changed."), never a bare 500, wherever a write meets it (the actions' door, the web's error
handler). Whatever the transaction had written is rolled back whole: SQLite rolls back a
transaction it could not write, and the services roll back the rest.

Told apart by what the database's driver says, not by its words: SQLite's result code (its
primary code: ``SQLITE_FULL``, ``SQLITE_READONLY``, ``SQLITE_IOERR``, ``SQLITE_CANTOPEN``),
PostgreSQL's SQLSTATE (class 53, insufficient resources, as ``disk_full``; class 58, a system
error, as ``io_error``; ``read_only_sql_transaction``), or the operating system's ``errno``.
"""

from __future__ import annotations

import errno
import sqlite3

from ..core.errors import N_, BancoError

CANNOT_SAVE = N_("The bank's computer cannot save right now: nothing was changed.")

# SQLite's primary result codes (the low byte of an extended code) that mean the file cannot
# take a write: SQLITE_READONLY 8, SQLITE_IOERR 10, SQLITE_FULL 13, SQLITE_CANTOPEN 14.
_SQLITE_CODES = frozenset({8, 10, 13, 14})
_SQLSTATE_CLASSES = ("53", "58")
_SQLSTATES = frozenset({"25006"})  # read_only_sql_transaction: a standby, or a database set read-only
_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})


class StorageUnavailable(BancoError):
    """The database cannot save now (HTTP 503): nothing was changed."""

    status = 503

    def __init__(self) -> None:
        super().__init__("storage_unavailable", CANNOT_SAVE)


def is_storage_fault(error: BaseException) -> bool:
    """Whether ``error``, or an error it was raised from or while handling (a savepoint that
    could not be rolled back once SQLite had rolled back the whole transaction), says the
    database cannot save."""
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if _says_cannot_save(current):
            return True
        pending += [current.__cause__, current.__context__, getattr(current, "orig", None)]
    return False


def cannot_save(error: BaseException) -> StorageUnavailable | None:
    """The refusal to answer ``error`` with when it says the database cannot save; else ``None``."""
    if isinstance(error, StorageUnavailable):
        return error
    return StorageUnavailable() if is_storage_fault(error) else None


def _says_cannot_save(error: BaseException) -> bool:
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        return code is not None and code & 0xFF in _SQLITE_CODES
    sqlstate = getattr(error, "sqlstate", None)  # psycopg's errors
    if isinstance(sqlstate, str):
        return sqlstate in _SQLSTATES or sqlstate.startswith(_SQLSTATE_CLASSES)
    return isinstance(error, OSError) and error.errno in _ERRNOS
