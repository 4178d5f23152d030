"""The edition editor: start from an edition, change values, checked as typed, save as an
edition of the server; a built-in edition is never replaced; a game keeps its edition."""

from __future__ import annotations

import re
from html import unescape

from companion.store import CustomEdition, db
from tests.conftest import Api

ENGLISH = {"Accept-Language": "en"}


def form_of(page: str) -> dict:
    """The editor form's fields as a browser would send them (checked boxes only)."""
    data = {}
    for tag in re.findall(r"<input [^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if not name:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        if 'type="checkbox"' in tag and "checked" not in tag:
            continue
        data[unescape(name.group(1))] = unescape(value.group(1)) if value else ""
    return data


def test_the_editor_saves_a_changed_edition_as_a_new_one(app, client):
    page = client.get("/editions/edit?from=classic-it", headers=ENGLISH)
    assert page.status_code == 200
    form = form_of(page.get_data(as_text=True))
    assert form["f:id"] == "classic-it-custom" and form["f:salary.amount"] == "200"
    form["f:name.en"] = form["f:name.it"] = "Our street"
    form["f:salary.amount"] = "250"
    form["f:deeds[0].name"] = "Vicolo nostro"
    form["f:deeds[0].rents"] = "3, 10, 30, 90, 160, 250"
    saved = client.post("/editions/save", data=form, headers=ENGLISH, follow_redirects=True)
    assert "Edition Our street saved" in saved.get_data(as_text=True)
    api = Api(client)
    status, shown = api.get("/api/v1/editions/classic-it-custom")
    assert status == 200 and shown["name"] == "Our street" and shown["salary"]["amount"] == 250
    assert shown["deeds"][0]["name"] == "Vicolo nostro" and shown["deeds"][0]["rents"][0] == 3
    assert api.get("/api/v1/editions/classic-it")[1]["salary"]["amount"] == 200


def test_values_are_checked_as_typed_naming_the_field(client):
    form = form_of(client.get("/editions/edit?from=classic-it").get_data(as_text=True))
    assert client.post("/editions/check", data=form).get_json() == {"problems": [], "fields": []}
    form["f:deeds[3].price"] = "cheap"
    form["f:deeds[1].rents"] = "1, 2"
    answer = client.post("/editions/check", data=form).get_json()
    assert "classic-it-custom: deeds[3].price must be a whole number" in answer["problems"]
    assert "deeds[3].price" in answer["fields"]
    form["f:deeds[3].price"] = "100"
    answer = client.post("/editions/check", data=form).get_json()
    assert (
        "classic-it-custom: deeds[1].rents needs 6 values (no building, each small building, the big one)"
        in answer["problems"]
    )


def test_the_editor_never_replaces_a_built_in_edition_nor_stores_a_bad_one(app, client):
    form = form_of(client.get("/editions/edit?from=classic-it").get_data(as_text=True))
    form["f:id"] = "classic-it"
    page = client.post("/editions/save", data=form, headers=ENGLISH)
    assert page.status_code == 409 and "built into Banco" in page.get_data(as_text=True)
    form["f:id"] = "mine"
    form["f:salary.amount"] = "lots"
    page = client.post("/editions/save", data=form, headers=ENGLISH)
    html = page.get_data(as_text=True)
    assert page.status_code == 400 and "mine: salary.amount must be a whole number" in html
    assert 'name="f:salary.amount" value="lots"' in html and 'aria-invalid="true"' in html
    with app.app_context():
        assert db.session.query(CustomEdition).count() == 0


def test_marking_a_provisional_edition_checked(client):
    page = client.get("/editions/edit?from=motopolis", headers=ENGLISH).get_data(as_text=True)
    assert "untick once checked against the box" in page and "is-provisional" in page
    form = form_of(page)
    for name in [n for n in form if n == "f:provisional" or n.endswith(".provisional")]:
        del form[name]
    form["f:id"] = "motopolis-checked"
    assert client.post("/editions/save", data=form).status_code == 302
    _status, shown = Api(client).get("/api/v1/editions/motopolis-checked")
    assert not any(d["provisional"] for d in shown["deeds"])


def test_a_game_keeps_its_edition_when_the_editor_saves_it_again(client):
    api = Api(client)
    form = form_of(client.get("/editions/edit?from=classic-it").get_data(as_text=True))
    assert client.post("/editions/save", data=form).status_code == 302
    game = api.new_game(players=("Anna", "Bruno"), edition="classic-it-custom").start()
    form = form_of(client.get("/editions/edit?from=classic-it-custom").get_data(as_text=True))
    assert form["f:id"] == "classic-it-custom"
    first_key = form["f:deeds[0].key"]
    form["f:deeds[0].price"] = "999"
    assert client.post("/editions/save", data=form).status_code == 302
    status, body = game.act("Anna", {"type": "buy", "deed": first_key})
    assert status == 200 and body["result"]["amount"] == 60
    new = api.new_game(players=("Carla", "Dario"), edition="classic-it-custom").start()
    assert new.act("Carla", {"type": "buy", "deed": first_key})[1]["result"]["amount"] == 999


def test_the_fields_are_named_in_words_with_their_path_beside(client):
    page = client.get("/editions/edit?from=classic-it", headers=ENGLISH).get_data(as_text=True)
    assert "Vicolo Corto · Price" in page and "deeds[0].price" in page
    assert "Starting cash · 4 players" in page and "GO salary" in page
    italian = client.get("/editions/edit?from=classic-it", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Vicolo Corto · Prezzo" in italian and "Stipendio al Via" in italian
