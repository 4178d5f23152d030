"""The limits per address hold for every process and under a burst (issues 45 and 47): on
PostgreSQL two apps on one database (two machines, or two workers) count one share of new
things and of guessed codes, and a new app (a restart) remembers it; the places are deleted once
they have left their window. On both databases, 100 creations at once from one address store
at most the share, and a place taken for a creation refused or failed is given back."""

from __future__ import annotations

import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import func, select, text

from companion import services
from companion.extension import banco
from companion.services import limits
from companion.store import Game, LimitPlace, db
from companion.web.ratelimit import RateLimiter
from tests.conftest import PG_URL, Api, app_py, database_url, free_port, make_app, wait_for_app_py
from tests.store import released

# On PostgreSQL too (python -m tests): there the limits are counted in the database.
pytestmark = pytest.mark.database

needs_postgresql = pytest.mark.skipif(not PG_URL, reason="limits shared by processes are PostgreSQL's")

SHARE = 30
GAME = {"edition": "classic-it", "players": ["Anna", "Bruno"]}
WRONG = {"edition": "classic-it", "players": ["Anna", "Anna"]}  # refused for its content: 400


@pytest.fixture
def apps(tmp_path):
    """Two apps on one database, as two machines (or two workers) would be: the second made
    once the first has emptied it."""
    made = [make_app(tmp_path, WTF_CSRF_ENABLED=False, CREATIONS_PER_ADDRESS=SHARE)]
    made.append(make_app(tmp_path, fresh=False, WTF_CSRF_ENABLED=False, CREATIONS_PER_ADDRESS=SHARE))
    yield made
    for app in made:
        close(app)


def close(app) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    parts = banco(app)
    for limiter in (parts.limiter, parts.creations):
        if isinstance(limiter, limits.SharedLimiter):
            limiter.places.close()


def from_address(app, address: str) -> Api:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return Api(client)


def stored(app) -> int:
    with app.app_context():
        return db.session.query(Game).count()


def places(app, key: str | None = None) -> int:
    with app.app_context():
        query = select(func.count()).select_from(LimitPlace)
        if key is not None:
            query = query.where(LimitPlace.key == key)
        return db.session.execute(query).scalar_one()


def age(app, seconds: float) -> None:
    """Every place held moved back by ``seconds``, as if taken that much earlier."""
    with app.app_context():
        db.session.execute(
            text(
                "UPDATE limit_place SET taken_at = taken_at - make_interval(secs => :s), "
                "leaves_at = leaves_at - make_interval(secs => :s)"
            ),
            {"s": seconds},
        )
        db.session.commit()


def burst(apps, body, count=100, address="10.0.0.2") -> list[int]:
    """``count`` creations from one address sent at once, spread over ``apps``: their statuses."""
    start = threading.Barrier(count)

    def create(n: int) -> int:
        api = from_address(apps[n % len(apps)], address)
        start.wait(timeout=30)
        return api.client.post("/api/v1/games", json=body(n) if callable(body) else body).status_code

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(create, range(count)))


# --- on both databases: a burst --------------------------------------------------------------


def test_100_creations_at_once_store_the_share_and_not_one_more(apps):
    statuses = burst(apps if PG_URL else apps[:1], GAME)
    assert sorted(set(statuses)) == [201, 429], statuses
    assert statuses.count(201) == SHARE and stored(apps[0]) == SHARE
    assert from_address(apps[0], "10.0.0.2").client.post("/api/v1/games", json=GAME).status_code == 429
    assert from_address(apps[-1], "10.0.0.3").post("/api/v1/games", GAME)[0] == 201  # another address


