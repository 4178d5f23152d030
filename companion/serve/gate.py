"""The ASGI application in front of the Flask app: what reaches a thread, and what stays on the loop.

Every request's body is read here, on the event loop, before any thread sees it: at most the
app's ``MAX_CONTENT_LENGTH`` (a game file's upload: ``MAX_GAME_FILE_BYTES``), in ``BODY_SECONDS`` at most, so a slow or oversized upload never
holds one of the app's threads. A body declared over the limit is refused unread; a chunked one
as soon as it grows past it. Refusals are answered by the Flask app itself (``_Guard`` in
``companion.web.errors``, told the status through the environ), so they read as every other
refusal: the JSON error under /api/, the error page elsewhere, in the reader's language.

An action (a ``POST`` to the actions' route) stays on the loop: taken at the app's door
(``companion.services.door``), run by the app's writer (``writer``), answered here, refusals
included. Every other request the Flask app answers in a pool of ``THREADS`` threads
(``Mount``), and the loop writes its answer whole. A GET that turns out to be a live stream (the
app wrote its opening and noted the game, see ``companion.web.live``) is not closed when the
app is done: ``Streams`` holds it on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from ..config import HSTS, SECURITY_HEADERS
from ..extension import banco
from ..live.events import LIVE
from ..live.streams import Streams
from ..services.door import bearer, kind_of, reader, reply
from ..services.door import of as door_of
from ..web.errors import BUSY_IMPORTING, IMPORT_PLACE, REFUSED, game_file_paths
from .mount import Answer, Mount
from .proxies import TrustedProxies
from .shares import Shares
from .writer import Handover

BODY_SECONDS = 30  # a whole body, from the end of the head: a phone's form is a few hundred bytes
# When a connection refused for its address's crowd may come back: by then the server has closed
# that address's idle connections (its keep-alive is 5 seconds).
CROWDED_RETRY_SECONDS = 5
# The route whose requests the loop answers at the app's door, without Flask's request cycle: its
# address is declared once, on the route itself (``companion.web.api.act``), and read from the app.
ACTIONS_ENDPOINT = "api.act"
# The server's refusals that a limit made, by status, as the metrics name the limit (a 400 the
# parser could not read is no limit's).
REFUSED_BY_LIMIT = {413: "body_too_large", 431: "head_too_large"}


def route_around(app, endpoint: str) -> tuple[str, str]:
    """What comes before and after the one variable part (a game's id: any text but ``/``) of the
    route at ``endpoint``, as the app declares it (a werkzeug rule such as
    ``/api/v1/games/<game_id>/actions``): two string comparisons instead of the whole URL map,
    on the path every phone's payment takes."""
    (rule,) = app.url_map.iter_rules(endpoint)
    before, _, variable = rule.rule.partition("<")
    converter, _, after = variable.partition(">")
    assert ":" not in converter and "<" not in after, rule.rule  # the default converter, one part
    return before, after


def header(scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


class Gate:
    def __init__(self, app) -> None:
        self.app = app
        # Who may speak for a client (BANCO_TRUSTED_PROXIES): every count below is of the client.
        self.proxies = TrustedProxies(app.config.get("TRUSTED_PROXIES", ()))
        self.secure = bool(app.config.get("SESSION_COOKIE_SECURE"))
        self.limit = app.config["MAX_CONTENT_LENGTH"]
        # A game file's upload may be far larger (``web.errors.body_limit``): only these addresses.
        self.file_limit, self.file_paths = app.config["MAX_GAME_FILE_BYTES"], game_file_paths(app)
        parts = banco(app)
        self.imports = parts.imports
        self.streams = Streams(parts.broker)
        self.metrics = parts.metrics
        self.stream_shares = Shares(app.config["STREAMS_PER_ADDRESS"])  # live streams per address
        self.shares = Shares(app.config["CONNECTIONS_PER_ADDRESS"])
        self.connection_limit = app.config["CONNECTION_LIMIT"]
        self.mount = Mount(app, app.config["THREADS"])
        self.door = door_of(app)
        self.writer = Handover(self.door.writer)
        self.actions_before, self.actions_after = route_around(app, ACTIONS_ENDPOINT)
        self.json = app.json  # jsonify's own settings: sorted keys, compact, ASCII
        self.headers = [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS]
        self.headers.append((b"vary", b"Accept-Encoding"))  # Flask-Compress's, on every answer of the app

    async def __call__(self, scope, receive, send) -> None:
        # Only HTTP comes here: the server runs without lifespan and without WebSocket.
        scope = self.proxies.resolve(scope)
        if scope["method"] == "POST" and scope["path"] in self.file_paths:
            await self._game_file(scope, receive, send)
        else:
            await self._request(scope, receive, send)

    async def _game_file(self, scope, receive, send) -> None:
        """A game file's upload, in one of this process's places for imports
        (``services.importing``), taken before its body is read: past them, the body is read and
        dropped, never kept, and the app answers 503 ``busy_importing``. Once answered, what the
        import and its body took is given back to the system."""
        if not self.imports.take():
            self.metrics.refused(BUSY_IMPORTING)
            dropped = await self._body(scope, receive, keep=False)
            if dropped is not None:
                await self.refuse(scope, send, dropped if isinstance(dropped, int) else BUSY_IMPORTING)
            return
        try:
            await self._request(scope, receive, send, {IMPORT_PLACE: True})
        finally:
            # Off the loop: giving the memory back runs the collector over the whole process.
            await asyncio.get_running_loop().run_in_executor(None, self.imports.give_back)

    async def _request(self, scope, receive, send, extra: dict | None = None) -> None:
        """Any request but an action's, its body read whole; ``extra`` goes into the app's environ."""
        body = await self._body(scope, receive)
        if body is None:
            return  # the client left before its body was whole: nobody to answer
        if isinstance(body, int):
            await self.refuse(scope, send, body)
            return
        if header(scope, b"transfer-encoding") is not None:
            # A chunked body, read whole: the app sees it with its length.
            # (h11 has read it by its chunks, whatever Content-Length it may also have claimed.)
            scope = {
                **scope,
                "headers": [(k, v) for k, v in scope["headers"] if k not in (b"transfer-encoding", b"content-length")]
                + [(b"content-length", str(len(body)).encode())],
            }
        if scope["method"] == "GET":
            await self._get(scope, body, receive, send)
        elif scope["method"] == "POST" and (game_id := self._action_route(scope["path"])) is not None:
            await _send(send, await self._action(scope, game_id, body))
        else:
            await _send(send, await self.mount.answer(scope, body, extra))

    def _action_route(self, path: str) -> str | None:
        """The game of a ``POST`` to the actions' route; ``None`` for any other address."""
        before, after = self.actions_before, self.actions_after
        if not (path.startswith(before) and path.endswith(after)) or len(path) <= len(before) + len(after):
            return None
        game_id = path[len(before) : len(path) - len(after)]
        return None if "/" in game_id else game_id

    async def _action(self, scope, game_id: str, body: bytes) -> Answer:
        """An action through the app's door (``companion.services.door``), as the route
        ``api.act`` answers it, byte for byte, headers included: taken on the loop, run by the
        app's writer, its refusal worded by the code that judged it."""
        started = time.perf_counter()
        authorization = header(scope, b"authorization")
        work = self.door.take(game_id, bearer(authorization.decode("latin-1")) if authorization else None, body)
        if work.error is None:
            await self.writer.submit(work)
        lang = "en"
        if work.error is not None:  # only a refusal has words: the headers are read for it alone
            cookie, accepted = header(scope, b"cookie"), header(scope, b"accept-language")
            lang = reader(
                cookie.decode("latin-1") if cookie else None, accepted.decode("latin-1") if accepted else None
            )
        said = reply(work, lang)
        pretty = (self.json.compact is None and self.app.debug) or self.json.compact is False
        layout = {"indent": 2} if pretty else {"separators": (",", ":")}  # as jsonify lays it out
        content = (self.json.dumps(said.body, **layout) + "\n").encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(content)).encode())]
        headers += [(name.lower().encode(), value.encode()) for name, value in said.headers]
        headers += self.headers
        if self.secure or scope.get("scheme") == "https":
            headers.append((b"strict-transport-security", HSTS.encode()))
        worker = self.app.config.get("WORKER")
        if worker:
            headers.append((b"x-banco-worker", str(worker).encode()))
        self.metrics.acted(kind_of(work), said.status, time.perf_counter() - started)
        return Answer(said.status, headers, content)

    async def _body(self, scope, receive, keep: bool = True) -> bytes | int | None:
        """The whole body (without ``keep``, read and dropped: empty); a status to refuse with
        (413 over the limit, 400 when it does not arrive in time); ``None`` when the client left."""
        limit = self.file_limit if scope["method"] == "POST" and scope["path"] in self.file_paths else self.limit
        declared = header(scope, b"content-length")
        if declared is not None and int(declared) > limit:  # h11 has checked it is a number
            return 413
        parts, size, more = [], 0, True
        try:
            async with asyncio.timeout(BODY_SECONDS):
                while more:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    part = message.get("body", b"")
                    if keep:
                        parts.append(part)
                    size += len(part)
                    if size > limit:
                        return 413
                    more = message.get("more_body", False)
        except TimeoutError:
            self.metrics.refused("body_too_slow")
            return 400
        return b"".join(parts)

    async def _get(self, scope, body: bytes, receive, send) -> None:
        """A GET through the app; held open on the loop when the app made it a live stream.
        Past ``STREAMS_PER_ADDRESS`` streams from the caller's address, the app is told to
        refuse the stream (429). Only the app knows whether a GET is a stream, so each one
        takes a place while the app answers it; only a stream keeps it."""
        address = (scope.get("client") or ("", 0))[0]
        reserved = self.stream_shares.take(address)
        held: dict = {"full": not reserved}
        try:
            answer = await self.mount.answer(scope, body, {LIVE: held})
            if "game_id" not in held:
                await _send(send, answer, receive)
                return
            # Held open: no length, so the answer goes out chunked, event by event.
            headers = [(k, v) for k, v in answer.headers if k != b"content-length"]
            await send({"type": "http.response.start", "status": answer.status, "headers": headers})
            if answer.body:
                await send({"type": "http.response.body", "body": answer.body, "more_body": True})
            self.metrics.streams.inc()
            try:
                await self.streams.hold(held["game_id"], held["seen"], receive, send, held.get("reader"))
            finally:
                self.metrics.streams.dec()
        finally:
            if reserved:
                self.stream_shares.release(address)

    async def crowded(self, scope, receive, send) -> None:
        """The answer on a connection past its address's share (``shares``): 503 as the app
        words it, with when to come back, and closed. Its body, if any, is not read."""
        await self._turn_away(scope, send, "crowded")

    async def full(self, scope, receive, send) -> None:
        """The answer on a connection past the server's own limit: as ``crowded``, in other words."""
        await self._turn_away(scope, send, "full")

    async def _turn_away(self, scope, send, why: str) -> None:
        self.metrics.refused(why)
        answer = await self.mount.answer(scope, b"", {REFUSED: why})
        retry = (b"retry-after", str(CROWDED_RETRY_SECONDS).encode())
        await _send(send, answer._replace(headers=[*answer.headers, retry, (b"connection", b"close")]))

    async def refuse(self, scope, send, status: int | str) -> None:
        """Answers ``status`` (or why: ``BUSY_IMPORTING``) as the app words it, and closes the
        connection: the body, if any, may not have been read, so nothing after it can be understood."""
        if status in REFUSED_BY_LIMIT:
            self.metrics.refused(REFUSED_BY_LIMIT[status])
        answer = await self.mount.answer(scope, b"", {REFUSED: status})
        await _send(send, answer._replace(headers=[*answer.headers, (b"connection", b"close")]))


async def _send(send, answer: Answer, receive=None) -> None:
    """Writes ``answer``: its head, then its body in one message; a long answer (``Answer.rest``)
    piece by piece as the app writes it, until the end or until the client, heard on
    ``receive``, leaves."""
    await send({"type": "http.response.start", "status": answer.status, "headers": answer.headers})
    if answer.rest is None:
        await send({"type": "http.response.body", "body": answer.body, "more_body": False})
        return
    await send({"type": "http.response.body", "body": answer.body, "more_body": True})
    # The server drops what is written after the client left without a word: listen for it.
    gone = asyncio.ensure_future(_left(receive)) if receive is not None else None
    try:
        async with contextlib.aclosing(answer.rest) as rest:
            async for piece in rest:
                if gone is not None and gone.done():
                    return
                await send({"type": "http.response.body", "body": piece, "more_body": True})
    finally:
        if gone is not None:
            gone.cancel()
    await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _left(receive) -> None:
    """Returns once the client has left (its body was read whole before the answer)."""
    while (await receive())["type"] != "http.disconnect":
        pass
