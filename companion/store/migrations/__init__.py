"""The schema's history as Alembic revisions (``versions/``), and the calls that run them on one
connection the caller holds in a transaction.

``flask --app app db ...`` (Flask-Migrate) drives the same files for developers; the server
itself upgrades at start through ``companion.database.prepare_schema``, which uses ``schema_transaction``
and the functions below.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.engine.interfaces import DBAPIConnection

DIRECTORY = Path(__file__).resolve().parent
# The tables as the releases before migrations made them (``banco_schema.version`` 2).
RELEASED = "0001"
RELEASED_SCHEMA_VERSION = 2
VERSION_TABLE = "alembic_version"  # Alembic's own name, which env.py keeps
# Any constant will do, as long as nothing else on the server uses it: every Banco process
# starting on the same PostgreSQL database queues on it.
_PG_LOCK = 0x42616E636F  # "Banco"


def config(connection: Connection | None = None) -> Config:
    """Alembic's settings for these migrations; with ``connection``, env.py runs on it (inside
    the caller's transaction) instead of opening its own."""
    cfg = Config(str(DIRECTORY / "alembic.ini"))
    cfg.set_main_option("script_location", str(DIRECTORY))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    revision = ScriptDirectory.from_config(config()).get_current_head()
    assert revision is not None  # versions/ holds the released schema at least
    return revision


def known(revision: str) -> bool:
    """Whether ``revision`` is one of ours (a newer Banco's is not)."""
    return any(s.revision == revision for s in ScriptDirectory.from_config(config()).walk_revisions())


def current(connection: Connection) -> str | None:
    """The revision the database is at, or ``None`` when Alembic never stamped it."""
    return MigrationContext.configure(connection).get_current_revision()


def stamped(connection: Connection) -> str | None:
    """The revision the database is at, as ``current`` reads it, read quietly: Alembic's own
    reading logs two lines each time, and a load balancer asks every few seconds
    (``services.health``). ``None`` when Alembic never stamped it."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    found = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()
    return found[0] if len(found) == 1 else None


def upgrade(connection: Connection, revision: str = "head") -> None:
    command.upgrade(config(connection), revision)


def stamp(connection: Connection, revision: str) -> None:
    """Records ``revision`` as the database's without running anything."""
    command.stamp(config(connection), revision)


def _sqlite_connection(connection: Connection) -> DBAPIConnection:
    """sqlite3's own connection beneath ``connection``: a pragma sent there runs outside any
    transaction (SQLAlchemy's ``exec_driver_sql`` would begin one)."""
    dbapi_connection = connection.connection.dbapi_connection
    assert dbapi_connection is not None  # an open connection always has one
    return dbapi_connection


@contextmanager
def schema_transaction(engine: Engine) -> Iterator[Connection]:
    """One transaction for reading the schema's revision and changing it, held by one process
    at a time: PostgreSQL queues the others on an advisory lock; on SQLite the caller must make
    the transaction begin with BEGIN IMMEDIATE (the file's write lock), since SQLite has no
    other way to queue a reader that will write.

    On SQLite, foreign keys are off for the transaction (checked before it commits): Alembic's
    batch mode rebuilds a table by copying it and dropping the old one, which SQLite refuses
    while other tables point at it. The pragma is a no-op inside a transaction, hence before.
    Refuses (``RuntimeError``) to commit rows whose foreign keys point nowhere.
    """
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            _sqlite_connection(connection).execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK})
                yield connection
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration left rows pointing nowhere: {broken[:5]}")
        finally:
            if sqlite:
                _sqlite_connection(connection).execute("PRAGMA foreign_keys=ON")
