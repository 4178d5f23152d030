"""Live updates across server processes (PostgreSQL's LISTEN/NOTIFY) and ``BANCO_WORKERS``.

A payment made through one process reaches a phone held by another; ``BANCO_WORKERS=2``
serves, replaces a worker that dies, and stops every worker on Ctrl+C; a listener whose
database session is killed comes back and catches up with what it missed; SQLite refuses
several workers. The tests that need PostgreSQL use the run's database (``TEST_DATABASE_URL``)
and are skipped on the SQLite run. Every connection goes to 127.0.0.0/8; every wait is bounded.
"""

from __future__ import annotations

import itertools
import os
import re
import signal
import socket
import threading
import time
import types

import pytest
from sqlalchemy import create_engine, text

from companion import config
from companion.core import parts
from companion.extension import banco
from companion.live import broker as live
from companion.live import fanout
from companion.live.broker import Broker
from companion.store import db
from tests.api.test_concurrency import new_game
from tests.api.test_live_layer import Stream, bearer, event, paid, pay, stream_path, version
from tests.conftest import (
    PG_URL,
    LiveServer,
    app_py,
    database_url,
    empty_database,
    free_port,
    make_app,
    wait_for_app_py,
)

# On PostgreSQL too (python -m tests): LISTEN/NOTIFY is PostgreSQL's; SQLite's refusal of several workers.
pytestmark = pytest.mark.database

needs_postgresql = pytest.mark.skipif(not PG_URL, reason="fan-out across processes needs PostgreSQL")


# --- the pure pieces ---------------------------------------------------------------------------


def test_a_notification_names_a_game_its_version_and_what_changed():
    assert fanout.parse(fanout.payload("g_1-X", 42, frozenset({"feed", "cash"}))) == ("g_1-X", 42, {"cash", "feed"})
    assert fanout.payload("g1", 7, frozenset({"feed", "cash"})) == "g1:7:cash,feed"
    assert fanout.parse("g1:7") == ("g1", 7, None)  # an older server's: the parts unknown
    assert fanout.parse("g1:7:") == ("g1", 7, frozenset())
    for raw in ("", "g1", "g1:", ":4", "g1:-4", "g1:4.0", "g1:٣", "g1:x", "g1:x:cash"):
        assert fanout.parse(raw) is None, raw
    everything = fanout.payload("a" * 32, 2**31 - 1, frozenset(parts.ALL))
    assert len(everything.encode()) < 8000  # PostgreSQL's limit on a payload


def test_reconnections_back_off_to_a_ceiling():
    delays = [fanout.FIRST_RETRY_SECONDS]
    for _ in range(10):
        delays.append(fanout.next_delay(delays[-1]))
    assert delays[:3] == [fanout.FIRST_RETRY_SECONDS, 2 * fanout.FIRST_RETRY_SECONDS, 4 * fanout.FIRST_RETRY_SECONDS]
    assert all(a <= b for a, b in itertools.pairwise(delays)) and delays[-1] == fanout.LAST_RETRY_SECONDS


def test_the_worker_count_is_a_whole_number_from_1_to_64():
    assert config.worker_count({}) == 1
    assert config.worker_count({"BANCO_WORKERS": " 3 "}) == 3
    for raw in ("0", "65", "two", "-1", "1.5"):
        with pytest.raises(ValueError, match="BANCO_WORKERS must be a whole number from 1 to 64"):
            config.worker_count({"BANCO_WORKERS": raw})


def test_the_broker_knows_the_games_it_has_versions_of():
    broker = Broker()
    broker.publish("a", 3)
    broker.publish("b", 1)
    broker.publish("a", 2)  # older: dropped
    assert sorted(broker.known()) == ["a", "b"] and broker.latest("a") == 3


def test_the_broker_tells_what_changed_since_a_version_while_it_knows():
    broker = Broker()
    broker.publish("a", 4, frozenset({"cash", "feed"}))
    broker.publish("a", 6, frozenset({"auction", "feed"}))
    assert broker.parts_since("a", 5) == {"auction", "feed"} and broker.parts_since("a", 6) == set()
    assert broker.parts_since("a", 4) is None  # version 5 was never heard with its parts
    broker.publish("a", 5, frozenset({"deeds", "feed"}))  # late (another process's echo): kept, not newer
    assert broker.latest("a") == 6 and broker.parts_since("a", 3) == {"cash", "deeds", "auction", "feed"}
    assert broker.parts_since("a", 4, upto=5) == {"deeds", "feed"}
    for newer in range(7, 7 + live.KEPT_VERSIONS):
        broker.publish("a", newer, frozenset({"feed"}))
    assert broker.parts_since("a", 6) == {"feed"} and broker.parts_since("a", 5) is None  # forgotten
    assert broker.parts_since("b", 0) is None


