"""uvicorn's HTTP/1.1 connection, with four manners of Banco's.

The parser is httptools (llhttp, in C) where it is installed, as requirements.txt installs
it on Linux, macOS and Windows: every request's head is read in C rather than in h11's pure
Python. Without it, h11. Either way:

- A client that does not finish its request head within ``HEAD_SECONDS`` (silent, or sending a
  byte now and then to hold the connection) is disconnected.
- A head larger than ``HEAD_BYTES`` is refused (431), as h11 does by itself; one sent behind a
  request still being answered ends the connection.
- A request that cannot be parsed (a malformed line or header, or a transfer coding other than
  chunked, which h11 refuses and llhttp would let through) is answered 400 (431 for a head too
  large) as the app words it, from what could be read of its head, instead of uvicorn's plain
  text.
- A connection past its address's share of the server's (``shares``; a trusted proxy's
  connections have none, ``proxies``), or past the server's
  own limit (``CONNECTION_LIMIT``), is not counted among the server's connections, has
  ``CROWDED_SECONDS`` to send its head, and is answered 503 as the app words it (saying which),
  with ``Retry-After``, and closed. The connections already held are still served (uvicorn's
  own limit, which this replaces, refuses every request once the server is full, and in plain
  text).
"""

from __future__ import annotations

from http import HTTPStatus
from urllib.parse import unquote

from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol  # imports httptools

    HTTPTOOLS = True
except ImportError:  # h11 alone: pure Python, slower, the same manners
    HTTPTOOLS = False

HEAD_SECONDS = 10
HEAD_BYTES = 16384  # h11's own limit for a request head, kept with either parser
# A browser sends its head at once: a connection past its address's share waits for it this
# long, so an address flooding the server holds its extra sockets for this long at most.
CROWDED_SECONDS = 2


def parser_name() -> str:
    return "httptools" if HTTPTOOLS else "h11"


def protocol_class(gate, parser: str | None = None):
    """The protocol uvicorn runs for each connection, answering its refusals through ``gate``;
    ``parser`` (``"h11"`` or ``"httptools"``) where not the fastest installed."""
    base = HttpToolsProtocol if (parser or parser_name()) == "httptools" else H11Protocol

    class Protocol(base):  # type: ignore[valid-type,misc]  # a base chosen at run time, which mypy cannot follow
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._head = bytearray()
            self._behind = 0  # bytes read behind a request whole and still being answered
            self._address = self.client[0] if self.client else ""
            # A trusted proxy's connections carry every phone's requests in turn: no share of its
            # own (``proxies``); the proxy bounds each client's connections.
            trusted = gate.proxies.trusts(self._address)
            self._shared = not trusted and gate.shares.take(self._address)  # given back when it ends
            counted = trusted or self._shared
            full = len(self.connections) > gate.connection_limit  # this one counted among them
            if not counted or full:
                # Past its address's share, or past the server's limit: not one of the server's
                # connections, so the limit still has room for the other addresses; its request
                # is answered 503, saying which.
                self.app = gate.full if counted else gate.crowded
                if self._shared:
                    gate.shares.release(self._address)
                    self._shared = False
                self.connections.discard(self)
                self._arm(CROWDED_SECONDS)
            else:
                self._arm()

        def _arm(self, seconds: float | None = None) -> None:
            """Awaits the next head for ``seconds``, else ``HEAD_SECONDS`` (read now)."""
            self._head_of = self.cycle  # the cycle before the head being awaited
            self._head_timer = self.loop.call_later(HEAD_SECONDS if seconds is None else seconds, self._too_slow)

        def _too_slow(self) -> None:
            if self.cycle is self._head_of and not self.transport.is_closing():
                gate.metrics.refused("head_too_slow")
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            awaiting = self.cycle is self._head_of
            if awaiting:
                self._head += data[: HEAD_BYTES - len(self._head)]
            elif self.cycle is not None and not self.cycle.more_body:
                # A request whole and still being answered: what comes now is a head sent behind
                # it. h11 reads none of it until the answer is done; llhttp reads it at once,
                # and would hold a head of any size.
                self._behind += len(data)
            super().data_received(data)
            if self.cycle is not self._head_of:  # a head came whole: a request is under way
                self._head_timer.cancel()
                self._head.clear()
            elif (
                awaiting
                and len(self._head) >= HEAD_BYTES
                and not self.transport.is_closing()
                and b"\r\n\r\n" not in self._head
            ):
                self.send_400_response("Request head too large.")  # llhttp has no limit of its own
            if self._behind > HEAD_BYTES and not self.transport.is_closing():
                self.transport.close()

        if base is not H11Protocol:

            def on_headers_complete(self) -> None:
                self._behind = 0
                # h11 refuses a transfer coding other than chunked; llhttp would pass a body of
                # "gzip, chunked" on as chunked. Raised here, it is the parser's error: a 400.
                for name, value in self.headers:
                    if name == b"transfer-encoding" and value.strip().lower() != b"chunked":
                        raise ValueError("a transfer coding other than chunked")
                super().on_headers_complete()

        def on_response_complete(self) -> None:
            self._head_timer.cancel()
            self._behind = 0
            # httptools may have read the next request already (sent as soon as this answer's
            # last byte left, before the server marked it done): its head is not awaited.
            if self.cycle.response_complete:
                self._arm()
            super().on_response_complete()

        def connection_lost(self, exc) -> None:
            self._head_timer.cancel()
            if self._shared:
                self._shared = False  # once: the loop may tell a closing connection twice
                gate.shares.release(self._address)
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            if self.transport.is_closing():
                return
            scope = _scope(bytes(self._head), self.client, self.server)
            if scope is None:  # not even a request line: nothing to word it for
                super().send_400_response(msg)
                return
            head = bytes(self._head)
            status = 431 if b"\r\n\r\n" not in head and len(head) >= HEAD_BYTES else 400
            self.transport.pause_reading()
            self.loop.create_task(self._refuse(scope, status))

        async def _refuse(self, scope, status: int) -> None:
            answer: list[dict] = []
            await gate.refuse(scope, _collect(answer), status)
            start, body = answer[0], b"".join(m.get("body", b"") for m in answer[1:])
            head = [b"HTTP/1.1 %d %s" % (status, HTTPStatus(status).phrase.encode())]
            head += [k + b": " + v for k, v in start["headers"] if k not in (b"content-length", b"connection")]
            head += [b"content-length: %d" % len(body), b"connection: close"]
            if not self.transport.is_closing():
                self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
                self.transport.close()

    return Protocol


def _collect(messages: list):
    async def send(message) -> None:
        messages.append(message)

    return send


def _scope(head: bytes, client, server) -> dict | None:
    """An HTTP scope from a head h11 would not take: its request line and its headers as
    sent (no body: what follows the head is not understood)."""
    lines = head.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/1.") or not parts[1].startswith(b"/"):
        return None
    try:
        raw_path, _, query = parts[1].partition(b"?")
        path = unquote(raw_path.decode("ascii"))
        method = parts[0].decode("ascii")
    except UnicodeDecodeError:
        return None
    headers = []
    for line in lines[1:]:
        name, colon, value = line.partition(b":")
        if colon and name.strip() and name.strip().lower() not in (b"content-length", b"transfer-encoding"):
            headers.append((name.strip().lower(), value.strip()))
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "root_path": "",
        "path": path,
        "raw_path": raw_path,
        "query_string": query,
        "headers": headers,
        "client": client,
        "server": server,
    }
