"""The one door of the actions: ``POST /api/v1/games/<id>/actions`` and every page's form.

``Door.answer`` takes the game, the caller (a page's seat, or the API's bearer token), the body
and the reader's language, and gives the status and the JSON the caller is to see: the
committed answer, or the refusal worded in the reader's language by the code that judged it.
It is Flask-free: no request is needed, so the server's event loop (``companion.serve.gate``)
calls its two halves itself, ``take`` and ``reply``, around the writer, without Flask's request
cycle; the API's route and the pages call ``answer``, which waits in their thread. Either way
the action runs once, in a batch of the app's one ``Writer`` (group commit).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from werkzeug.http import parse_cookie

from ..core.errors import N_, BancoError
from .actions import prepare, run_batch, unsigned
from .bodies import parse_json
from .closer import Closer
from .faults import cannot_save
from .seats import Caller
from .tx import ANSWERS_AFTER_NEWS, keep_games, rollback
from .wording import gettext, language, say
from .writer import Waiting, Writer

if TYPE_CHECKING:
    from ..live.newsroom import Newsroom
    from ..metrics import Metrics

KEPT_GAMES = 256  # a club's evening is 50 tables: every table's game stays loaded in the writer
UNEXPECTED = N_("Something went wrong on the bank's side. Nothing was changed.")

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Reply:
    """What the caller is to see: the status, the JSON body, and headers beyond the JSON's own
    (a refusal's ``Retry-After``)."""

    status: int
    body: dict
    headers: tuple[tuple[str, str], ...] = ()


class Door:
    """The app's door: its actions go through its one ``writer``, run in the app's context; its
    ``closer`` (started by the server) closes the auctions whose countdown has run out through
    the same writer. Each action answered is counted in ``metrics`` (the server's loop, which
    answers the API's actions itself, counts its own there too)."""

    def __init__(self, app, metrics: Metrics, newsroom: Newsroom) -> None:
        self.metrics = metrics
        # Each batch is answered once its game's pages are told (``newsroom.after``), while the
        # writer goes on to the next one.
        self.writer = Writer(run_batch, lambda: writer_context(app), metrics=metrics, settle=newsroom.after)
        self.closer = Closer(app, self.writer)

    def answer(self, game_id: str, caller: Caller | str | None, body: bytes | dict, lang: str) -> Reply:
        """Runs the action ``body`` (a request's JSON, or a form's fields already read) for
        ``caller`` in ``game_id`` and answers in ``lang``: 200 ``{"version", "result"}`` once
        committed, 202 for money held for the banker, or the refusal ``{"error": {"code",
        "message"}}`` with its status. Refuses what ``take`` refuses and what the action's
        batch refuses (``services.actions.run_batch``), and 503 ``storage_unavailable`` when
        the database cannot save (``faults``); a refusal changes nothing. An unexpected
        failure is raised, for the caller's own error handling."""
        started = time.perf_counter()
        work = self.take(game_id, caller, body)
        if work.error is None:
            rollback()  # the caller's reads so far end here: it reads the commit after
            self.writer.submit(work)
        _judge(work)
        if work.error is not None and not isinstance(work.error, BancoError):
            self.metrics.acted(kind_of(work), 500, time.perf_counter() - started)
            raise work.error
        said = reply(work, lang)
        self.metrics.acted(kind_of(work), said.status, time.perf_counter() - started)
        return said

    @staticmethod
    def take(game_id: str, caller: Caller | str | None, body: bytes | dict) -> Waiting:
        """The action ready for the writer (``services.actions.prepare``), or already refused
        (its ``error`` set: it need not run). With neither a seat nor a token the body is not
        read: the batch says what is missing, the game (404) or the token (401). Refuses a body
        that is not one JSON object (``bodies.parse_json``), an unknown type and a malformed
        key."""
        if caller is None:
            return unsigned(game_id)
        try:
            payload = parse_json(body) if isinstance(body, bytes) else body
            if isinstance(caller, Caller):
                return prepare(game_id, caller, payload)
            return prepare(game_id, None, payload, caller)
        except BancoError as error:
            refused = Waiting()
            refused.error = error
            return refused


def kind_of(work: Waiting) -> str | None:
    """The action's type, as the bank knows it; ``None`` for a request refused before its
    type was read, or naming none the bank knows."""
    return getattr(work, "kind", None)


def _judge(work: Waiting) -> None:
    """An action that failed because the database cannot save is refused as such (503), in
    words: no one's mistake, and nothing of it was written (``faults``)."""
    if work.error is not None and not isinstance(work.error, BancoError):
        refused = cannot_save(work.error)
        if refused is not None:  # logged once where it was found (``tx.writing``), not per action
            work.error = refused


def reply(work: Waiting, lang: str) -> Reply:
    """The answer to an action taken (``Door.take``) and run: its success, its refusal in
    ``lang`` (which only a refusal reads), 503 when the database cannot save, or 500 for an
    unexpected failure (the action's own, or its whole batch's), logged here."""
    _judge(work)
    error = work.error
    if error is None:
        answer = work.answer
        # Money a player asked from a strict bank: accepted, waiting for the banker's yes.
        return Reply(202 if answer["result"].get("held") else 200, answer)
    if isinstance(error, BancoError):
        return refusal(error, lang)
    log.error("an action failed", exc_info=error)
    return failure(lang)


def refusal(error: BancoError, lang: str) -> Reply:
    """A refusal as every door answers it: its status, code and message in ``lang``."""
    retry_after = getattr(error, "retry_after", None)
    return Reply(
        error.status,
        {"error": {"code": error.code, "message": say(error, lang)}},
        (("Retry-After", str(retry_after)),) if retry_after is not None else (),
    )


def failure(lang: str) -> Reply:
    """The answer to an unexpected failure: 500, nothing changed."""
    return Reply(500, {"error": {"code": "internal_error", "message": gettext(UNEXPECTED, lang)}})


@contextmanager
def writer_context(app) -> Iterator[None]:
    """The writer thread's own app context, kept: one database session for all its batches, not
    one made and dropped per batch (each commit still expires what it read), keeping its games
    loaded between them; its transactions do not wait for the news (its batches' answers do)."""
    with app.app_context():
        keep_games(KEPT_GAMES)
        token = ANSWERS_AFTER_NEWS.set(True)
        try:
            yield
        finally:
            ANSWERS_AFTER_NEWS.reset(token)


def bearer(header: str) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header's value; ``None`` for any other."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def reader(cookie: str | None, accept_language: str | None) -> str:
    """The language of a request that Flask does not see, from its ``Cookie`` and
    ``Accept-Language`` headers, chosen as the pages choose it (``wording.language``)."""
    chosen = parse_cookie(cookie).get("lang") if cookie else None
    return language(chosen, accept_language)


KEY = "banco.door"


def install(app, door: Door) -> None:
    """Makes ``door`` the door of ``app`` (``companion.create_app`` makes one)."""
    app.extensions[KEY] = door


def of(app) -> Door:
    """The door of ``app`` (``install``)."""
    return app.extensions[KEY]
