"""Rejoin codes redeemed while the table keeps paying, against the real server.

Every write locks the game's row before any other row of the game (see companion/services/tx.py).
Redeeming a rejoin code once locked the player's row first and then waited for the game, while a
payment to that player held the game and waited for the player: PostgreSQL broke the deadlock by
failing one of them (a 500). Here phones redeem codes (the page a rejoin QR opens, with its form
and cookie, as a phone does) while other phones pay those very players through the API: nothing
may fail, every valid code must work, a used one must be refused, and the money must add up.
"""

from __future__ import annotations

import random
import re
import threading
from collections import Counter
from dataclasses import replace

import pytest
import requests

from companion import extension, services
from companion.web.ratelimit import RateLimiter

# On PostgreSQL too (python -m tests): the order rows are locked in (PostgreSQL's deadlocks).
pytestmark = pytest.mark.database

PAYERS = 4  # players 0-3 keep their phones and pay
REJOINED = 4  # players 4-7 move to a new phone again and again
PAYER_THREADS = 8
PAYMENTS_EACH = 30
ROUNDS = 6  # rejoin codes redeemed per rejoined player


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_rejoins_and_payments_at_once(live_server):
    server = live_server
    app = server.app
    # The limiter on guessed codes counts by address, and every phone here is 127.0.0.1.
    extension.init_app(app, replace(extension.banco(app), limiter=RateLimiter(limit=10**6, window_seconds=60)))
    names = [f"P{i}" for i in range(PAYERS + REJOINED)]
    created = requests.post(f"{server.url}/api/v1/games", json={"edition": "classic-it", "players": names}).json()
    game_id, banker = created["id"], created["banker_token"]
    players = created["players"]
    payers, rejoined = players[:PAYERS], players[PAYERS:]
    actions = f"{server.url}/api/v1/games/{game_id}/actions"
    assert requests.post(actions, json={"type": "start"}, headers={"Authorization": f"Bearer {banker}"}).ok

    statuses = {"payment": Counter(), "redeem": Counter(), "reuse": Counter(), "wallet": Counter()}
    problems = []
    lock = threading.Lock()
    start = threading.Barrier(PAYER_THREADS + REJOINED)

    def count(kind, status, detail=""):
        with lock:
            statuses[kind][status] += 1
            if status >= 500:
                problems.append(f"{kind}: {status} {detail[:200]}")

    def payer(i):
        rng = random.Random(i)
        me = payers[i % PAYERS]
        http = requests.Session()
        http.headers["Authorization"] = f"Bearer {me['token']}"
        start.wait()
        for _ in range(PAYMENTS_EACH):
            # Mostly to the players whose seats are moving: each payment updates their rows.
            to = rng.choice(rejoined) if rng.random() < 0.8 else rng.choice([p for p in payers if p is not me])
            r = http.post(actions, json={"type": "transfer", "to": to["id"], "amount": rng.randint(1, 60)})
            count("payment", r.status_code, r.text)

    def new_phone(i):
        player = rejoined[i]
        used = None
        start.wait()
        for _ in range(ROUNDS):
            with app.app_context():  # the banker shows a rejoin code
                secret = services.issue_rejoin(game_id, player["id"])
            phone = requests.Session()
            page = phone.get(f"{server.url}/r/{secret}")
            count("redeem", page.status_code, page.text)
            r = phone.post(f"{server.url}/r/{secret}", data={"csrf_token": csrf(page.text)}, allow_redirects=False)
            count("redeem", r.status_code, r.text)
            if r.status_code != 302 or not r.headers["Location"].endswith(f"/g/{game_id}/me"):
                with lock:
                    problems.append(f"a valid code for {player['name']} answered {r.status_code}")
                continue
            wallet = phone.get(f"{server.url}/g/{game_id}/me", allow_redirects=False)
            count("wallet", wallet.status_code, wallet.text)
            if wallet.status_code != 200 or player["name"] not in wallet.text:
                with lock:
                    problems.append(f"the new phone of {player['name']} is not signed in ({wallet.status_code})")
            if used is not None:  # a code works once: the one before is refused, not an error
                other = requests.Session()
                page = other.get(f"{server.url}/r/{used}")
                r = other.post(f"{server.url}/r/{used}", data={"csrf_token": csrf(page.text)}, allow_redirects=False)
                count("reuse", r.status_code, r.text)
            used = secret

    def guarded(work):
        def run(i):
            try:
                work(i)
            except Exception as error:  # an error inside the server's code called here, or a dropped connection
                with lock:
                    problems.append(f"{work.__name__} {i}: {error!r}"[:300])

        return run

    threads = [threading.Thread(target=guarded(payer), args=(i,)) for i in range(PAYER_THREADS)]
    threads += [threading.Thread(target=guarded(new_phone), args=(i,)) for i in range(REJOINED)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert not any(t.is_alive() for t in threads), "a phone is still waiting"

    assert problems == [], problems
    assert sum(statuses["payment"].values()) == PAYER_THREADS * PAYMENTS_EACH
    assert set(statuses["payment"]) <= {200, 409}, statuses  # 409: not enough cash
    assert statuses["redeem"] == Counter({200: REJOINED * ROUNDS, 302: REJOINED * ROUNDS}), statuses
    assert statuses["wallet"] == Counter({200: REJOINED * ROUNDS}), statuses
    assert statuses["reuse"] == Counter({403: REJOINED * (ROUNDS - 1)}), statuses

    with app.app_context():
        g = services.get_game(game_id)
        balances = services.journal_balances(g)
        assert sum(balances.values()) == 0
        for p in g.players:
            assert p.cash == balances.get(p.id, 0) and p.cash >= 0
        assert services.verify_game(g) == []
        kinds = Counter(e.kind for e in services.entries_since(g, 0, limit=10000))
        assert kinds["rejoin"] == REJOINED * ROUNDS and kinds["transfer"] == statuses["payment"][200]
        assert g.version == 2 + REJOINED * ROUNDS + statuses["payment"][200]
    # The first phones of the moved seats can no longer act; the payers' phones still can.
    for p in rejoined:
        r = requests.get(f"{server.url}/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {p['token']}"})
        assert r.status_code == 401
    r = requests.get(f"{server.url}/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {payers[0]['token']}"})
    assert r.status_code == 200
