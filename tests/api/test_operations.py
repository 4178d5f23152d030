"""What a host's tools ask the server (docs/operations.md): ``/healthz`` says the process is up,
``/readyz`` whether it can serve (its database answers, its tables are current, it is not
stopping), ``/metrics`` the server's counters in Prometheus' text format, read here by the
library's own parser, to the holder of ``BANCO_METRICS_TOKEN`` alone; with ``BANCO_WORKERS``
every worker's counts are in whichever worker's answer.

Every connection goes to 127.0.0.1; every wait is bounded.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import time
import urllib.error
import urllib.request

import pytest
from alembic.script import ScriptDirectory
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text

from companion import config
from companion.config import BadSetting
from companion.extension import banco
from companion.store import db, migrations
from tests.api.test_concurrency import call, new_game
from tests.api.test_fanout import (
    Output,
    needs_postgresql,
    pg_database,
    server_at,
    streams_on_both_workers,
    worker_pids,
)
from tests.api.test_live_layer import Stream, bearer, pay, stream_path
from tests.conftest import LiveServer, app_py, free_port, make_app

__all__ = ["pg_database"]  # the fixture, used by name

TOKEN = "scrape-me-0123456789abcdef"
SCRAPER = {"Authorization": f"Bearer {TOKEN}"}


def fetch(url: str, method: str = "GET", headers: dict | None = None, body: bytes | None = None):
    """``(status, headers, body)`` of one request on a new connection."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def parsed(exposition: str) -> dict:
    """Every sample of a scrape, read by prometheus_client's own parser: ``(name, labels)`` to
    its value."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(exposition)
        for sample in family.samples
    }


def scrape(url: str) -> dict:
    status, headers, body = fetch(f"{url}/metrics", headers=SCRAPER)
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version="), (status, body[:300])
    return parsed(body.decode())


def value(samples: dict, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def moved(before: dict, after: dict, name: str, **labels) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


# --- health and readiness ---------------------------------------------------------------------


def test_health_says_the_process_is_up(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.get_json() == {"status": "up"}
    assert answer.headers["Cache-Control"] == "no-store"


@pytest.mark.database
def test_ready_names_the_revision_the_database_and_the_code_are_at(client, caplog):
    caplog.set_level(logging.INFO)
    answer = client.get("/readyz")
    assert answer.status_code == 200
    assert not caplog.records  # a balancer asks every few seconds: nothing to log when ready
    assert answer.get_json() == {
        "ready": True,
        "database_revision": migrations.head(),
        "code_revision": migrations.head(),
    }


@pytest.mark.database
def test_not_ready_while_the_database_does_not_answer_yet_still_up(app, client, tmp_path):
    with app.app_context():
        kept = db.engines[None]
        if kept.dialect.name == "sqlite":
            nowhere = f"sqlite:///{tmp_path / 'no such folder' / 'banco.sqlite3'}"
        else:  # a port nobody listens on
            nowhere = kept.url.set(host="127.0.0.1", port=free_port())
        unreachable = create_engine(nowhere)
        db.engines[None] = unreachable
    try:
        answer = client.get("/readyz")
        health = client.get("/healthz")
    finally:
        with app.app_context():
            db.engines[None] = kept
        unreachable.dispose()
    assert answer.status_code == 503
    assert answer.get_json() == {"ready": False, "reason": "database_unreachable", "code_revision": migrations.head()}
    assert health.status_code == 200  # the process is up: it reads no database
    assert client.get("/readyz").status_code == 200  # the database back, ready again


@pytest.mark.database
def test_not_ready_while_the_database_is_behind_the_codes_migrations_or_past_them(app, client):
    head = migrations.head()
    before = ScriptDirectory.from_config(migrations.config()).get_revision(head).down_revision

    def stamp(revision: str) -> None:
        with app.app_context(), db.engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})

    try:
        stamp(before)
        behind = client.get("/readyz")
        stamp("ffffffffffff")  # a newer Banco's
        unknown = client.get("/readyz")
    finally:
        stamp(head)
    assert behind.status_code == 503
    assert behind.get_json() == {
        "ready": False,
        "reason": "migrations_behind",
        "database_revision": before,
        "code_revision": head,
    }
    assert unknown.status_code == 503 and unknown.get_json()["reason"] == "migrations_unknown"
    assert client.get("/readyz").status_code == 200


def test_not_ready_once_the_server_begins_to_stop(app, client):
    banco(app).stopping.set()
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.get_json() == {"ready": False, "reason": "stopping"}
    assert client.get("/healthz").status_code == 200


@pytest.mark.database
def test_a_server_told_to_stop_says_not_ready_at_once_and_serves_its_drain_before_it_closes(tmp_path):
    app = make_app(tmp_path, DRAIN_SECONDS=2)
    server = LiveServer(app).start()
    try:
        game = new_game(server, ["Anna", "Bruno"])
        assert fetch(f"{server.url}/readyz")[0] == 200
        told = time.monotonic()
        server.server.should_exit = True  # as Ctrl+C or SIGTERM tells it
        status, _, body = fetch(f"{server.url}/readyz")
        assert status == 503 and json.loads(body) == {"ready": False, "reason": "stopping"}
        assert fetch(f"{server.url}/healthz")[0] == 200
        assert pay(server, game)  # still serving while the balancer moves the phones away
        server.thread.join(15)
        assert not server.thread.is_alive()
        assert time.monotonic() - told >= 2  # the drain was served before the listener closed
        with pytest.raises(OSError):
            fetch(f"{server.url}/healthz")
    finally:
        server.stop()
        with app.app_context():
            db.engine.dispose()


# --- the metrics' address ---------------------------------------------------------------------


def test_the_metrics_are_an_unknown_address_to_anyone_without_the_token(app, client):
    def same_as_unknown(method: str, headers: dict) -> None:
        hidden = client.open("/metrics", method=method, headers=headers)
        unknown = client.open("/no-such-address", method=method, headers=headers)
        # The page names its own address (the language switch comes back to it): the rest is the same.
        assert (hidden.status_code, hidden.content_type, hidden.data.replace(b"/metrics", b"/no-such-address")) == (
            unknown.status_code,
            unknown.content_type,
            unknown.data,
        ) and hidden.status_code == 404

    for headers in ({}, SCRAPER):  # no token set: no one may read them
        same_as_unknown("GET", headers)
    app.config["METRICS_TOKEN"] = TOKEN
    for headers in (
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": f"Bearer {TOKEN}x"},
        {"Authorization": TOKEN},
    ):
        for method in ("GET", "POST", "DELETE", "OPTIONS"):
            same_as_unknown(method, headers)
    for method in ("POST", "OPTIONS"):  # the token does not open other methods
        same_as_unknown(method, SCRAPER)
    answer = client.get("/metrics", headers=SCRAPER)
    assert answer.status_code == 200 and answer.content_type.startswith("text/plain; version=")
    assert answer.headers["Cache-Control"] == "no-store"
    names = {family.name for family in text_string_to_metric_families(answer.get_data(as_text=True))}
    assert {"banco_requests", "banco_actions", "banco_action_seconds", "banco_streams_open", "banco_refusals"} <= names


def test_the_metrics_token_and_the_drain_are_settings_read_strictly():
    assert config.metrics_token({}) == ""
    assert config.metrics_token({"BANCO_METRICS_TOKEN": f" {TOKEN} "}) == TOKEN
    for wrong in ("short", "with a space in it ok", "non-ascii-tokèn-0123456789"):
        with pytest.raises(BadSetting, match="BANCO_METRICS_TOKEN must be"):
            config.metrics_token({"BANCO_METRICS_TOKEN": wrong})
    for wrong in ("-1", "301", "soon"):
        with pytest.raises(BadSetting, match="BANCO_DRAIN_SECONDS must be a whole number from 0 to 300"):
            config._whole({"BANCO_DRAIN_SECONDS": wrong}, "BANCO_DRAIN_SECONDS", 0, 0, config.DRAIN_SECONDS_MOST)


def test_each_app_counts_in_its_own_registry(tmp_path):
    (tmp_path / "one").mkdir()
    (tmp_path / "other").mkdir()
    one, other = make_app(tmp_path / "one"), make_app(tmp_path / "other")
    banco(one).metrics.refused("crowded")
    assert value(parsed(banco(one).metrics.exposition().decode()), "banco_refusals_total", limit="crowded") == 1
    assert value(parsed(banco(other).metrics.exposition().decode()), "banco_refusals_total", limit="crowded") == 0


# --- what they count, under the real server ---------------------------------------------------


@pytest.fixture
def counted(tmp_path):
    """The real server, its metrics open to ``TOKEN``; one stream and one new game per address."""
    app = make_app(tmp_path, METRICS_TOKEN=TOKEN, STREAMS_PER_ADDRESS=1, CREATIONS_PER_ADDRESS=1)
    server = LiveServer(app).start()
    yield server
    server.stop()
    with app.app_context():
        db.engine.dispose()


@pytest.mark.database
def test_the_counters_move_with_payments_refusals_streams_and_limits(counted):
    url = counted.url
    before = scrape(url)
    game = new_game(counted, ["Anna", "Bruno"])  # a game made, and its start (an action)
    actions = f"{url}/api/v1/games/{game['id']}/actions"
    anna, bruno = game["players"][:2]
    assert pay(counted, game)
    refused = call(actions, "POST", {"type": "transfer", "to": bruno["id"], "amount": 10**9}, anna["token"])
    assert 400 <= refused[0] < 500, refused
    assert call(actions, "POST", {"type": "no_such_action"}, anna["token"])[0] == 400
    after = scrape(url)
    assert moved(before, after, "banco_actions_total", kind="transfer", outcome="done") == 1
    assert moved(before, after, "banco_actions_total", kind="start", outcome="done") == 1
    assert moved(before, after, "banco_actions_total", kind="transfer", outcome="refused") == 1
    assert moved(before, after, "banco_actions_total", kind="unknown", outcome="refused") == 1
    assert moved(before, after, "banco_action_seconds_count") == 4
    assert 0 < moved(before, after, "banco_action_seconds_sum") < 30
    assert moved(before, after, "banco_requests_total", kind="action", status="200") == 2
    assert moved(before, after, "banco_requests_total", kind="api", status="201") == 1
    assert moved(before, after, "banco_requests_total", kind="operator", status="200") == 1  # the first scrape
    # Start, the payment and the refused payment ran in the writer's batches; the unknown type never reached it.
    assert moved(before, after, "banco_writer_batch_actions_sum") == 3
    assert value(after, "banco_writer_queue") == 0

    stream = Stream(counted.port, stream_path(game), bearer(game))
    crowd = None
    try:
        stream.until(b"id: ")
        opened = scrape(url)
        assert value(opened, "banco_streams_open") == 1
        assert moved(after, opened, "banco_requests_total", kind="stream", status="200") == 1
        crowd = Stream(counted.port, stream_path(game), bearer(game))  # a second stream from the address
        assert crowd.status() == 429
        assert moved(after, scrape(url), "banco_refusals_total", limit="streams") == 1
    finally:
        stream.close()
        if crowd is not None:
            crowd.close()
    deadline = time.monotonic() + 10
    while value(scrape(url), "banco_streams_open") != 0:
        assert time.monotonic() < deadline, "the stream closed was still counted open"
        time.sleep(0.05)

    limits = scrape(url)
    assert call(f"{url}/api/v1/games", "POST", {"edition": "classic-it", "players": ["Carla", "Dario"]})[0] == 429
    guesses = [fetch(f"{url}/j/NOSUCHCODE")[0] for _ in range(21)]  # 20 guesses a minute
    assert guesses[-1] == 429
    too_large = fetch(
        f"{url}/api/v1/games", "POST", {"Content-Type": "application/json"}, b"[" + b" " * (64 * 1024) + b"]"
    )
    assert too_large[0] == 413
    final = scrape(url)
    assert moved(limits, final, "banco_refusals_total", limit="creations") == 1
    assert moved(limits, final, "banco_refusals_total", limit="guesses") == 1
    assert moved(limits, final, "banco_refusals_total", limit="body_too_large") == 1
    assert moved(limits, final, "banco_requests_total", kind="page", status="429") == 1
    assert moved(limits, final, "banco_requests_total", kind="api", status="413") == 1


# --- several workers --------------------------------------------------------------------------


@needs_postgresql
@pytest.mark.database
def test_every_worker_answers_with_the_whole_servers_numbers_and_says_not_ready_when_stopping(pg_database, tmp_path):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = app_py(
        port,
        pg_database,
        BANCO_WORKERS="2",
        BANCO_METRICS_TOKEN=TOKEN,
        BANCO_DRAIN_SECONDS="5",
        TMPDIR=str(tmp_path),  # where the parent makes the workers' shared folder
    )
    output = Output(proc)
    streams = {}
    try:
        output.wait_for(lambda text: len(worker_pids(text)) == 2)
        assert len(list(tmp_path.glob("banco-metrics-*"))) == 1  # the workers' shared folder

        # Requests on new connections until both workers have answered some.
        answered: dict[str, int] = {}
        for _ in range(200):
            status, headers, _ = fetch(f"{url}/api/v1/editions")
            assert status == 200
            answered[headers["X-Banco-Worker"]] = answered.get(headers["X-Banco-Worker"], 0) + 1
            if len(answered) == 2 and sum(answered.values()) >= 10:
                break
        assert sorted(answered) == ["1", "2"], "the kernel gave every connection to one worker"
        game = new_game(server_at(port), ["Anna", "Bruno"])
        streams = streams_on_both_workers(port, game)
        # The spare streams opened on the way were closed by this side: a worker counts one gone
        # once its loop hears of it, a moment later.
        deadline = time.monotonic() + 10
        while value(scrape(url), "banco_streams_open") != 2:
            assert time.monotonic() < deadline, "the streams closed were still counted open"
            time.sleep(0.1)

        scraped_by = set()
        for _ in range(40):  # scrapes until each worker has answered one: each says the whole server's
            status, headers, body = fetch(f"{url}/metrics", headers=SCRAPER)
            assert status == 200
            samples = parsed(body.decode())
            assert value(samples, "banco_requests_total", kind="api", status="200") == sum(answered.values())
            assert value(samples, "banco_streams_open") == 2
            assert value(samples, "banco_actions_total", kind="start", outcome="done") == 1
            scraped_by.add(headers["X-Banco-Worker"])
            if len(scraped_by) == 2:
                break
        assert scraped_by == {"1", "2"}

        pids = worker_pids(output.text)
        os.kill(pids[1], signal.SIGKILL)  # a worker dies: its stream is gone, its counts stay
        output.wait_for(lambda text: worker_pids(text).get(1) != pids[1])
        assert streams["1"].until_closed()
        deadline = time.monotonic() + 10
        while value(samples := scrape(url), "banco_streams_open") != 1:
            assert time.monotonic() < deadline, "the dead worker's stream was still counted open"
            time.sleep(0.1)
        assert value(samples, "banco_requests_total", kind="api", status="200") == sum(answered.values())
        streams.pop("1").close()

        proc.send_signal(signal.SIGTERM)
        said_no = set()
        deadline = time.monotonic() + 4
        while len(said_no) < 2 and time.monotonic() < deadline:  # each worker, during its drain
            status, headers, body = fetch(f"{url}/readyz")
            if status == 503:  # (a worker not yet told by the parent still says yes)
                assert json.loads(body) == {"ready": False, "reason": "stopping"}
                said_no.add(headers["X-Banco-Worker"])
        assert said_no == {"1", "2"}
        assert streams["2"].until_closed(20).endswith(b"0\r\n\r\n")  # ended after the drain, not cut
        assert proc.wait(40) == 0
    finally:
        for stream in streams.values():
            stream.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert "Traceback" not in output.text, output.text[-3000:]
    assert not list(tmp_path.glob("banco-metrics-*"))  # the shared folder removed once they stopped
