"""Start-up: on a loopback HOST the server says phones cannot reach it and how to fix that,
and neither prints nor QR-codes a LAN address it does not answer on."""

from __future__ import annotations

import subprocess

import pytest

from companion import config
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
