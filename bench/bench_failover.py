#!/usr/bin/env python3
"""One server of two lost mid-evening, behind the hosting guide's nginx or Caddy: what the phones see.

Runs ``tests/hosting/failover.py``'s evening ``--runs`` times (the test holds one of them to the
issue's bar): two ``python app.py`` servers started as ``banco@.service`` starts them, on one
PostgreSQL database, behind nginx running ``docs/hosting/nginx/banco.conf`` (or, with
``--proxy caddy``, caddy running ``docs/hosting/Caddyfile``); 8 phones pay 48
payments in 6 rounds 0.3 s apart (all 8 phones tap at once), each with its own idempotency
key, sent again on a connection error or a 502/503/504; 10 live pages read the stream,
reconnecting with ``Last-Event-ID`` after the stream's ``retry`` (1 s), as a browser does; a
few ms into the third round (``--delays``, one after another: the kill meets payments at
different points of their way) one server (the first, then the second, in turn) gets SIGKILL.
Prints per run and in total:

- recovery: from the kill until every page holds a version made after it (a cut page has
  opened its stream again through the other server and heard the next payment);
- last-page: from the last payment's answer until every page holds the final version;
- lost: payments the journal does not hold; doubled: transfers beyond one a payment;
- again: payments the phone had to send again (the proxy answered 502: the dead server had them;
  the others went through, or the proxy passed them on before they reached it), and of those
  replayed: the ones the dead server had taken before dying, answered again from the key;
- cut: pages whose stream the dead server held;
- whether the balances and ``banco verify`` are right.

The database is a new one on the PostgreSQL server of ``--server`` (dropped at the end), or
``--database-url`` as it is. Everything on 127.0.0.1; exits 1 if any run lost or doubled a
payment, or a page did not come back.

    .venv/bin/python bench/bench_failover.py --runs 10
    .venv/bin/python bench/bench_failover.py --runs 10 --proxy caddy
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hosting.failover import PROXIES, proxy_binary, run_evening  # noqa: E402


def new_database(server: str) -> str:
    import psycopg

    name = f"banco_bench_failover_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.rpartition("/")[0] + "/" + name


def drop_database(server: str, url: str) -> None:
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rpartition("/")[2]}" WITH (FORCE)')


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--proxy", choices=sorted(PROXIES), default="nginx", help="the guide's proxy in front")
    parser.add_argument("--server", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--database-url", help="use this database as it is (no new one)")
    parser.add_argument(
        "--delays", default="5,10,15,20,25", help="ms from a round's taps to the kill, one run after another"
    )
    args = parser.parse_args()
    try:
        delays = [int(ms) for ms in args.delays.split(",")]
    except ValueError:
        parser.error("--delays is whole milliseconds separated by commas, such as 5,10,20")
    if not delays or not all(0 <= ms <= 250 for ms in delays):
        parser.error("--delays must each be from 0 to 250 ms (a round lasts 300 ms)")
    if not 1 <= args.runs <= 100:
        parser.error("--runs must be from 1 to 100")
    binary = proxy_binary(args.proxy)
    if binary is None:
        print(f"{args.proxy} is not installed (apt-get install {args.proxy})")
        return 1
    url = args.database_url or new_database(args.server)
    engine_url = "postgresql+psycopg://" + url.split("://", 1)[1]
    print(f"{platform.node()}: {os.cpu_count()} cores, Python {platform.python_version()}, {binary}")
    print("run  killed  at  recovery  last-page  lost  doubled  again  replayed  cut  balances  verify")
    evenings = []
    started = time.monotonic()
    try:
        for run in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="banco-failover-") as folder:
                delay = delays[run % len(delays)]
                evening = run_evening(
                    Path(folder), engine_url, victim=run % 2, kill_delay=delay / 1000, proxy_name=args.proxy
                )
            evenings.append(evening)
            print(
                f"{run + 1:>3}  {run % 2 + 1:>6}  {delay:>2}  {seconds(evening.recovery):>8}  {seconds(evening.final_lag):>9}"
                f"  {evening.lost:>4}  {evening.doubled:>7}  {evening.retried:>5}  {evening.replayed:>8}  {evening.cut_pages:>3}"
                f"  {'right' if evening.balances_right else 'WRONG':>8}  {'clean' if evening.verify_code == 0 else 'FAILS'}",
                flush=True,
            )
            for problem in evening.problems:
                print(f"     {problem}")
    finally:
        if not args.database_url:
            drop_database(args.server, url)
    recoveries = [e.recovery for e in evenings if e.recovery is not None]
    print(f"\n{len(evenings)} runs in {time.monotonic() - started:.0f} s")
    if recoveries:
        print(
            f"recovery: median {statistics.median(recoveries):.2f} s, "
            f"max {max(recoveries):.2f} s, pages that never came back: {len(evenings) - len(recoveries)} runs"
        )
    print(
        f"payments: {sum(e.payments for e in evenings)}, answered {sum(e.answered for e in evenings)}, "
        f"lost {sum(e.lost for e in evenings)}, doubled {sum(e.doubled for e in evenings)}, "
        f"sent again {sum(e.retried for e in evenings)} (taken before the kill, answered from the key: "
        f"{sum(e.replayed for e in evenings)}); pages cut {sum(e.cut_pages for e in evenings)} "
        f"of {10 * len(evenings)}; balances wrong in {sum(not e.balances_right for e in evenings)} runs, "
        f"verify failed in {sum(e.verify_code != 0 for e in evenings)}"
    )
    whole = all(
        e.lost == e.doubled == 0
        and e.recovery is not None
        and e.balances_right
        and e.verify_code == 0
        and not e.problems
        for e in evenings
    )
    return 0 if whole else 1


if __name__ == "__main__":
    sys.exit(main())
