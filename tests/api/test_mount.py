"""The Flask app in the server's threads (``companion.serve.mount``): the WSGI environ as PEP 3333
has it, the answer collected whole (a long one piece by piece, a few pieces held), the app's
``close`` always called (Flask ends its request there), an error's head in place of the first,
and what the app lets out raised to the loop."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from companion.serve.mount import Mount


def _scope(**over):
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/g/città/deeds",
        "raw_path": b"/g/citt%C3%A0/deeds",
        "root_path": "",
        "query_string": b"q=vicolo&regions=a,b",
        "http_version": "1.1",
        "scheme": "http",
        "server": ("127.0.0.1", 5000),
        "client": ("192.168.1.20", 51234),
        "headers": [
            (b"host", b"banco.local"),
            (b"accept", b"text/html"),
            (b"accept", b"*/*"),
            (b"content-type", b"application/json"),
            (b"content-length", b"7"),
            (b"x-banco-live", b"1"),
        ],
    }
    scope.update(over)
    return scope


def _answer(app, scope=None, body=b"", extra=None):
    mount = Mount(app, 2)
    try:
        return asyncio.run(mount.answer(scope or _scope(), body, extra))
    finally:
        mount.shutdown()


def test_the_environ_is_the_requests_as_pep_3333_has_it():
    seen = {}

    def app(environ, start_response):
        seen.update(environ, body=environ["wsgi.input"].read())
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]

    answer = _answer(app, body=b'{"a":1}', extra={"banco.live": {"full": False}})
    assert answer.status == 200 and answer.body == b"ok" and answer.headers == [(b"content-type", b"text/plain")]
    assert seen["PATH_INFO"] == "/g/città/deeds".encode().decode("latin-1")  # bytes as Latin-1 text
    assert seen["QUERY_STRING"] == "q=vicolo&regions=a,b" and seen["REQUEST_METHOD"] == "GET"
    assert seen["HTTP_ACCEPT"] == "text/html,*/*"  # a repeated header, joined
    assert seen["CONTENT_TYPE"] == "application/json" and seen["CONTENT_LENGTH"] == "7"
    assert seen["HTTP_X_BANCO_LIVE"] == "1" and seen["HTTP_HOST"] == "banco.local"
    assert (seen["REMOTE_ADDR"], seen["REMOTE_PORT"]) == ("192.168.1.20", "51234")
    assert (seen["SERVER_NAME"], seen["SERVER_PORT"], seen["SERVER_PROTOCOL"]) == ("127.0.0.1", "5000", "HTTP/1.1")
    assert seen["body"] == b'{"a":1}' and seen["banco.live"] == {"full": False}
    assert seen["wsgi.url_scheme"] == "http" and seen["SCRIPT_NAME"] == ""


def test_the_answer_is_collected_whole_and_the_app_closed():
    closed = []

    class Body:
        def __iter__(self):
            yield b"one, "
            yield b""
            yield b"two"

        def close(self):
            closed.append(True)

    def app(environ, start_response):
        write = start_response("201 Created", [("X-Thing", " a ")])
        write(b"legacy ")
        return Body()

    answer = _answer(app)
    assert (answer.status, answer.headers, answer.body) == (201, [(b"x-thing", b"a")], b"legacy one, two")
    assert closed == [True]


def test_an_errors_head_replaces_the_first_and_a_second_without_one_is_refused():
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html")])
        try:
            raise ValueError("while drawing the page")
        except ValueError:
            import sys

            start_response("500 Internal Server Error", [("Content-Type", "text/plain")], sys.exc_info())
        return [b"sorry"]

    answer = _answer(app)
    assert (answer.status, answer.headers, answer.body) == (500, [(b"content-type", b"text/plain")], b"sorry")

    def twice(environ, start_response):
        start_response("200 OK", [])
        start_response("204 No Content", [])
        return []

    with pytest.raises(AssertionError):
        _answer(twice)


def test_what_the_app_lets_out_reaches_the_loop_and_the_app_is_still_closed():
    closed = []

    class Failing:
        def __iter__(self):
            raise RuntimeError("the template broke")
            yield b""  # unreachable: makes this a generator that fails at its first item

        def close(self):
            closed.append(True)

    def app(environ, start_response):
        start_response("200 OK", [])
        return Failing()

    with pytest.raises(RuntimeError, match="the template broke"):
        _answer(app)
    assert closed == [True]

    with pytest.raises(RuntimeError, match="without calling start_response"):
        _answer(lambda environ, start_response: [b"no head"])


def test_printed_sheets_have_threads_of_their_own():
    """A page is answered while every thread of the page pool's size is busy drawing PDFs."""
    import threading

    from companion.serve.mount import PRINTING_THREADS, takes_long

    release = threading.Event()

    def app(environ, start_response):
        if environ["PATH_INFO"].endswith(".pdf"):
            release.wait(10)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [environ["PATH_INFO"].encode()]

    async def scenario():
        mount = Mount(app, 1)
        try:
            sheets = [
                asyncio.ensure_future(mount.answer(_scope(path=f"/print/classic-it/deeds{i}.pdf"), b""))
                for i in range(PRINTING_THREADS + 1)
            ]
            page = await asyncio.wait_for(mount.answer(_scope(path="/g/abc/me"), b""), 5)
            assert page.body == b"/g/abc/me"
            assert not any(sheet.done() for sheet in sheets)  # still drawing
            release.set()
            assert next(s.body for s in await asyncio.gather(*sheets)).endswith(b"deeds0.pdf")
        finally:
            release.set()
            mount.shutdown()

    asyncio.run(scenario())
    assert takes_long("/g/abc/print/poster.png") and takes_long("/t/x/standings.pdf")
    assert not takes_long("/static/icons/app-192.png") and not takes_long("/g/abc/me")


