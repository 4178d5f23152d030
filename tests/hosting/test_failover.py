"""The hosting guide's nginx, in front of two Banco servers, one of them killed mid-evening.

The guide's own files run here, not copies: ``docs/hosting/nginx/banco.conf`` (the upstream
of two servers with its passive health checks, the plain-http redirect and the TLS block)
including ``docs/hosting/nginx/banco-proxy.conf`` in place, and the servers started with the
environment of ``docs/hosting/systemd/banco@.service`` and ``banco.env``. The test changes only
what belongs to this machine: the ports, the certificate's paths (a self-signed certificate
made with ``openssl``), the snippet's path, the database's URL and the public address
(``tests/hosting/failover.py`` says each replacement, and fails when a file no longer holds
what it replaces).

On the run's PostgreSQL database (``TEST_DATABASE_URL``; skipped on the SQLite run), 8 phones
pay 48 payments in 6 rounds, each with its own idempotency key, sent again with it on a
connection error or a 502/503/504; 10 live pages read the game's stream through nginx,
reconnecting with ``Last-Event-ID``. 10 ms into the third round one server gets SIGKILL, with
some of that round's payments on their way to it. Then: every page holds, within 5 s of the
kill, a version made after it (the pages that were cut, through the other server); every
page holds the final version within 5 s of the last answer; the payments the dead server held
were sent again, and every payment is answered and taken exactly once (the journal, the
balances); ``banco verify`` is clean. Skipped without nginx or openssl, except in CI (``CI=true``), where they must be
there (``.ci/run`` installs them).
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.conftest import PG_URL, database_url, empty_database
from tests.hosting.failover import nginx_binary, run_evening

# On PostgreSQL only: several servers share one database (SQLite has one process).
pytestmark = pytest.mark.database


@pytest.fixture
def pg_database(tmp_path):
    if not PG_URL:
        pytest.skip("two servers on one database need PostgreSQL (TEST_DATABASE_URL)")
    missing = [name for name, found in (("nginx", nginx_binary()), ("openssl", shutil.which("openssl"))) if not found]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{' and '.join(missing)} missing: CI must run the failover test (.ci/run installs them)")
        pytest.skip(f"{' and '.join(missing)} not installed (apt-get install nginx openssl)")
    url = database_url(tmp_path)
    empty_database(url)
    return url


def test_a_server_killed_mid_evening_loses_no_payment_and_every_page_catches_up(tmp_path, pg_database):
    evening = run_evening(tmp_path, pg_database, players=8, each=6, pages=10, kill_round=2)

    assert evening.problems == []
    assert evening.cut_pages >= 1  # some pages were held by the server killed, and came back
    assert evening.retried >= 1  # and some payments: nginx answered them 502, the phones sent them again
    assert evening.recovery is not None and evening.recovery <= 5, evening
    assert evening.final_lag is not None and evening.final_lag <= 5, evening
    assert evening.answered == evening.payments == 48, evening
    assert (evening.lost, evening.doubled, evening.transfers) == (0, 0, 48), evening
    assert evening.balances_right, evening
    assert evening.verify_code == 0 and evening.verify.endswith("all balanced"), evening.verify
