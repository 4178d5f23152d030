"""Live streams held open on the event loop: a future each, no thread.

The app has already checked who asks and written the opening (``companion.web.live``); from
there each stream sends an event as soon as its game passes the version it has shown, a
keep-alive when the game has been quiet for ``KEEPALIVE_SECONDS`` (checked twice as often,
so never quiet for more than one and a half times that), and ends after ``STREAM_SECONDS`` (the browser
reconnects with ``Last-Event-ID``), when the client leaves, or when the server stops.

The keep-alive is an event the page hears (``beat``), not a comment: a page that has heard
nothing for longer than two beats has lost the server (a Wi-Fi gone quiet never closes the
connection), and says so within 3 s (``static/js/banco.js``). A beat is one small write a
second on an idle stream, the cost measured in ``docs/live.md``.
"""

from __future__ import annotations

import asyncio

from .events import event, storage
from .news import Alike, Reader, told

STREAM_SECONDS = 60
KEEPALIVE_SECONDS = 1  # the page's heartbeat: it says it lost the bank after 2.2 s of silence


class Streams:
    """The live streams this process holds open on its event loop (how many one address may hold
    is the server's count: ``companion.serve.shares``)."""

    def __init__(self, broker) -> None:
        self.broker = broker
        self._events: dict[tuple[str, int, int], _Said] = {}  # touched on the loop only

    async def hold(self, game_id: str, seen: int, receive, send, reader: Reader | None = None) -> None:
        """Sends ``game_id``'s versions past ``seen`` as they come, with their news for
        ``reader``, until ``STREAM_SECONDS`` pass, the client leaves (then nothing more is sent,
        nor logged) or the broker closes; and, when the database cannot save, a ``storage``
        event saying so, and another once it can."""
        loop = asyncio.get_running_loop()
        stream = _Stream()
        gone = loop.create_task(_left(receive))
        gone.add_done_callback(stream.wake)
        stream.start(loop)
        told = False  # whether this stream has said the database cannot save
        try:
            while not gone.done() and not stream.ended and not self.broker.closing:
                if self.broker.cannot_save is not told:
                    told = self.broker.cannot_save
                    chunk = _STORAGE[told]
                elif (version := self.broker.latest(game_id) or 0) > seen:
                    chunk = self._event(game_id, seen, version, reader)
                    seen = version
                elif stream.beat:
                    chunk = _KEEPALIVE
                else:
                    stream.waiter = self.broker.waiter(game_id, seen)
                    try:
                        await stream.waiter
                    finally:
                        self.broker.forget(game_id, stream.waiter)
                        stream.waiter = None
                    continue
                stream.beat, stream.quiet = False, 0
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            if not gone.done():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.remove_done_callback(stream.wake)
            gone.cancel()
            stream.stop()

    def _event(self, game_id: str, seen: int, version: int, reader: Reader | None) -> bytes:
        """The event from ``seen`` to ``version`` for ``reader``: made once for the streams of a
        game that had all seen the same version, as they nearly always have, and are told alike
        (``news.Alike``: the same language and role, and a seat the versions say nothing of its
        own to); what the broker knows of those versions is read once for all of them."""
        step = (game_id, seen, version)
        said = self._events.get(step)
        if said is None:
            if len(self._events) >= EVENTS_KEPT:
                self._events.clear()
            said = self._events[step] = _Said(
                Alike(self.broker.news_since(game_id, seen, version)), self.broker.parts_since(game_id, seen, version)
            )
        key = said.alike.key(reader) if reader is not None else None
        chunk = said.chunks.get(key)
        if chunk is None:
            news = (
                told(said.alike.versions, said.alike.seen_as(reader))
                if said.parts is not None and reader is not None
                else None
            )
            chunk = said.chunks[key] = event(version, said.parts, news).encode()
        return chunk


class _Said:
    """What the broker knows of one step of a game's versions (from a version seen to a newer
    one): their news and the parts they changed, read once; and the event made of them for each
    kind of reader told alike."""

    __slots__ = ("alike", "chunks", "parts")

    def __init__(self, alike: Alike, parts: frozenset[str] | None) -> None:
        self.alike, self.parts = alike, parts
        self.chunks: dict[tuple | None, bytes] = {}


_KEEPALIVE = b"event: beat\ndata: 1\n\n"
_STORAGE = {cannot: storage(cannot).encode() for cannot in (False, True)}
EVENTS_KEPT = 1024


class _Stream:
    """What one stream waits on: the broker's next version, its keep-alive beat, its end.
    Two timers for the stream's whole life, not one per wait: a busy table wakes each of its
    streams many times a second, and that wake-up is most of what a stream costs."""

    __slots__ = ("_timers", "beat", "ended", "quiet", "waiter")

    def __init__(self) -> None:
        self.waiter: asyncio.Future | None = None
        self.beat = self.ended = False
        self.quiet = 0  # ticks since the stream last sent anything
        self._timers: list[asyncio.TimerHandle] = []

    def start(self, loop) -> None:
        self._timers = [
            loop.call_later(STREAM_SECONDS, self.end),
            loop.call_later(KEEPALIVE_SECONDS / 2, self.tick, loop),
        ]

    def wake(self, *_ignored) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def tick(self, loop) -> None:
        """Every half ``KEEPALIVE_SECONDS``: a keep-alive is due when nothing was sent for two
        ticks (so the line is quiet for one to one and a half ``KEEPALIVE_SECONDS`` at most,
        and a page that hears nothing for longer has lost the bank). A tick only counts; it
        wakes the stream only for a keep-alive."""
        self.quiet += 1
        if self.quiet >= 2 and not self.beat:
            self.beat = True
            self.wake()
        self._timers[1] = loop.call_later(KEEPALIVE_SECONDS / 2, self.tick, loop)

    def end(self) -> None:
        self.ended = True
        self.wake()

    def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()


async def _left(receive) -> None:
    """Returns when the client has gone (a stream's request has no more body to give)."""
    while (await receive())["type"] != "http.disconnect":
        pass
