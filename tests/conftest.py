"""Fixtures for the whole suite.

The database is SQLite in a fresh file per test, or the PostgreSQL database named by
``TEST_DATABASE_URL`` (made new before each test). ``python -m tests`` runs the suite on SQLite,
then the tests marked ``database`` (their behaviour depends on the database) on PostgreSQL.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import uuid

import pytest

from companion import create_app, shared_parts
from companion.core.editions import loading
from companion.store import db

PG_URL = os.environ.get("TEST_DATABASE_URL")


def _parse_editions_once(load):
    """``load_editions`` for the hundreds of apps the suite makes: each folder's files parsed
    and checked once per content (half of what making an app costs), every app still handed
    a catalog of its own. An edition is frozen, so sharing it between apps shares nothing a
    test could change; a file changed, added or removed is a new content, read again."""
    loaded: dict[tuple, loading.LoadedEditions] = {}

    def load_editions(directory=loading.EDITIONS_DIR):
        try:
            content = tuple((path.name, path.read_bytes()) for path in loading.edition_files(directory))
        except OSError:
            return load(directory)  # unreadable: load reports it, every time
        key = (str(directory), content)
        if key not in loaded:
            loaded[key] = load(directory)
        found = loaded[key]
        return loading.LoadedEditions(dict(found.editions), list(found.problems))

    return load_editions


# Every app of the suite reads its editions through it (``create_app``'s ``load_editions``).
EDITIONS_ONCE = _parse_editions_once(loading.load_editions)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "database: what the test checks depends on the database (locks, transactions, constraints, "
        "types, order of reads, migrations, LISTEN/NOTIFY): python -m tests runs it on PostgreSQL too",
    )
    config.addinivalue_line(
        "markers",
        "fuzz: the API fuzzed from its OpenAPI document; python -m tests runs it once, on PostgreSQL "
        "when the run has one (the stricter store of odd input), else on SQLite",
    )


def database_url(tmp_path) -> str:
    """This test's database: a new SQLite file in its folder, or the PostgreSQL run database."""
    url = PG_URL or f"sqlite:///{tmp_path / 'banco.sqlite3'}"
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


# Connections an earlier test's app left open would block a drop, and hold locks.
_OTHER_SESSIONS = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
)

# Everything of the schema ``public`` a test could change: relations, columns with their types
# and defaults, constraints, indexes, functions, types, and the revision Alembic stamped.
_SCHEMA_PRINT = """
SELECT md5(coalesce(string_agg(line, E'\\n' ORDER BY line), '')) FROM (
    SELECT 'rel ' || relname || ' ' || relkind::text FROM pg_class
    WHERE relnamespace = 'public'::regnamespace
  UNION ALL
    SELECT 'col ' || c.relname || ' ' || a.attnum || ' ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
        || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
  UNION ALL
    SELECT 'con ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL
    SELECT 'idx ' || pg_get_indexdef(indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL
    SELECT 'fun ' || oid::regprocedure FROM pg_proc WHERE pronamespace = 'public'::regnamespace
  UNION ALL
    SELECT 'typ ' || typname FROM pg_type WHERE typnamespace = 'public'::regnamespace
  UNION ALL
    SELECT 'rev ' || version_num FROM alembic_version WHERE to_regclass('public.alembic_version') IS NOT NULL
) AS schema(line)
"""
# The print of the tables a new app made from the models on an empty schema (this process's
# first), once it has been taken: a schema that still matches it only needs its rows deleted.
_built: dict[str, str] = {}


def _schema_print(conn) -> str:
    from sqlalchemy import text

    # alembic_version is named in the query, so it must exist for the query to be planned.
    if conn.execute(text("SELECT to_regclass('public.alembic_version')")).scalar() is None:
        return "no alembic_version"
    return conn.execute(text(_SCHEMA_PRINT)).scalar()


