"""A database that cannot save (a full disk, a read-only file or disk) is answered 503
``storage_unavailable`` in the reader's words, by the API, the pages and the table screen's
stream; nothing of a refused write is kept, the journal verifies after, and the server will not
start on a database it cannot write, saying why.

A full disk is made two ways: always with SQLite's ``max_page_count`` (the database may not
grow: SQLite answers as on a full disk), and, where the test may mount one, with a small tmpfs
really filled up (skipped, saying why, where mounting is not allowed)."""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from companion import database, services
from companion.database import DatabaseUnwritable
from companion.extension import banco
from companion.services.faults import cannot_save, is_storage_fault
from companion.store import db
from tests.api.test_concurrency import call, new_game
from tests.api.test_live_layer import Stream, bearer, stream_path
from tests.conftest import PG_URL, LiveServer, app_py, free_port, make_app

# On PostgreSQL too (python -m tests): a database that refuses writes is told apart by its
# driver's own error (SQLSTATE there, SQLite's result code here), and a refused batch keeps nothing.
pytestmark = pytest.mark.database

CANNOT_SAVE_EN = "The bank's computer cannot save right now: nothing was changed."
CANNOT_SAVE_IT = "Il computer della banca non riesce a salvare adesso: non è cambiato niente."
BANNER_EN = "The bank's computer cannot save right now: nothing changes until it can"


def banner_shown(html: str) -> bool:
    """Whether the page shows that the bank cannot save (the banner is there, hidden, always)."""
    return re.search(r'id="cannot-save" role="alert"\s*>' + re.escape(BANNER_EN), html) is not None


sqlite_only = pytest.mark.skipif(PG_URL is not None, reason="a SQLite file's own limits (max_page_count, its disk)")


@contextmanager
def refusing_writes(app, pragma=None):
    """Every new connection of ``app``'s database refuses writes (SQLite: ``PRAGMA query_only``,
    or ``pragma`` given; PostgreSQL: read-only transactions), until the block ends."""

    def on_connect(dbapi_connection, _record):
        if db.engine.dialect.name == "sqlite":
            dbapi_connection.execute(pragma or "PRAGMA query_only = ON")
        else:
            dbapi_connection.execute("SET default_transaction_read_only = on")
            dbapi_connection.commit()

    with app.app_context():
        engine = db.engine
        db.session.remove()
        event.listen(engine, "connect", on_connect)
        engine.dispose()
    try:
        yield
    finally:
        with app.app_context():
            db.session.remove()
            event.remove(engine, "connect", on_connect)
            engine.dispose()


def _page_count(app) -> int:
    with app.app_context():
        return db.session.connection().exec_driver_sql("PRAGMA page_count").scalar()


def _verified(app) -> list:
    with app.app_context():
        db.session.remove()
        return services.verify_all()[1]


# --- the API --------------------------------------------------------------------------------


@sqlite_only
def test_a_full_database_answers_503_in_words_keeps_nothing_and_heals(app, api):
    """Payments go on until the database may not grow; that one is refused 503 in the
    reader's language, changes nothing, the journal verifies; once there is room, the next
    payment is saved and the pages stop saying the bank cannot save."""
    game = api.new_game(["Anna", "Bruno"]).start()
    with refusing_writes(app, f"PRAGMA max_page_count = {_page_count(app)}"):
        saved = 0
        while saved < 500:
            before = game.state()["version"]
            status, body = game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 1})
            if status != 200:
                break
            saved += 1
        assert status == 503, body
        assert body == {"error": {"code": "storage_unavailable", "message": CANNOT_SAVE_EN}}
        assert game.state()["version"] == before  # nothing of it was kept
        assert game.cash() == {"Anna": 1500 - saved, "Bruno": 1500 + saved}
        response = api.client.post(
            f"/api/v1/games/{game.id}/actions",
            json={"type": "transfer", "to": game.ids["Bruno"], "amount": 1},
            headers={"Authorization": f"Bearer {game.tokens['Anna']}", "Accept-Language": "it"},
        )
        assert response.status_code == 503
        assert response.get_json()["error"]["message"] == CANNOT_SAVE_IT
        assert banco(app).broker.cannot_save
        assert banner_shown(api.client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True))
        assert _verified(app) == []
    status, body = game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 1})
    assert status == 200, body
    assert not banco(app).broker.cannot_save
    assert not banner_shown(api.client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True))
    assert _verified(app) == []


