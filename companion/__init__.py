"""Banco: the bank for board games played on a real table.

``create_app`` reads like a table of contents: settings, storage, languages, protection
against forged forms, the live broker, then the pages and the API.
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from flask import Flask, request
from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import event

from . import config
from .core.editions import load_editions
from .live import Broker
from .services import WRITE_INTENT
from .store import db
from .web.ratelimit import RateLimiter

LANGUAGES = ("it", "en")
csrf = CSRFProtect()
babel = Babel()


def select_locale() -> str:
    """The language of the page: the reader's own choice (a cookie set by the switch), else
    the browser's preference, else English."""
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES) or "en"


def create_app(test_config: dict | None = None) -> Flask:
    root = config.ROOT
    app = Flask(__name__, template_folder=str(root / "templates"), static_folder=str(root / "static"),
                instance_path=str(root / "instance"))
    if test_config is None:
        app.config.update(config.from_environment(Path(app.instance_path)))
    else:
        app.config.update({"PUBLIC_URL": "http://localhost:5000", "THREADS": 16, "CONNECTION_LIMIT": 100})
        app.config.update(test_config)
    app.config.update(
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=dt.timedelta(days=30),
        WTF_CSRF_TIME_LIMIT=None,  # a wallet page stays open all evening
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        JSON_SORT_KEYS=False,
    )
    app.config.setdefault("DEFAULT_EDITION", "classic-it")  # preselected on the home page

    db.init_app(app)
    with app.app_context():
        _tune_database(db.engine)
        prepare_schema()

    babel.init_app(app, locale_selector=select_locale)
    csrf.init_app(app)
    app.extensions["banco"] = {
        "editions": load_editions(),
        "broker": Broker(),
        "limiter": RateLimiter(limit=20, window_seconds=60),
    }

    from .web import api, deeds, errors, live, pages, templating
    from .web import printing
    templating.init_app(app)
    errors.init_app(app)
    deeds.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(deeds.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(printing.bp)
    csrf.exempt(api.bp)  # the API takes bearer tokens, never cookies, so it cannot be forged

    @app.after_request
    def _security_headers(response):
        response.headers.setdefault("Content-Security-Policy",
                                    "default-src 'self'; img-src 'self' data:; style-src 'self'; style-src-attr 'unsafe-inline'; "
                                    "script-src 'self'; frame-ancestors 'none'; form-action 'self'")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    return app


class SchemaMismatch(RuntimeError):
    """The database was made by another version of Banco's tables."""


def prepare_schema() -> None:
    """Creates the tables in an empty database; refuses (``SchemaMismatch``) a database whose
    tables another version of Banco made, naming the way out, instead of failing mid-game."""
    from sqlalchemy import inspect, select

    from .store.models import SCHEMA_VERSION, SchemaVersion
    tables = set(inspect(db.engine).get_table_names())
    if "game" in tables:
        found = db.session.execute(select(SchemaVersion.version)).scalar() if "banco_schema" in tables else None
        if found != SCHEMA_VERSION:
            url = db.engine.url
            way_out = (f"move the file {url.database} away" if url.get_backend_name() == "sqlite"
                       else "empty that database")
            raise SchemaMismatch(
                f"The database {url.render_as_string(hide_password=True)} was made by another version of "
                f"Banco (tables version {found or 1}, this one needs {SCHEMA_VERSION}). Start with a new "
                f"database: {way_out}, or set DATABASE_URL to an empty one.")
        return
    db.create_all()
    db.session.add(SchemaVersion(version=SCHEMA_VERSION))
    db.session.commit()


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
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE" if WRITE_INTENT.get() else "BEGIN")
