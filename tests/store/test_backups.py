"""Backups of a SQLite database: ``banco backup`` copies it while the server writes, ``banco
restore`` puts a copy back (never while a server runs on it, never a file that is not a Banco
database whose games all verify), and the server keeps rolling copies of its own and one more
when it stops. On PostgreSQL both commands say how pg_dump and pg_restore do it."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from companion import backups, services
from companion.backups import copies, rolling
from companion.serve import create_server
from companion.store import db
from tests.api.test_concurrency import call, new_game
from tests.conftest import PG_URL, LiveServer, app_py, free_port, make_app, wait_for_app_py

# On PostgreSQL too (python -m tests): there the commands refuse, naming pg_dump and pg_restore.
pytestmark = pytest.mark.database
sqlite_only = pytest.mark.skipif(PG_URL is not None, reason="copies of a SQLite file; PostgreSQL has pg_dump")


def banco(app, *args):
    """``flask --app app banco ARGS`` on ``app``: (exit code, output)."""
    result = app.test_cli_runner().invoke(args=["banco", *map(str, args)])
    return result.exit_code, result.output


@pytest.fixture
def app(tmp_path):
    """An app of this test's own, on ``tmp_path / "banco.sqlite3"``: backups and restores name its
    file, and a restore replaces it, so the module's shared app would not do."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=False)
    yield app
    closed(app)


def games_in(path: Path) -> dict[str, int]:
    """Each game's version in the SQLite file at ``path``."""
    with sqlite3.connect(path) as connection:
        return dict(connection.execute("SELECT id, version FROM game").fetchall())


def verified(app) -> tuple[int, list]:
    with app.app_context():
        db.session.remove()
        return services.verify_all()


def closed(app) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


# --- a backup under load, restored ----------------------------------------------------------


@sqlite_only
def test_a_backup_taken_under_load_restores_to_a_game_whose_journal_verifies(tmp_path):
    app = make_app(tmp_path, BACKUP_DIR=str(tmp_path / "backups"))
    server = LiveServer(app).start()
    stop, answered = threading.Event(), []
    try:
        game = new_game(server, ["Anna", "Bruno", "Carla", "Dario"])
        players = game["players"]
        actions = f"{server.url}/api/v1/games/{game['id']}/actions"

        def phone(i):
            me, to = players[i % 4], players[(i + 1) % 4]
            while not stop.is_set():
                status, _ = call(actions, "POST", {"type": "transfer", "to": to["id"], "amount": 1}, me["token"])
                assert status == 200
                answered.append(i)

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        taken = []
        for n in range(3):
            while len(answered) < 40 * (n + 1):
                time.sleep(0.01)
            code, output = banco(app, "backup")  # into BACKUP_DIR, named by the hour
            assert code == 0, output
            taken.append(Path(output.rsplit(" to ", 1)[1].strip()))
        stop.set()
        for t in threads:
            t.join(30)
    finally:
        stop.set()
        server.stop()
    assert [p.parent for p in taken] == [tmp_path / "backups"] * 3
    assert all(p.name.startswith("banco-") and p.name.endswith(".sqlite3") for p in taken)
    assert all(p.stat().st_mode & 0o077 == 0 for p in taken)  # readable by this user alone
    versions = [games_in(p)[game["id"]] for p in taken]
    assert versions == sorted(versions) and versions[0] > 40  # each a later instant of the same game
    final = games_in(tmp_path / "banco.sqlite3")[game["id"]]
    assert final > versions[-1]

    # On another computer: a new, empty database takes the middle backup.
    (tmp_path / "other").mkdir()
    elsewhere = make_app(tmp_path / "other")
    code, output = banco(elsewhere, "restore", taken[1])
    assert code == 0, output
    assert f"Restored {taken[1]} into {tmp_path / 'other' / 'banco.sqlite3'}: 1 game checked, all balanced." in output
    assert "kept in" not in output  # an empty database is not kept
    assert verified(elsewhere) == (1, [])
    with elsewhere.app_context():
        restored = services.get_game(game["id"])
        assert restored.version == versions[1]
        assert sum(p.cash for p in restored.players) == 4 * 1500  # money neither made nor lost
    closed(elsewhere)

    # Here: the first backup put back over the database, the later state kept aside.
    code, output = banco(app, "restore", taken[0])
    assert code == 0, output
    kept = Path(output.rsplit("kept in ", 1)[1].strip().rstrip("."))
    assert kept.name.endswith("-before-restore.sqlite3") and kept.parent == tmp_path / "backups"
    assert games_in(kept)[game["id"]] == final
    assert verified(app) == (1, [])
    assert games_in(tmp_path / "banco.sqlite3")[game["id"]] == versions[0]
    closed(app)