def empty_database(url: str) -> None:
    """PostgreSQL: drops whatever an earlier test left, tables included (a SQLite file is new in
    each tmp_path)."""
    if not url.startswith("postgresql"):
        return
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(_OTHER_SESSIONS))
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def _new_database(url: str) -> bool:
    """PostgreSQL: the database as a new app would leave it on an empty one. When its schema is
    still exactly the one an app made from the models, only the rows go (and the sequences
    start again): an app starting on it finds its tables at the head revision, as one
    restarting would, for a fraction of the cost of making them again. Anything else (a test
    that changed the schema, an older revision) is dropped whole. True when it was dropped."""
    if not url.startswith("postgresql"):
        return False
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(_OTHER_SESSIONS))
            if _built.get(url) is None or _schema_print(conn) != _built[url]:
                conn.execute(text("DROP SCHEMA public CASCADE"))
                conn.execute(text("CREATE SCHEMA public"))
                return True
            for table in reversed(db.metadata.sorted_tables):
                conn.execute(table.delete())
            for (sequence,) in conn.execute(
                text(
                    "SELECT oid::regclass::text FROM pg_class WHERE relkind = 'S' AND relnamespace = 'public'::regnamespace"
                )
            ):
                conn.execute(text(f"ALTER SEQUENCE {sequence} RESTART"))
            return False
    finally:
        engine.dispose()


def _take_print(url: str) -> None:
    from sqlalchemy import create_engine

    engine = create_engine(url)
    with engine.connect() as conn:
        _built[url] = _schema_print(conn)
    engine.dispose()


def make_app(tmp_path, fresh=True, **overrides):
    """The app on this test's database; ``fresh=False`` keeps what an earlier app of the same
    test wrote (a server restart)."""
    url = database_url(tmp_path)
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": url,
        "PUBLIC_URL": "http://banco.test",
        "THREADS": 64,
    }
    config.update(overrides)
    dropped = fresh and _new_database(url)
    app = create_app(config, load_editions=EDITIONS_ONCE)
    if dropped:
        _take_print(url)
    return app


class SharedApp:
    """One app for the tests of a module, each of them handed it as a new app would be: its
    settings as made, its shared parts (``companion.extension.Banco``: the broker, the limiters,
    the door's writer, the imported editions) new, its database's rows gone and its sequences
    started again, and a new name for its database (``services.database_key``), so no memory of
    the process keyed by it holds an earlier test's game. Making an app is mostly Flask's routes
    and Alembic's scripts, about a tenth of a second of CPU, some thousand times a run; emptying
    its tables is a few milliseconds."""

    def __init__(self, folder, **overrides) -> None:
        self.app = make_app(folder, **overrides)
        self.settings = dict(self.app.config)

    def renew(self):
        """The app as new, for the next test."""
        from companion import extension
        from companion.services import repository

        app = self.app
        _stop_threads(app)
        app.config.clear()
        app.config.update(self.settings)
        extension.init_app(app, shared_parts(app, EDITIONS_ONCE))
        with app.app_context():
            db.session.remove()
            engine = db.engine
            engine.dispose()  # on PostgreSQL, another app of the test may have ended its connections
            engine.__dict__.pop(repository._DATABASE_KEY, None)
            _empty_tables(engine)
        return app

    def close(self) -> None:
        _stop_threads(self.app)
        with self.app.app_context():
            db.session.remove()
            db.engine.dispose()


def _stop_threads(app) -> None:
    """Ends the app's writer, its auctions' closer and its newsroom, once what they hold is done."""
    from companion import extension
    from companion.services import door

    door.of(app).writer.stop(wait=10)
    door.of(app).closer.stop()
    extension.banco(app).newsroom.stop(wait=10)


def _empty_tables(engine) -> None:
    """Deletes every row of the app's tables and starts their ids again."""
    from sqlalchemy import inspect, text

    with engine.begin() as conn:
        for table in reversed(db.metadata.sorted_tables):
            conn.execute(table.delete())
        if engine.dialect.name == "postgresql":
            for (sequence,) in conn.execute(
                text(
                    "SELECT oid::regclass::text FROM pg_class WHERE relkind = 'S' AND relnamespace = 'public'::regnamespace"
                )
            ):
                conn.execute(text(f"ALTER SEQUENCE {sequence} RESTART"))
        elif inspect(conn).has_table("sqlite_sequence"):
            conn.execute(text("DELETE FROM sqlite_sequence"))


@pytest.fixture(scope="module")
def shared_api_app(tmp_path_factory):
    shared = SharedApp(tmp_path_factory.mktemp("app"), WTF_CSRF_ENABLED=False)
    yield shared
    shared.close()


@pytest.fixture
def app(shared_api_app):
    """The app of the API's tests (no forms' CSRF protection): the module's one, as new."""
    return shared_api_app.renew()


@pytest.fixture
def client(app):
    return app.test_client()


