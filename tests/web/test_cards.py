"""A printed card's QR opens that deed: in the game this phone plays, or on its own with how to
join. Every deed of every built-in edition, and the typed short code."""

from __future__ import annotations

import pytest

import printables
from companion.core.editions.loading import load_editions
from companion.store import db
from tests.conftest import make_app
from tests.web.test_pages import open_table, sit_down

EDITIONS = load_editions().editions
DEEDS = [(e.id, d.key, d.name) for e in EDITIONS.values() for d in e.deeds]


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    """One app for every deed's card opened by a phone in no game: those only read, and find
    no game whichever opened before; each phone is a new client, without cookies."""
    app = make_app(tmp_path_factory.mktemp("cards"))
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.mark.parametrize("edition_id, key, name", DEEDS)
def test_a_card_opens_its_deed_for_a_phone_in_no_game(cards, edition_id, key, name):
    client = cards.test_client()
    response = client.get(f"/card/{edition_id}/{key}", headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert name.replace("'", "&#39;") in html and "join code" in html
    assert printables.deed_code(edition_id, key) in html


def test_a_card_opens_the_deed_in_the_phones_game(client, app):
    game_id, _ = open_table(client)
    phone = sit_down(app, game_id, "Anna")
    response = phone.get("/card/classic-it/via-roma")
    assert response.status_code == 302 and response.location == f"/g/{game_id}/deeds/via-roma"
    assert "Via Roma" in phone.get(response.location).get_data(as_text=True)
    other = phone.get("/card/campionato-2015/via-roma")  # a card of another edition
    assert other.status_code == 200 and "Via Roma" in other.get_data(as_text=True)


def test_a_typed_card_code_opens_the_deed(client, app):
    game_id, _ = open_table(client)
    phone = sit_down(app, game_id, "Anna")
    code = printables.deed_code("classic-it", "corso-impero")
    response = phone.get(f"/g/{game_id}/deeds", query_string={"code": code.lower()})
    assert response.status_code == 302 and response.location.endswith("/deeds/corso-impero")
    response = phone.get(f"/g/{game_id}/deeds", query_string={"code": "ZZZZZ"}, headers={"Accept-Language": "en"})
    assert "No deed of this game has the code" in response.get_data(as_text=True)


def test_unknown_cards_are_404(client):
    assert client.get("/card/classic-it/atlantis").status_code == 404
    assert client.get("/card/nope/via-roma").status_code == 404
