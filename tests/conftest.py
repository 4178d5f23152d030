"""Fixtures for the whole suite.

The database is SQLite in a fresh file per test, or the PostgreSQL server named by
``TEST_DATABASE_URL`` (emptied before each test). CI runs the suite once with each.
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

from companion import create_app
from companion.store import db

PG_URL = os.environ.get("TEST_DATABASE_URL")


def database_url(tmp_path) -> str:
    """This test's database: a new SQLite file in its folder, or the PostgreSQL run database."""
    url = PG_URL or f"sqlite:///{tmp_path / 'banco.sqlite3'}"
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def empty_database(url: str) -> None:
    """PostgreSQL: drops whatever an earlier test left (a SQLite file is new in each tmp_path)."""
    if not url.startswith("postgresql"):
        return
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        # Connections an earlier test's app left open would block the drop.
        conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
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
    if fresh:
        empty_database(url)
    return create_app(config)


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=False)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


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


def new_key() -> str:
    return uuid.uuid4().hex