def test_a_database_that_refuses_writes_answers_503_in_the_readers_language(app, api):
    game = api.new_game(["Anna", "Bruno"]).start()
    with refusing_writes(app):
        response = api.client.post(
            f"/api/v1/games/{game.id}/actions",
            json={"type": "transfer", "to": game.ids["Bruno"], "amount": 10},
            headers={"Authorization": f"Bearer {game.tokens['Anna']}", "Accept-Language": "it"},
        )
        assert response.status_code == 503
        assert response.get_json() == {"error": {"code": "storage_unavailable", "message": CANNOT_SAVE_IT}}
        # Writes outside the actions' door too: a new game, a new tournament.
        status, body = api.post("/api/v1/games", {"edition": "classic-it", "players": ["Carla", "Dario"]})
        assert (status, body["error"]["code"]) == (503, "storage_unavailable")
        assert body["error"]["message"] == CANNOT_SAVE_EN
        # Reads still answer.
        assert game.cash() == {"Anna": 1500, "Bruno": 1500}
    assert game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 10})[0] == 200
    assert _verified(app) == []


def test_a_batch_meeting_a_full_disk_keeps_none_of_its_actions(app, api, monkeypatch):
    """A batch whose one action meets the fault is not judged action by action: nothing of it
    is kept (SQLite may have rolled the whole transaction back), and the fault is raised for
    every action of the batch to be answered 503."""
    from companion.services import actions

    game = api.new_game(["Anna", "Bruno"]).start()
    before = game.state()["version"]
    real_run, calls = actions._run, []

    def run_with_fault(work, locked_game):
        calls.append(work)
        if len(calls) == 2:
            raise OperationalError("INSERT", {}, _sqlite(sqlite3.SQLITE_FULL))
        return real_run(work, locked_game)

    monkeypatch.setattr(actions, "_run", run_with_fault)
    payment = {"type": "transfer", "to": game.ids["Bruno"], "amount": 1}
    with app.app_context():
        works = [actions.prepare(game.id, None, dict(payment), game.tokens["Anna"]) for _ in range(3)]
        with pytest.raises(OperationalError):
            actions.run_batch(works)
    assert len(calls) == 2  # it stopped at the fault: no second pass, action by action
    assert game.state()["version"] == before
    assert _verified(app) == []


# --- the pages ------------------------------------------------------------------------------


def _table_with_a_phone(app):
    """A table opened from the home page (its banker's browser), Anna's phone seated, started."""
    banker = app.test_client()
    response = banker.post("/games", data={"edition": "classic-it", "name": ["Anna", "Bruno"]})
    assert response.status_code == 302, response.get_data(as_text=True)
    game_id = response.location.split("/")[2]
    with app.app_context():
        game = services.get_game(game_id)
        code, ids = game.join_code, {p.name: p.id for p in game.players}
    anna = app.test_client()
    assert anna.post(f"/j/{code}", data={"player": ids["Anna"]}).location.endswith("/me")
    assert banker.post(f"/g/{game_id}/table", data={"type": "start", "key": "start"}).status_code == 302
    return game_id, ids, anna


def _cash(app, game_id):
    with app.app_context():
        db.session.remove()
        return {p.name: p.cash for p in services.get_game(game_id).players}


def test_the_pages_say_it_in_words_not_a_generic_error(app):
    game_id, ids, anna = _table_with_a_phone(app)
    with refusing_writes(app):
        # A wallet's payment: the refusal on the wallet itself, as any refusal.
        response = anna.post(
            f"/g/{game_id}/me",
            data={"type": "transfer", "to": ids["Bruno"], "amount": "10", "key": "k1"},
            headers={"Accept-Language": "en"},
            follow_redirects=True,
        )
        page = response.get_data(as_text=True)
        assert response.status_code == 200
        assert "The bank&#39;s computer cannot save right now: nothing was changed." in page
        assert banner_shown(page)
        # A new table from the home page: the error page, 503, in the reader's words.
        response = app.test_client().post(
            "/games", data={"edition": "classic-it", "name": ["Carla", "Dario"]}, headers={"Accept-Language": "it"}
        )
        assert response.status_code == 503
        said = "Il computer della banca non riesce a salvare adesso: non è cambiato niente."
        assert said in response.get_data(as_text=True)
        # The table screen (no sign-in) shows the banner too.
        screen = app.test_client().get(f"/g/{game_id}/screen", headers={"Accept-Language": "en"})
        assert banner_shown(screen.get_data(as_text=True))
    assert _cash(app, game_id) == {"Anna": 1500, "Bruno": 1500}
    assert _verified(app) == []


# --- the table screen's stream, and a disk really full --------------------------------------


