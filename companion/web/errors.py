"""One error handler for everything: JSON to the API, a page to a person. Nothing answers
with a bare server error: unexpected failures are rolled back, logged and told politely.

The same words answer the requests waitress refuses before the app sees them (a body over the
size limit, a request it cannot parse): ``create_server`` serves the app so. No body is read
past the app's ``MAX_CONTENT_LENGTH``, whatever server runs it (``_Guard``).
"""
from __future__ import annotations

import io
import logging

from babel.numbers import format_decimal
from flask import jsonify, make_response, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wsgi import get_content_length

from ..core.errors import N_, BancoError
from .. import services
from .templating import lang


def translate(error: BancoError) -> str:
    """The refusal's message in the reader's language, with its values filled in (numbers
    grouped the reader's way: 1.500 in Italian, 1,500 in English)."""
    params = {k: format_decimal(v, locale=lang()) if isinstance(v, int) and not isinstance(v, bool) else v
              for k, v in error.params.items()}
    return gettext(error.message, **params)


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


def http_error(status: int):
    """The answer to an HTTP-level refusal (``status`` from ``_HTTP_MESSAGES``)."""
    code, message = _HTTP_MESSAGES.get(status, ("error", N_("Something went wrong.")))
    return respond(status, code, gettext(message))


def init_app(app) -> None:
    @app.errorhandler(BancoError)
    def _banco(error: BancoError):
        services.rollback()
        response = respond(error.status, error.code, translate(error))
        retry_after = getattr(error, "retry_after", None)
        if retry_after is not None:  # 429: when a new attempt is counted again
            response.headers["Retry-After"] = str(retry_after)
        return response

    @app.errorhandler(CSRFError)
    def _csrf(error):
        return respond(400, "form_expired", gettext("This form has expired. Reload the page and try again."))

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        response = http_error(error.code)
        # What the refusal says in its headers stays: the methods a 405 takes (Allow), ...
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        services.rollback()
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return respond(500, "internal_error", gettext("Something went wrong on the bank's side. Nothing was changed."))

    app.wsgi_app = _Guard(app, app.wsgi_app)


# --- bodies of unknown length, and waitress's own refusals -------------------------------------

REFUSED = "banco.refused"  # the environ key saying which status waitress refused the request with


class _Guard:
    """Around the app's WSGI callable: answers a request waitress refused (``REFUSED`` in its
    environ, set by ``create_server``'s refusal task: a key no client can set, as headers all
    begin ``HTTP_``), and reads a body of unknown length (chunked, passed through by a server
    such as Werkzeug's own) up to the limit, refusing it past: Werkzeug alone would hand the app
    the body's first ``MAX_CONTENT_LENGTH`` bytes as if they were all of it. Under waitress a
    body always has its length: waitress reads chunked bodies itself, up to the same limit."""

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
            response = self.app.process_response(http_error(status))
        return response(environ, start_response)

    def _read_whole(self, environ) -> int | None:
        """Reads the body into memory, at most the limit; 413 when there is more."""
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        stream, parts, size = environ["wsgi.input"], [], 0
        while size <= limit and (part := stream.read(min(65536, limit + 1 - size))):
            parts.append(part)
            size += len(part)
        if size > limit:
            return 413
        environ.update({"wsgi.input": io.BytesIO(b"".join(parts)), "CONTENT_LENGTH": str(size)})
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return None


class QuietDisconnects(logging.Filter):
    """Drops waitress's "Client disconnected while serving ..." line: a live page's stream
    ends that way whenever a phone goes to sleep."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Client disconnected while serving")


def create_server(app, **options):
    """A waitress server for ``app`` (``options`` as waitress takes them) that reads no body
    larger than the app's ``MAX_CONTENT_LENGTH``, chunked or not, and answers what waitress
    itself refuses as the app would: the JSON error under /api/, the error page elsewhere, in
    the reader's language, never a 5xx (waitress says 501 to a transfer coding it does not
    know: a request the client got wrong, so 400). Returns the server; ``run()`` serves."""
    from waitress.server import create_server as waitress_server

    # waitress refuses a body of max_request_body_size bytes or more; the app one of more
    # than MAX_CONTENT_LENGTH: the same bodies. A declared length over it is refused unread,
    # a chunked body as soon as it grows past it.
    options.setdefault("max_request_body_size", app.config["MAX_CONTENT_LENGTH"] + 1)
    # A phone that leaves (locked, out of Wi-Fi, the page closed) is ordinary at a table: not
    # worth a line each time, nor a traceback for the socket it left behind.
    options.setdefault("log_socket_errors", False)
    waitress_log = logging.getLogger("waitress")
    if not any(isinstance(f, QuietDisconnects) for f in waitress_log.filters):
        waitress_log.addFilter(QuietDisconnects())
    server = waitress_server(app, **options)
    channel = _channel_class()
    for each in [server, *getattr(server, "map", {}).values()]:
        if hasattr(each, "channel_class"):  # every listening socket (one, or one per address)
            each.channel_class = channel
    return server


def _channel_class():
    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask, WSGITask
    from waitress.utilities import BadRequest

    class RefusalTask(WSGITask):
        """Answers a refused request through the app (see ``_Guard``), with no body, closing
        the connection after, as waitress's own error answer does."""

        def execute(self):
            error = self.request.error
            if error.code >= 500:
                self.request.error = error = BadRequest(error.body)
            self.set_close_on_finish()  # the body was not read: the connection cannot go on
            if not getattr(self.request, "command", "") or getattr(self.request, "path", None) is None:
                return ErrorTask.execute(self)  # not even a request line: waitress's plain words
            return super().execute()

        def get_environment(self):
            environ = super().get_environment()
            environ.update({REFUSED: self.request.error.code, "wsgi.input": io.BytesIO(), "CONTENT_LENGTH": "0"})
            return environ

    class Channel(HTTPChannel):
        error_task_class = RefusalTask

    return Channel