def test_several_workers_on_sqlite_refuse_to_start_saying_why(tmp_path):
    proc = app_py(free_port(), f"sqlite:///{tmp_path / 'app.sqlite3'}", BANCO_WORKERS="2")
    output = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 1
    assert "Banco cannot start: BANCO_WORKERS=2 needs PostgreSQL" in output and "Traceback" not in output


def test_a_worker_count_that_is_not_a_number_refuses_to_start(tmp_path):
    proc = app_py(free_port(), f"sqlite:///{tmp_path / 'app.sqlite3'}", BANCO_WORKERS="many")
    output = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 1 and "BANCO_WORKERS must be a whole number from 1 to 64, not 'many'" in output


# --- across processes (PostgreSQL) -------------------------------------------------------------


def stop(proc) -> str:
    """Ctrl+C, then the whole output; the process is gone afterwards whatever happens."""
    try:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        return proc.communicate(timeout=40)[0].decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


@pytest.fixture
def pg_database(tmp_path):
    url = database_url(tmp_path)
    empty_database(url)
    return url


def server_at(port: int):
    return types.SimpleNamespace(url=f"http://127.0.0.1:{port}", port=port)


@needs_postgresql
def test_a_payment_through_one_server_reaches_a_phone_held_by_another(pg_database):
    first, second = free_port(), free_port()
    one = app_py(first, pg_database)
    two = None
    try:
        wait_for_app_py(one, first)
        two = app_py(second, pg_database)
        wait_for_app_py(two, second)
        game = new_game(server_at(first), ["Anna", "Bruno"])
        now = version(server_at(first), game)
        here, there = (Stream(port, stream_path(game), bearer(game)) for port in (first, second))
        try:
            here.until(b"id: %d\n" % now)
            there.until(b"id: %d\n" % now)
            pay(server_at(first), game)
            there.until(event(now + 1, paid(game)))  # the other process heard it from PostgreSQL
            here.until(event(now + 1, paid(game)))
            pay(server_at(second), game)  # and the other way round
            here.until(event(now + 2, paid(game)))
        finally:
            here.close()
            there.close()
    finally:
        outputs = [stop(proc) for proc in (one, two) if proc is not None]
    assert all("Traceback" not in output for output in outputs), outputs


def worker_pids(output: str) -> dict[int, int]:
    return {int(n): int(pid) for n, pid in re.findall(r"Worker (\d+) is serving \(pid (\d+)\)", output)}


class Output:
    """What a subprocess writes, read by a thread as it comes (so its pipe never fills)."""

    def __init__(self, proc) -> None:
        self.text = ""
        self.thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self.thread.start()

    def _read(self, proc) -> None:
        for line in proc.stdout:
            self.text += line.decode()

    def wait_for(self, check, seconds: float = 40):
        deadline = time.monotonic() + seconds
        while not (found := check(self.text)):
            assert time.monotonic() < deadline, self.text[-2000:]
            time.sleep(0.1)
        return found


def gone(pid: int) -> bool:
    """No such process, or only its exit status left for a reaper to collect."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True


def streams_on_both_workers(port: int, game) -> dict[str, Stream]:
    """Streams opened from one phone's address after another until each worker holds one."""
    held, spare = {}, []
    for i in range(40):
        stream = Stream(port, stream_path(game), bearer(game), source=f"127.0.0.{10 + i}")
        head = stream.until(b"\r\n\r\n").lower()
        worker = re.search(rb"x-banco-worker: (\d+)", head).group(1).decode()
        if worker in held:
            spare.append(stream)
        else:
            held[worker] = stream
        if len(held) == 2:
            break
    for stream in spare:
        stream.close()
    assert sorted(held) == ["1", "2"], "the kernel gave every connection to one worker"
    return held


@needs_postgresql
def test_two_workers_serve_replace_a_dead_one_and_all_stop_on_ctrl_c(pg_database):
    port = free_port()
    proc = app_py(port, pg_database, BANCO_WORKERS="2")
    output = Output(proc)
    streams = {}
    try:
        pids = output.wait_for(lambda text: len(worker_pids(text)) == 2 and worker_pids(text))
        assert f"Serving on http://127.0.0.1:{port} with 2 worker processes" in output.text
        game = new_game(server_at(port), ["Anna", "Bruno"])
        now = version(server_at(port), game)
        streams = streams_on_both_workers(port, game)
        for stream in streams.values():
            stream.until(b"id: %d\n" % now)
        for step in range(1, 4):  # whichever worker takes the payment, both phones hear it
            pay(server_at(port), game)
            for stream in streams.values():
                stream.until(event(now + step, paid(game)))

        os.kill(pids[1], signal.SIGKILL)  # a worker dies: another takes its place
        replaced = output.wait_for(lambda text: worker_pids(text).get(1) != pids[1] and worker_pids(text))
        assert f"Worker 1 (pid {pids[1]}) stopped unexpectedly" in output.text
        assert streams["1"].until_closed()  # its phone lost the stream (and will reconnect)
        pay(server_at(port), game)
        streams["2"].until(event(now + 4, paid(game)))

        proc.send_signal(signal.SIGINT)
        assert streams["2"].until_closed(20).endswith(b"0\r\n\r\n")  # ended, not cut
        proc.wait(40)
    finally:
        for stream in streams.values():
            stream.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    output.thread.join(10)
    assert proc.returncode == 0, output.text[-2000:]
    assert output.text.rstrip().endswith("Banco has stopped.") and "Traceback" not in output.text
    assert all(gone(pid) for pid in (*pids.values(), *replaced.values()))