@contextmanager
def small_tmpfs(path: Path, size: str):
    """A tmpfs of ``size`` mounted at ``path`` for the block; the test is skipped, saying why,
    where this system does not let it mount one."""
    path.mkdir()
    try:
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], check=True, capture_output=True
        )
    except (OSError, subprocess.CalledProcessError) as error:
        reason = getattr(error, "stderr", b"") or str(error)
        pytest.skip(f"cannot mount a tmpfs here ({reason!r}); the full disk is made with max_page_count instead")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True)


def _fill(folder: Path) -> Path:
    """Takes every byte left on ``folder``'s disk; returns the file holding them."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC
    return filler


@sqlite_only
def test_a_full_disk_is_answered_503_and_the_table_screen_hears_of_it(tmp_path):
    with small_tmpfs(tmp_path / "disk", "4m") as disk:
        app = make_app(disk)  # its database: disk/banco.sqlite3
        assert app.config["DATABASE_FILE"] == disk / "banco.sqlite3"
        server = LiveServer(app).start()
        try:
            game = new_game(server, ["Anna", "Bruno"])
            anna, bruno = game["players"][:2]
            actions = f"{server.url}/api/v1/games/{game['id']}/actions"
            screen = Stream(server.port, stream_path(game), bearer(game))
            screen.until(b"id: ")
            filler = _fill(disk)
            answers = [
                call(actions, "POST", {"type": "transfer", "to": bruno["id"], "amount": 1}, anna["token"])
                for _ in range(20)
            ]
            refused = [body for status, body in answers if status == 503]
            assert refused and all(status in (200, 503) for status, _ in answers), answers
            assert refused[0] == {"error": {"code": "storage_unavailable", "message": CANNOT_SAVE_EN}}
            screen.until(b'event: storage\ndata: {"cannot_save": true}\n\n')
            saved = sum(1 for status, _ in answers if status == 200)
            status, state = call(f"{server.url}/api/v1/games/{game['id']}", token=game["banker_token"])
            assert {p["name"]: p["cash"] for p in state["players"]} == {"Anna": 1500 - saved, "Bruno": 1500 + saved}
            filler.unlink()  # room again
            status, body = call(actions, "POST", {"type": "transfer", "to": bruno["id"], "amount": 1}, anna["token"])
            assert status == 200, body
            screen.until(b'event: storage\ndata: {"cannot_save": false}\n\n')
            screen.close()
        finally:
            server.stop()
        assert _verified(app) == []
        with app.app_context():
            db.engine.dispose()
        with sqlite3.connect(disk / "banco.sqlite3") as check:
            assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)


# --- refusing to start ----------------------------------------------------------------------


def _start(url: str, **settings) -> tuple[int, str]:
    proc = app_py(free_port(), url, **settings)
    try:
        output, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    return proc.returncode, output.decode()


@sqlite_only
def test_the_server_will_not_start_on_a_database_opened_read_only(tmp_path):
    make_app(tmp_path)  # the database, made
    code, output = _start(f"sqlite:///file:{tmp_path / 'banco.sqlite3'}?mode=ro&uri=true")
    assert code == 1
    assert "Banco cannot start: DATABASE_URL opens the database" in output and "read-only (mode=ro)" in output
    assert "Banco is open" not in output


def _refused_at_start(url: str) -> str:
    """What refusing to serve the database at ``url`` says (as ``app.py`` checks it, in this
    process: making the app, then the write it tries before serving)."""
    with pytest.raises(DatabaseUnwritable) as refused:
        app = make_app(Path("unused"), fresh=False, SQLALCHEMY_DATABASE_URI=url)
        with app.app_context():
            try:
                database.check_writable()
            finally:
                db.engine.dispose()
    return str(refused.value)


def test_a_database_that_refuses_writes_is_refused_at_start(app):
    """The write tried before serving (``database.check_writable``) finds what reads never
    would: SQLite's ``query_only``, a PostgreSQL standby or read-only database."""
    with refusing_writes(app), app.app_context(), pytest.raises(DatabaseUnwritable) as refused:
        database.check_writable()
    if PG_URL:
        assert "refuses to save (" in str(refused.value) and "a read-only standby" in str(refused.value)
    else:
        assert "cannot be written (attempt to write a readonly database)" in str(refused.value)
    with app.app_context():
        database.check_writable()  # writable again: nothing left behind
        assert db.session.connection().exec_driver_sql("SELECT count(*) FROM alembic_version").scalar() == 1


