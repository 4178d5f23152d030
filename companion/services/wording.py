"""A refusal in the reader's words, without a request: the catalog Flask-Babel reads
(``companion/translations``), read by Babel itself, so the code that judges an action also
words its refusal, on whatever thread it runs (the server's writer, a page's).

The reader's language is chosen as the pages choose it (``companion.select_locale`` asks
``language``): their own choice (the ``lang`` cookie), else their browser's preference, else
English.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..core.errors import BancoError, Money
from .elision import elide

LANGUAGES = ("it", "en")
CATALOG = Path(__file__).resolve().parent.parent / "translations"


def language(chosen: str | None, accepted: str | None) -> str:
    """The reader's language: ``chosen`` (the ``lang`` cookie) when Banco speaks it, else the
    best of ``accepted`` (an ``Accept-Language`` header), else English."""
    if chosen in LANGUAGES:
        return chosen
    if not accepted:
        return "en"
    return parse_accept_header(accepted, LanguageAccept).best_match(LANGUAGES) or "en"


@cache
def catalog(lang: str) -> NullTranslations:
    """The words of ``lang``, loaded once per language (the file does not change while
    serving); an empty catalog, that says every message as written, for English."""
    return Translations.load(str(CATALOG), [lang], "messages")


def gettext(message: str, lang: str, **params) -> str:
    """``message`` in ``lang``, its ``%(name)s`` filled in from ``params``."""
    worded = catalog(lang).ugettext(message)
    return elide(worded, params, lang) if params else worded


def say(error: BancoError, lang: str) -> str:
    """The refusal's message in ``lang``, with its values filled in (numbers grouped the
    reader's way: 1.500 in Italian, 1,500 in English; its amounts of money with the currency of
    the edition it was judged in, when known: ``€ 1.500``; a refusal given as a value, the
    reason for this one, worded in ``lang`` too)."""
    params = {k: _worded(v, lang, error.currency) for k, v in error.params.items()}
    return gettext(error.message, lang, **params)


def _worded(value, lang: str, currency: str | None):
    if isinstance(value, BancoError):
        if value.currency is None:
            value.currency = currency  # judged in the same game
        return say(value, lang)
    if isinstance(value, Money) and currency is not None:
        return f"{currency}\u00a0{format_decimal(value, locale=lang)}"  # as the pages write money
    if isinstance(value, int) and not isinstance(value, bool):
        return format_decimal(value, locale=lang)
    return value
