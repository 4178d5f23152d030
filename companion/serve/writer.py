"""The server's writer: one thread that runs the actions the event loop hands it, a batch at a time.

The loop reads a request whole, asks the app whether it is an action it answers directly
(``direct.take``: ``companion.web.direct``) and queues it here. When the writer is idle it
takes every action waiting as one batch and runs it (``direct.run``: one transaction, one
commit); the actions that arrive meanwhile form the next batch. Each request is answered only
once its batch has committed. A batch costs the loop one wake-up, whatever its size, and the
requests themselves take no thread while they wait.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor


class Writer:
    def __init__(self, direct) -> None:
        self.direct = direct
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="banco-writer")
        self._waiting: list[tuple[object, asyncio.Future]] = []  # touched on the loop only
        self._busy = False

    async def submit(self, work) -> None:
        """Returns once ``work`` has been run in a batch (its ``answer`` or ``error`` set)."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._waiting.append((work, done))
        if not self._busy:
            # Started after the requests already read in this turn of the loop have queued
            # too: they join this batch instead of waiting for the next.
            self._busy = True
            loop.call_soon(self._next, loop)
        await done

    def _next(self, loop) -> None:
        batch, self._waiting = self._waiting, []
        try:
            ran = loop.run_in_executor(self.executor, self.direct.run, [work for work, _ in batch])
        except RuntimeError:  # stopped: the batch never runs, and its requests go to the app
            self._finished(loop, batch)
            return
        ran.add_done_callback(lambda _: self._finished(loop, batch))

    def _finished(self, loop, batch) -> None:
        for _, done in batch:
            if not done.done():  # a request cancelled while it waited (the server stopping)
                done.set_result(None)
        if self._waiting:
            loop.call_soon(self._next, loop)
        else:
            self._busy = False

    def stop(self) -> None:
        self.executor.shutdown(wait=False)
