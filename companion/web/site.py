"""The web layer's part of the app: languages, protection against forged forms, the pages, the
table screen, the deeds, printing, the API, and the headers every answer carries."""

from __future__ import annotations

from flask import Flask, Response, request
from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

from ..config import HSTS, SECURITY_HEADERS
from ..services.wording import language
from . import (
    api,
    assets,
    calculator,
    compiled,
    deeds,
    dice,
    edition_files,
    editor,
    errors,
    gamefiles,
    landing,
    notices,
    operations,
    pages,
    printing,
    ratelimit,
    results,
    scan,
    screen,
    seats,
    sent,
    speaking,
    templating,
    tournaments,
)

csrf = CSRFProtect()
babel = Babel()


def select_locale() -> str:
    """The language of the page: the reader's own choice (a cookie set by the switch), else
    the browser's preference, else English (``services.wording.language``, which the actions'
    door asks too)."""
    return language(request.cookies.get("lang"), request.headers.get("Accept-Language"))


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)
    speaking.init_app(app)  # Italian's "ad Anna", "alla Banca" in the templates too
    csrf.init_app(app)
    templating.init_app(app)
    compiled.init_app(app)  # the templates' code kept across restarts
    assets.init_app(app)  # versioned static addresses cached for good; compressed responses
    dice.init_app(app)
    errors.init_app(app)
    ratelimit.init_app(app)  # a place taken for a new thing not stored is given back
    deeds.init_app(app)
    app.session_interface = seats.SeatCookie()
    app.register_blueprint(pages.bp)
    app.register_blueprint(operations.bp)  # health, readiness and metrics, for the host's tools
    app.register_blueprint(screen.bp)  # the table screen, and the bank's hand-off to a phone
    app.register_blueprint(deeds.bp)
    app.register_blueprint(landing.bp)  # "Where did I land?": the board and a square's move
    app.register_blueprint(api.bp)
    app.register_blueprint(printing.bp)
    app.register_blueprint(results.bp)
    app.register_blueprint(calculator.bp)
    app.register_blueprint(scan.bp)  # printed money checked by phone
    app.register_blueprint(tournaments.bp)  # the tournament desk
    app.register_blueprint(edition_files.bp)  # editions as files: import, download
    edition_files.init_app(app)
    app.register_blueprint(editor.bp)  # the edition editor
    app.register_blueprint(gamefiles.bp)  # a game as a file: the Bank's download, the home page's upload
    scan.init_app(app)
    notices.init_app(app)  # what happened to me, on every page of a game
    sent.init_app(app)  # moves sent by the page's script: answered in JSON, checked before confirming
    csrf.exempt(api.bp)  # the API takes bearer tokens, never cookies, so it cannot be forged
    csrf.exempt(operations.bp)  # changes nothing; its metrics answer any method 404 as unknown addresses do

    @app.after_request
    def _security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS:
            response.headers.setdefault(name, value)
        if request.is_secure or app.config["SESSION_COOKIE_SECURE"]:  # over HTTPS: never plain http again
            response.headers["Strict-Transport-Security"] = HSTS
        if app.config.get("WORKER"):  # BANCO_WORKERS above 1: which process answered (its number)
            response.headers["X-Banco-Worker"] = str(app.config["WORKER"])
        return response