# --- restore refuses ------------------------------------------------------------------------


@sqlite_only
def test_restore_is_refused_while_a_server_runs_on_the_database(tmp_path):
    app = make_app(tmp_path)
    code, output = banco(app, "backup", tmp_path / "before.sqlite3")
    assert code == 0, output
    closed(app)
    port = free_port()
    proc = app_py(port, f"sqlite:///{tmp_path / 'banco.sqlite3'}")
    try:
        wait_for_app_py(proc, port)
        server = type("Running", (), {"url": f"http://127.0.0.1:{port}"})()
        game = new_game(server, ["Anna", "Bruno"])
        code, output = banco(app, "restore", tmp_path / "before.sqlite3")
        assert code == 1
        assert (
            f"Nothing was restored: a Banco server is running on {tmp_path / 'banco.sqlite3'} (process {proc.pid}, serving since"
            in output
        )
        assert "Stop it (Ctrl+C where it runs), then restore again." in output
        assert game["id"] in games_in(tmp_path / "banco.sqlite3")  # nothing changed
    finally:
        proc.terminate()
        proc.wait(30)
    # Stopped: the restore goes ahead, and the game played meanwhile is kept aside.
    code, output = banco(app, "restore", tmp_path / "before.sqlite3")
    assert code == 0, output
    assert game["id"] not in games_in(tmp_path / "banco.sqlite3")
    assert "kept in" in output
    closed(app)


@sqlite_only
def test_a_second_server_on_the_same_sqlite_file_is_refused_naming_the_first(tmp_path):
    """Its money would stay right, but each server's pages would miss the other's moves."""
    first_port, second_port = free_port(), free_port()
    database = f"sqlite:///{tmp_path / 'banco.sqlite3'}"
    first = app_py(first_port, database)
    try:
        wait_for_app_py(first, first_port)
        second = app_py(second_port, database)
        output, _ = second.communicate(timeout=60)
        assert second.returncode == 1
        said = output.decode() if isinstance(output, bytes) else output
        assert (
            f"Banco cannot start: another Banco server is serving {tmp_path / 'banco.sqlite3'} (process {first.pid}, serving since"
            in said
        )
        assert f", at http://127.0.0.1:{first_port})" in said
        assert "Open that one on the phones: one server holds every table's game." in said
        assert first.poll() is None  # the first serves on
    finally:
        first.terminate()
        first.wait(30)


@sqlite_only
def test_no_server_starts_while_a_restore_runs(tmp_path):
    app = make_app(tmp_path)
    closed(app)
    restoring = backups.ServerLock(tmp_path / "banco.sqlite3")
    restoring.take()
    try:
        server = create_server(app, "127.0.0.1", free_port())
        with pytest.raises(backups.Locked) as refused:
            server.keeping.start()  # as app.py does before it says the bank is open
    finally:
        restoring.release()
    assert str(refused.value) == (
        f"a restore is under way on {tmp_path / 'banco.sqlite3'}: start the server once it is done."
    )
    server.keeping.start()  # the restore over: it starts
    server.keeping.stop()


def _tampered(source: Path, target: Path) -> Path:
    """A copy of ``source`` whose first payment's posting was changed by hand: it no longer balances."""
    shutil.copy(source, target)
    with sqlite3.connect(target) as connection:
        connection.execute("UPDATE posting SET amount = amount + 1 WHERE id = (SELECT max(id) FROM posting)")
    return target


@sqlite_only
def test_restore_refuses_what_is_not_a_banco_database_whose_games_verify(tmp_path, api, app):
    game = api.new_game(["Anna", "Bruno"]).start()
    game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 5})
    code, output = banco(app, "backup", tmp_path / "good.sqlite3")
    assert code == 0, output
    (tmp_path / "notes.txt").write_text("not a database at all, but long enough to be read as one" * 100)
    sqlite3.connect(tmp_path / "other.sqlite3").execute("CREATE TABLE recipes (name TEXT)").connection.close()
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes((tmp_path / "good.sqlite3").read_bytes()[:9000])
    refused = {
        tmp_path / "missing.sqlite3": f"There is no file {tmp_path / 'missing.sqlite3'}.",
        tmp_path / "notes.txt": "is not a Banco database (file is not a database)",
        tmp_path / "other.sqlite3": "is a SQLite database, but not Banco's: it has no games.",
        damaged: "Nothing was restored:",
        _tampered(tmp_path / "good.sqlite3", tmp_path / "forged.sqlite3"): "does not verify (2 problems)",
        tmp_path / "banco.sqlite3": "is the database itself: name a backup.",
    }
    before = games_in(tmp_path / "banco.sqlite3")
    for path, said in refused.items():
        code, output = banco(app, "restore", path)
        assert code == 1 and said in output, (path, output)
    assert "does not balance" in banco(app, "restore", tmp_path / "forged.sqlite3")[1]  # the problem named
    assert games_in(tmp_path / "banco.sqlite3") == before
    assert not list((tmp_path / "backups").glob("*before-restore*")) if (tmp_path / "backups").exists() else True
    assert verified(app) == (1, [])


