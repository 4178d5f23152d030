#!/usr/bin/env python3
"""CPU of one action, in-process: the Flask app (no server) on a temporary SQLite file, one
thread paying through the test client, the CPU time per action printed (and, with
``--profile``, cProfile's heaviest functions). The figure leaves out the HTTP server; with one
thread every batch of the group commit holds one action, so it is the cost of an action alone.

``--batch N`` measures instead what the server does with an action, in this thread: taken at the
app's door (``companion.services.door``), run N at a time in one transaction in the writer's
surroundings (``writer_context``: the session that keeps its games), and answered, with no
Flask request cycle and no HTTP server.

The game is read in English (a page has caught up on it), so each action makes its news, as
at a table with its pages open; ``--unread`` leaves it unread, and its actions make none.

    /work/venv/bin/python bench/bench_action_cpu.py
    /work/venv/bin/python bench/bench_action_cpu.py --batch 4
    /work/venv/bin/python bench/bench_action_cpu.py --actions 2000 --profile cumulative
    /work/venv/bin/python bench/bench_action_cpu.py --batch 1 --unread
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import create_app, services
from companion.services import door as doors


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--profile", choices=("cumulative", "tottime"), default=None)
    parser.add_argument(
        "--batch",
        type=int,
        default=None,
        help="run the requests N at a time as the server's writer does (no Flask request cycle)",
    )
    parser.add_argument(
        "--unread", action="store_true", help="no page reads the game: its actions make no news (docs/live.md)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="banco-cpu-") as tmp:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "PUBLIC_URL": "http://127.0.0.1",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3",
                "THREADS": 8,
            }
        )
        client = app.test_client()
        game = client.post(
            "/api/v1/games", json={"edition": "classic-it", "players": [f"P{i}" for i in range(8)], "seed": 1}
        ).get_json()
        path = f"/api/v1/games/{game['id']}/actions"
        if not args.unread:  # a page reads the game (as at a table): its news is made, in English
            client.get(f"/g/{game['id']}/screen/changes?since=0", headers={"Accept-Language": "en"})
        client.post(path, json={"type": "start"}, headers={"Authorization": f"Bearer {game['banker_token']}"})
        players, rng = game["players"], random.Random(1)

        door = doors.of(app)
        writer_context = doors.writer_context(app)
        entered = []

        def pay_directly(count: int) -> None:
            if not entered:
                writer_context.__enter__()  # kept to the end of the run, as the writer's thread keeps it
                entered.append(True)
            for start in range(0, count, args.batch):
                batch = []
                for i in range(start, min(count, start + args.batch)):
                    me, to = players[i % 8], players[(i + 1 + rng.randrange(7)) % 8]
                    body = json.dumps(
                        {"type": "transfer", "to": to["id"], "amount": rng.randint(1, 20), "key": uuid.uuid4().hex}
                    ).encode()
                    batch.append(door.take(game["id"], me["token"], body))
                services.run_batch(batch)
                for work in batch:
                    if doors.reply(work, "en").status != 200:
                        raise RuntimeError(f"a transfer failed: {work.error!r}")

        def pay(count: int) -> None:
            if args.batch:
                pay_directly(count)
                return
            for i in range(count):
                me, to = players[i % 8], players[(i + 1 + rng.randrange(7)) % 8]
                answer = client.post(
                    path,
                    json={"type": "transfer", "to": to["id"], "amount": rng.randint(1, 20), "key": uuid.uuid4().hex},
                    headers={"Authorization": f"Bearer {me['token']}"},
                )
                if answer.status_code != 200:
                    raise RuntimeError(f"a transfer failed: {answer.status_code} {answer.get_json()}")

        pay(50)  # warm: statements compiled, editions parsed
        cpu, wall = time.process_time(), time.perf_counter()
        pay(args.actions)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        how = (
            f"run {args.batch} at a time as the server's writer does"
            if args.batch
            else "through the Flask test client, one thread"
        )
        print(
            f"{args.actions} transfers {how}, SQLite (synchronous=FULL): "
            f"CPU {cpu * 1000 / args.actions:.2f} ms per action, wall {wall * 1000 / args.actions:.2f} ms"
        )
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            pay(args.actions)
            profile.disable()
            pstats.Stats(profile).sort_stats(args.profile).print_stats(40)
    return 0


if __name__ == "__main__":
    sys.exit(main())
