"""The database as Banco opens it: every answered change is on the disk before the answer."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from companion.store import db

# On PostgreSQL too (python -m tests): what each database has on the disk when a commit returns, and its pool.
pytestmark = pytest.mark.database

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


def test_the_pool_keeps_its_connections(app):
    """Every connection the server may use is kept open once opened, never opened and closed
    again for a busy moment (a new SQLite connection reads the schema again; a PostgreSQL one
    starts a backend)."""
    from companion import config

    with app.app_context():
        opened = []
        from sqlalchemy import event

        event.listen(db.engine, "connect", lambda *_: opened.append(1))
        db.engine.dispose()
        for _ in range(3):  # as many connections at once as the pool holds, three times
            held = [db.engine.connect() for _ in range(config.DATABASE_CONNECTIONS)]
            for connection in held:
                connection.close()
        assert len(opened) == config.DATABASE_CONNECTIONS == db.engine.pool.checkedin()
    assert config.engine_options("sqlite://") == {} and config.engine_options("sqlite:///:memory:") == {}
