"""The write path: actions committed in batches (group commit) by the app's one writer, each in
a savepoint of its own, each answered only after the commit; idempotency keys stored without a
read; and a server killed with ``kill -9`` in the middle of a rush loses nothing it answered."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import event

from companion import services
from companion.core.errors import RuleViolation
from companion.services import actions
from companion.services.actions import _Action, run_batch
from companion.services.writer import Waiting, Writer
from companion.store import db
from tests.conftest import act, database_url, free_port, wait_for_app_py

# On PostgreSQL too (python -m tests): batches in savepoints, unique keys, and a commit surviving kill -9.
pytestmark = pytest.mark.database

ROOT = Path(__file__).resolve().parent.parent.parent


def _work(game, token, body):
    key = body.get("key")
    return _Action(game.id, None, body, token, body["type"], key, actions.fingerprint(body) if key else None)


def _entries(app, game_id):
    with app.app_context():
        game = services.get_game(game_id)
        return game.version, [(e.version, e.kind) for e in services.entries_since(game, 0, limit=1000)]


def _verified(app, game_id):
    with app.app_context():
        return services.verify_game(services.get_game(game_id))


def _with_commit_hook(app, hook, calls) -> None:
    """Runs each (function, args) of ``calls`` in a thread of its own at once, while ``hook``
    runs at every commit of the app's database."""
    with app.app_context():
        event.listen(db.engine, "commit", hook)
        try:
            threads = [threading.Thread(target=function, args=args) for function, args in calls]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
        finally:
            event.remove(db.engine, "commit", hook)


def test_a_refused_action_in_a_batch_leaves_no_trace_and_the_others_stand(app, api):
    game = api.new_game(["Anna", "Bruno", "Carla"]).start()
    before, _ = _entries(app, game.id)
    batch = [
        _work(game, game.tokens["Anna"], {"type": "transfer", "to": game.ids["Bruno"], "amount": 100}),
        _work(game, game.tokens["Bruno"], {"type": "transfer", "to": game.ids["Carla"], "amount": 99999}),
        _work(game, "not a token", {"type": "transfer", "to": game.ids["Anna"], "amount": 5}),
        _work(game, game.tokens["Carla"], {"type": "transfer", "to": game.ids["Anna"], "amount": 30}),
    ]
    with app.app_context():
        run_batch(batch)
    first, short, stranger, last = batch
    assert first.error is None and last.error is None
    assert (first.answer["version"], last.answer["version"]) == (before + 1, before + 2)
    assert isinstance(short.error, RuleViolation) and short.error.code == "insufficient_cash"
    assert short.answer is None and stranger.error.code == "invalid_token"
    version, entries = _entries(app, game.id)
    assert version == before + 2 and entries[-2:] == [(before + 1, "transfer"), (before + 2, "transfer")]
    assert game.cash() == {"Anna": 1500 - 100 + 30, "Bruno": 1600, "Carla": 1500 - 30}
    assert _verified(app, game.id) == []


def test_a_batch_of_two_games_keeps_each_games_order_of_arrival(app, api):
    one, two = api.new_game(["Anna", "Bruno"]).start(), api.new_game(["Carla", "Dario"]).start()
    batch = []
    for amount in (1, 2, 3):
        batch.append(_work(two, two.tokens["Carla"], {"type": "transfer", "to": two.ids["Dario"], "amount": amount}))
        batch.append(_work(one, one.tokens["Anna"], {"type": "transfer", "to": one.ids["Bruno"], "amount": amount}))
    with app.app_context():
        run_batch(batch)
    for game in (one, two):
        mine = [w.answer for w in batch if w.game_id == game.id]
        versions = [a["version"] for a in mine]
        assert versions == sorted(versions) and len(set(versions)) == 3
        assert [a["result"]["cash"] for a in mine] == [1499, 1497, 1494]  # paid 1, then 2, then 3
        assert _verified(app, game.id) == []


def test_a_key_repeated_inside_one_batch_pays_once_and_both_get_the_first_answer(app, api):
    game = api.new_game(["Anna", "Bruno"]).start()
    body = {"type": "transfer", "to": game.ids["Bruno"], "amount": 70, "key": "tap-1"}
    batch = [_work(game, game.tokens["Anna"], body), _work(game, game.tokens["Anna"], dict(body))]
    with app.app_context():
        run_batch(batch)
    assert batch[0].error is None and batch[1].error is None
    assert batch[0].answer == batch[1].answer
    assert game.cash() == {"Anna": 1430, "Bruno": 1570}
    assert _verified(app, game.id) == []


