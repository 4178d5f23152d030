"""The schema's migrations: a database the last release made is upgraded at start with its
games kept, and play goes on; the migrations build exactly the models' tables; a database of
an unknown version is refused, naming the way out. On SQLite, and on PostgreSQL when
``TEST_DATABASE_URL`` is set."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, select, text

from companion.core.settings import SETTINGS
from companion.database import SchemaMismatch
from companion.services import catalog, journal_balances, verify_all
from companion.store import EditionContent, Entry, Game, Holding, Player, db, migrations
from tests.conftest import Api, database_url, make_app
from tests.conftest import Game as ApiGame

from . import released
from .released import ANNA, ANNA_TOKEN, BANKER_TOKEN, BRUNO, BRUNO_TOKEN, GAME, PAID, REQUEST

# On PostgreSQL too (python -m tests): migrations are DDL each database runs its own way, under its own lock.
pytestmark = pytest.mark.database

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def url(tmp_path):
    return database_url(tmp_path)


@pytest.fixture
def upgraded(tmp_path, url):
    """The app started on a database the release left: started, it has upgraded it."""
    released.released_game(url)
    app = make_app(tmp_path, fresh=False, WTF_CSRF_ENABLED=False)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def old_game(app) -> ApiGame:
    return ApiGame(
        Api(app.test_client()),
        {
            "id": GAME,
            "join_code": "OLDGM2",
            "banker_token": BANKER_TOKEN,
            "players": [
                {"id": ANNA, "name": "Anna", "token": ANNA_TOKEN},
                {"id": BRUNO, "name": "Bruno", "token": BRUNO_TOKEN},
            ],
        },
    )


def ok(answer):
    status, body = answer
    assert status == 200, body
    return body


def assert_balanced(app):
    with app.app_context():
        checked, findings = verify_all()
        assert checked >= 1 and findings == []
        game = db.session.get(Game, GAME)
        journal = journal_balances(game)
        assert {p.id: p.cash for p in game.players} == {ANNA: journal[ANNA], BRUNO: journal[BRUNO]}


def test_a_released_game_is_upgraded_and_played_on(upgraded):
    game = old_game(upgraded)
    assert game.cash() == {"Anna": 1442, "Bruno": 1498}
    state = game.state()
    assert [r["id"] for r in state["rent_requests"]] == [REQUEST]
    assert state["settings"]["auction_seconds"] == 30

    ok(game.act("Bruno", {"type": "rent_confirm", "request": REQUEST}))
    assert game.cash() == {"Anna": 1444, "Bruno": 1496}
    assert game.state()["rent_requests"] == []

    ok(game.act("banker", {"type": "undo"}))
    assert game.cash() == {"Anna": 1442, "Bruno": 1498}
    assert [r["id"] for r in game.state()["rent_requests"]] == [REQUEST]

    ok(game.act("Bruno", {"type": "rent_confirm", "request": REQUEST}))
    ok(game.act("Anna", {"type": "transfer", "to": BRUNO, "amount": 100, "reason": "a trade"}))
    assert game.cash() == {"Anna": 1344, "Bruno": 1596}
    assert game.state()["version"] == 10
    assert_balanced(upgraded)


def test_the_released_journal_still_undoes(upgraded):
    """Undo walks back into entries the release wrote: the open rent request goes, the paid
    one is unpaid and waits again, and can be paid anew."""
    game = old_game(upgraded)
    ok(game.act("banker", {"type": "undo"}))
    assert game.state()["rent_requests"] == []
    status, body = game.act("Bruno", {"type": "rent_confirm", "request": REQUEST})
    assert status == 404, body

    ok(game.act("banker", {"type": "undo"}))
    assert game.cash() == {"Anna": 1440, "Bruno": 1500}
    assert [r["id"] for r in game.state()["rent_requests"]] == [PAID]

    ok(game.act("Bruno", {"type": "rent_confirm", "request": PAID}))
    assert game.cash() == {"Anna": 1442, "Bruno": 1498}
    assert game.state()["rent_requests"] == []
    assert_balanced(upgraded)


def test_the_upgrade_moves_each_part_where_the_models_keep_it(upgraded, url):
    with upgraded.app_context():
        game = db.session.get(Game, GAME)
        assert game.extra["pending"] == {REQUEST: released.pending_rent_request(REQUEST)}
        assert game.extra["pots"] == {}
        settings = game.extra["settings"]
        for name, setting in SETTINGS.items():
            assert settings.get(name, setting.default) == (30 if name == "auction_seconds" else setting.default)
        assert game.edition_hash == catalog.content_hash(json.loads(released.EDITION.read_text(encoding="utf-8")))
        pinned = db.session.get(EditionContent, game.edition_hash)
        assert pinned.edition_id == "classic-it" and catalog.content_hash(pinned.data) == game.edition_hash
        assert {json.dumps(p.extra) for p in db.session.execute(select(Player)).scalars()} == {"{}"}
        assert {json.dumps(h.extra) for h in db.session.execute(select(Holding)).scalars()} == {"{}"}
        changes = {e.version: e.changes for e in db.session.execute(select(Entry)).scalars()}
        assert changes[4] == [["pending", PAID, "state", None, released.pending_rent_request(PAID)]]
        assert changes[5] == [["pending", PAID, "state", released.pending_rent_request(PAID), None]]
        assert changes[6] == [["pending", REQUEST, "state", None, released.pending_rent_request(REQUEST)]]
        assert changes[3] == [["deed", "vicolo-corto", "owner", None, ANNA]]  # other targets as they were
    engine = create_engine(url)
    with engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
        assert "banco_schema" not in tables
        assert "rent_requests" not in {c["name"] for c in inspect(conn).get_columns("game")}
        assert migrations.current(conn) == migrations.head()
    engine.dispose()


def test_a_game_made_after_the_upgrade_shares_the_pinned_content(upgraded):
    api = Api(upgraded.test_client())
    api.new_game(players=("Carla", "Dario")).start()
    with upgraded.app_context():
        assert len(db.session.execute(select(EditionContent)).scalars().all()) == 1


def test_a_database_stamped_at_the_first_revision_is_upgraded_too(tmp_path, url):
    released.released_game(url, stamped=True)
    app = make_app(tmp_path, fresh=False, WTF_CSRF_ENABLED=False)
    game = old_game(app)
    ok(game.act("Bruno", {"type": "rent_confirm", "request": REQUEST}))
    assert game.cash() == {"Anna": 1444, "Bruno": 1496}
    assert_balanced(app)
    with app.app_context():
        db.engine.dispose()


def test_a_second_start_changes_nothing(tmp_path, upgraded):
    with upgraded.app_context():
        before = db.session.get(Game, GAME).extra
    again = make_app(tmp_path, fresh=False)
    with again.app_context():
        assert db.session.get(Game, GAME).extra == before
        db.engine.dispose()


@pytest.mark.parametrize("source", ["migrations", "models"])
def test_the_migrations_build_the_models_tables(tmp_path, url, source):
    """Replayed from nothing (the released databases' path) or made from the models (a new
    database's), the tables are the same: the models and the migrations never drift."""
    if source == "migrations":
        released.at_revision(url, "head")
    else:
        released.empty_database(url)  # nothing there, whatever an earlier test of this run left
        app = make_app(tmp_path, fresh=False)
        with app.app_context():
            db.engine.dispose()
    engine = create_engine(url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []
        assert migrations.current(conn) == migrations.head()
    engine.dispose()


@pytest.mark.parametrize("version", [1, 3])
def test_tables_of_an_unknown_version_are_refused(tmp_path, url, version):
    released.at_revision(url, migrations.RELEASED)
    released.run_sql(url, ("UPDATE banco_schema SET version = :v", {"v": version}), ("DROP TABLE alembic_version", {}))
    with pytest.raises(SchemaMismatch, match=f"tables version {version}.*Start with a new database"):
        make_app(tmp_path, fresh=False)


def test_tables_without_any_version_are_refused(tmp_path, url):
    released.empty_database(url)
    released.run_sql(url, ("CREATE TABLE game (id VARCHAR(16) PRIMARY KEY)", {}))
    with pytest.raises(SchemaMismatch, match=r"tables version 1.*Start with a new database"):
        make_app(tmp_path, fresh=False)


def test_a_newer_banco_database_is_refused(tmp_path, url):
    released.at_revision(url, "head")
    released.run_sql(url, ("UPDATE alembic_version SET version_num = '9999'", {}))
    with pytest.raises(SchemaMismatch, match=r"revision 9999.*cannot upgrade"):
        make_app(tmp_path, fresh=False)


STARTER = """
import sys
from pathlib import Path
from tests.conftest import make_app
print("imported", flush=True)
make_app(Path(sys.argv[1]), fresh=False)
"""


def test_servers_starting_together_upgrade_once(tmp_path, url):
    released.released_game(url)
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", STARTER, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        for _ in range(3)
    ]
    for start in starts:
        output = start.communicate(timeout=120)[0].decode()
        assert start.returncode == 0, output
    engine = create_engine(url)
    with engine.connect() as conn:
        assert migrations.current(conn) == migrations.head()
        assert conn.execute(text("SELECT count(*) FROM edition_content")).scalar() == 1
        extra = conn.execute(select(Game.extra).where(Game.id == GAME)).scalar()
        assert extra["pending"] == {REQUEST: released.pending_rent_request(REQUEST)}
    engine.dispose()


@contextmanager
def schema_lock_held(tmp_path, url):
    """Holds the lock a starting server takes before it reads the schema, as another server
    busy upgrading would."""
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", (migrations._PG_LOCK,))
            yield
            holder.execute("SELECT pg_advisory_unlock(%s)", (migrations._PG_LOCK,))
    else:
        holder = sqlite3.connect(tmp_path / "banco.sqlite3", isolation_level=None)
        try:
            holder.execute("PRAGMA journal_mode=WAL")  # as the release left its databases
            holder.execute("BEGIN IMMEDIATE")
            yield
            # A write committed while the other waited: had it read the schema before taking
            # the lock, its snapshot would now be stale and its upgrade refused.
            holder.execute("UPDATE banco_schema SET version = version")
            holder.execute("COMMIT")
        finally:
            holder.close()


def test_a_server_starting_while_another_upgrades_waits_for_it(tmp_path, url):
    released.released_game(url)
    with schema_lock_held(tmp_path, url):
        start = subprocess.Popen(
            [sys.executable, "-c", STARTER, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        assert start.stdout.readline() == b"imported\n"
        time.sleep(2)
        assert start.poll() is None, start.communicate()[0].decode()
        engine = create_engine(url)
        with engine.connect() as conn:
            assert "banco_schema" in inspect(conn).get_table_names()  # nothing done yet
        engine.dispose()
    output = start.communicate(timeout=120)[0].decode()
    assert start.returncode == 0, output
    engine = create_engine(url)
    with engine.connect() as conn:
        assert migrations.current(conn) == migrations.head()
    engine.dispose()
