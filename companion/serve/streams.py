"""Live streams held open on the event loop: a future each, no thread.

The app has already checked who asks and written the opening (``companion.web.live``); from
there each stream sends an event as soon as its game passes the version it has shown, a
keep-alive comment when the game is quiet, and ends after ``STREAM_SECONDS`` (the browser
reconnects with ``Last-Event-ID``), when the client leaves, or when the server stops.
"""
from __future__ import annotations

import asyncio

from ..web.live import event

STREAM_SECONDS = 60
KEEPALIVE_SECONDS = 15


class Streams:
    """The streams open from each client address, at most ``per_address`` of them: one
    client cannot take every connection from the others."""

    def __init__(self, broker, per_address: int) -> None:
        self.broker = broker
        self.per_address = per_address
        self.open: dict[str, int] = {}  # touched on the loop only

    def reserve(self, address: str) -> bool:
        """Counts one more stream from ``address``; refuses (False) past ``per_address``."""
        count = self.open.get(address, 0)
        if count >= self.per_address:
            return False
        self.open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        count = self.open[address] - 1
        if count:
            self.open[address] = count
        else:
            del self.open[address]

    async def hold(self, game_id: str, seen: int, receive, send) -> None:
        """Sends ``game_id``'s versions past ``seen`` as they come, until ``STREAM_SECONDS`` pass, the
        client leaves (then nothing more is sent, nor logged) or the broker closes."""
        loop = asyncio.get_running_loop()
        gone = loop.create_task(_left(receive))
        try:
            deadline = loop.time() + STREAM_SECONDS
            while not self.broker.closing and (left := deadline - loop.time()) > 0:
                waiter = self.broker.waiter(game_id, seen)
                try:
                    await asyncio.wait((waiter, gone), timeout=min(KEEPALIVE_SECONDS, left),
                                       return_when=asyncio.FIRST_COMPLETED)
                finally:
                    self.broker.forget(game_id, waiter)
                if gone.done():
                    return
                if not waiter.done():
                    chunk = ": keep-alive\n\n"
                elif (version := self.broker.latest(game_id) or 0) > seen:
                    chunk = event(version, self.broker.parts_since(game_id, seen, version))
                    seen = version
                else:
                    continue  # the broker closed (the loop ends), or a wake-up for a version already sent
                await send({"type": "http.response.body", "body": chunk.encode(), "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()


async def _left(receive) -> None:
    """Returns when the client has gone (a stream's request has no more body to give)."""
    while (await receive())["type"] != "http.disconnect":
        pass
