"""Many phones acting at the same instant against the real server: no update is lost, no
money is created, and a key sent twice at once still pays once."""

from __future__ import annotations

import json
import random
import threading
import urllib.request
from collections import Counter

import pytest

from companion import services

# On PostgreSQL too (python -m tests): simultaneous writes serialised by each database's lock.
pytestmark = pytest.mark.database


def call(url, method="GET", body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def new_game(server, players):
    status, game = call(f"{server.url}/api/v1/games", "POST", {"edition": "classic-it", "players": players})
    assert status == 201
    assert (
        call(f"{server.url}/api/v1/games/{game['id']}/actions", "POST", {"type": "start"}, game["banker_token"])[0]
        == 200
    )
    return game


def run_threads(count, target):
    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)


def test_simultaneous_transfers_conserve_money(live_server):
    game = new_game(live_server, ["Anna", "Bruno", "Carla", "Dario"])
    players = game["players"]
    actions = f"{live_server.url}/api/v1/games/{game['id']}/actions"
    outcomes = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def phone(i):
        rng = random.Random(i)
        me = players[i % 4]
        barrier.wait()
        for _ in range(25):
            to = rng.choice([p for p in players if p is not me] + [None])
            body = {"type": "transfer", "to": to["id"] if to else "bank", "amount": rng.randint(1, 400)}
            if rng.random() < 0.2:
                body = {"type": "pass_go"}
            status, _ = call(actions, "POST", body, me["token"])
            with lock:
                outcomes[status] += 1

    run_threads(8, phone)
    assert sum(outcomes.values()) == 200
    assert set(outcomes) <= {200, 409}, outcomes  # 409: not enough cash, never an error
    with live_server.app.app_context():
        g = services.get_game(game["id"])
        balances = services.journal_balances(g)
        assert sum(balances.values()) == 0
        for p in g.players:
            assert p.cash == balances[p.id] and p.cash >= 0
        assert g.version == 2 + outcomes[200]
        versions = [e.version for e in services.entries_since(g, 0, limit=10000)]
        assert versions == list(range(1, g.version + 1))


def test_the_same_key_sent_at_once_pays_once(live_server):
    game = new_game(live_server, ["Anna", "Bruno"])
    anna, bruno = game["players"]
    actions = f"{live_server.url}/api/v1/games/{game['id']}/actions"
    barrier = threading.Barrier(6)
    answers = []

    def tap(i):
        barrier.wait()
        answers.append(
            call(
                actions, "POST", {"type": "transfer", "to": bruno["id"], "amount": 100, "key": "one-tap"}, anna["token"]
            )
        )

    run_threads(6, tap)
    assert len(answers) == 6 and all(a == answers[0] for a in answers) and answers[0][0] == 200
    _status, state = call(f"{live_server.url}/api/v1/games/{game['id']}", token=game["banker_token"])
    assert {p["name"]: p["cash"] for p in state["players"]} == {"Anna": 1400, "Bruno": 1600}


def test_games_opened_at_once_on_a_new_database(live_server):
    """The first game of an edition stores the edition's content; two opened at the same
    instant both store it (once answered 500 on PostgreSQL: a duplicate row)."""
    answers = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(12)

    def host(i):
        barrier.wait()
        status, _ = call(
            f"{live_server.url}/api/v1/games",
            "POST",
            {"edition": "campionato-2015" if i % 2 else "classic-it", "players": ["Anna", "Bruno"]},
        )
        with lock:
            answers[status] += 1

    run_threads(12, host)
    assert answers == Counter({201: 12})
    with live_server.app.app_context():
        checked, found = services.verify_all()
        assert checked == 12 and found == []
