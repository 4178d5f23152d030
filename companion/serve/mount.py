"""The Flask app in a pool of threads, called once per request with its body already read.

The loop hands a thread the request, the thread runs the app and collects its whole answer, and
the loop writes it: one hop each way. A general WSGI bridge (a2wsgi) hops back to the loop for
the head, for every chunk of the body and for its end, each time through a task and a queue,
and makes the thread wait for each: a large part of what a plain request costs the server
(``bench/bench_requests.py``, ``docs/benchmarks.md``). Banco's answers are all finite (a
live stream's opening included: the loop holds the stream after it) and nearly all at most a
few hundred kilobytes (a printed sheet), so collecting one whole costs nothing the client would
notice. One answer grows with a game: its file, tens of megabytes for a game of 100,000 entries.
Past ``WHOLE_MOST`` bytes an answer goes out as the app writes it: the head and what came so
far, then each piece through a queue of ``PIECES_HELD``, the thread waiting while the client
reads, so the server holds a few pieces of it whatever its length.

The WSGI environ is built as a2wsgi built it (PEP 3333: paths as Latin-1 "bytes as text",
headers that repeat joined by commas).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import sys
from collections.abc import AsyncGenerator
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

# An answer up to this size is collected whole and written in one message; a longer one (a long
# game's file) goes out as the app writes it.
WHOLE_MOST = 1 << 20
# The pieces of a long answer written by the app and not yet taken by the loop: what the server
# holds of it while the client reads.
PIECES_HELD = 4
# How long the app's thread waits for a client that takes nothing more before it stops writing:
# a stalled download does not hold one of the app's threads for ever.
READER_SECONDS = 60


class Answer(NamedTuple):
    """What the app answered: the status, the ASGI headers (lower-case names, bytes) and the body;
    for an answer past ``WHOLE_MOST``, the body so far and the ``rest`` as the app writes it."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    rest: AsyncGenerator[bytes] | None = None


# Printed sheets (a deck of deed cards, the money, a poster: PDF or PNG) take far longer than a
# page; they have threads of their own, so a table printing never holds up the pages.
PRINTING_THREADS = 2


def takes_long(path: str) -> bool:
    """Whether the request for ``path`` draws a printed sheet (a PDF or PNG made by the app, not a
    static file)."""
    return path.endswith((".pdf", ".png")) and not path.startswith("/static/")


