"""The event loop's side of the app's writer (``companion.services.writer``): the actions read in
one turn of the loop go to the writer together, and each request waits for its answer as a
future on the loop, taking no thread.

The loop reads a request whole, takes its action at the app's door (``gate``) and queues it
here. The first action queued in a turn of the loop has the hand-over called once that turn is
done, so the requests read in the same turn join one batch instead of each waking the writer;
the writer, busy, adds them to the batch it runs next. Each request is answered only once its
batch has committed. A batch costs the loop one wake-up when it is done, whatever its size.
"""

from __future__ import annotations

import asyncio


class Handover:
    def __init__(self, writer) -> None:
        self.writer = writer
        self._waiting: list[tuple[object, asyncio.Future]] = []  # touched on the loop only

    async def submit(self, work) -> None:
        """Returns once ``work`` has been run in a batch (its ``answer`` or ``error`` set)."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._waiting.append((work, done))
        if len(self._waiting) == 1:
            loop.call_soon(self._hand_over, loop)
        await done

    def _hand_over(self, loop) -> None:
        batch, self._waiting = self._waiting, []
        self.writer.post([work for work, _ in batch], lambda: loop.call_soon_threadsafe(_finished, batch))

    def stop(self, wait: float = 0) -> None:
        self.writer.stop(wait)


def _finished(batch) -> None:
    for _, done in batch:
        if not done.done():  # a request cancelled while it waited (the server stopping)
            done.set_result(None)