def test_creations_refused_in_a_burst_give_their_places_back(apps):
    """Half the burst is refused for its content: while each is checked it holds a place, so
    the burst may store fewer than the share, never more; once over, every place a refused one
    took is free again, and the address makes up the rest of its share, exactly."""
    statuses = burst(apps if PG_URL else apps[:1], lambda n: GAME if n % 2 else WRONG)
    assert set(statuses) <= {201, 400, 429}, statuses
    made = statuses.count(201)
    assert made == stored(apps[0]) <= SHARE
    phone = from_address(apps[0], "10.0.0.2")
    assert [phone.post("/api/v1/games", GAME)[0] for _ in range(SHARE - made)] == [201] * (SHARE - made)
    assert phone.post("/api/v1/games", GAME)[0] == 429
    assert stored(apps[0]) == SHARE


def test_a_creation_that_fails_gives_its_place_back(apps, monkeypatch):
    app = apps[0]
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a failure answered 500, as a server would
    phone = from_address(app, "10.0.0.2")
    real = services.create_game

    def broken(*args, **kwargs):
        raise RuntimeError("the disk said no")

    monkeypatch.setattr(services, "create_game", broken)
    assert [phone.client.post("/api/v1/games", json=GAME).status_code for _ in range(SHARE + 5)] == [500] * (SHARE + 5)
    monkeypatch.setattr(services, "create_game", real)
    assert [phone.post("/api/v1/games", GAME)[0] for _ in range(SHARE)] == [201] * SHARE
    assert phone.post("/api/v1/games", GAME)[0] == 429


def test_in_memory_a_place_given_back_frees_it_and_one_gone_changes_nothing():
    limiter = RateLimiter(limit=2, window_seconds=60)
    first, second = limiter.take("phone"), limiter.take("phone")
    assert first[0] == second[0] == 0 and first[1] != second[1]
    assert limiter.take("phone")[0] > 0
    limiter.give_back("phone", first[1])
    limiter.give_back("phone", first[1])  # again: nothing more
    assert limiter.take("phone")[0] == 0 and limiter.take("phone")[0] > 0
    assert RateLimiter(limit=0, window_seconds=60).take("phone") == (0, 0)  # no limit: nothing to give back


# --- on PostgreSQL: one count for every process ------------------------------------------------


@needs_postgresql
def test_two_machines_count_one_share_of_new_games(apps):
    first, second = (from_address(app, "10.0.0.2") for app in apps)
    for n in range(SHARE):
        assert (first if n % 2 else second).post("/api/v1/games", GAME)[0] == 201
    for phone in (first, second):
        response = phone.client.post("/api/v1/games", json=GAME)
        assert response.status_code == 429 and 590 <= int(response.headers["Retry-After"]) <= 600
        assert response.get_json()["error"]["code"] == "too_many_created"
    assert stored(apps[0]) == SHARE
    assert places(apps[0]) == SHARE


@needs_postgresql
def test_two_machines_count_one_share_of_guessed_codes(apps):
    first, second = (app.test_client() for app in apps)
    for n in range(20):
        assert (first if n % 2 else second).get("/j/NOSUCH").status_code != 429
    for phone in (first, second):
        response = phone.get("/j/NOSUCH")
        assert response.status_code == 429 and 1 <= int(response.headers["Retry-After"]) <= 60


@needs_postgresql
def test_a_restart_forgets_nothing(tmp_path, apps):
    phone = from_address(apps[0], "10.0.0.2")
    assert [phone.post("/api/v1/games", GAME)[0] for _ in range(SHARE)] == [201] * SHARE
    for _ in range(20):
        phone.client.get("/j/NOSUCH")
    for app in apps:
        close(app)
    restarted = make_app(tmp_path, fresh=False, WTF_CSRF_ENABLED=False, CREATIONS_PER_ADDRESS=SHARE)
    try:
        again = from_address(restarted, "10.0.0.2")
        assert again.client.post("/api/v1/games", json=GAME).status_code == 429
        assert again.client.get("/j/NOSUCH").status_code == 429
        assert from_address(restarted, "10.0.0.3").post("/api/v1/games", GAME)[0] == 201
    finally:
        close(restarted)