class Mount:
    """Calls ``app`` (WSGI) in a pool of ``workers`` threads; printed sheets in a pool of their own
    (``PRINTING_THREADS``)."""

    def __init__(self, app, workers: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="WSGI")
        self.printing = ThreadPoolExecutor(max_workers=PRINTING_THREADS, thread_name_prefix="WSGI-print")

    async def answer(self, scope, body: bytes, extra: dict | None = None) -> Answer:
        """The app's answer to the request ``scope`` with ``body``; ``extra`` goes into its
        environ (what the loop tells the app). An exception the app lets out is raised here."""
        environ = build_environ(scope, body)
        if extra:
            environ.update(extra)
        context = contextvars.copy_context()
        executor = self.printing if takes_long(scope["path"]) else self.executor
        loop = asyncio.get_running_loop()
        pipe = _Pipe(loop)
        called = loop.run_in_executor(executor, context.run, self._call, environ, pipe)
        try:
            await asyncio.wait((called, pipe.started), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            pipe.left = True
            raise
        if not pipe.started.done():
            answer = called.result()
            assert answer is not None  # only a long answer's thread returns nothing
            return answer
        status, headers, first = pipe.started.result()
        return Answer(status, headers, first, pipe.rest(called))

    def shutdown(self) -> None:
        """Lets both pools' threads end once their request is answered; takes no new one."""
        self.executor.shutdown(wait=False)
        self.printing.shutdown(wait=False)

    def _call(self, environ: dict, pipe: _Pipe) -> Answer | None:
        """The app's answer, whole; or, once it is past ``WHOLE_MOST``, nothing: its head and
        body so far went to ``pipe.started`` and the rest goes through ``pipe``."""
        head: list = []
        chunks: list[bytes] = []

        def start_response(status: str, headers, exc_info=None):
            if exc_info is not None and head:
                # Nothing has been sent yet (the answer goes out whole): the error's head
                # replaces the first one, as PEP 3333 allows before the head is written.
                head.clear()
            elif head:
                raise AssertionError("start_response called twice without exc_info")
            head.append(
                (
                    int(status.split(" ", 1)[0]),
                    [
                        (name.strip().encode("latin-1").lower(), value.strip().encode("latin-1"))
                        for name, value in headers
                    ],
                )
            )
            return chunks.append  # the legacy write()

        result = self.app(environ, start_response)
        size, piecewise = 0, False
        try:
            for chunk in result:
                if not chunk:
                    continue
                if piecewise:
                    if not pipe.put(chunk):
                        break  # the client left: the app stops writing
                    continue
                chunks.append(chunk)
                size += len(chunk)
                if size > WHOLE_MOST and head:
                    status, headers = head[0]
                    pipe.start(status, headers, b"".join(chunks))
                    chunks.clear()
                    piecewise = True
        finally:
            if piecewise:
                pipe.put(None)
            close = getattr(result, "close", None)
            if close is not None:
                close()  # Flask ends the request here (its teardown: the database session)
        if piecewise:
            return None
        if not head:
            raise RuntimeError("the app answered without calling start_response")
        status, headers = head[0]
        return Answer(status, headers, b"".join(chunks))


class _Pipe:
    """The rest of a long answer, from the app's thread to the loop a piece at a time, never more
    than ``PIECES_HELD`` of them waiting."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.started: asyncio.Future[tuple[int, list[tuple[bytes, bytes]], bytes]] = loop.create_future()
        self.pieces: asyncio.Queue[bytes | None] = asyncio.Queue(PIECES_HELD)
        self.left = False  # the client is gone (or took nothing for READER_SECONDS)

    def start(self, status: int, headers: list[tuple[bytes, bytes]], first: bytes) -> None:
        """From the thread: the answer's head and its body so far, for the loop to write."""
        self.loop.call_soon_threadsafe(self._started, (status, headers, first))

    def _started(self, head: tuple[int, list[tuple[bytes, bytes]], bytes]) -> None:
        if not self.started.done():  # nobody waits for an answer whose request was cancelled
            self.started.set_result(head)

    def put(self, piece: bytes | None) -> bool:
        """From the thread: hands the loop ``piece`` (``None``: the end), waiting while
        ``PIECES_HELD`` are unread; false once the client is gone, or took nothing for
        ``READER_SECONDS``, or the loop has stopped."""
        if self.left:
            return False
        try:
            handed = asyncio.run_coroutine_threadsafe(self.pieces.put(piece), self.loop)
        except RuntimeError:  # the loop is closed: the server has stopped
            self.left = True
            return False
        try:
            handed.result(READER_SECONDS)
        except TimeoutError:
            handed.cancel()
            self.left = True
        return not self.left

    async def rest(self, called: asyncio.Future) -> AsyncGenerator[bytes]:
        """On the loop: each piece as the thread hands it; at the end, what the app let out on the
        way, raised. Closed early (the client left), the thread stops at its next piece."""
        try:
            while (piece := await self.pieces.get()) is not None:
                yield piece
            await called
        finally:
            self.left = True
            while not self.pieces.empty():  # a thread waiting to hand one more sees it has left
                self.pieces.get_nowait()


def build_environ(scope, body: bytes) -> dict:
    """The WSGI environ of the ASGI request ``scope`` whose whole body is ``body``."""
    script_name = scope.get("root_path", "").encode("utf8").decode("latin1")
    path_info = scope["path"].encode("utf8").decode("latin1")
    if path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server, port = scope.get("server") or ("localhost", 80)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope["query_string"].decode("ascii"),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "SERVER_NAME": server,
        "SERVER_PORT": str(port or 0),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client is not None:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for name, value in scope.get("headers", ()):
        name = name.decode("latin1")
        key = (
            "CONTENT_LENGTH"
            if name == "content-length"
            else "CONTENT_TYPE"
            if name == "content-type"
            else "HTTP_" + name.upper().replace("-", "_")
        )
        value = value.decode("latin1")
        environ[key] = environ[key] + "," + value if key in environ else value
    return environ
