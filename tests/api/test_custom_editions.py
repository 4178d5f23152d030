"""Editions as files: every edition exports as its file and imports back as an edition of the
server; a bad file is refused whole, naming the field; an imported edition is an edition
everywhere; a game keeps the content it started with."""

from __future__ import annotations

import copy
import json

import pytest

from companion.core.editions.loading import EDITIONS_DIR, edition_files
from companion.store import CustomEdition, EditionContent, db
from companion.web import seats
from tests.conftest import Api, make_app

# On PostgreSQL too (python -m tests): edition files stored as JSON, under ids with a length, imported at once.
pytestmark = pytest.mark.database

BUILT_IN = [p.stem for p in edition_files()]


def exported(api, edition_id) -> dict:
    response = api.client.get(f"/api/v1/editions/{edition_id}/file")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert f'filename="{edition_id}.json"' in response.headers["Content-Disposition"]
    return json.loads(response.get_data(as_text=True))


def stored_count(app) -> int:
    with app.app_context():
        return db.session.query(CustomEdition).count()


def renamed(data: dict, new_id: str, name: str = "Casa nostra") -> dict:
    data = copy.deepcopy(data)
    data["id"] = new_id
    data["name"] = {"it": name, "en": name}
    return data


@pytest.mark.parametrize("edition_id", BUILT_IN)
def test_every_built_in_edition_exports_as_its_file_and_imports_back_equal(api, edition_id):
    original = json.loads((EDITIONS_DIR / f"{edition_id}.json").read_text(encoding="utf-8"))
    data = exported(api, edition_id)
    assert data == original
    copy_id = f"{edition_id}-copy"
    status, body = api.post("/api/v1/editions", dict(data, id=copy_id))
    assert status == 201 and body == {"id": copy_id, "replaced": False}
    again = exported(api, copy_id)
    assert again == dict(original, id=copy_id)
    status, listed = api.get("/api/v1/editions")
    assert copy_id in [e["id"] for e in listed["editions"]]
    status, shown = api.get(f"/api/v1/editions/{copy_id}")
    status, shown_original = api.get(f"/api/v1/editions/{edition_id}")
    assert status == 200 and dict(shown, id=edition_id) == shown_original


def test_a_broken_file_is_refused_whole_naming_the_field_and_nothing_is_stored(app, api):
    data = renamed(exported(api, "classic-it"), "broken")
    data["deeds"][3]["price"] = "cheap"
    del data["salary"]["amount"]
    status, body = api.post("/api/v1/editions", data)
    assert status == 400 and body["error"]["code"] == "invalid_edition"
    assert "broken: deeds[3].price must be a whole number" in body["error"]["problems"]
    assert "deeds[3].price" in body["error"]["message"]
    assert stored_count(app) == 0
    with app.app_context():
        assert db.session.query(EditionContent).count() == 0
    assert api.get("/api/v1/editions/broken")[0] == 404
    assert api.get("/api/v1/editions/broken/file")[0] == 404


def test_what_a_schema_cannot_see_is_refused_too(app, api):
    data = renamed(exported(api, "classic-it"), "orphans")
    data["deeds"][0]["group"] = "nowhere"
    status, body = api.post("/api/v1/editions", data)
    assert (
        status == 400
        and "orphans: deeds[0].group 'nowhere' is not one of the edition's groups" in body["error"]["problems"]
    )
    assert stored_count(app) == 0


@pytest.mark.parametrize("body", [{}, {"id": "x"}, {"id": "Bad Id!"}])
def test_a_file_that_is_no_edition_is_refused(app, api, body):
    status, answer = api.post("/api/v1/editions", body)
    assert status == 400 and answer["error"]["code"] == "invalid_edition" and answer["error"]["problems"]
    assert stored_count(app) == 0


def test_an_imported_id_equal_to_a_built_in_one_is_refused_with_409(app, api):
    data = exported(api, "classic-it")
    data["salary"]["amount"] = 400
    status, body = api.post("/api/v1/editions", data)
    assert status == 409 and body["error"]["code"] == "edition_exists"
    assert stored_count(app) == 0
    assert exported(api, "classic-it")["salary"]["amount"] == 200


