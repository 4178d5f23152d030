"""Behind a trusted reverse proxy every limit counts the phone, not the proxy; from any other
peer a forwarded header changes nothing (``companion.serve.proxies``).

The server trusts 127.0.0.1 (``TRUSTED_PROXIES``) and not 127.0.0.2: the "proxy" connects from
the first, a phone that forges the headers from the second. Every address is on the loopback.
"""

from __future__ import annotations

import http.client
import ipaddress
import json

import pytest

from companion import config
from companion.serve.proxies import TrustedProxies
from companion.store import db
from tests.api.test_concurrency import new_game
from tests.api.test_live_layer import Stream, bearer, stream_path
from tests.conftest import LiveServer, make_app

PROXY, PHONE = "127.0.0.1", "127.0.0.2"
STREAMS, CONNECTIONS = 3, 4


def scope(peer: str, *headers: tuple[str, str]) -> dict:
    return {
        "type": "http",
        "scheme": "http",
        "client": (peer, 5555),
        "headers": [(b"host", b"10.0.0.5:5000"), *((k.lower().encode(), v.encode()) for k, v in headers)],
    }


def seen(resolved: dict) -> tuple[str, str, str]:
    host = next(v for k, v in resolved["headers"] if k == b"host").decode()
    return resolved["client"][0], resolved["scheme"], host


TRUSTED = TrustedProxies(["127.0.0.1", "10.1.0.0/16", "::1"])