def test_an_undo_in_the_same_batch_reverses_the_action_written_just_before_it(app, api):
    game = api.new_game(["Anna", "Bruno"]).start()
    batch = [
        _work(game, game.tokens["Anna"], {"type": "transfer", "to": game.ids["Bruno"], "amount": 100}),
        _work(game, game.banker, {"type": "undo"}),
        _work(game, game.tokens["Bruno"], {"type": "transfer", "to": game.ids["Anna"], "amount": 5}),
    ]
    with app.app_context():
        run_batch(batch)
    assert [w.error for w in batch] == [None, None, None]
    paid, undone, _ = (w.answer["version"] for w in batch)
    assert game.cash() == {"Anna": 1505, "Bruno": 1495}
    _status, events = api.get(f"/api/v1/games/{game.id}/events?since={paid - 1}", game.banker)
    assert [(e["version"], e["type"], e["reversed"], e["reverses"]) for e in events["events"]] == [
        (paid, "transfer", True, None),
        (undone, "undo", False, paid),
        (undone + 1, "transfer", False, None),
    ]
    assert _verified(app, game.id) == []


def test_a_repeated_key_answers_the_first_answer_even_when_the_rules_would_now_refuse(api):
    game = api.new_game(["Anna", "Bruno"]).start()
    body = {"type": "transfer", "to": game.ids["Bruno"], "amount": 1500, "key": "all-in"}
    first = game.act("Anna", body)
    assert first[0] == 200
    again = game.act("Anna", body)  # Anna has nothing left: a new transfer would be refused
    assert again == first
    assert game.cash() == {"Anna": 0, "Bruno": 3000}
    status, body = game.act("Anna", {**body, "amount": 1})
    assert status == 409 and body["error"]["code"] == "key_reused"
    # A refusal is not remembered: the same key, corrected, is judged afresh.
    refused = game.act("Bruno", {"type": "transfer", "to": game.ids["Anna"], "amount": 5000, "key": "fix"})
    assert refused[0] == 409
    assert game.act("Bruno", {"type": "transfer", "to": game.ids["Anna"], "amount": 50, "key": "fix"})[0] == 200


def test_each_action_is_answered_only_after_the_commit_that_holds_it(app, api):
    """Eight phones at once: the commits are held back a little so batches form; every answer
    comes after a commit of its version, and fewer commits than actions were needed."""
    game = api.new_game(["Anna", "Bruno", "Carla", "Dario"]).start()
    log, lock = [], threading.Lock()
    barrier = threading.Barrier(8)

    def on_commit(connection):
        version = connection.exec_driver_sql(f"SELECT version FROM game WHERE id = '{game.id}'").scalar()
        threading.Event().wait(0.05)  # a slow disk: the others queue meanwhile
        with lock:
            log.append(("commit", version))

    def phone(i):
        me, to = game.players[i % 4], game.players[(i + 1) % 4]
        barrier.wait()
        for _ in range(5):
            with app.app_context():
                answer = act(game.id, None, {"type": "transfer", "to": to["id"], "amount": 1}, token=me["token"])
            with lock:
                log.append(("answer", answer["version"]))

    _with_commit_hook(app, on_commit, [(phone, (i,)) for i in range(8)])
    answers = [(n, v) for n, (what, v) in enumerate(log) if what == "answer"]
    commits = [(n, v) for n, (what, v) in enumerate(log) if what == "commit"]
    assert len(answers) == 40
    for n, version in answers:
        assert any(m < n and committed >= version for m, committed in commits), (version, log)
    assert len(commits) < len(answers)  # batches did form
    assert _verified(app, game.id) == []


def test_a_commit_that_fails_answers_every_action_of_its_batch_with_the_failure(app, api):
    game = api.new_game(["Anna", "Bruno"]).start()
    before_cash, (before, _) = game.cash(), _entries(app, game.id)

    def full_disk(connection):
        raise OSError("disk full")

    failures = []

    def phone(name, to):
        with app.app_context():
            try:
                act(game.id, None, {"type": "transfer", "to": game.ids[to], "amount": 10}, token=game.tokens[name])
            except OSError:
                failures.append(name)

    _with_commit_hook(app, full_disk, [(phone, ("Anna", "Bruno")), (phone, ("Bruno", "Anna"))])
    assert sorted(failures) == ["Anna", "Bruno"]
    assert game.cash() == before_cash and _entries(app, game.id)[0] == before


