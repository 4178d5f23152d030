"""The database behind the app: its pool, SQLite's manners, and its tables brought up to date at
every start, keeping every game (``prepare_schema``). ``flask --app app db ...`` runs Alembic
through ``migrate``: see docs/migrations.md."""

from __future__ import annotations

import sqlite3

from flask import Flask
from flask_migrate import Migrate
from sqlalchemy import event, inspect, text

from .services import WRITE_INTENT
from .store import db, migrations

migrate = Migrate()


def init_app(app: Flask) -> None:
    """The database of ``app``'s settings, its tables brought up to date. Refuses
    (``SchemaMismatch``) tables this Banco cannot upgrade."""
    db.init_app(app)
    migrate.init_app(app, db, directory=str(migrations.DIRECTORY))
    with app.app_context():
        _tune_database(db.engine)
        prepare_schema()


class SchemaMismatch(RuntimeError):
    """The database was made by a version of Banco's tables this one cannot upgrade."""


def prepare_schema() -> None:
    """Brings the database's tables up to date at every start, keeping every game: an empty
    database gets the current tables; one the releases before migrations made (``banco_schema``
    version 2) is stamped at the first revision and upgraded; one Alembic stamped is upgraded.

    Refuses (``SchemaMismatch``, naming the way out) tables of any other version, and a
    revision this Banco does not know (a newer one's). Runs in one transaction that one process
    at a time holds (``migrations.schema_transaction``): servers starting together upgrade once.
    """
    token = WRITE_INTENT.set(True)  # SQLite: BEGIN IMMEDIATE, the write lock before the first read
    try:
        with migrations.schema_transaction(db.engine) as connection:
            tables = set(inspect(connection).get_table_names())
            revision = migrations.current(connection) if "alembic_version" in tables else None
            if revision is not None:
                if not migrations.known(revision):
                    raise _mismatch(f"revision {revision}")
            elif not tables & {"game", "banco_schema"}:
                # Built from the models, not replayed from revision 1: the same tables (the
                # migration tests check it) at a fraction of the cost of every new database.
                db.metadata.create_all(connection)
                migrations.stamp(connection, "head")
                return
            else:
                found = (
                    connection.execute(text("SELECT max(version) FROM banco_schema")).scalar()
                    if "banco_schema" in tables
                    else None
                )
                if found != migrations.RELEASED_SCHEMA_VERSION:
                    raise _mismatch(f"tables version {found or 1}")
                migrations.stamp(connection, migrations.RELEASED)
            migrations.upgrade(connection)
    finally:
        WRITE_INTENT.reset(token)


def _mismatch(found: str) -> SchemaMismatch:
    url = db.engine.url
    way_out = f"move the file {url.database} away" if url.get_backend_name() == "sqlite" else "empty that database"
    return SchemaMismatch(
        f"The database {url.render_as_string(hide_password=True)} was made by another version of Banco "
        f"({found}), which this one cannot upgrade. Start with a new database: {way_out}, or set "
        f"DATABASE_URL to an empty one."
    )


def _tune_database(engine) -> None:
    """SQLite: WAL so readers never wait for the writer, and a write transaction that takes
    the lock with its first statement (BEGIN IMMEDIATE) so it can never fail half-way on an
    upgrade from reader to writer. PostgreSQL needs nothing here: services lock the game row."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # transactions are begun below, not by the driver
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on the disk before the phone is told it happened, so a power cut
        # (a laptop's battery at the end of the evening) loses nothing that was answered.
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection):
        if WRITE_INTENT.get():
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            return
        # A read's BEGIN takes no lock and cannot wait: the driver's own call, without
        # SQLAlchemy's execution around it (every page's fetch begins one). Should it fail,
        # SQLAlchemy's call says why in its own words.
        try:
            connection.connection.driver_connection.execute("BEGIN")
        except sqlite3.Error:
            connection.exec_driver_sql("BEGIN")
