"""What a server makes ready before it listens, so the first phone after a restart is served as
fast as the rest: the templates compiled with what each live region reads, and the catalogs of
every language loaded. Without it, the first move after a restart would pay for them, on the
mover's page and then on every other phone's (``bench/bench_restart.py`` measures that move)."""

from __future__ import annotations

from babel.numbers import format_decimal
from flask import Flask

from ..services import catalog, wording
from . import regions


def warm(app: Flask) -> None:
    """Compiles ``app``'s templates, loads its catalogs and each language's number formats, and
    keeps the built-in editions under their hashes (``catalog.know_built_in``); nothing is read
    from the database."""
    regions.prepare(app.jinja_env)
    with app.test_request_context("/"):
        catalog.know_built_in()
        for lang in wording.LANGUAGES:
            wording.gettext("the bank", lang)  # its catalog loaded
            format_decimal(1500, locale=lang)