@sqlite_only
def test_restore_says_in_one_sentence_why_a_look_alike_or_newer_file_is_refused_and_leaves_nothing(tmp_path, api, app):
    """Tables named like Banco's that are not, and a backup from a newer Banco: one sentence each,
    no traceback, the database untouched; and no restore, refused or done, leaves a file behind."""
    game = api.new_game(["Anna", "Bruno"]).start()
    game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 5})
    look_alike, newer = tmp_path / "look-alike.sqlite3", tmp_path / "newer.sqlite3"
    for path, revision in ((look_alike, "0006"), (newer, "9999_from_the_future")):
        with sqlite3.connect(path) as connection:
            connection.execute("CREATE TABLE game (id TEXT)")
            connection.execute("INSERT INTO game VALUES ('g1')")
            connection.execute("CREATE TABLE alembic_version (version_num TEXT)")
            connection.execute("INSERT INTO alembic_version VALUES (?)", (revision,))
        connection.close()
    before = games_in(tmp_path / "banco.sqlite3")
    code, output = banco(app, "restore", look_alike)
    assert code == 1 and "has tables named like Banco's, but they cannot be read as Banco's" in output, output
    assert "Traceback" not in output and len(output.strip().splitlines()) == 1
    code, output = banco(app, "restore", newer)
    assert code == 1 and "was saved by a newer Banco (its tables are at revision 9999_from_the_future" in output
    assert "Update Banco, then restore it." in output and ".restoring" not in output
    assert games_in(tmp_path / "banco.sqlite3") == before
    assert banco(app, "backup", tmp_path / "good.sqlite3")[0] == 0
    assert banco(app, "restore", tmp_path / "good.sqlite3")[0] == 0
    assert not [p.name for p in tmp_path.iterdir() if ".restoring" in p.name]


@sqlite_only
def test_a_backup_from_before_migrations_is_brought_up_to_date_as_it_is_restored(tmp_path, app):
    from tests.store import released

    old = tmp_path / "released.sqlite3"
    released.released_game(f"sqlite:///{old}")
    code, output = banco(app, "restore", old)
    assert code == 0, output
    assert verified(app) == (1, [])
    with app.app_context():
        assert services.get_game(released.GAME).version > 0


# --- backup refuses -------------------------------------------------------------------------


@sqlite_only
def test_a_backup_never_overwrites_and_says_why_it_cannot_be_taken(tmp_path, app, monkeypatch):
    (tmp_path / "taken.sqlite3").write_text("an earlier backup")
    code, output = banco(app, "backup", tmp_path / "taken.sqlite3")
    assert code == 1 and f"{tmp_path / 'taken.sqlite3'} exists already: name a new file, or a folder." in output
    assert (tmp_path / "taken.sqlite3").read_text() == "an earlier backup"
    code, output = banco(app, "backup", tmp_path / "no" / "such" / "folder.sqlite3")
    assert code == 1 and "does not exist" in output
    monkeypatch.setattr(copies.shutil, "disk_usage", lambda _: shutil._ntuple_diskusage(10**9, 10**9 - 4096, 4096))
    code, output = banco(app, "backup", tmp_path / "new.sqlite3")
    assert code == 1 and f"Nothing was backed up: too little room in {tmp_path}: 0.0 MB free" in output
    assert not (tmp_path / "new.sqlite3").exists() and not list(tmp_path.glob(".*partial"))


@pytest.mark.skipif(PG_URL is None, reason="what the commands say on PostgreSQL")
def test_on_postgresql_the_commands_name_pg_dump_and_pg_restore(app):
    code, output = banco(app, "backup")
    assert code == 1 and "This database is PostgreSQL" in output and "pg_dump --format=custom --file=" in output
    assert "password" not in output.lower() or "***" in output
    code, output = banco(app, "restore", __file__)
    assert code == 1 and "pg_restore --clean --if-exists --no-owner --dbname=" in output


# --- the server's own copies ----------------------------------------------------------------


