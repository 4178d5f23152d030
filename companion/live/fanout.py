"""Live updates across server processes, through PostgreSQL's LISTEN/NOTIFY.

Each write that makes a new version of a game also says so on the channel ``banco_versions``
(``notify``), inside its own transaction: PostgreSQL delivers the notification only once the
transaction commits, and never for one rolled back, so no process hears of a version it cannot
read yet. Each server process on PostgreSQL runs one ``Listener``: a thread with a connection
of its own that hands every version it hears to the process's broker (``companion.live.broker``),
which wakes that game's streams held there. The writer's own process has already announced
the version after its commit; the echo is dropped by the broker as not newer.

A notification sent while a listener is disconnected is lost (PostgreSQL keeps none for a
session that is not there), so a listener that connects again first reads the current version
of every game its process has streams for, and announces those: a change made during the gap
still reaches the phones. On SQLite there is one process and none of this runs.
"""

from __future__ import annotations

import logging
import threading

from sqlalchemy import text
from sqlalchemy.engine import make_url

CHANNEL = "banco_versions"
APPLICATION_NAME = "banco-listener"  # how the listener's session is named in pg_stat_activity
FIRST_RETRY_SECONDS = 0.2
LAST_RETRY_SECONDS = 5.0
WAIT_SECONDS = 0.5  # how often the listener looks up from the connection to see if it should stop

log = logging.getLogger(__name__)


def payload(game_id: str, version: int, parts: frozenset[str]) -> str:
    """``game:version:part,part``: a game id has no colon, and a part no comma (a word, or
    ``cash:`` and an account); a version's parts name at most every account of a game, which
    stays far below PostgreSQL's 8000 bytes."""
    return f"{game_id}:{version}:{','.join(sorted(parts))}"


def parse(raw: str) -> tuple[str, int, frozenset[str] | None] | None:
    """The game, version and parts a notification names (parts ``None`` when it names none, as
    an older server's ``game:version``); ``None`` for anything else (it is ignored)."""
    game_id, colon, rest = raw.partition(":")
    version, colon2, parts = rest.partition(":")
    if not colon or not game_id or not version.isascii() or not version.isdigit():
        return None
    return game_id, int(version), frozenset(p for p in parts.split(",") if p) if colon2 else None


def next_delay(delay: float) -> float:
    """The pause before the next reconnection: doubled each time, at most ``LAST_RETRY_SECONDS``."""
    return min(max(delay, FIRST_RETRY_SECONDS / 2) * 2, LAST_RETRY_SECONDS)


def notify(session, versions: dict[str, dict[int, frozenset[str]]]) -> None:
    """Inside the write transaction on PostgreSQL: every process hears of these versions (each
    game's, in order, with the parts each changed) at commit."""
    session.execute(
        text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p"),
        {
            "channel": CHANNEL,
            "payloads": [
                payload(g, v, parts) for g, by_version in versions.items() for v, parts in sorted(by_version.items())
            ],
        },
    )


def listener(database_url: str, broker) -> Listener | None:
    """On PostgreSQL, the ear on the other server processes' new versions; none on SQLite."""
    url = make_url(database_url)
    if url.get_backend_name() != "postgresql":
        return None
    return Listener(url.set(drivername="postgresql").render_as_string(hide_password=False), broker)


class Listener:
    """One process's ear on ``CHANNEL``: a daemon thread that announces to ``broker`` every
    version another process commits. ``conninfo`` is a libpq URL of the app's database."""

    def __init__(self, conninfo: str, broker) -> None:
        self.conninfo = conninfo
        self.broker = broker
        self.connected = threading.Event()
        self.connections = 0  # sessions opened so far (a reconnection makes it two)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="banco-listener", daemon=True)
        self._thread.start()

    def stop(self, seconds: float = 5) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(seconds)

    def _run(self) -> None:
        import psycopg

        delay = FIRST_RETRY_SECONDS
        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    self.conninfo, autocommit=True, connect_timeout=5, application_name=APPLICATION_NAME
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    # Listening first, then reading: a version committed in between is heard
                    # or read (or both; the broker keeps the newest).
                    self._catch_up(conn)
                    self.connections += 1
                    self.connected.set()
                    if self.connections > 1:
                        log.warning("live updates from the other processes: listening again")
                    delay = FIRST_RETRY_SECONDS
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=WAIT_SECONDS):
                            heard = parse(note.payload)
                            if heard is not None:
                                self.broker.publish(*heard)
            except Exception as error:  # whatever it was, the other processes' updates must go on
                self.connected.clear()
                if self._stop.is_set():
                    break
                if isinstance(error, psycopg.Error):
                    log.warning(
                        "live updates from the other processes: the database connection is lost "
                        "(%s); trying again in %.1f s",
                        str(error).strip() or error.__class__.__name__,
                        delay,
                    )
                else:
                    log.exception(
                        "live updates from the other processes: the listener failed; starting it again in %.1f s", delay
                    )
                self._stop.wait(delay)
                delay = next_delay(delay)
        self.connected.clear()

    def _catch_up(self, conn) -> None:
        games = self.broker.known()
        if games:
            for game_id, version in conn.execute("SELECT id, version FROM game WHERE id = ANY(%s)", [games]):
                self.broker.publish(game_id, version)
