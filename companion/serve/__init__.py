"""Banco's server: uvicorn on one event loop, the Flask app mounted in it.

The loop (uvloop where installed) holds every connection and parses every request (httptools
where installed, else h11: ``protocol``), so an idle live page costs a future and a socket, not
a thread. The API's actions are taken on the loop at the app's door and committed by the app's
one writer thread, a batch at a time (``writer``); every other request runs in the Flask app,
in a pool of ``THREADS`` threads (``gate``). The server raises the process's open-file limit as far as the system
allows, so thousands of phones fit, and stops cleanly: it says it is no longer ready at once
(``GET /readyz``, for a load balancer), keeps serving ``DRAIN_SECONDS`` so the balancer sees
it, then the live streams end (the browsers reconnect to the next server), then the
connections, then the loop. On a SQLite file
it holds the database's server lock while it serves and backs the database up as it goes and
once more when it stops (``companion.backups``). While it serves, the app's auctions close
themselves when their countdown ends (``services.closer``).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path

import uvicorn

from ..backups import Keeping
from ..extension import banco
from .gate import Gate
from .metered import Metered
from .protocol import protocol_class

TICK_SECONDS = 1.0  # how often the idle server wakes: the Date header's own resolution
GRACE_SECONDS = 10  # how long stopping waits for requests under way before it cuts them
WRITER_SECONDS = 30  # how long stopping waits for the writer's last batch (its commit)
DRAIN_STEP_SECONDS = 0.1  # how often the drain looks whether a second Ctrl+C cut it short


class Server(uvicorn.Server):
    """uvicorn's server, telling the app's broker which loop its streams wait on, listening
    to the other server processes' versions while it serves (the app's ``fanout``, on
    PostgreSQL), saying it is not ready as soon as it is told to stop and serving on for the
    app's ``DRAIN_SECONDS`` (a second Ctrl+C cuts that short), then ending the streams before
    the connections, and the app's threads after."""

    def __init__(self, config: uvicorn.Config, gate: Gate, on_started=None) -> None:
        super().__init__(config)
        self.gate = gate
        self.broker = gate.streams.broker
        self.fanout = banco(gate.app).fanout
        self.on_started = on_started
        self.stopping = banco(gate.app).stopping
        self.drain_seconds = gate.app.config.get("DRAIN_SECONDS", 0)
        self.keeping = keeping(gate.app.config)
        # Auctions close themselves when their countdown ends, whatever page is open.
        self.closer = gate.door.closer
        self.newsroom = banco(gate.app).newsroom

    # uvicorn's main loop wakes ten times a second to see whether it should stop, a large part of
    # an idle server's work. This one wakes once a second, for the Date header, and at once when
    # told to stop (from a signal or another thread).
    @property
    def should_exit(self) -> bool:
        return self._should_exit

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        self._should_exit = value
        if value:
            self.stopping.set()  # from this moment, GET /readyz says no
        told = getattr(self, "_told_to_exit", None)
        if value and told is not None:
            event, loop = told
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nothing waits
                loop.call_soon_threadsafe(event.set)

    async def main_loop(self) -> None:
        event = asyncio.Event()
        self._told_to_exit = (event, asyncio.get_running_loop())
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 10) % 864000  # on_tick's count of tenths: the header every call
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), TICK_SECONDS)
            should_exit = await self.on_tick(counter)

    async def startup(self, sockets=None) -> None:
        if self.keeping is not None:
            self.keeping.start()  # refuses (backups.Locked) while a restore runs on the database
        self.broker.attach(asyncio.get_running_loop())
        if self.fanout is not None:
            self.fanout.start()
        self.closer.start()
        await super().startup(sockets)
        if self.started and self.on_started is not None:
            self.on_started()

    async def shutdown(self, sockets=None) -> None:
        self.stopping.set()
        await self.drain()
        self.broker.close()
        self.closer.stop()
        await super().shutdown(sockets)
        self.gate.mount.shutdown()
        self.gate.writer.stop(wait=WRITER_SECONDS)
        self.newsroom.stop(wait=WRITER_SECONDS)  # the last batch's answers wait for it
        if self.fanout is not None:
            self.fanout.stop()
        if self.keeping is not None:
            self.keeping.stop()  # after the last commit: the last backup holds it

    async def drain(self) -> None:
        """Serves on, every connection and the listener, for ``DRAIN_SECONDS`` while saying it
        is not ready: a load balancer that asks every few seconds sends the new phones elsewhere
        before this server stops listening."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.drain_seconds
        while not self.force_exit and loop.time() < deadline:
            await self.on_tick(0)  # the Date header, as the main loop keeps it
            await asyncio.sleep(min(DRAIN_STEP_SECONDS, deadline - loop.time()))


def keeping(config) -> Keeping | None:
    """What a server on a SQLite file keeps while it serves: the lock that tells a restore it
    runs, and its rolling backups (``companion.backups``); nothing on PostgreSQL."""
    database = config.get("DATABASE_FILE")
    if database is None:
        return None
    return Keeping(
        Path(database),
        Path(config["BACKUP_DIR"]),
        config["BACKUP_MINUTES"],
        config["BACKUPS_KEPT"],
        config.get("PUBLIC_URL", ""),
    )


def create_server(app, host: str, port: int, workers: int = 1, on_started=None, parser: str | None = None) -> Server:
    """The server for ``app`` on ``host``:``port``; ``run()`` serves until Ctrl+C (or until
    ``should_exit`` is set, from another thread). It writes no line per request, and none when
    a phone leaves: only warnings and errors. ``workers``: how many processes serve the same
    socket (``companion.serve.workers``); ``on_started`` is called once it accepts connections;
    ``parser``: ``"h11"`` or ``"httptools"`` where not the fastest installed (``protocol``)."""
    gate = Gate(app)
    config = uvicorn.Config(
        Metered(gate),
        host=host,
        port=port,
        loop=event_loop(),
        http=protocol_class(gate, parser),
        ws="none",
        lifespan="off",
        interface="asgi3",
        access_log=False,
        log_config=None,
        log_level="warning",
        server_header=False,
        date_header=True,
        proxy_headers=False,
        limit_concurrency=None,  # the server's limit is the gate's (``protocol``): worded, per connection
        timeout_keep_alive=5,
        timeout_graceful_shutdown=GRACE_SECONDS,
        workers=workers,
    )
    return Server(config, gate, on_started)


def event_loop() -> str:
    """uvloop (libuv's loop, in C) where it is installed, as requirements.txt installs it on
    Linux and macOS: less of the loop's own work per request (with 8 phones at saturation,
    198 -> 217 actions a second here). Else, and on Windows, asyncio's loop."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


def raise_file_limit() -> int | None:
    """Raises the soft limit of open files to the hard one, where the system has such limits
    (not Windows, whose event loop has no such ceiling); returns the limit now in force."""
    if sys.platform == "win32":  # no ``resource`` module there
        return None
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # macOS says "unlimited" for the hard limit, yet refuses more than its kernel's 10240.
    for wanted in ([] if hard == resource.RLIM_INFINITY else [hard]) + [10240]:
        if wanted <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            break
        except (ValueError, OSError):
            continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
