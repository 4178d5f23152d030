"""One error handler for everything: JSON to the API, a page to a person. Nothing answers
with a bare server error: unexpected failures are rolled back, logged and told politely."""
from __future__ import annotations

from babel.numbers import format_decimal
from flask import jsonify, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

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
    if _wants_json():
        response = jsonify({"error": {"code": code, "message": message}})
        response.status_code = status
        return response
    return render_template("error.html", status=status, message=message), status


_HTTP_MESSAGES = {
    400: ("bad_request", N_("The request could not be understood.")),
    401: ("unauthorized", N_("Sign in to this game first.")),
    403: ("forbidden", N_("You may not do this.")),
    404: ("not_found", N_("There is nothing here.")),
    405: ("method_not_allowed", N_("This address does not take that method.")),
    413: ("too_large", N_("The request is too large.")),
    415: ("unsupported_media_type", N_("Send JSON.")),
    429: ("too_many_attempts", N_("Too many attempts. Try again in a minute.")),
}


def init_app(app) -> None:
    @app.errorhandler(BancoError)
    def _banco(error: BancoError):
        services.rollback()
        return respond(error.status, error.code, translate(error))

    @app.errorhandler(CSRFError)
    def _csrf(error):
        return respond(400, "form_expired", gettext("This form has expired. Reload the page and try again."))

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        code, message = _HTTP_MESSAGES.get(error.code, ("error", N_("Something went wrong.")))
        return respond(error.code, code, gettext(message))

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        services.rollback()
        app.logger.exception("unexpected error on %s %s", request.method, request.path)
        return respond(500, "internal_error", gettext("Something went wrong on the bank's side. Nothing was changed."))
