"""The pages' gettext: Flask-Babel's catalog, with Italian's words fitted to the names they
come before ("paga ad Anna", "alla Banca": ``services.elision``), in Python and in the
templates alike. Modules of the web layer import ``gettext``/``ngettext`` from here."""

from __future__ import annotations

from flask import Flask
from flask_babel import get_locale, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..services.elision import elide


def _lang() -> str:
    return str(get_locale() or "en")


def gettext(string: str, **variables) -> str:
    """``string`` in the reader's language, its ``%(name)s`` filled from ``variables``."""
    worded = get_translations().ugettext(string)
    return elide(worded, variables, _lang()) if variables else worded


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """The form of ``singular``/``plural`` that ``num`` takes in the reader's language, filled
    from ``variables`` and ``num``."""
    variables.setdefault("num", num)
    worded = get_translations().ungettext(singular, plural, num)
    return elide(worded, variables, _lang())


@pass_context
def _template_gettext(context: Context, string: str, **variables) -> str:
    # As Jinja's new-style gettext: always a format string, Markup when autoescaping.
    worded = get_translations().ugettext(string)
    if context.eval_ctx.autoescape:
        worded = Markup(worded)
    return elide(worded, variables, _lang())


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    worded = get_translations().ungettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        worded = Markup(worded)
    return elide(worded, variables, _lang())


def init_app(app: Flask) -> None:
    """The templates' ``_``, ``gettext`` and ``ngettext`` become these (after Flask-Babel's)."""
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext)
