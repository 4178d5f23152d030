"""The game clock across a restart of the server.

The clock lives on the game row (seconds elapsed, plus when it last started running), so a
new server process on the same database reads it where the old one left it: a running clock
has kept counting while the server was down (the game went on at the table), a paused clock
is still paused, and a limit that passed in the meantime reads as time up.

Each "server" is an app of its own on the same database file (PostgreSQL when the suite runs
there), the first one closed before the next starts. Time is moved by hand: every service
that reads the wall clock reads this test's.
"""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager

import pytest

from companion.store import db, now_utc
from tests.conftest import Api, make_app

# On PostgreSQL too (python -m tests): the clock's datetimes as each database keeps them, read by the next server.
pytestmark = pytest.mark.database

LIMIT_MINUTES = 30
LIMIT = LIMIT_MINUTES * 60


class Time:
    """The wall clock the services read, moved by the test."""

    def __init__(self):
        self.now = now_utc()

    def __call__(self) -> dt.datetime:
        return self.now

    def passes(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
def wall(monkeypatch):
    fake = Time()
    for module in ("clock", "reads", "actions"):
        monkeypatch.setattr(f"companion.services.{module}.now_utc", fake)
    return fake


@contextmanager
def server(tmp_path, fresh: bool = False):
    """One run of the server on this test's database; closed (sessions and connections) on leaving."""
    app = make_app(tmp_path, fresh=fresh, WTF_CSRF_ENABLED=False)
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def on(app, game):
    """``game``, called through ``app``'s API: the same tokens, another server process."""
    game.api = Api(app.test_client())
    return game


def clock(game) -> dict:
    """The game's clock without its last minutes' warning (this game has none)."""
    shown = dict(game.state()["clock"])
    assert (shown.pop("last_minutes"), shown.pop("closing")) == (0, False)
    return shown


def act(game, kind: str) -> None:
    status, body = game.act("banker", {"type": kind})
    assert status == 200, body


def timed_game(app):
    game = Api(app.test_client()).new_game(players=("Anna", "Bruno"), time_limit_minutes=LIMIT_MINUTES)
    return game.start()


def test_a_running_clock_keeps_counting_across_a_restart(tmp_path, wall):
    with server(tmp_path, fresh=True) as first:
        game = timed_game(first)
        wall.passes(600)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": LIMIT - 600, "running": True}
    wall.passes(300)  # the server is down for five minutes; the game goes on at the table
    with server(tmp_path) as second:
        on(second, game)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": LIMIT - 900, "running": True}
        # The new server knows the clock runs: resuming it is refused, pausing it works.
        status, body = game.act("banker", {"type": "clock_resume"})
        assert status == 409 and body["error"]["code"] == "clock_running"
        act(game, "clock_pause")
        wall.passes(120)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": LIMIT - 900, "running": False}
        act(game, "clock_resume")
        wall.passes(60)
        assert clock(game)["remaining_seconds"] == LIMIT - 960


def test_a_paused_clock_stays_paused_across_a_restart(tmp_path, wall):
    with server(tmp_path, fresh=True) as first:
        game = timed_game(first)
        wall.passes(400)
        act(game, "clock_pause")
        wall.passes(200)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": LIMIT - 400, "running": False}
    wall.passes(3 * 3600)  # down for three hours, longer than the whole limit
    with server(tmp_path) as second:
        on(second, game)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": LIMIT - 400, "running": False}
        status, body = game.act("banker", {"type": "clock_pause"})
        assert status == 409 and body["error"]["code"] == "clock_paused"
        act(game, "clock_resume")  # resumed on the new server: it counts from here
        wall.passes(100)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": LIMIT - 500, "running": True}
        act(game, "clock_pause")
    wall.passes(600)
    with server(tmp_path) as third:  # paused on one server, still paused on the next
        on(third, game)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": LIMIT - 500, "running": False}


def test_time_runs_out_while_the_server_is_down(tmp_path, wall):
    with server(tmp_path, fresh=True) as first:
        game = timed_game(first)
        wall.passes(LIMIT - 60)
        assert clock(game)["remaining_seconds"] == 60
    wall.passes(15 * 60)  # the limit passes while the server is down
    with server(tmp_path) as second:
        on(second, game)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": 0, "running": True}
        assert game.state()["status"] == "running"  # time up: the banker ends the game, not the server
        # The table says so too.
        table = second.test_client()
        with table.session_transaction() as session:
            session["games"] = {game.id: {"b": game.banker}}
        page = table.get(f"/g/{game.id}/table", headers={"Accept-Language": "en"}).get_data(as_text=True)
        assert 'class="clock is-up"' in page and "Time's up!" in page and 'data-remaining="0"' in page
        # Ending the game stops the clock at zero, and it stays there.
        act(game, "end")
        wall.passes(600)
        assert clock(game) == {"limit_seconds": LIMIT, "remaining_seconds": 0, "running": False}
