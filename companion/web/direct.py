"""The API's actions answered without Flask's request cycle: the hot path of a busy table.

``POST /api/v1/games/<id>/actions`` with a bearer token is what phones send most (every payment,
rent, bid). The server (``companion.serve.writer``) hands such a request here on its event loop:
``take`` reads it with the API's own functions (``api.parse_json``, ``api.bearer``,
``services.prepare``), ``run`` runs a whole batch of them in one transaction in the server's
writer thread (``services.run_batch``: group commit, each answered only after the commit), and
``answer`` writes what ``api.act`` would have written, byte for byte, headers included.

Whatever is not plainly such a request, and every refusal, is left to the Flask app: it words
each refusal in the reader's language, exactly as before. A refusal changed nothing and was not
remembered (``services.act``), so the app running the request again judges it afresh, as if it
had come a moment later. So is a batch that failed as a whole (its commit), or that never ran
(the server stopping): the app runs each of its requests again. Only successes are answered here.
"""

from __future__ import annotations

import re
import threading

from .. import services
from ..core.errors import BancoError
from .api import bearer, parse_json

ROUTE = re.compile(r"/api/v1/games/([^/]+)/actions")
KEPT_GAMES = 256  # a club's evening is 50 tables: every table's game stays loaded in the writer


class DirectActions:
    def __init__(self, app, headers) -> None:
        self.app = app
        self.headers = [(name.lower().encode(), value.encode()) for name, value in headers]
        self.headers.append((b"vary", b"Accept-Encoding"))  # Flask-Compress's, on every answer of the app
        self._json = app.json  # jsonify's own settings: sorted keys, compact, ASCII
        self._thread = threading.local()

    def take(self, path: str, authorization: bytes | None, body: bytes):
        """The prepared action (``services.prepare``) of an action request with a bearer token
        and a JSON object; ``None`` for any other request, left to the app."""
        match = ROUTE.fullmatch(path)
        if match is None or authorization is None:
            return None
        try:
            token = bearer(authorization.decode("latin-1"))
            if token is None:
                return None
            return services.prepare(match.group(1), None, parse_json(body), token)
        except BancoError:
            return None

    def run(self, batch: list) -> None:
        """Runs ``batch`` (from ``take``) in one write transaction; each one's ``answer`` or
        ``error`` is set. A batch that fails as a whole (its commit) is logged, and each of its
        actions then carries the error."""
        if getattr(self._thread, "context", None) is None:
            # The writer thread's own app context, kept: one database session for all its
            # batches, not one made and dropped per batch (each commit still expires what it read).
            self._thread.context = self.app.app_context()
            self._thread.context.push()
            services.keep_games(KEPT_GAMES)
        try:
            services.run_batch(batch)
        except Exception as error:
            self.app.logger.warning("a batch of %d actions failed; the app runs them again", len(batch), exc_info=True)
            for work in batch:
                work.answer, work.error = None, error

    def answer(self, work) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """Status, headers and body of a committed action, as ``api.act`` answers it; ``None``
        when it was refused, failed or never ran: the app answers it."""
        if work.error is not None or work.answer is None:
            return None
        response = work.answer
        pretty = (self._json.compact is None and self.app.debug) or self._json.compact is False
        layout = {"indent": 2} if pretty else {"separators": (",", ":")}  # as jsonify lays it out
        body = (self._json.dumps(response, **layout) + "\n").encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *self.headers]
        worker = self.app.config.get("WORKER")
        if worker:
            headers.append((b"x-banco-worker", str(worker).encode()))
        return (202 if response["result"].get("held") else 200), headers, body