@needs_postgresql
def test_workers_stop_by_themselves_when_their_parent_is_killed(pg_database):
    proc = app_py(free_port(), pg_database, BANCO_WORKERS="2")
    output = Output(proc)
    try:
        pids = output.wait_for(lambda text: len(worker_pids(text)) == 2 and worker_pids(text))
    finally:
        proc.kill()  # no time to stop its workers
        proc.wait(10)
    deadline = time.monotonic() + 30
    while not all(gone(pid) for pid in pids.values()):
        assert time.monotonic() < deadline, "a worker outlived its parent"
        time.sleep(0.1)


@needs_postgresql
def test_workers_on_a_port_already_taken_refuse_to_start_saying_so(pg_database):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = app_py(port, pg_database, BANCO_WORKERS="2")
        output = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 1 and "Traceback" not in output
    assert f"Banco cannot start: it cannot listen on 127.0.0.1:{port} (Address already in use)" in output


@needs_postgresql
def test_a_worker_that_cannot_start_stops_the_server_saying_so(tmp_path, pg_database):
    """A database the workers cannot use once the parent has started (here: the tables of
    another version of Banco appear) stops the whole server, not a loop of restarts."""
    port = free_port()
    proc = app_py(port, pg_database, BANCO_WORKERS="2")
    output = Output(proc)
    try:
        output.wait_for(lambda text: "Worker 2 is serving" in text and "Worker 1 is serving" in text)
        engine = create_engine(pg_database)
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = 'from_the_future'"))
        engine.dispose()
        pid = worker_pids(output.text)[2]
        os.kill(pid, signal.SIGKILL)
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    output.thread.join(10)
    assert proc.returncode == 1, output.text[-2000:]
    assert "Worker 2 stopped before it could serve" in output.text
    assert "Banco cannot start: The database" in output.text  # the worker's own reason, above
    assert output.text.rstrip().endswith("Banco has stopped.")


@needs_postgresql
def test_the_listener_comes_back_after_its_session_is_killed_and_catches_up(tmp_path):
    """The listener's database session is killed; a payment committed before it listens again
    (its notification lost) still reaches a stream of this process once it is back."""
    app = make_app(tmp_path)
    server = LiveServer(app).start()
    elsewhere = make_app(tmp_path, fresh=False)  # another process's app: its own broker
    listener = banco(app).fanout
    stream = None
    try:
        assert listener.connected.wait(10)
        game = new_game(server, ["Anna", "Bruno"])
        now = version(server, game)
        stream = Stream(server.port, stream_path(game), bearer(game))
        stream.until(b"id: %d\n" % now)
        database = listener.conninfo
        # The gap stays open until the payment is made: meanwhile the listener's reconnections
        # are refused (a database that does not exist, on the same server).
        listener.conninfo = database.rpartition("/")[0] + "/banco_no_such_database"
        with app.app_context():
            killed = db.session.execute(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = :name AND datname = current_database()"
                ),
                {"name": fanout.APPLICATION_NAME},
            ).scalar()
            db.session.rollback()
        assert killed == 1
        deadline = time.monotonic() + 5
        while listener.connected.is_set():
            assert time.monotonic() < deadline, "the listener did not notice"
            time.sleep(0.02)
        anna, bruno = game["players"][:2]
        answer = elsewhere.test_client().post(
            f"/api/v1/games/{game['id']}/actions",
            json={"type": "transfer", "to": bruno["id"], "amount": 10},
            headers={"Authorization": f"Bearer {anna['token']}"},
        )
        assert answer.status_code == 200 and not listener.connected.is_set()  # paid during the gap
        listener.conninfo = database
        # Read back from the database, the version comes without its parts: the pages fetch
        # themselves whole.
        stream.until(event(now + 1, None))
        assert listener.connections == 2
        pay(server, game)  # and it hears the next ones as before
        stream.until(event(now + 2, paid(game)))
    finally:
        if stream is not None:
            stream.close()
        server.stop()
        for each in (app, elsewhere):
            with each.app_context():
                db.engine.dispose()
    assert not listener._thread.is_alive()  # stopped with the server