@needs_postgresql
def test_places_are_deleted_once_they_have_left_their_window(apps):
    app = apps[0]
    shared = banco(app).creations
    assert isinstance(shared, limits.SharedLimiter)
    phone = from_address(app, "10.0.0.2")
    assert [phone.post("/api/v1/games", GAME)[0] for _ in range(3)] == [201] * 3
    assert places(app, "made game 10.0.0.2") == 3
    age(app, 599)
    assert phone.post("/api/v1/games", GAME)[0] == 201
    assert places(app, "made game 10.0.0.2") == 4  # still in the window: kept
    age(app, 1)
    assert phone.post("/api/v1/games", GAME)[0] == 201
    assert places(app, "made game 10.0.0.2") == 2  # the address's own, left: deleted at its next
    # Every key's, left, deleted by the next sweep, whoever's attempt it follows.
    from_address(app, "10.0.0.9").client.get("/j/NOSUCH")
    age(app, 600)
    shared.places.sweep_seconds = 0
    from_address(app, "10.0.0.9").client.get("/j/NOSUCH")
    with app.app_context():
        assert db.session.execute(select(LimitPlace.key)).scalars().all() == ["guess 10.0.0.9"]


@needs_postgresql
def test_a_place_is_timed_by_the_databases_clock(apps):
    """What every machine compares is the database's time, never its own."""
    shared = banco(apps[0]).creations
    assert isinstance(shared, limits.SharedLimiter)
    wait, place = shared.take("10.0.0.2")
    assert wait == 0 and place
    with apps[0].app_context():
        row = db.session.get(LimitPlace, place)
        server_now = db.session.execute(text("SELECT clock_timestamp()")).scalar_one()
        assert abs((row.taken_at - server_now).total_seconds()) < 5
        assert (row.leaves_at - row.taken_at).total_seconds() == shared.window


@needs_postgresql
def test_a_database_from_before_is_upgraded_and_counts(tmp_path):
    released.at_revision(database_url(tmp_path), "0006")
    app = make_app(tmp_path, fresh=False, WTF_CSRF_ENABLED=False, CREATIONS_PER_ADDRESS=2)
    try:
        phone = from_address(app, "10.0.0.2")
        assert [phone.post("/api/v1/games", GAME)[0] for _ in range(3)] == [201, 201, 429]
        assert places(app) == 2
    finally:
        close(app)


@needs_postgresql
def test_two_workers_of_a_real_server_count_one_share(tmp_path):
    """``app.py`` with two worker processes on PostgreSQL: 40 new games at once from one
    address, 20 on connections each worker holds, store the share of 10 (each worker counting
    its own would store 20)."""
    url = database_url(tmp_path)
    make_app(tmp_path)  # the database emptied, as every test's
    port = free_port()
    proc = app_py(port, url, BANCO_WORKERS="2", BANCO_CREATIONS_PER_ADDRESS="10")
    held: dict[str, list[http.client.HTTPConnection]] = {"1": [], "2": []}
    try:
        wait_for_app_py(proc, port, seconds=60)
        for _ in range(400):  # connections kept open until each worker holds 20 (``X-Banco-Worker``)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/api/v1/editions")
            answer = connection.getresponse()
            answer.read()
            worker = held[answer.getheader("X-Banco-Worker") or ""]
            if len(worker) < 20:
                worker.append(connection)
            else:
                connection.close()
            if all(len(connections) == 20 for connections in held.values()):
                break
        assert all(len(connections) == 20 for connections in held.values()), "the kernel chose one worker"

        def create(connection) -> int:
            connection.request("POST", "/api/v1/games", json.dumps(GAME), {"Content-Type": "application/json"})
            answer = connection.getresponse()
            answer.read()
            return answer.status

        with ThreadPoolExecutor(max_workers=40) as pool:
            statuses = list(pool.map(create, held["1"] + held["2"]))
    finally:
        for connection in held["1"] + held["2"]:
            connection.close()
        proc.terminate()
        proc.wait(timeout=30)
    assert statuses.count(201) == 10 and statuses.count(429) == 30, statuses
    checked = make_app(tmp_path, fresh=False)
    try:
        assert stored(checked) == 10
    finally:
        close(checked)