@pytest.mark.parametrize(
    "peer, headers, expected",
    [
        # nginx's usual three headers: the client, the scheme and the host the phone asked for.
        (
            "127.0.0.1",
            [("X-Forwarded-For", "203.0.113.7"), ("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "banco.org")],
            ("203.0.113.7", "https", "banco.org"),
        ),
        # What the phone wrote itself stands to the left: the right-most untrusted address is the phone.
        ("127.0.0.1", [("X-Forwarded-For", "6.6.6.6, 203.0.113.7")], ("203.0.113.7", "http", "10.0.0.5:5000")),
        # Two trusted proxies in a row (a load balancer behind a TLS terminator): both are skipped.
        (
            "127.0.0.1",
            [("X-Forwarded-For", "6.6.6.6, 203.0.113.7, 10.1.2.3"), ("X-Forwarded-For", "10.1.9.9")],
            ("203.0.113.7", "http", "10.0.0.5:5000"),
        ),
        # Every hop trusted: the left-most is the client.
        ("127.0.0.1", [("X-Forwarded-For", "10.1.2.3, 10.1.9.9")], ("10.1.2.3", "http", "10.0.0.5:5000")),
        # An untrusted peer's headers are ignored, every one of them.
        (
            "127.0.0.2",
            [("X-Forwarded-For", "203.0.113.7"), ("X-Forwarded-Proto", "https"), ("Forwarded", "for=1.2.3.4")],
            ("127.0.0.2", "http", "10.0.0.5:5000"),
        ),
        # RFC 7239, where the proxy writes no X-Forwarded-For: an IPv6 client and its port.
        (
            "::1",
            [("Forwarded", 'for="[2001:db8::1]:4711";proto=https;host=banco.org, for=10.1.0.1')],
            ("2001:db8::1", "https", "banco.org"),
        ),
        # A proxy that writes X-Forwarded-For passes on a Forwarded the phone made up: never read.
        (
            "127.0.0.1",
            [
                ("Forwarded", "for=6.6.6.6;proto=https"),
                ("X-Forwarded-For", "203.0.113.7"),
                ("X-Forwarded-Proto", "http"),
            ],
            ("203.0.113.7", "http", "10.0.0.5:5000"),
        ),
        ("127.0.0.1", [("Forwarded", "for=198.51.100.4:80;proto=HTTPS")], ("198.51.100.4", "https", "10.0.0.5:5000")),
        ("127.0.0.1", [("Forwarded", "for=unknown")], ("unknown", "http", "10.0.0.5:5000")),
        # Values that are not an address, a scheme or a host are ignored, as if not sent.
        (
            "127.0.0.1",
            [("X-Forwarded-For", "not an address"), ("X-Forwarded-Proto", "gopher"), ("X-Forwarded-Host", "a b/c")],
            ("127.0.0.1", "http", "10.0.0.5:5000"),
        ),
        ("127.0.0.1", [("X-Forwarded-Proto", "https")], ("127.0.0.1", "https", "10.0.0.5:5000")),
        ("127.0.0.1", [], ("127.0.0.1", "http", "10.0.0.5:5000")),
    ],
)
def test_a_trusted_peer_speaks_for_its_client_and_no_other_peer_does(peer, headers, expected):
    assert seen(TRUSTED.resolve(scope(peer, *headers))) == expected


def test_no_trusted_proxy_leaves_every_request_as_it_came():
    asked = scope("127.0.0.1", ("X-Forwarded-For", "203.0.113.7"), ("X-Forwarded-Proto", "https"))
    assert TrustedProxies().resolve(asked) is asked
    assert not TrustedProxies().trusts("127.0.0.1")
    assert TRUSTED.trusts("::ffff:127.0.0.1")  # an IPv4 peer on a dual-stack socket
    assert not TRUSTED.trusts("127.0.0.2") and not TRUSTED.trusts("") and not TRUSTED.trusts("x")


def test_the_setting_takes_addresses_and_networks_and_refuses_anything_else():
    assert config.trusted_proxies({}) == ()
    assert config.trusted_proxies({"BANCO_TRUSTED_PROXIES": " 127.0.0.1, 10.0.0.0/8 ::1"}) == (
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("::1/128"),
    )
    for wrong in ("nginx", "10.0.0.0/33", "127.0.0.1;10.0.0.1"):
        with pytest.raises(config.BadSetting, match="BANCO_TRUSTED_PROXIES must list"):
            config.trusted_proxies({"BANCO_TRUSTED_PROXIES": wrong})


def test_an_https_public_address_means_secure_cookies_with_no_other_setting():
    assert config.secure_cookies("https://banco.example.org", {}) is True
    assert config.secure_cookies("http://192.168.1.5:5000", {}) is False
    assert config.secure_cookies("http://192.168.1.5:5000", {"BANCO_SECURE_COOKIES": "1"}) is True


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = make_app(
        tmp_path_factory.mktemp("proxied"),
        TRUSTED_PROXIES=[PROXY],
        STREAMS_PER_ADDRESS=STREAMS,
        CONNECTIONS_PER_ADDRESS=CONNECTIONS,
        WTF_CSRF_ENABLED=False,
    )
    server = LiveServer(app).start()
    yield server
    server.stop()
    with app.app_context():
        db.engine.dispose()


def ask(server, method: str, path: str, source: str, headers: dict, body: dict | None = None):
    """One request from ``source``; the status, the headers (lower-case names) and the body."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"Content-Type": "application/json", **headers})
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def streams(server, game, source: str, clients: list[str]) -> list[Stream]:
    return [
        Stream(server.port, stream_path(game), {**bearer(game), "X-Forwarded-For": client}, source=source)
        for client in clients
    ]


def close(held: list[Stream]) -> None:
    for stream in held:
        stream.close()


def test_a_table_behind_the_proxy_is_not_one_address(server):
    """Past the per-address cap of streams and of connections, the proxy's phones are served,
    each phone with its own share."""
    game = new_game(server, ["Anna", "Bruno"])
    phones = [f"198.51.100.{n}" for n in range(1, 2 * CONNECTIONS + 2)]
    held = streams(server, game, PROXY, phones)
    try:
        assert [s.status() for s in held] == [200] * len(phones)
        # One phone past its own share is refused, the others still served.
        more = streams(server, game, PROXY, [phones[0]] * STREAMS)
        held += more
        assert [s.status() for s in more] == [200] * (STREAMS - 1) + [429]
    finally:
        close(held)


def test_a_forged_header_from_a_phone_changes_nothing(server):
    """From a peer that is not trusted, each forged address is still that peer: its share is one."""
    game = new_game(server, ["Anna", "Bruno"])
    held = streams(server, game, PHONE, [f"203.0.113.{n}" for n in range(1, STREAMS + 2)])
    try:
        assert [s.status() for s in held] == [200] * STREAMS + [429]
    finally:
        close(held)


def test_guesses_of_a_join_code_count_the_phone(server):
    game = new_game(server, ["Anna", "Bruno"])
    path = f"/api/v1/games/{game['id']}/join"
    wrong = {"join_code": "ZZZZZZ", "name": "Dora"}

    def guess(source: str, client: str) -> int:
        return ask(server, "POST", path, source, {"X-Forwarded-For": client}, wrong)[0]

    statuses = [guess(PROXY, "198.51.100.200") for _ in range(20)]
    assert 429 not in statuses
    assert guess(PROXY, "198.51.100.200") == 429  # that phone guessed its share
    assert guess(PROXY, "198.51.100.201") != 429  # the phone beside it, through the same proxy, did not
    # A phone that forges a new address for every guess is still counted as itself.
    statuses = [guess(PHONE, f"203.0.113.{n}") for n in range(21)]
    assert statuses[-1] == 429


def test_https_through_a_trusted_proxy_makes_secure_cookies_and_hsts(server):
    _, headers, _ = ask(server, "GET", "/lang/en", PROXY, {"X-Forwarded-Proto": "https"})
    assert "secure" in headers["set-cookie"].lower()
    assert headers["strict-transport-security"] == config.HSTS
    game = new_game(server, ["Anna", "Bruno"])
    status, headers, _ = ask(
        server,
        "POST",
        f"/api/v1/games/{game['id']}/actions",
        PROXY,
        {"X-Forwarded-Proto": "https", "Authorization": f"Bearer {game['players'][0]['token']}"},
        {"type": "transfer", "to": game["players"][1]["id"], "amount": 10},
    )
    assert status == 200 and headers["strict-transport-security"] == config.HSTS
    # Plain http through the proxy, or a phone claiming https itself: no Secure, no HSTS.
    for source, proto in ((PROXY, "http"), (PHONE, "https")):
        _, headers, _ = ask(server, "GET", "/lang/en", source, {"X-Forwarded-Proto": proto})
        assert "secure" not in headers["set-cookie"].lower()
        assert "strict-transport-security" not in headers


def test_an_https_public_address_sends_secure_cookies_to_everyone(tmp_path):
    app = make_app(tmp_path, SECURE_COOKIES=True)
    response = app.test_client().get("/lang/it")
    assert "Secure" in response.headers["Set-Cookie"]
    assert response.headers["Strict-Transport-Security"] == config.HSTS
    (tmp_path / "plain").mkdir()
    plain = make_app(tmp_path / "plain").test_client().get("/lang/it")
    assert "Secure" not in plain.headers["Set-Cookie"] and "Strict-Transport-Security" not in plain.headers