class Api:
    """Calls the JSON API as a given token; returns (status, json)."""

    def __init__(self, client):
        self.client = client

    def post(self, path, body=None, token=None, raw=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if raw is not None:
            r = self.client.post(path, data=raw, headers={**headers, "Content-Type": "application/json"})
        else:
            r = self.client.post(path, json=body, headers=headers)
        return r.status_code, r.get_json()

    def get(self, path, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.client.get(path, headers=headers)
        return r.status_code, r.get_json()

    def new_game(self, players=("Anna", "Bruno", "Carla"), edition="classic-it", **extra):
        status, body = self.post("/api/v1/games", {"edition": edition, "players": list(players), **extra})
        assert status == 201, body
        return Game(self, body)


class Game:
    """A game made through the API, with its tokens at hand."""

    def __init__(self, api: Api, created: dict):
        self.api = api
        self.id = created["id"]
        self.join_code = created["join_code"]
        self.banker = created["banker_token"]
        self.players = created["players"]
        self.ids = {p["name"]: p["id"] for p in created["players"]}
        self.tokens = {p["name"]: p["token"] for p in created["players"]}

    def act(self, who, action: dict):
        token = self.banker if who == "banker" else self.tokens.get(who, who)
        return self.api.post(f"/api/v1/games/{self.id}/actions", action, token)

    def start(self):
        status, body = self.act("banker", {"type": "start"})
        assert status == 200, body
        return self

    def state(self, who="banker"):
        token = self.banker if who == "banker" else self.tokens[who]
        status, body = self.api.get(f"/api/v1/games/{self.id}", token)
        assert status == 200, body
        return body

    def cash(self):
        return {p["name"]: p["cash"] for p in self.state()["players"]}

    def beyond_means(self, who) -> int:
        """A debt ``who`` cannot pay: one more than their cash and everything selling and
        mortgaging would raise (the least a bankruptcy is accepted for)."""
        from companion import services

        with self.api.client.application.app_context():
            return services.liquidation(services.get_game(self.id), self.ids[who]).payable + 1


@pytest.fixture
def api(client):
    return Api(client)


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def app_py(port: int, database_url: str, output=subprocess.PIPE, **settings):
    """``python app.py`` in a subprocess on 127.0.0.1:``port`` and ``database_url``, with the
    extra environment ``settings``; its output (stdout and stderr) to ``output``."""
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "SECRET_KEY": "x",
        "DATABASE_URL": database_url,
        "BANCO_PUBLIC_URL": f"http://127.0.0.1:{port}",
        **settings,
    }
    return subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)


def wait_for_app_py(proc, port: int, seconds: float = 30) -> None:
    """Waits until ``python app.py`` (the subprocess ``proc``) accepts connections on ``port``;
    fails if it exits or takes longer than ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            assert time.monotonic() < deadline and proc.poll() is None, "app.py did not start"
            time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """The real application under Banco's server (uvicorn, ``companion.serve``), made as
    ``app.py`` makes it, on a free local port (or ``port``: a restart), its loop in a thread of
    this process."""

    def __init__(self, app, port=None, parser=None):
        from companion.serve import create_server

        self.app = app
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app.config["PUBLIC_URL"] = self.url
        self.server = create_server(app, "127.0.0.1", self.port, parser=parser)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self):
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def stop(self):
        if not self.thread.is_alive():
            return  # already stopped (a test that restarts the server)
        # As Ctrl+C does: the streams end, then the connections, then the loop.
        self.server.should_exit = True
        self.thread.join(15)
        assert not self.thread.is_alive(), "the test server did not stop"


@pytest.fixture
def live_server(tmp_path):
    app = make_app(tmp_path)
    server = LiveServer(app).start()
    yield server
    server.stop()
    with app.app_context():
        db.engine.dispose()


def act(game_id, caller, payload: dict, token: str | None = None) -> dict:
    """One action for ``caller`` (or for whoever holds ``token``) through the app's door, as the
    pages and the API run it (``Door.answer``), for a test with no request to make: its answer
    (``{"version", "result"}``) once committed. A refusal fails the test, naming it; an
    unexpected failure is raised, as the door raises it."""
    from flask import current_app

    from companion.services import door

    answered = door.of(current_app).answer(game_id, caller if caller is not None else token, payload, "en")
    assert answered.status in (200, 202), answered.body
    return answered.body


def new_key() -> str:
    return uuid.uuid4().hex
