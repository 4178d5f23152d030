"""What a server makes ready as soon as it listens, so the first phone after a restart is served
as fast as the rest: the templates compiled with what each live region reads, and the catalogs
of every language loaded. Without it, the first move after a restart would pay for them, on the
mover's page and then on every other phone's (``bench/bench_restart.py`` measures that move).

The server warms in a thread of its own once it listens (``warm_in_background``), not before:
the first phone is answered at once, and a template not warmed yet is compiled by the request
that needs it, as it would be without warming. ``GET /readyz`` does not wait for the warming
(docs/operations.md says why)."""

from __future__ import annotations

import threading

from babel.numbers import format_decimal
from flask import Flask

from ..services import catalog, wording
from . import regions


def warm(app: Flask) -> None:
    """Compiles ``app``'s templates, loads its catalogs and each language's number formats, and
    keeps the built-in editions under their hashes (``catalog.know_built_in``); nothing is read
    from the database."""
    with app.test_request_context("/"):
        catalog.know_built_in()  # first: a game's page reads its edition, and this is quick
        for lang in wording.LANGUAGES:
            wording.gettext("the bank", lang)  # its catalog loaded
            format_decimal(1500, locale=lang)
    regions.prepare(app.jinja_env)


def warm_in_background(app: Flask) -> threading.Thread:
    """Starts ``warm(app)`` in a thread of its own, for a server already listening, and returns
    the thread. It does not keep the process alive: a server stopped while warming stops."""
    thread = threading.Thread(target=warm, args=(app,), name="banco-warm", daemon=True)
    thread.start()
    return thread
