"""One error handler for everything: JSON to the API, a page to a person. Nothing answers
with a bare server error: a database that cannot save (a full disk) is answered 503
``storage_unavailable`` in words (``services.faults``); unexpected failures are rolled back,
logged and told politely.

The same words answer the requests the server refuses before the app sees them (a body over
the size limit, a request it cannot parse): ``companion.serve`` asks the app to word them. No
body is read past the app's ``MAX_CONTENT_LENGTH`` (a game file's: ``MAX_GAME_FILE_BYTES``),
whatever server runs it (``_Guard``).
"""

from __future__ import annotations

import io

import flask
from flask import current_app, jsonify, make_response, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wsgi import get_content_length

from .. import services
from ..core.errors import N_, BancoError
from ..extension import Places, banco
from ..live.events import LIVE
from ..services import wording
from .speaking import gettext
from .templating import lang


def translate(error: BancoError) -> str:
    """The refusal's message in the reader's language (``services.wording``: the words the
    actions' door answers with)."""
    return wording.say(error, lang())


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def respond(status: int, code: str, message: str):
    """The error ``{"error": {"code", "message"}}`` under /api/, the error page elsewhere."""
    if _wants_json():
        response = jsonify({"error": {"code": code, "message": message}})
        response.status_code = status
        return response
    return make_response(render_template("error.html", status=status, message=message), status)


_HTTP_MESSAGES = {
    400: ("bad_request", N_("The request could not be understood.")),
    401: ("unauthorized", N_("Sign in to this game first.")),
    403: ("forbidden", N_("You may not do this.")),
    404: ("not_found", N_("There is nothing here.")),
    405: ("method_not_allowed", N_("This address does not take that method.")),
    413: ("too_large", N_("The request is too large.")),
    415: ("unsupported_media_type", N_("Send JSON.")),
    429: ("too_many_attempts", N_("Too many attempts. Try again in a minute.")),
    431: ("headers_too_large", N_("The request's headers are too large.")),
}


# The connections the server turns away before the app sees their request, by why (the status
# alone does not say): past their address's share of the server's (``companion.serve.shares``),
# or past the server's own limit.
_TURNED_AWAY = {
    "crowded": (
        503,
        "too_many_connections",
        N_(
            "Too many connections to the bank come from your network's address. Close the bank's "
            "pages you no longer need, then try again in a few seconds."
        ),
    ),
    "full": (
        503,
        "server_busy",
        N_("The bank is holding as many connections as it can right now. Try again in a few seconds."),
    ),
}


def http_error(status: int):
    """The answer to an HTTP-level refusal (``status`` from ``_HTTP_MESSAGES``)."""
    code, message = _HTTP_MESSAGES.get(status, ("error", N_("Something went wrong.")))
    return respond(status, code, gettext(message))


def server_refusal(refused: int | str):
    """The answer to a request the server refused before the app saw it (``REFUSED``): a
    status, or why its connection was turned away (a key of ``_TURNED_AWAY``, or
    ``BUSY_IMPORTING``: 503 with when to send the file again)."""
    if refused == BUSY_IMPORTING:
        busy = services.BusyImporting()
        response = respond(busy.status, busy.code, translate(busy))
        response.headers.update(refusal_headers(busy))
        return response
    if isinstance(refused, str):
        status, code, message = _TURNED_AWAY[refused]
        return respond(status, code, gettext(message))
    return http_error(refused)


def places() -> Places | None:
    """This process's places for imports, for the request's game file to take one; None when
    Banco's server took it before reading the body (``IMPORT_PLACE``)."""
    return None if request.environ.get(IMPORT_PLACE) else banco().imports


def refusal_headers(error: BancoError) -> dict[str, str]:
    """The headers a refusal's answer carries: a 429's ``Retry-After`` (when a new attempt is
    counted again)."""
    retry_after = getattr(error, "retry_after", None)
    return {} if retry_after is None else {"Retry-After": str(retry_after)}


# The limits a refusal 429 comes from, by its code, as the metrics name them; a code not here
# is named as it is.
_LIMITS = {"too_many_attempts": "guesses", "too_many_created": "creations"}


def count_refusal(error: BancoError) -> None:
    """Counts a refusal past a limit (429: guesses of a secret, new things stored, live streams
    from one address) among the server's metrics, as it is answered."""
    if error.status != 429:
        return
    held = request.environ.get(LIVE)
    limit = "streams" if held is not None and held.get("refused") else _LIMITS.get(error.code, error.code)
    banco().metrics.refused(limit)


