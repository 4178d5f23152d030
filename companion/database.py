"""The database behind the app: its pool, SQLite's manners, and its tables brought up to date at
every start, keeping every game (``prepare_schema``); a database that cannot be written is
refused at start, saying why (``check_writable``). ``flask --app app db ...`` runs Alembic
through ``migrate``: see docs/migrations.md."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

from flask import Flask
from flask_migrate import Migrate
from sqlalchemy import URL, create_engine, event, inspect, text
from sqlalchemy.pool import NullPool

from .services import WRITE_INTENT, is_storage_fault
from .store import db, migrations

migrate = Migrate()


def init_app(app: Flask) -> None:
    """The database of ``app``'s settings, its tables brought up to date; its file, on SQLite,
    in the setting ``DATABASE_FILE`` (else ``None``). Refuses (``SchemaMismatch``) tables this
    Banco cannot upgrade, and (``DatabaseUnwritable``, saying why) a database it cannot even
    open or bring up to date."""
    db.init_app(app)
    migrate.init_app(app, db, directory=str(migrations.DIRECTORY))
    with app.app_context():
        app.config["DATABASE_FILE"] = database_file(db.engine.url)
        # The environment names it (``config.backup_settings``); a test's app backs up beside its database.
        beside = app.config["DATABASE_FILE"].parent if app.config["DATABASE_FILE"] else Path(app.instance_path)
        app.config.setdefault("BACKUP_DIR", str(beside / "backups"))
        _tune_database(db.engine)
        try:
            prepare_schema()
        except Exception as error:
            if is_storage_fault(error):
                raise DatabaseUnwritable(_unwritable(db.engine.url, error)) from error
            raise


class SchemaMismatch(RuntimeError):
    """The database was made by a version of Banco's tables this one cannot upgrade."""


class DatabaseUnwritable(RuntimeError):
    """The database cannot be written: a read-only file, folder or disk, a full disk, a
    database that refuses writes. The message says which, and the way out."""


_PROBE = "banco-write-probe"
FULL_BELOW = 1024 * 1024  # less room than this on the database's disk: the disk is full


def check_writable() -> None:
    """Writes one row and deletes it again, committed, so that a server never starts on a
    database it cannot save to (a read-only file, folder or disk; a full disk; a PostgreSQL
    standby): refuses it (``DatabaseUnwritable``), saying why and what to do. Changes nothing."""
    table = "alembic_version"  # every database Banco has opened has it (``prepare_schema``)
    token = WRITE_INTENT.set(True)
    try:
        with db.engine.connect() as connection, connection.begin():
            connection.execute(text(f"INSERT INTO {table} (version_num) VALUES (:probe)"), {"probe": _PROBE})
            connection.execute(text(f"DELETE FROM {table} WHERE version_num = :probe"), {"probe": _PROBE})
    except Exception as error:
        if is_storage_fault(error):
            raise DatabaseUnwritable(_unwritable(db.engine.url, error)) from error
        raise
    finally:
        WRITE_INTENT.reset(token)


@contextmanager
def elsewhere(path: Path) -> Iterator[None]:
    """Inside, the current app's database is the SQLite file ``path``, its tables brought up to
    date (``prepare_schema``): every service reads and writes there (``banco restore`` checks a
    backup so, before it is put in place). Refuses (``SchemaMismatch``) tables this Banco cannot
    upgrade. The app's own database is back after, untouched."""
    engine = create_engine(URL.create("sqlite", database=str(path)), poolclass=NullPool)
    # Flask-SQLAlchemy keeps one engine per bind key for each app; the services find theirs there.
    engines = cast(dict, db.engines)
    kept = engines[None]
    db.session.remove()
    engines[None] = engine
    try:
        _tune_database(engine)
        prepare_schema()
        yield
    finally:
        db.session.remove()
        engines[None] = kept
        engine.dispose()


def database_file(url: URL) -> Path | None:
    """The file of a SQLite database (``sqlite:///banco.sqlite3``, or a ``file:`` URI with
    ``uri=true``), absolute; ``None`` for any other database, or one in memory."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    name = url.database
    if url.query.get("uri") in ("true", "1") and name.startswith("file:"):
        name = name[len("file:") :].split("?", 1)[0]
        if name.startswith("//"):  # file://host/path: the host is empty or localhost
            name = "/" + name[2:].partition("/")[2]
        if not name or name == ":memory:" or url.query.get("mode") == "memory":
            return None
    return Path(name).resolve()


def _unwritable(url: URL, error: BaseException) -> str:
    """Why the database at ``url`` cannot be written, in words, with the way out."""
    path = database_file(url)
    if path is None:
        return (
            f"the database {url.render_as_string(hide_password=True)} refuses to save "
            f"({_first_line(error)}). Make it writable (a primary server, not a read-only standby; "
            "room on its disk), or set DATABASE_URL to one that is, then start again."
        )
    folder = path.parent
    way_out = "or set DATABASE_URL to a file in a folder Banco can write (sqlite:////full/path/banco.sqlite3), then start again."
    if url.query.get("mode") == "ro":
        why = f"DATABASE_URL opens the database {path} read-only (mode=ro)"
    elif not folder.is_dir():
        why = f"the folder {folder} does not exist"
        return f"{why}. Make it, or set DATABASE_URL to a file in a folder that exists, then start again."
    elif _read_only_disk(folder):
        why = f"the disk holding {folder} is mounted read-only"
    elif path.exists() and not os.access(path, os.W_OK):
        why = f"the file {path} is read-only (its permissions let this user read it, not write it)"
    elif not os.access(folder, os.W_OK | os.X_OK):
        why = (
            f"the folder {folder} cannot be written by this user, and SQLite writes its journal "
            f"({path.name}-wal) beside the database"
        )
    elif _disk_full(folder, error):
        why = f"the disk holding {folder} is full ({_free(folder)} free)"
        return f"{why}. Free some space, {way_out}"
    else:
        why = f"the database file {path} cannot be written ({_first_line(error)})"
    return f"{why}. Make it writable, {way_out}"


def _read_only_disk(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (AttributeError, OSError):  # no statvfs (Windows), or no such folder
        return False


def _disk_full(folder: Path, error: BaseException) -> bool:
    codes = {(getattr(e, "sqlite_errorcode", None) or 0) & 0xFF for e in (error, getattr(error, "orig", None))}
    if sqlite3.SQLITE_FULL in codes:
        return True
    if sqlite3.SQLITE_IOERR not in codes:
        return False
    try:  # SQLite says "disk I/O error" when its journal cannot grow: the room left tells
        return shutil.disk_usage(folder).free < FULL_BELOW
    except OSError:
        return False


def _free(folder: Path) -> str:
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return "no room"
    return f"{free // 1024} KB"


def _first_line(error: BaseException) -> str:
    orig = getattr(error, "orig", None) or error
    return str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__


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
                # migration tests check it) without running every migration for each new database.
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
