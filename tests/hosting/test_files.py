"""The hosting guide's proxy files agree with Banco's own limits (``tests/hosting/test_failover.py``
runs them)."""

from __future__ import annotations

import re

from companion import config
from companion.serve import create_server
from companion.store import db
from tests.conftest import free_port, make_app
from tests.hosting.failover import HOSTING, caddy_health_interval

UNITS = {"m": 1024 * 1024, "MiB": 1024 * 1024}


def size(text: str, pattern: str) -> int:
    found = re.search(pattern, text, re.M)
    assert found, pattern
    return int(found.group(1)) * UNITS[found.group(2)]


def test_the_proxies_take_the_largest_game_file_banco_takes_and_no_more():
    nginx = (HOSTING / "nginx" / "banco-proxy.conf").read_text()
    caddy = (HOSTING / "Caddyfile").read_text()
    assert size(nginx, r"^client_max_body_size (\d+)(m);$") == config.MAX_GAME_FILE_BYTES
    assert size(caddy, r"^\s+max_size (\d+)(MiB)$") == config.MAX_GAME_FILE_BYTES


def test_the_proxies_keep_idle_connections_shorter_than_banco_does(tmp_path):
    """A proxy reusing a connection the server is closing would answer a payment 502."""
    app = make_app(tmp_path)
    banco_seconds = create_server(app, "127.0.0.1", free_port()).config.timeout_keep_alive
    with app.app_context():
        db.engine.dispose()
    nginx = (HOSTING / "nginx" / "banco.conf").read_text()
    caddy = (HOSTING / "Caddyfile").read_text()
    assert int(re.search(r"^\s+keepalive_timeout (\d+)s;$", nginx, re.M)[1]) < banco_seconds
    assert int(re.search(r"^\s+keepalive (\d+)s$", caddy, re.M)[1]) < banco_seconds


def test_a_server_drains_longer_than_caddy_takes_to_see_it():
    """Told to stop, a server answers ``/readyz`` 503 for ``BANCO_DRAIN_SECONDS`` while it serves
    on: Caddy, asking every ``health_interval``, must see that before the server stops listening,
    or new phones still meet a closed port (``tests/hosting/test_failover.py`` runs the drain)."""
    settings = (HOSTING / "systemd" / "banco.env").read_text()
    drain = int(re.search(r"^BANCO_DRAIN_SECONDS=(\d+)$", settings, re.M)[1])
    assert drain > caddy_health_interval()


def test_nginx_bounds_each_phone_s_connections_where_banco_leaves_a_trusted_proxy_s_alone():
    """Banco gives a trusted proxy's connections no per-address share (``serve.proxies``): the
    guide's nginx counts each phone's instead, in a zone its site defines, as many as Banco would."""
    site = (HOSTING / "nginx" / "banco.conf").read_text()
    snippet = (HOSTING / "nginx" / "banco-proxy.conf").read_text()
    zone = re.search(r"^limit_conn_zone \$binary_remote_addr zone=(\w+):\d+m;$", site, re.M)
    assert zone, "banco.conf defines no zone counting each phone's connections"
    bound = re.search(rf"^limit_conn {zone.group(1)} (\d+);$", snippet, re.M)
    assert bound, "banco-proxy.conf does not bound each phone's connections"
    assert config.STREAMS_PER_ADDRESS < int(bound.group(1)) <= config.CONNECTIONS_PER_ADDRESS
