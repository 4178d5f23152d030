"""Printed QR codes hold the server's address: when phones reach it at another address since
the deed cards were printed, the table says so and what to do."""

from __future__ import annotations

import pytest

from tests.web.test_pages import open_table

# On PostgreSQL too (python -m tests): the printed address row, locked and inserted once.
pytestmark = pytest.mark.database

WARNING = "The printed deed cards point to an old address"


def test_the_table_warns_when_the_address_changed_since_the_cards_were_printed(app, client):
    _game_id, table = open_table(client)
    page = client.get(table, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert WARNING not in page  # nothing printed yet
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    assert client.get("/print/classic-it/deeds.pdf").status_code == 200
    assert WARNING not in client.get(table, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert client.get("/print/classic-it/deeds.png").status_code == 200  # a preview records nothing
    app.config["PUBLIC_URL"] = "http://192.168.1.37:5000"
    page = client.get(table, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert WARNING in page and "http://192.168.1.20:5000" in page and "http://192.168.1.37:5000" in page
    assert "BANCO_PUBLIC_URL" in page
    assert client.get("/print/classic-it/deeds.pdf").status_code == 200  # printed again: all good
    assert WARNING not in client.get(table, headers={"Accept-Language": "en"}).get_data(as_text=True)