class Long:
    """A long answer written piece by piece (``pieces`` of 256 KiB), counting what it has written
    and whether it was closed; ``fail_at``: the piece it fails at instead."""

    PIECE = 256 * 1024

    def __init__(self, pieces, fail_at=None):
        self.pieces, self.fail_at = pieces, fail_at
        self.written, self.closed = 0, False

    def __iter__(self):
        for i in range(self.pieces):
            if i == self.fail_at:
                raise RuntimeError("the journal could not be read")
            self.written += 1
            yield bytes([65 + i % 26]) * self.PIECE

    def close(self):
        self.closed = True

    def app(self, environ, start_response):
        start_response("200 OK", [("Content-Type", "application/json")])
        return self


def test_a_long_answer_goes_out_as_the_app_writes_it_a_few_pieces_held():
    from companion.serve.mount import PIECES_HELD, WHOLE_MOST

    body = Long(40)
    whole_pieces = WHOLE_MOST // Long.PIECE + 1  # collected before the answer goes piece by piece

    async def scenario():
        mount = Mount(body.app, 1)
        try:
            answer = await mount.answer(_scope(), b"")
            assert answer.status == 200 and answer.rest is not None
            assert len(answer.body) == whole_pieces * Long.PIECE
            await asyncio.sleep(0.3)  # the thread writes on only as far as the queue holds
            assert body.written <= whole_pieces + PIECES_HELD + 1
            got = [answer.body]
            async for piece in answer.rest:
                got.append(piece)
            return b"".join(got)
        finally:
            mount.shutdown()

    got = asyncio.run(scenario())
    assert got == b"".join(bytes([65 + i % 26]) * Long.PIECE for i in range(40))
    assert body.closed


def test_a_long_answer_left_by_its_client_stops_the_app_and_an_error_on_the_way_is_raised():
    from companion.serve.mount import PIECES_HELD, WHOLE_MOST

    whole_pieces = WHOLE_MOST // Long.PIECE + 1
    left, failing = Long(1000), Long(40, fail_at=30)

    async def scenario():
        mount = Mount(left.app, 1)
        try:
            answer = await mount.answer(_scope(), b"")
            async with contextlib.aclosing(answer.rest) as rest:  # as the gate writes it
                async for _ in rest:
                    break  # the client leaves after one more piece
            await asyncio.sleep(0.3)
        finally:
            mount.shutdown()
        mount = Mount(failing.app, 1)
        try:
            answer = await mount.answer(_scope(), b"")
            with pytest.raises(RuntimeError, match="could not be read"):
                async for _ in answer.rest:
                    pass
        finally:
            mount.shutdown()

    asyncio.run(scenario())
    assert left.closed and left.written <= whole_pieces + PIECES_HELD + 3
    assert failing.closed and failing.written == 30
