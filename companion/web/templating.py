"""What templates can call: money in the edition's currency, names in the reader's language,
a fresh idempotency key for every form drawn, the partial that shows a rule policy."""

from __future__ import annotations

import uuid
from functools import lru_cache

from babel.numbers import format_decimal
from flask import request

from ..extension import banco
from .speaking import gettext as _
from .speaking import language as lang  # the reader's language, as the web layer asks it


def money(amount, edition) -> str:
    """``1500`` as ``€ 1.500`` (Italian) or ``€ 1,500`` (English); ``None`` as a dash."""
    if amount is None:
        return "—"
    return f"{edition.currency_symbol}\u00a0{_grouped(amount, lang())}"


@lru_cache(maxsize=8192)
def _grouped(amount, locale: str) -> str:
    # A live page writes dozens of amounts at every version, and Babel reads its locale data
    # for each one: a table's amounts are few and repeat, so each is written once.
    return format_decimal(amount, locale=locale)


def text(value) -> str:
    """An edition ``Text`` (or plain string) in the reader's language."""
    return value(lang()) if callable(value) else value


def deed_name(key, edition) -> str:
    """A deed's name from its key (the key itself for one the edition lacks)."""
    deed = edition.deed(key) if isinstance(key, str) else None
    return deed.name if deed else str(key)


def jail_name(edition) -> str:
    """What the board calls jail (Motopolis: Attesa ricambi), or jail."""
    return edition.jail.name(lang()) if edition.jail.name else _("jail")


def is_light(color: str) -> bool:
    """Whether dark text reads better than white on this ``#rrggbb`` colour (its relative
    luminance, WCAG's formula, is above the point where both contrasts are equal)."""
    try:
        channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    except (TypeError, ValueError):
        return False
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return luminance > 0.179


def policy_partial(concern: str, name: str) -> str:
    """The template that shows the edition's ``name`` policy of ``concern`` on the pages, as
    ``{% include policy_partial('squares', square.policy) %}``: each policy brings its own part,
    and no template compares a policy's name (a test holds every registered policy to one)."""
    return f"policies/{concern}/{name}.html"


def new_key() -> str:
    """A fresh idempotency key for a form that makes a move (``API.md``: ``key``)."""
    return uuid.uuid4().hex


def init_app(app) -> None:
    app.jinja_env.globals["policy_partial"] = policy_partial
    app.jinja_env.globals["new_key"] = new_key
    app.jinja_env.filters["money"] = money
    app.jinja_env.filters["t"] = text
    app.jinja_env.filters["deed_name"] = deed_name
    app.jinja_env.tests["light"] = is_light

    @app.context_processor
    def _globals():
        return {
            "lang": lang(),
            "current_path": request.full_path.rstrip("?"),
            # The last write of this process found the database unable to save (base.html says so).
            "cannot_save": banco().broker.cannot_save,
        }
