"""The pages' words: the catalog of the reader's language (``services.wording``, the one
Flask-Babel reads), with Italian's words fitted to the names they come before ("paga ad Anna",
"alla Banca": ``services.elision``), in Python and in the templates alike. Modules of the web
layer import ``gettext``/``ngettext`` and ``language`` from here.

The language is the request's (Flask-Babel's ``select_locale``), asked once per request and
kept on it: a page writes dozens of words and amounts, and Babel's own lookup goes through
several of Flask's context proxies at every call. Inside ``spoken_in`` it is the one given,
whoever asked: the news of a version is written once for every language at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from flask import Flask, has_request_context, request
from flask_babel import get_locale
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..services import wording
from ..services.elision import elide
from ..services.wording import catalog

_SPOKEN: ContextVar[str | None] = ContextVar("banco.spoken", default=None)
_ASKED = "banco.lang"  # where ``language`` keeps the request's language in its environ


def language() -> str:
    """The language words are written in here (``"it"``, ``"en"``): the one ``spoken_in``
    gave, else the request's reader's, else Flask-Babel's default."""
    spoken = _SPOKEN.get()
    if spoken is not None:
        return spoken
    if not has_request_context():
        return str(get_locale() or "en")
    environ = request.environ
    found = environ.get(_ASKED)
    if found is None:
        found = environ[_ASKED] = str(get_locale() or "en")
    return found


@contextmanager
def spoken_in(lang: str) -> Iterator[None]:
    """Inside, every word and amount is written in ``lang``, whoever is reading."""
    token = _SPOKEN.set(lang)
    try:
        yield
    finally:
        _SPOKEN.reset(token)


def gettext(string: str, **variables) -> str:
    """``string`` in the reader's language, its ``%(name)s`` filled from ``variables``."""
    return wording.gettext(string, language(), **variables)


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """The form of ``singular``/``plural`` that ``num`` takes in the reader's language, filled
    from ``variables`` and ``num``."""
    variables.setdefault("num", num)
    lang = language()
    return elide(catalog(lang).ungettext(singular, plural, num), variables, lang)


@pass_context
def _template_gettext(context: Context, string: str, **variables) -> str:
    # As Jinja's new-style gettext: always a format string, Markup when autoescaping.
    lang = language()
    worded = catalog(lang).ugettext(string)
    if context.eval_ctx.autoescape:
        worded = Markup(worded)
    return elide(worded, variables, lang)


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    lang = language()
    worded = catalog(lang).ungettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        worded = Markup(worded)
    return elide(worded, variables, lang)


def init_app(app: Flask) -> None:
    """The templates' ``_``, ``gettext`` and ``ngettext`` become these (after Flask-Babel's)."""
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext)
