"""The ASGI application in front of the Flask app: what reaches a thread, and what stays on the loop.

Every request's body is read here, on the event loop, before any thread sees it: at most the
app's ``MAX_CONTENT_LENGTH``, in ``BODY_SECONDS`` at most, so a slow or oversized upload never
holds one of the app's threads. A body declared over the limit is refused unread; a chunked one
as soon as it grows past it. Refusals are answered by the Flask app itself (``_Guard`` in
``companion.web.errors``, told the status through the environ), so they read as every other
refusal: the JSON error under /api/, the error page elsewhere, in the reader's language.

Then the Flask app answers in a pool of ``THREADS`` threads (``Mount``), and the loop writes its
answer whole. A GET that turns out to be a live stream (the app wrote its opening and noted the
game, see ``companion.live.routes``) is not closed when the app is done: ``Streams`` holds it on
the loop.
"""

from __future__ import annotations

import asyncio

from ..live.events import LIVE
from ..live.streams import Streams
from ..web.errors import REFUSED
from .mount import Answer, Mount
from .writer import Writer

BODY_SECONDS = 30  # a whole body, from the end of the head: a phone's form is a few hundred bytes


def header(scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


class Gate:
    def __init__(self, app) -> None:
        self.app = app
        self.limit = app.config["MAX_CONTENT_LENGTH"]
        self.streams = Streams(app.extensions["banco"]["broker"], app.config["STREAMS_PER_ADDRESS"])
        self.mount = Mount(app, app.config["THREADS"])
        self.direct = app.extensions["banco"].get("direct")
        self.writer = Writer(self.direct) if self.direct is not None else None

    async def __call__(self, scope, receive, send) -> None:
        # Only HTTP comes here: the server runs without lifespan and without WebSocket.
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
        elif not (scope["method"] == "POST" and await self._direct(scope, body, send)):
            await _send(send, await self.mount.answer(scope, body))

    async def _direct(self, scope, body: bytes, send) -> bool:
        """Answers an action the app takes directly (``companion.web.direct``) once the writer
        has committed it; False when the app's own cycle is to answer the request."""
        work = self.direct.take(scope["path"], header(scope, b"authorization"), body) if self.direct else None
        if work is None:
            return False
        await self.writer.submit(work)
        answer = self.direct.answer(work)
        if answer is None:
            return False
        status, headers, content = answer
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content, "more_body": False})
        return True

    async def _body(self, scope, receive) -> bytes | int | None:
        """The whole body; a status to refuse with (413 over the limit, 400 when it does not
        arrive in time); ``None`` when the client left."""
        declared = header(scope, b"content-length")
        if declared is not None and int(declared) > self.limit:  # h11 has checked it is a number
            return 413
        parts, size, more = [], 0, True
        try:
            async with asyncio.timeout(BODY_SECONDS):
                while more:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    part = message.get("body", b"")
                    parts.append(part)
                    size += len(part)
                    if size > self.limit:
                        return 413
                    more = message.get("more_body", False)
        except TimeoutError:
            return 400
        return b"".join(parts)

    async def _get(self, scope, body: bytes, receive, send) -> None:
        """A GET through the app; held open on the loop when the app made it a live stream.
        Past ``STREAMS_PER_ADDRESS`` streams from the caller's address, the app is told to
        refuse the stream (429). Only the app knows whether a GET is a stream, so each one
        takes a place while the app answers it; only a stream keeps it."""
        address = (scope.get("client") or ("", 0))[0]
        reserved = self.streams.reserve(address)
        held: dict = {"full": not reserved}
        try:
            answer = await self.mount.answer(scope, body, {LIVE: held})
            if "game_id" not in held:
                await _send(send, answer)
                return
            # Held open: no length, so the answer goes out chunked, event by event.
            headers = [(k, v) for k, v in answer.headers if k != b"content-length"]
            await send({"type": "http.response.start", "status": answer.status, "headers": headers})
            if answer.body:
                await send({"type": "http.response.body", "body": answer.body, "more_body": True})
            await self.streams.hold(held["game_id"], held["seen"], receive, send)
        finally:
            if reserved:
                self.streams.release(address)

    async def refuse(self, scope, send, status: int) -> None:
        """Answers ``status`` as the app words it, and closes the connection: the body, if
        any, was not read, so nothing after it can be understood."""
        answer = await self.mount.answer(scope, b"", {REFUSED: status})
        await _send(send, answer._replace(headers=[*answer.headers, (b"connection", b"close")]))


async def _send(send, answer: Answer) -> None:
    """Writes ``answer`` whole: its head, then its body in one message."""
    await send({"type": "http.response.start", "status": answer.status, "headers": answer.headers})
    await send({"type": "http.response.body", "body": answer.body, "more_body": False})
