"""The Flask app in a pool of threads, called once per request with its body already read.

The loop hands a thread the request, the thread runs the app and collects its whole answer, and
the loop writes it: one hop each way. A general WSGI bridge (a2wsgi) hops back to the loop for
the head, for every chunk of the body and for its end, each time through a task and a queue,
and makes the thread wait for each: a large part of what a plain request costs the server
(``bench/bench_requests.py``, ``docs/benchmarks.md``). Banco's answers are all finite (a
live stream's opening included: the loop holds the stream after it) and at most a few hundred
kilobytes (a printed sheet), so collecting one whole costs nothing the client would notice.

The WSGI environ is built as a2wsgi built it (PEP 3333: paths as Latin-1 "bytes as text",
headers that repeat joined by commas).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple


class Answer(NamedTuple):
    """What the app answered: the status, the ASGI headers (lower-case names, bytes) and the body."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes


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
        return await asyncio.get_running_loop().run_in_executor(executor, context.run, self._call, environ)

    def shutdown(self) -> None:
        """Lets both pools' threads end once their request is answered; takes no new one."""
        self.executor.shutdown(wait=False)
        self.printing.shutdown(wait=False)

    def _call(self, environ: dict) -> Answer:
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
        try:
            for chunk in result:
                if chunk:
                    chunks.append(chunk)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()  # Flask ends the request here (its teardown: the database session)
        if not head:
            raise RuntimeError("the app answered without calling start_response")
        status, headers = head[0]
        return Answer(status, headers, b"".join(chunks))


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
