"""Several worker processes serving one listening socket (``BANCO_WORKERS``).

The parent binds the address once and starts the workers with multiprocessing's *spawn*
(the one way that works alike on Linux, macOS and Windows: each worker is a fresh Python that
imports the app itself; the socket is handed over as multiprocessing hands sockets, as
uvicorn's own supervisor does). The kernel then gives each new connection to one of them.
The parent serves nothing: it watches.

- Ctrl+C or SIGTERM (Ctrl+Break on Windows) stops every worker the way one server stops
  (each says at once that it is not ready, serves on for ``drain`` seconds, then the streams
  end, then the connections), waits for them, and returns.
- The workers count together for ``GET /metrics`` in a folder the parent makes before it
  starts them and removes once they have stopped (``companion.metrics.shared_folder``): a
  scrape reaches one worker, and reads the whole server's numbers.
- A worker that stops by itself after it served is replaced at once (its phones reconnect to
  the others meanwhile), and the parent says so. A worker that stops before it could serve
  (the database unreachable, the app refusing to start) would fail again the same way: the
  parent then stops them all and says why, instead of starting it over and over.
- A worker whose parent is gone (killed outright, with no time to stop them) stops by itself:
  it holds one end of a pipe whose other end only the parent has, and reads EOF from it.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import sys
import threading
import time

from .. import metrics
from . import GRACE_SECONDS

STOP_SIGNALS = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGBREAK") if hasattr(signal, name)]
WATCH_SECONDS = 0.2


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound once for every worker; refuses (OSError) an address this
    machine does not have or a port already taken."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[
        0
    ]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


class Worker:
    def __init__(self, context, target, sock: socket.socket, number: int, count: int) -> None:
        self.number = number
        self.ready = context.Event()
        self.lifeline, theirs = context.Pipe()
        self.process = context.Process(
            target=_worker, args=(target, sock, number, count, self.ready, theirs), name=f"banco-worker-{number}"
        )
        self.process.start()
        theirs.close()  # the worker holds its end; ours closes when this process ends, however it ends
        self.announced = False

    def stop(self) -> None:
        if self.process.exitcode is None:
            if sys.platform == "win32":  # Windows has no SIGTERM between processes: Ctrl+Break, turned back into it
                os.kill(self.process.pid, signal.CTRL_BREAK_EVENT)
            else:
                os.kill(self.process.pid, signal.SIGTERM)


def serve_workers(count: int, sock: socket.socket, target, say=print, drain: float = 0) -> int:
    """Serves the listening socket ``sock`` (``bind``) with ``count`` processes, each running
    ``target(sock, number, count, on_started)`` (a function its module defines at top level, so
    a spawned process can import it), and closes it at the end; ``drain``: the seconds each
    worker serves on once told to stop (``DRAIN_SECONDS``), waited for beyond the grace.
    Returns 0 once stopped by a signal, 1 when a worker could not start."""
    with metrics.shared_folder() as folder:
        return _serve_workers(count, sock, target, say, drain, folder)


def _serve_workers(count: int, sock: socket.socket, target, say, drain: float, folder: str) -> int:
    context = multiprocessing.get_context("spawn")
    stopping = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stopping.set()) for sig in STOP_SIGNALS}
    workers: list[Worker] = []
    failed = 0
    try:
        workers = [Worker(context, target, sock, n, count) for n in range(1, count + 1)]
        while not stopping.wait(WATCH_SECONDS):
            for i, worker in enumerate(workers):
                if worker.ready.is_set() and not worker.announced:
                    worker.announced = True
                    say(f"Worker {worker.number} is serving (pid {worker.process.pid}).")
                if worker.process.is_alive():
                    continue
                code = worker.process.exitcode
                if not worker.ready.is_set():
                    say(
                        f"Worker {worker.number} stopped before it could serve (exit code {code}): "
                        f"see the lines above. Stopping the other workers."
                    )
                    failed = 1
                    stopping.set()
                    break
                say(
                    f"Worker {worker.number} (pid {worker.process.pid}) stopped unexpectedly "
                    f"(exit code {code}); starting another in its place."
                )
                worker.lifeline.close()
                metrics.gone(worker.process.pid, folder)  # its streams and queue are no longer open
                workers[i] = Worker(context, target, sock, worker.number, count)
    finally:
        for worker in workers:
            worker.stop()
        deadline = time.monotonic() + drain + GRACE_SECONDS + 5
        for worker in workers:
            worker.process.join(max(0.1, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(5)
            worker.lifeline.close()
        sock.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return failed


def _worker(target, sock: socket.socket, number: int, count: int, ready, lifeline) -> None:
    """A worker process's start: stop signals as one server takes them, a watch on the parent,
    then ``target``."""
    if sys.platform == "win32":
        signal.signal(signal.SIGBREAK, lambda *_: signal.raise_signal(signal.SIGTERM))
    threading.Thread(target=_orphaned, args=(lifeline,), name="banco-lifeline", daemon=True).start()
    target(sock, number, count, ready.set)


def _orphaned(lifeline) -> None:
    """Stops this worker, as SIGTERM does, once the parent is gone (its end of the pipe closed)."""
    try:
        while True:
            lifeline.recv()
    except (EOFError, OSError):
        signal.raise_signal(signal.SIGTERM)
