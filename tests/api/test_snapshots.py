"""A game's state is read from one snapshot, under write load, against the real server.

``GET /api/v1/games/{id}`` builds its answer in several SELECTs (the game's row, its players,
its deeds). On PostgreSQL's default isolation each statement sees the latest commit, so a
payment landing between them gave cash from a later version than the ``version`` beside it.
Here phones keep paying while others read: for every read, each player's cash must equal that
player's journal summed up to the version the read returned.
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict

import pytest
import requests
from sqlalchemy import select

from companion.store import Entry, Posting, db

# On PostgreSQL too (python -m tests): each database's isolation: one snapshot per read.
pytestmark = pytest.mark.database

WRITERS = 3
PAYMENTS_EACH = 40
READERS = 6


def balances_by_version(app, game_id) -> list[dict[str, int]]:
    """Each account's balance after every version of the game, from the journal itself."""
    with app.app_context():
        rows = db.session.execute(
            select(Entry.version, Posting.account, Posting.amount)
            .join(Posting, Posting.entry_id == Entry.id)
            .where(Entry.game_id == game_id)
            .order_by(Entry.version)
        ).all()
        last = db.session.execute(
            select(Entry.version).where(Entry.game_id == game_id).order_by(Entry.version.desc()).limit(1)
        ).scalar_one()
    moves = defaultdict(list)
    for version, account, amount in rows:
        moves[version].append((account, amount))
    running: dict[str, int] = defaultdict(int)
    after = []
    for version in range(last + 1):
        for account, amount in moves.get(version, ()):
            running[account] += amount
        after.append(dict(running))
    return after


def test_the_state_read_under_load_matches_the_journal_at_its_version(live_server):
    server = live_server
    names = ["Anna", "Bruno", "Carla", "Dario"]
    created = requests.post(f"{server.url}/api/v1/games", json={"edition": "classic-it", "players": names}).json()
    game_id, banker, players = created["id"], created["banker_token"], created["players"]
    state_url = f"{server.url}/api/v1/games/{game_id}"
    actions = f"{state_url}/actions"
    assert requests.post(actions, json={"type": "start"}, headers={"Authorization": f"Bearer {banker}"}).ok

    reads: list[tuple[int, dict[str, int]]] = []
    errors: list[str] = []
    lock = threading.Lock()
    writing = threading.Event()
    writing.set()
    writers_left = [WRITERS]

    def writer(i):
        rng = random.Random(i)
        http = requests.Session()
        try:
            for n in range(PAYMENTS_EACH):
                me = players[(i + n) % len(players)]
                to = rng.choice([p["id"] for p in players if p is not me] + ["bank"])
                body = (
                    {"type": "pass_go"}
                    if rng.random() < 0.15
                    else {"type": "transfer", "to": to, "amount": rng.randint(1, 150)}
                )
                r = http.post(actions, json=body, headers={"Authorization": f"Bearer {me['token']}"})
                if r.status_code not in (200, 409):
                    with lock:
                        errors.append(f"write {r.status_code}: {r.text[:200]}")
        finally:
            with lock:
                writers_left[0] -= 1
                if writers_left[0] == 0:
                    writing.clear()

    def reader(i):
        http = requests.Session()
        http.headers["Authorization"] = f"Bearer {banker}"
        while writing.is_set():
            r = http.get(state_url)
            if r.status_code != 200:
                with lock:
                    errors.append(f"read {r.status_code}: {r.text[:200]}")
                continue
            body = r.json()
            with lock:
                reads.append((body["version"], {p["id"]: p["cash"] for p in body["players"]}))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    threads += [threading.Thread(target=reader, args=(i,)) for i in range(READERS)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert not any(t.is_alive() for t in threads)
    assert errors == []

    journal = balances_by_version(server.app, game_id)
    torn = [
        (version, cash) for version, cash in reads if any(cash[pid] != journal[version].get(pid, 0) for pid in cash)
    ]
    versions = {version for version, _ in reads}
    # The load was real: many reads, taken while the game moved through many versions.
    assert len(reads) >= 100 and len(versions) >= 30, (len(reads), len(versions), time.monotonic() - began)
    assert torn == [], f"{len(torn)} of {len(reads)} reads show cash from another version than theirs"