def init_app(app) -> None:
    app.request_class = Request  # a game file's upload reads more than any other request

    @app.errorhandler(BancoError)
    def _banco(error: BancoError):
        services.rollback()
        count_refusal(error)
        response = respond(error.status, error.code, translate(error))
        response.headers.update(refusal_headers(error))
        return response

    @app.errorhandler(CSRFError)
    def _csrf(error):
        return respond(400, "form_expired", gettext("This form has expired. Reload the page and try again."))

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        response = http_error(error.code or 500)  # every HTTPException Werkzeug raises has its code
        # What the refusal says in its headers stays: the methods a 405 takes (Allow), ...
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        services.rollback()
        refused = services.cannot_save(error)
        if refused is not None:  # a full disk, a read-only file: said in words, and logged once by tx
            return _banco(refused)
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return respond(500, "internal_error", gettext("Something went wrong on the bank's side. Nothing was changed."))

    app.wsgi_app = _Guard(app, app.wsgi_app)


# --- bodies of unknown length, and the server's own refusals -----------------------------------

# The environ key saying which status the server refused the request with, or why it turned its
# connection away ("crowded", "full").
REFUSED = "banco.refused"
# Why a game file's upload was refused before the app saw it: every place for imports was taken.
BUSY_IMPORTING = "busy_importing"
# The environ key saying the server holds a place for this game file's import (``services.importing``).
IMPORT_PLACE = "banco.import_place"
# The routes that take a whole game file (``POST``): a long game's file is far larger than any
# other request, so these read up to ``MAX_GAME_FILE_BYTES`` where every other reads up to
# ``MAX_CONTENT_LENGTH``.
GAME_FILE_ENDPOINTS = ("api.import_game", "gamefiles.import_file")


def game_file_paths(app) -> frozenset[str]:
    """The addresses of the routes that take a game file."""
    return frozenset(rule.rule for endpoint in GAME_FILE_ENDPOINTS for rule in app.url_map.iter_rules(endpoint))


def body_limit(app, method: str, path: str) -> int:
    """The most bytes of body the request ``method path`` may send."""
    if method == "POST" and path in game_file_paths(app):
        return app.config["MAX_GAME_FILE_BYTES"]
    return app.config["MAX_CONTENT_LENGTH"]


class Request(flask.Request):
    """Flask's request, reading a game file's body up to ``MAX_GAME_FILE_BYTES``."""

    @property
    def max_content_length(self) -> int | None:
        rule = self.url_rule
        if self._max_content_length is None and rule is not None and rule.endpoint in GAME_FILE_ENDPOINTS:
            return current_app.config["MAX_GAME_FILE_BYTES"]
        return super().max_content_length

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value


class _Guard:
    """Around the app's WSGI callable: answers a request the server refused (``REFUSED`` in its
    environ, set by ``companion.serve``: a key no client can set, as headers all begin
    ``HTTP_``), and reads a body of unknown length (chunked, passed through by a server such as
    Werkzeug's own) up to the limit, refusing it past: Werkzeug alone would hand the app the
    body's first ``MAX_CONTENT_LENGTH`` bytes as if they were all of it. Under Banco's server a
    body always has its length: the server reads chunked bodies itself, up to the same limit."""

    def __init__(self, app, wsgi_app) -> None:
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        status = environ.get(REFUSED)
        if status is None and environ.get("wsgi.input_terminated") and get_content_length(environ) is None:
            status = self._read_whole(environ)
        if status is None:
            return self.wsgi_app(environ, start_response)
        with self.app.request_context(environ):
            response = self.app.process_response(server_refusal(status))
        return response(environ, start_response)

    def _read_whole(self, environ) -> int | None:
        """Reads the body into memory, at most the limit; 413 when there is more."""
        limit = body_limit(self.app, environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", ""))
        stream, parts, size = environ["wsgi.input"], [], 0
        while size <= limit and (part := stream.read(min(65536, limit + 1 - size))):
            parts.append(part)
            size += len(part)
        if size > limit:
            return 413
        environ.update({"wsgi.input": io.BytesIO(b"".join(parts)), "CONTENT_LENGTH": str(size)})
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return None
