"""Backups of a SQLite database, in plain Python (``sqlite3``): copies taken while the server
writes and put back whole (``copies``), the lock that tells a restore a server is running
(``lock``), and the server's own rolling copies (``rolling``). The server (``companion.serve``)
keeps them while it serves; ``flask --app app banco backup`` and ``restore`` (``companion.cli``)
take and put back one by hand. On PostgreSQL, ``pg_dump`` does this (docs/backups.md)."""

from .copies import (
    AUTOMATIC,
    BEFORE_RESTORE,
    CopyRefused,
    automatic_copies,
    banco_games,
    name_for,
    put_back,
    revision_of,
    take,
)
from .lock import LOCKS, Locked, ServerLock
from .rolling import Keeping

__all__ = [
    "AUTOMATIC",
    "BEFORE_RESTORE",
    "LOCKS",
    "CopyRefused",
    "Keeping",
    "Locked",
    "ServerLock",
    "automatic_copies",
    "banco_games",
    "name_for",
    "put_back",
    "revision_of",
    "take",
]
