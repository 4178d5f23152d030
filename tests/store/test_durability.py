"""The database as Banco opens it: every answered change is on the disk before the answer."""
from __future__ import annotations

from sqlalchemy import text

from companion.store import db

# SQLite's codes for PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
FULL = 2


def test_every_connection_commits_to_the_disk_before_answering(app):
    with app.app_context():
        for _ in range(3):  # each new connection of the pool, not only the first
            with db.engine.connect() as connection:
                if db.engine.dialect.name == "sqlite":
                    assert connection.execute(text("PRAGMA synchronous")).scalar() == FULL
                    assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
                else:  # PostgreSQL: a commit waits for its WAL flush unless told otherwise
                    assert connection.execute(text("SHOW synchronous_commit")).scalar() == "on"
                    assert connection.execute(text("SHOW fsync")).scalar() == "on"
            db.engine.dispose()