def test_an_imported_edition_plays_a_game_from_start_to_end(api):
    data = renamed(exported(api, "classic-it"), "casa-nostra")
    data["start"]["cash"] = dict.fromkeys(data["start"]["cash"], 3000)
    first = data["deeds"][0]
    first["name"] = "Vicolo di casa"
    first["price"] = 77
    assert api.post("/api/v1/editions", data)[0] == 201
    game = api.new_game(players=("Anna", "Bruno"), edition="casa-nostra").start()
    assert game.cash() == {"Anna": 3000, "Bruno": 3000}
    status, body = game.act("Anna", {"type": "buy", "deed": first["key"]})
    assert status == 200 and body["result"]["amount"] == 77
    assert game.act("banker", {"type": "end"})[0] == 200
    status, score = api.get(f"/api/v1/games/{game.id}/score", game.banker)
    assert status == 200 and score["final"] is True
    anna = next(r for r in score["standings"] if r["name"] == "Anna")
    assert anna["total"] == 3000 - 77 + 77


def test_an_imported_editions_cards_and_money_print(api):
    data = renamed(exported(api, "classic-it"), "casa-nostra")
    data["deeds"][0]["name"] = "Vicolo di casa"
    assert api.post("/api/v1/editions", data)[0] == 201
    deeds = api.client.get("/print/casa-nostra/deeds.pdf")
    assert deeds.status_code == 200 and deeds.mimetype == "application/pdf"
    money = api.client.get("/print/casa-nostra/money.pdf?players=4")
    assert money.status_code == 200 and money.mimetype == "application/pdf"
    page = api.client.get("/print?edition=casa-nostra", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Casa nostra" in page and "/print/casa-nostra/deeds.pdf" in page


def test_an_imported_edition_is_offered_on_the_home_page_and_the_calculator(api):
    assert api.post("/api/v1/editions", renamed(exported(api, "classic-it"), "casa-nostra"))[0] == 201
    assert "casa-nostra" in api.client.get("/").get_data(as_text=True)
    assert "casa-nostra" in api.client.get("/calculator").get_data(as_text=True)
    spec = api.get("/api/openapi.json")[1]
    enum = spec["paths"]["/api/v1/editions/{edition}"]["get"]["parameters"][0]["schema"]["enum"]
    assert "casa-nostra" in enum


def test_a_game_keeps_its_rules_when_its_edition_is_imported_again(app, api):
    data = renamed(exported(api, "classic-it"), "casa-nostra")
    first = data["deeds"][0]
    assert api.post("/api/v1/editions", data)[0] == 201
    old_game = api.new_game(players=("Anna", "Bruno"), edition="casa-nostra").start()
    edited = copy.deepcopy(data)
    edited["deeds"][0]["price"] = first["price"] * 10
    status, body = api.post("/api/v1/editions", edited)
    assert status == 201 and body == {"id": "casa-nostra", "replaced": True}
    assert stored_count(app) == 1
    status, body = old_game.act("Anna", {"type": "buy", "deed": first["key"]})
    assert status == 200 and body["result"]["amount"] == first["price"]
    new_game = api.new_game(players=("Carla", "Dario"), edition="casa-nostra").start()
    status, body = new_game.act("Carla", {"type": "buy", "deed": first["key"]})
    assert status == 200 and body["result"]["amount"] == first["price"] * 10
    assert exported(api, "casa-nostra")["deeds"][0]["price"] == first["price"] * 10


def test_imported_editions_outlive_a_restart(tmp_path):
    app = make_app(tmp_path)
    api = Api(app.test_client())
    assert api.post("/api/v1/editions", renamed(exported(api, "classic-it"), "casa-nostra"))[0] == 201
    with app.app_context():
        db.engine.dispose()
    again = make_app(tmp_path, fresh=False)
    status, body = Api(again.test_client()).get("/api/v1/editions/casa-nostra")
    assert status == 200 and body["name"] == "Casa nostra"
    with again.app_context():
        db.engine.dispose()


def test_a_host_password_guards_the_import(tmp_path):
    app = make_app(tmp_path, HOST_PASSWORD="tavolo")
    api = Api(app.test_client())
    data = renamed(exported(api, "classic-it"), "casa-nostra")
    status, body = api.post("/api/v1/editions", data)
    assert status == 401 and body["error"]["code"] == "host_password_required"
    assert api.post("/api/v1/editions", data, token="wrong")[0] == 401
    assert api.post("/api/v1/editions", data, token="tavolo")[0] == 201
    with app.app_context():
        db.engine.dispose()


# --- the home page ------------------------------------------------------------------------


def upload(client, text: str, **form):
    import io

    return client.post(
        "/editions/import",
        data={"file": (io.BytesIO(text.encode("utf-8")), "mine.json"), **form},
        content_type="multipart/form-data",
        follow_redirects=True,
        headers={"Accept-Language": "en"},
    )


def test_the_home_page_imports_a_file_and_offers_every_editions_file(app, api):
    home = api.client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Editions as files" in home and "/api/v1/editions/classic-it/file" in home
    text = json.dumps(renamed(exported(api, "classic-it"), "casa-nostra"), indent=2)
    page = upload(api.client, text)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Edition Casa nostra imported" in html
    assert '<option value="casa-nostra"' in html and "/api/v1/editions/casa-nostra/file" in html
    assert stored_count(app) == 1


def test_the_home_page_names_the_field_and_line_of_a_bad_file(app, api):
    data = renamed(exported(api, "classic-it"), "broken")
    data["deeds"][3]["price"] = 1.5
    text = json.dumps(data, indent=2)
    line = text.splitlines().index('      "price": 1.5,') + 1
    html = upload(api.client, text).get_data(as_text=True)
    assert "The edition file was refused and nothing was stored." in html
    assert f"line {line}: broken: deeds[3].price must be a whole number" in html
    assert stored_count(app) == 0
    html = upload(api.client, '{"id": "x",\n  "name": }').get_data(as_text=True)
    assert "line 2, column 11: not valid JSON" in html
    html = upload(api.client, json.dumps(exported(api, "classic-it"))).get_data(as_text=True)
    assert "built into Banco and cannot be replaced" in html
    assert stored_count(app) == 0


def test_the_home_page_asks_for_the_host_password_where_the_server_has_one(tmp_path):
    app = make_app(tmp_path, HOST_PASSWORD="tavolo", WTF_CSRF_ENABLED=False)
    client = app.test_client()
    assert 'name="password"' in client.get("/").get_data(as_text=True)
    text = json.dumps(renamed(exported(Api(client), "classic-it"), "casa-nostra"))
    html = upload(client, text, password="nope").get_data(as_text=True)
    assert "This server asks for the host password to add editions." in html
    html = upload(client, text, password="tavolo").get_data(as_text=True)
    assert "Edition Casa nostra imported" in html
    with app.app_context():
        db.engine.dispose()


CEILING = 10**12  # the schema's highest max_amount


@pytest.mark.parametrize(
    "breaks, problem",
    [
        (lambda e: e["deeds"][0].update(price=10**30), "deeds[0].price must be at most 1000000000000"),
        (lambda e: e["deeds"][0]["rents"].__setitem__(2, -10), "deeds[0].rents[2] must be at least 0"),
        (
            lambda e: e["fixed_payments"][0].update(amount=e["max_amount"] + 1),
            "fixed_payments[0].amount must be at most max_amount (100000)",
        ),
        (lambda e: e["deeds"][5].update(price=100001), "deeds[5].price must be at most max_amount (100000)"),
        (lambda e: e["start"]["cash"].update({"4": 10**6}), "start.cash[4] must be at most max_amount (100000)"),
        (lambda e: e["jail"].update(fine=10**5 + 1), "jail.fine must be at most max_amount (100000)"),
        (lambda e: e.update(max_amount=2**63), "max_amount must be at most 1000000000000"),
        (lambda e: e["buildings"].update(supply_small=10**9), "buildings.supply_small must be at most 10000"),
        (lambda e: e["jail"].update(cards_total=10**9), "jail.cards_total must be at most 1000"),
        (lambda e: e["mortgage"].update(laps=10**9), "mortgage.laps must be at most 1000"),
        (lambda e: e.update(time_limit_minutes=10**9), "time_limit_minutes must be at most 1440"),
        (lambda e: e["dice"].update(max_total=10**9), "dice.max_total must be at most 100"),
        (lambda e: e["valuation"].update(deed_percent=10**9), "valuation.deed_percent must be at most 1000"),
        (
            lambda e: e.update(utility_multipliers=[4, 10**4]),
            "utility_multipliers[1] must be at most 1000",
        ),
        (
            lambda e: e.update(utility_multipliers=[4, 1000], max_amount=10_000),
            "utility_multipliers[1] times dice.max_total (12) must be at most max_amount (10000)",
        ),
        (
            lambda e: e["starting_notes"].update({"10" * 10: 1}),
            'starting_notes key "10101010101010101010" must be a banknote value',
        ),
    ],
)
def test_a_number_out_of_its_range_is_refused_naming_the_field_and_nothing_is_stored(app, api, breaks, problem):
    data = renamed(exported(api, "classic-it"), "huge")
    breaks(data)
    status, body = api.post("/api/v1/editions", data)
    assert status == 400 and body["error"]["code"] == "invalid_edition", body
    assert any(p.startswith(f"huge: {problem}") for p in body["error"]["problems"]), body["error"]["problems"]
    assert stored_count(app) == 0
    with app.app_context():
        assert db.session.query(EditionContent).count() == 0
    assert api.get("/api/v1/editions/huge")[0] == 404
    italian = api.client.post("/api/v1/editions", json=data, headers={"Accept-Language": "it"}).get_json()
    assert italian["error"]["message"].startswith("Il file dell'edizione è stato rifiutato e non è stato salvato nulla")
    assert f"huge: {problem}" in italian["error"]["message"]


def at_the_limits(data: dict) -> dict:
    """``data`` with the largest amounts its schema allows: a ceiling of 10^12, the first deed
    and every player's starting cash at it, and rents and fees up to it."""
    data["max_amount"] = CEILING
    data["start"]["cash"] = dict.fromkeys(data["start"]["cash"], CEILING)
    first = data["deeds"][0]
    first.update(price=CEILING, mortgage=CEILING // 2, building_cost=CEILING)
    first["rents"] = [CEILING // 10**k for k in range(len(first["rents"]) - 1, -1, -1)]
    data["fixed_payments"][0]["amount"] = CEILING
    data["banknotes"] = sorted({*data["banknotes"], CEILING}, reverse=True)
    data["salary"]["amount"] = CEILING
    data["buildings"].update(supply_small=10_000, supply_big=10_000)
    return data


def test_an_edition_at_the_limits_imports_and_its_dearest_deed_is_bought_and_shown(app, api):
    data = at_the_limits(renamed(exported(api, "classic-it"), "al-limite"))
    status, body = api.post("/api/v1/editions", data)
    assert status == 201, body
    deed = data["deeds"][0]["key"]
    game = api.new_game(players=("Anna", "Bruno"), edition="al-limite").start()
    assert game.cash() == {"Anna": CEILING, "Bruno": CEILING}
    status, body = game.act("Anna", {"type": "buy", "deed": deed})
    assert status == 200 and body["result"]["amount"] == CEILING, body
    assert game.act("Bruno", {"type": "pay_fixed", "payment": data["fixed_payments"][0]["key"]})[0] == 200
    for _ in range(3):  # salaries past the ceiling: a sum is no single payment
        assert game.act("banker", {"type": "pass_go", "player": game.ids["Anna"]})[0] == 200
    assert game.cash() == {"Anna": 3 * CEILING, "Bruno": 0}
    assert api.client.get(f"/card/al-limite/{deed}").status_code == 200
    phone = app.test_client()
    with phone.session_transaction() as kept:  # Anna's phone, holding her seat's secret
        kept["games"] = {game.id: {seats.PLAYER: game.tokens["Anna"]}}
    for page in (f"/g/{game.id}/deeds/{deed}", f"/g/{game.id}/me", f"/g/{game.id}/deeds"):
        assert phone.get(page).status_code == 200, page
    assert game.act("banker", {"type": "end"})[0] == 200
    status, score = api.get(f"/api/v1/games/{game.id}/score", game.banker)
    assert status == 200 and score["final"] is True