def test_a_batch_that_fails_as_a_whole_runs_once_more_then_fails_each_of_its_actions():
    """The writer alone: while one batch runs, the others wait; they form the next batch; when
    that batch fails as a whole, it runs once more, and failing again, each of its actions gets
    the failure. Then the writer goes on."""
    running, release = threading.Event(), threading.Event()
    batches = []

    def run_batch(batch):
        batches.append(len(batch))
        if len(batches) == 1:
            running.set()
            release.wait(10)
            for work in batch:
                work.answer = "first"
            return
        if len(batches) in (2, 3):
            raise OSError("disk full")
        for work in batch:
            work.answer = "after"

    writes = Writer(run_batch)
    outcomes = {}

    def submit(name):
        work = Waiting()
        writes.submit(work)
        if isinstance(work.error, OSError):
            outcomes[name] = "failed"
        else:
            assert work.error is None, work.error
            outcomes[name] = work.answer

    first = threading.Thread(target=submit, args=("one",))
    first.start()
    assert running.wait(10)
    others = [threading.Thread(target=submit, args=(name,)) for name in ("two", "three")]
    for t in others:
        t.start()
    while len(writes._queue) < 2:
        threading.Event().wait(0.01)
    release.set()
    for t in [first, *others]:
        t.join(10)
    submit("four")
    writes.stop()
    assert batches == [1, 2, 2, 1]
    assert outcomes == {"one": "first", "two": "failed", "three": "failed", "four": "after"}


# --- kill -9 in the middle of a rush ---------------------------------------------------------


def _call(port, path, body, token=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kill -9 is a POSIX signal")
def test_kill_9_loses_nothing_that_was_answered(tmp_path):
    url = database_url(tmp_path)
    port = free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "SECRET_KEY": "x",
        "BANCO_THREADS": "16",
        "DATABASE_URL": url,
        "BANCO_PUBLIC_URL": f"http://127.0.0.1:{port}",
    }
    if url.startswith("postgresql"):
        from tests.conftest import empty_database

        empty_database(url)
    proc = subprocess.Popen(
        [sys.executable, "app.py"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    answered, lock, stop = [], threading.Lock(), threading.Event()
    try:
        wait_for_app_py(proc, port)
        game = _call(port, "/api/v1/games", {"edition": "classic-it", "players": ["A", "B", "C", "D"]})
        _call(port, f"/api/v1/games/{game['id']}/actions", {"type": "start"}, game["banker_token"])
        players = game["players"]

        def phone(i):
            me, to = players[i % 4], players[(i + 1) % 4]
            while not stop.is_set():
                try:
                    answer = _call(
                        port,
                        f"/api/v1/games/{game['id']}/actions",
                        {"type": "transfer", "to": to["id"], "amount": 1, "key": os.urandom(8).hex()},
                        me["token"],
                    )
                except (OSError, http.client.HTTPException):
                    return  # the server is gone (perhaps in the middle of this answer: not counted)
                with lock:
                    answered.append((me["id"], answer["version"], answer["result"]["cash"]))

        threads = [threading.Thread(target=phone, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        deadline = threading.Event()
        while len(answered) < 60 and not deadline.wait(0.02):
            pass
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        stop.set()
        for t in threads:
            t.join(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert len(answered) >= 60
    from tests.conftest import make_app

    app = make_app(tmp_path, fresh=False)
    with app.app_context():
        stored = services.get_game(game["id"])
        entries = {e.version: e for e in services.entries_since(stored, 0, limit=100000)}
        for player, version, _cash in answered:
            assert version in entries and entries[version].actor == player, version
        assert services.verify_game(stored) == []


def test_ids_use_only_their_alphabet_every_letter_of_it_and_are_not_repeated():
    from companion.services.games import ID_ALPHABET, JOIN_ALPHABET, random_id

    ids = [random_id() for _ in range(4000)]
    assert len(set(ids)) == len(ids) and all(len(i) == 8 for i in ids)
    assert set("".join(ids)) == set(ID_ALPHABET)  # 32,000 letters: each of the 32 appears
    codes = [random_id(JOIN_ALPHABET, 6) for _ in range(2000)]
    assert set("".join(codes)) == set(JOIN_ALPHABET)
    assert set("".join(random_id("abc", 5) for _ in range(200))) == set("abc")  # not a power of two