def _payment(server, game):
    anna, bruno = game["players"][:2]
    status, body = call(
        f"{server.url}/api/v1/games/{game['id']}/actions",
        "POST",
        {"type": "transfer", "to": bruno["id"], "amount": 7},
        anna["token"],
    )
    assert status == 200, body
    return body["version"]


@sqlite_only
def test_the_server_backs_up_once_more_when_it_stops_and_not_when_nothing_changed(tmp_path):
    folder = tmp_path / "backups"
    app = make_app(tmp_path, BACKUP_DIR=str(folder), BACKUP_MINUTES=10)
    server = LiveServer(app).start()
    try:
        game = new_game(server, ["Anna", "Bruno"])
        version = _payment(server, game)
    finally:
        server.stop()
    (copy,) = backups.automatic_copies(tmp_path / "banco.sqlite3", folder)
    assert copy.name.startswith("banco-") and copy.name.endswith("-auto.sqlite3")
    assert games_in(copy)[game["id"]] == version  # the last payment, committed before the copy
    server = LiveServer(app, port=server.port).start()  # started and stopped, nothing changed
    server.stop()
    assert backups.automatic_copies(tmp_path / "banco.sqlite3", folder) == [copy]
    closed(app)


@sqlite_only
def test_a_copy_is_taken_when_something_was_committed_and_the_oldest_go(tmp_path):
    app = make_app(tmp_path)
    closed(app)
    database, folder = tmp_path / "banco.sqlite3", tmp_path / "backups"
    folder.mkdir()
    by_hand = copies.name_for(database, folder)
    copies.take(database, by_hand)
    keeping = rolling.Keeping(database, folder, minutes=0, kept=2)  # no thread: each turn by hand
    watch, writer = sqlite3.connect(database), sqlite3.connect(database)
    try:
        seen = rolling._data_version(watch)
        assert keeping._copy_if_changed(watch, seen) == seen and keeping.taken == []  # nothing committed
        for n in range(3):
            writer.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (f"probe{n}",))
            writer.commit()
            seen = keeping._copy_if_changed(watch, seen)
            assert len(keeping.taken) == n + 1
        assert keeping._copy_if_changed(watch, seen) == seen and len(keeping.taken) == 3
    finally:
        watch.close()
        writer.close()
    assert backups.automatic_copies(database, folder) == keeping.taken[-2:]  # the newest two kept
    assert by_hand.exists()  # a copy by hand is never removed
    assert games_in(keeping.taken[-1]) == {}
    with sqlite3.connect(keeping.taken[-1]) as last:
        assert last.execute("SELECT count(*) FROM alembic_version").fetchone() == (4,)


@sqlite_only
def test_a_copy_without_room_is_skipped_said_and_tried_again(tmp_path, monkeypatch, caplog):
    app = make_app(tmp_path)
    closed(app)
    database, folder = tmp_path / "banco.sqlite3", tmp_path / "backups"
    keeping = rolling.Keeping(database, folder, minutes=10, kept=24)
    watch = sqlite3.connect(database)
    try:
        seen = rolling._data_version(watch)
        with sqlite3.connect(database) as writer:
            writer.execute("INSERT INTO alembic_version (version_num) VALUES ('probe')")
        full = shutil._ntuple_diskusage(10**9, 10**9 - 4096, 4096)
        monkeypatch.setattr(copies.shutil, "disk_usage", lambda _: full)
        assert keeping._copy_if_changed(watch, seen) == seen and keeping.taken == []
        assert "Automatic backup skipped, tried again in 10 minutes: too little room in" in caplog.text
        monkeypatch.undo()
        assert keeping._copy_if_changed(watch, seen) != seen and len(keeping.taken) == 1  # room again
    finally:
        watch.close()


@sqlite_only
def test_the_server_copies_every_few_minutes_while_games_change(tmp_path):
    """The thread itself, every 0.3 s here: a commit is copied at its next turn, and stopping
    copies nothing more when nothing changed since."""
    app = make_app(tmp_path)
    closed(app)
    database, folder = tmp_path / "banco.sqlite3", tmp_path / "backups"
    keeping = rolling.Keeping(database, folder, minutes=0.005, kept=24)
    keeping.start()
    try:
        with sqlite3.connect(database) as writer:
            writer.execute("INSERT INTO alembic_version (version_num) VALUES ('probe')")
        deadline = time.monotonic() + 30
        while not keeping.taken:
            assert time.monotonic() < deadline, "no copy was taken"
            time.sleep(0.05)
    finally:
        keeping.stop()
    assert len(keeping.taken) == 1
    assert backups.automatic_copies(database, folder) == keeping.taken
