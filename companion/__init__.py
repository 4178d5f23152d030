"""Banco: the bank for board games played on a real table.

``create_app`` reads like a table of contents: settings, the database, what the layers share,
the pages and the API, the live streams, the maintenance commands.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from flask import Flask

from . import cli, config, database, extension
from .core.editions.edition import Edition
from .core.editions.loading import EDITIONS_DIR, LoadedEditions, load_editions
from .extension import Banco, Limiter
from .live.broker import Broker
from .live.fanout import listener
from .live.newsroom import Newsroom
from .metrics import Metrics
from .services import door
from .services.importing import Imports
from .services.limits import shared_places
from .web import live, site
from .web.news import draw_news
from .web.ratelimit import CREATION_WINDOW_SECONDS, RateLimiter

# What reads an editions folder: Banco's own ``load_editions``, or one a caller hands in (the
# tests' parses each folder once for the hundreds of apps they make).
EditionsLoader = Callable[[Path], LoadedEditions]


def create_app(test_config: dict | None = None, load_editions: EditionsLoader = load_editions) -> Flask:
    """The app: ``test_config`` in place of the environment's settings, the built-in editions
    read by ``load_editions``."""
    root = config.ROOT
    app = Flask(
        __name__,
        template_folder=str(root / "templates"),
        static_folder=str(root / "static"),
        instance_path=str(root / "instance"),
    )
    config.init_app(app, test_config)  # the environment's settings, or a test's
    database.init_app(app)  # the tables brought up to date, every game kept
    extension.init_app(app, shared_parts(app, load_editions))
    site.init_app(app)  # languages, forms' protection, the pages and the API, every answer's headers
    live.init_app(app)  # the live pages' streams, and what changed since a version
    app.cli.add_command(cli.banco)
    return app


def shared_parts(app: Flask, load_editions: EditionsLoader = load_editions) -> Banco:
    """What the layers of ``app`` share (``companion.extension``), its built-in editions read by
    ``load_editions``."""
    broker = Broker()
    guesses, creations = limits(app)
    metrics = Metrics()
    # What committed versions tell the pages, drawn off the writer (web.news) in the app's context.
    newsroom = Newsroom(broker, draw_news, app.app_context)
    # Every action, the API's and the pages', goes through it (services.door): one writer.
    actions = door.Door(app, metrics, newsroom)
    door.install(app, actions)
    return Banco(
        editions=built_in_editions(app, load_editions),
        broker=broker,
        # Started by the server (companion.serve) while it serves: other processes' versions.
        fanout=listener(app.config["SQLALCHEMY_DATABASE_URI"], broker),
        limiter=guesses,
        creations=creations,
        closer=actions.closer,
        metrics=metrics,
        newsroom=newsroom,
        imports=Imports(app.config["IMPORTS_AT_ONCE"]),
    )


# Guesses of a secret (a join or rejoin code, the host password) one address may make a minute.
GUESSES_PER_MINUTE = 20


def limits(app: Flask) -> tuple[Limiter, Limiter]:
    """The limits per address (``web.ratelimit``): on PostgreSQL kept in the database, so every
    worker process and every machine on it counts the same; on SQLite, which one process
    serves, in its memory. The guesses' limit first, then the new things'."""
    places = shared_places(app.config["SQLALCHEMY_DATABASE_URI"])
    share = app.config["CREATIONS_PER_ADDRESS"]
    if places is None:
        return RateLimiter(GUESSES_PER_MINUTE, 60), RateLimiter(share, CREATION_WINDOW_SECONDS)
    return places.limiter("guess", GUESSES_PER_MINUTE, 60), places.limiter("made", share, CREATION_WINDOW_SECONDS)


def built_in_editions(app: Flask, load_editions: EditionsLoader = load_editions) -> dict[str, Edition]:
    """The editions of the files in ``EDITIONS_DIR`` (the setting, else Banco's own), read by
    ``load_editions``. A bad edition file is reported and left out; the other editions still
    play."""
    editions, problems = load_editions(Path(app.config.get("EDITIONS_DIR", EDITIONS_DIR)))
    for problem in problems:
        app.logger.warning("edition file skipped: %s", problem)
    return editions
