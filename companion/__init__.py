"""Banco: the bank for board games played on a real table.

``create_app`` reads like a table of contents: settings, storage, languages, protection
against forged forms, the live broker, then the pages and the API.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

from flask import Flask, request
from flask_babel import Babel
from flask_migrate import Migrate
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import event

from . import config
from .core.editions.loading import EDITIONS_DIR, load_editions
from .live.broker import Broker
from .services import WRITE_INTENT, Door
from .services.wording import language
from .store import db, migrations
from .web.ratelimit import RateLimiter

csrf = CSRFProtect()
babel = Babel()
migrate = Migrate()  # `flask --app app db ...`: see docs/migrations.md


def select_locale() -> str:
    """The language of the page: the reader's own choice (a cookie set by the switch), else
    the browser's preference, else English (``services.wording.language``, which the actions'
    door asks too)."""
    return language(request.cookies.get("lang"), request.headers.get("Accept-Language"))


# On every answer, the app's (``_security_headers``) and those the server writes itself.
SECURITY_HEADERS = (
    (
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; "
        "style-src-attr 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; "
        "form-action 'self'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
)


def create_app(test_config: dict | None = None) -> Flask:
    root = config.ROOT
    app = Flask(
        __name__,
        template_folder=str(root / "templates"),
        static_folder=str(root / "static"),
        instance_path=str(root / "instance"),
    )
    if test_config is None:
        app.config.update(config.from_environment(Path(app.instance_path)))
    else:
        app.config.update(
            {
                "PUBLIC_URL": "http://localhost:5000",
                "THREADS": 16,
                "CONNECTION_LIMIT": config.CONNECTION_LIMIT,
                "STREAMS_PER_ADDRESS": config.STREAMS_PER_ADDRESS,
            }
        )
        app.config.update(test_config)
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # every body is bounded, in tests too
        app.config["MAX_CONTENT_LENGTH"] = config.MAX_BODY_BYTES
    app.config.update(
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SECURE=bool(app.config.get("SECURE_COOKIES")),  # BANCO_SECURE_COOKIES: behind HTTPS
        PERMANENT_SESSION_LIFETIME=dt.timedelta(days=30),
        WTF_CSRF_TIME_LIMIT=None,  # a wallet page stays open all evening
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        JSON_SORT_KEYS=False,
    )
    app.config.setdefault("DEFAULT_EDITION", "classic-it")  # preselected on the home page

    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", config.engine_options(app.config["SQLALCHEMY_DATABASE_URI"]))
    db.init_app(app)
    migrate.init_app(app, db, directory=str(migrations.DIRECTORY))
    with app.app_context():
        _tune_database(db.engine)
        prepare_schema()

    babel.init_app(app, locale_selector=select_locale)
    csrf.init_app(app)
    # A bad edition file is reported and left out; the other editions still play.
    editions, problems = load_editions(Path(app.config.get("EDITIONS_DIR", EDITIONS_DIR)))
    for problem in problems:
        app.logger.warning("edition file skipped: %s", problem)
    broker = Broker()
    app.extensions["banco"] = {
        "editions": editions,
        "broker": broker,
        # Started by the server (companion.serve) while it serves: other processes' versions.
        "fanout": _listener(app.config["SQLALCHEMY_DATABASE_URI"], broker),
        "limiter": RateLimiter(limit=20, window_seconds=60),
        # Every action, the API's and the pages', goes through it (services.door): one writer.
        "door": Door(app),
    }

    from .live import routes as live
    from .web import api, calculator, deeds, errors, pages, printing, results, seats, templating
    from .web import dice as dice_pages
    from .web import scan as scan_pages

    templating.init_app(app)
    from .web import assets

    assets.init_app(app)  # versioned static addresses cached for good; compressed responses
    dice_pages.init_app(app)
    errors.init_app(app)
    deeds.init_app(app)
    app.session_interface = seats.SeatCookie()
    app.register_blueprint(pages.bp)
    from .web import screen

    app.register_blueprint(screen.bp)  # the table screen, and the bank's hand-off to a phone
    app.register_blueprint(deeds.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(printing.bp)
    app.register_blueprint(results.bp)
    app.register_blueprint(calculator.bp)
    app.register_blueprint(scan_pages.bp)  # printed money checked by phone
    from .web import tournaments as tournament_pages

    app.register_blueprint(tournament_pages.bp)  # the tournament desk
    from .web import edition_files

    app.register_blueprint(edition_files.bp)  # editions as files: import, download
    edition_files.init_app(app)
    from .web import editor

    app.register_blueprint(editor.bp)  # the edition editor
    scan_pages.init_app(app)
    from .web import notices

    notices.init_app(app)  # what happened to me, on every page of a game
    csrf.exempt(api.bp)  # the API takes bearer tokens, never cookies, so it cannot be forged
    from .cli import banco

    app.cli.add_command(banco)

    @app.after_request
    def _security_headers(response):
        for name, value in SECURITY_HEADERS:
            response.headers.setdefault(name, value)
        if app.config.get("WORKER"):  # BANCO_WORKERS above 1: which process answered (its number)
            response.headers["X-Banco-Worker"] = str(app.config["WORKER"])
        return response

    return app


def _listener(database_url: str, broker):
    """On PostgreSQL, the ear on the other server processes' new versions; none on SQLite."""
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    if url.get_backend_name() != "postgresql":
        return None
    from .live.fanout import Listener

    return Listener(url.set(drivername="postgresql").render_as_string(hide_password=False), broker)


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
    from sqlalchemy import inspect, text

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