@sqlite_only
def test_a_read_only_disk_is_refused_at_start_saying_so(tmp_path):
    with small_tmpfs(tmp_path / "disk", "4m") as disk:
        app = make_app(disk)
        with app.app_context():
            db.engine.dispose()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True, capture_output=True)
        said = _refused_at_start(f"sqlite:///{disk / 'banco.sqlite3'}")
    assert said.startswith(f"the disk holding {disk} is mounted read-only. Make it writable, or set DATABASE_URL")


@sqlite_only
def test_a_full_disk_is_refused_at_start_saying_so(tmp_path):
    with small_tmpfs(tmp_path / "disk", "4m") as disk:
        app = make_app(disk)
        with app.app_context():
            db.engine.dispose()
        _fill(disk)
        said = _refused_at_start(f"sqlite:///{disk / 'banco.sqlite3'}")
    assert said.startswith(f"the disk holding {disk} is full (0 KB free). Free some space")


@sqlite_only
@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write any file: permissions stop no one")
def test_a_read_only_file_is_refused_at_start_saying_so(tmp_path):
    app = make_app(tmp_path)
    with app.app_context():
        db.engine.dispose()
    (tmp_path / "banco.sqlite3").chmod(0o444)
    assert f"the file {tmp_path / 'banco.sqlite3'} is read-only" in _refused_at_start(
        f"sqlite:///{tmp_path / 'banco.sqlite3'}"
    )


# --- telling the faults apart ---------------------------------------------------------------


class _PsycopgLike(Exception):
    def __init__(self, sqlstate):
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def _sqlite(code: int) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("said")
    error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize(
    "error, fault",
    [
        (_sqlite(sqlite3.SQLITE_FULL), True),
        (_sqlite(sqlite3.SQLITE_READONLY), True),
        (_sqlite(sqlite3.SQLITE_IOERR_WRITE), True),  # an extended code: its low byte is IOERR
        (_sqlite(sqlite3.SQLITE_CANTOPEN), True),
        (_sqlite(sqlite3.SQLITE_BUSY), False),  # another writer, not a disk
        (_sqlite(sqlite3.SQLITE_CONSTRAINT_UNIQUE), False),
        (OperationalError("UPDATE", {}, _sqlite(sqlite3.SQLITE_FULL)), True),  # as SQLAlchemy wraps it
        (_PsycopgLike("53100"), True),  # disk_full
        (_PsycopgLike("58030"), True),  # io_error
        (_PsycopgLike("25006"), True),  # read_only_sql_transaction
        (_PsycopgLike("40P01"), False),  # a deadlock
        (OSError(errno.ENOSPC, "No space left on device"), True),
        (OSError(errno.EROFS, "Read-only file system"), True),
        (OSError("disk full"), False),  # no errno: not told apart
        (ValueError("x"), False),
    ],
)
def test_a_fault_is_told_by_the_drivers_code_not_its_words(error, fault):
    assert is_storage_fault(error) is fault
    assert (cannot_save(error) is not None) is fault


def test_a_fault_hidden_behind_a_savepoint_that_could_not_roll_back_is_found():
    """SQLite rolls the whole transaction back on a full disk; the savepoint's own rollback then
    fails ("no such savepoint") while handling it: the full disk is what is answered."""
    try:
        try:
            raise _sqlite(sqlite3.SQLITE_FULL)
        except sqlite3.Error:
            raise _sqlite(sqlite3.SQLITE_ERROR) from None
    except sqlite3.Error as raised:
        assert raised.__cause__ is None and raised.__context__ is not None
        assert is_storage_fault(raised)


def test_the_openapi_document_says_every_write_may_answer_503(api):
    status, described = api.get("/api/openapi.json")
    assert status == 200
    writes = [op for ops in described["paths"].values() for method, op in ops.items() if method == "post"]
    assert writes and all("storage_unavailable" in op["responses"]["503"]["description"] for op in writes)
    (stream,) = [ops["get"] for path, ops in described["paths"].items() if path.endswith("/stream")]
    schema = stream["responses"]["200"]["content"]["text/event-stream"]["schema"]
    assert schema["properties"]["event"] == {"enum": ["version", "storage"]}


def test_a_key_that_cannot_be_kept_is_refused_at_start_in_words(tmp_path):
    from companion import config

    (tmp_path / "instance").write_text("a file where the folder should be")
    with pytest.raises(config.BadSetting) as refused:
        config._secret_key(tmp_path / "instance")
    assert str(refused.value).startswith(f"SECRET_KEY is not set, and the key Banco keeps in {tmp_path}")
    assert str(refused.value).endswith("Make the folder writable, or set SECRET_KEY.")
