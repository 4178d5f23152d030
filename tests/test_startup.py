"""Start-up: on a loopback HOST the server says phones cannot reach it and how to fix that,
and neither prints nor QR-codes a LAN address it does not answer on; a server answers its
first phone as soon as it listens, while it warms its templates (``web.warm``), and says it is
ready meanwhile."""

from __future__ import annotations

import json
import subprocess
import threading
import urllib.request

import pytest

from companion import config
from companion.serve import create_server
from companion.web import regions
from companion.web.warm import warm_in_background
from tests.conftest import app_py, free_port, make_app, wait_for_app_py


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.1.1", "localhost", "::1", "[::1]", " LOCALHOST "])
def test_loopback_hosts(host):
    assert config.loopback(host)
    assert config.phones_cannot_reach(host, {})


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "banco.lan"])
def test_hosts_phones_can_reach(host):
    assert not config.loopback(host)


def test_the_printed_address_is_one_the_server_answers_on():
    assert config.public_url("127.0.0.1", 5000, {}) == "http://127.0.0.1:5000"
    assert config.public_url("::1", 5000, {}) == "http://[::1]:5000"
    assert config.public_url("127.0.0.1", 5000, {"BANCO_PUBLIC_URL": "https://banco.example/"}) == (
        "https://banco.example"
    )
    assert config.public_url("0.0.0.0", 5000, {}) == f"http://{config.lan_address()}:5000"


def test_a_reverse_proxy_in_front_of_a_loopback_host_is_no_warning():
    assert not config.phones_cannot_reach("127.0.0.1", {"BANCO_PUBLIC_URL": "https://banco.example"})
    said = config.start_message("127.0.0.1", "https://banco.example/", {"BANCO_PUBLIC_URL": "https://banco.example"})
    assert said.startswith("Banco is open. On every phone on this Wi-Fi, open:")


def test_app_py_on_a_loopback_host_says_phones_cannot_reach_it(tmp_path):
    port = free_port()
    proc = app_py(port, f"sqlite:///{tmp_path / 'app.sqlite3'}", subprocess.PIPE, BANCO_PUBLIC_URL="")
    try:
        wait_for_app_py(proc, port)
        assert fetch(f"http://127.0.0.1:{port}/")[0] == 200  # answered once it listens
    finally:
        proc.terminate()
        out = proc.communicate(timeout=30)[0].decode()
    assert "phones cannot reach" in out and "HOST=127.0.0.1" in out
    assert "HOST=0.0.0.0 python app.py" in out
    assert f"only this computer can open:\n\n    http://127.0.0.1:{port}/" in out
    assert "On every phone" not in out
    assert config.lan_address() == "127.0.0.1" or config.lan_address() not in out
    assert "\u2588" not in out and "\u2580" not in out  # no QR code drawn


def test_the_pages_say_it_too(tmp_path):
    app = make_app(tmp_path, PHONES_CANNOT_REACH=True, HOST="127.0.0.1")
    page = app.test_client().get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "I telefoni non possono raggiungere questo server" in page and "HOST=0.0.0.0" in page
    page = make_app(tmp_path, fresh=False).test_client().get("/").get_data(as_text=True)
    assert "Phones cannot reach" not in page


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.read().decode()


def test_a_page_is_answered_while_the_server_warms(tmp_path, monkeypatch):
    """The warming runs once the server listens, as app.py starts it: held half-way here, the
    home page is answered meanwhile (its templates compiled on demand), and ``/readyz`` says
    ready; let go, it compiles every template."""
    app = make_app(tmp_path)
    halfway, go_on = threading.Event(), threading.Event()
    prepare = regions.prepare

    def held(env):
        halfway.set()
        assert go_on.wait(30)
        return prepare(env)

    monkeypatch.setattr(regions, "prepare", held)
    warming: list[threading.Thread] = []
    port = free_port()
    server = create_server(app, "127.0.0.1", port, on_started=lambda: warming.append(warm_in_background(app)))
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()
    try:
        assert halfway.wait(30), "the server did not start warming once it listened"
        assert "table.html" not in {key[1] for key in app.jinja_env.cache}
        status, page = fetch(f"http://127.0.0.1:{port}/")
        assert status == 200 and "<html" in page
        status, body = fetch(f"http://127.0.0.1:{port}/readyz")
        assert status == 200 and json.loads(body)["ready"] is True
        assert warming[0].is_alive()  # all of it answered before the warming went on
    finally:
        go_on.set()
        if warming:
            warming[0].join(60)
        server.should_exit = True
        serving.join(30)
    assert not warming[0].is_alive()
    assert {"table.html", "wallet.html", "screen.html"} <= {key[1] for key in app.jinja_env.cache}
