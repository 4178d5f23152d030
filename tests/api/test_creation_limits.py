"""New things stored from one address are limited (issue 34: 182 games, 103 tournaments and
105 editions in 8 s each): past ``CREATIONS_PER_ADDRESS`` of one kind in 10 minutes, 429
``too_many_created`` with ``Retry-After``, worded on the API and the pages, nothing stored;
another address, or another kind, is still served; a refused request costs no share. And a
server keeps at most ``IMPORTED_EDITIONS_LIMIT`` imported editions."""

from __future__ import annotations

import copy
import io
import json
import math
import time

import pytest

from companion import config
from companion.store import CustomEdition, Game, Tournament, db
from companion.web import ratelimit
from tests.api.test_shared_limits import age
from tests.conftest import Api, make_app
from tests.web.test_editor import form_of

# On PostgreSQL too (python -m tests): the cap on editions counts them under a lock of its own.
pytestmark = pytest.mark.database

SHARE = 3
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
GAME = {"edition": "classic-it", "players": ["Anna", "Bruno"]}
TOURNAMENT = {"name": "Club night", "edition": "campionato-2015", "players": NAMES}


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path, WTF_CSRF_ENABLED=False, CREATIONS_PER_ADDRESS=SHARE, IMPORTED_EDITIONS_LIMIT=4)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def from_address(app, address: str) -> Api:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return Api(client)


def stored(app, model) -> int:
    with app.app_context():
        return db.session.query(model).count()


def edition(api: Api, new_id: str) -> dict:
    data = json.loads(api.client.get("/api/v1/editions/classic-it/file").get_data(as_text=True))
    data = copy.deepcopy(data)
    data["id"], data["name"] = new_id, {"it": new_id, "en": new_id}
    return data


def too_many(response, seconds_at_most: int = ratelimit.CREATION_WINDOW_SECONDS) -> int:
    assert response.status_code == 429, response.get_data(as_text=True)[:300]
    seconds = int(response.headers["Retry-After"])
    assert 1 <= seconds <= seconds_at_most
    return seconds


@pytest.mark.parametrize(
    "path, body, model",
    [("/api/v1/games", GAME, Game), ("/api/v1/tournaments", TOURNAMENT, Tournament)],
)
def test_past_its_share_an_address_is_told_429_and_when_to_come_back_and_nothing_is_stored(app, path, body, model):
    phone = from_address(app, "10.0.0.2")
    for _ in range(SHARE):
        assert phone.post(path, body)[0] == 201
    response = phone.client.post(path, json=body)
    seconds = too_many(response)
    error = response.get_json()["error"]
    assert error["code"] == "too_many_created" and f"Try again in {math.ceil(seconds / 60)} min." in error["message"]
    assert stored(app, model) == SHARE
    assert from_address(app, "10.0.0.3").post(path, body)[0] == 201  # another address
    italian = phone.client.post(path, json=body, headers={"Accept-Language": "it"})
    assert "Riprova tra" in italian.get_json()["error"]["message"]


def test_each_kind_has_its_own_share(app):
    phone = from_address(app, "10.0.0.2")
    for _ in range(SHARE):
        assert phone.post("/api/v1/games", GAME)[0] == 201
    assert phone.post("/api/v1/games", GAME)[0] == 429
    assert phone.post("/api/v1/tournaments", TOURNAMENT)[0] == 201
    assert phone.post("/api/v1/editions", edition(phone, "casa-1"))[0] == 201


def test_a_refused_request_costs_no_share(app):
    phone = from_address(app, "10.0.0.2")
    for _ in range(2 * SHARE):
        assert phone.post("/api/v1/games", {"edition": "classic-it", "players": ["Anna", "Anna"]})[0] == 400
        assert phone.post("/api/v1/editions", {"id": "broken"})[0] == 400
    assert [phone.post("/api/v1/games", GAME)[0] for _ in range(SHARE)] == [201] * SHARE


@pytest.fixture
def later(app, monkeypatch):
    """Moves the limits' clock on by some seconds: this process's (SQLite, the limits in memory),
    or the places the database holds moved back by as much (PostgreSQL, its own clock)."""
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])

    def move_on(seconds: float) -> None:
        clock[0] += seconds
        with app.app_context():
            on_postgresql = db.engine.dialect.name == "postgresql"
        if on_postgresql:
            age(app, seconds)

    return move_on


def test_the_share_comes_back_as_the_window_moves_on(app, later):
    phone = from_address(app, "10.0.0.2")
    for _ in range(SHARE):
        assert phone.post("/api/v1/games", GAME)[0] == 201
        later(100)
    response = phone.client.post("/api/v1/games", json=GAME)
    assert too_many(response) == 300  # the first leaves 600 s after it was made, 300 s from now
    assert "Try again in 5 min." in response.get_json()["error"]["message"]
    later(299.5)
    response = phone.client.post("/api/v1/games", json=GAME)
    assert too_many(response) == 1 and "Try again in 1 min." in response.get_json()["error"]["message"]
    later(0.5)
    assert phone.post("/api/v1/games", GAME)[0] == 201


def test_editions_have_a_share_too_counted_whether_new_or_replaced(app):
    phone = from_address(app, "10.0.0.2")
    assert phone.post("/api/v1/editions", edition(phone, "casa-1"))[0] == 201
    assert phone.post("/api/v1/editions", edition(phone, "casa-1"))[0] == 201  # replaced: stored again
    assert phone.post("/api/v1/editions", edition(phone, "casa-2"))[0] == 201
    response = phone.client.post("/api/v1/editions", json=edition(phone, "casa-3"))
    too_many(response)
    assert response.get_json()["error"]["code"] == "too_many_created"
    assert stored(app, CustomEdition) == 2


def test_a_game_carried_on_from_its_file_is_a_new_game_and_counts_as_one(app):
    phone = from_address(app, "10.0.0.2")
    status, made = phone.post("/api/v1/games", GAME)
    assert status == 201
    data = phone.get(f"/api/v1/games/{made['id']}/export", made["banker_token"])[1]
    assert [phone.post("/api/v1/games/import", data)[0] for _ in range(SHARE - 1)] == [201] * (SHARE - 1)
    too_many(phone.client.post("/api/v1/games/import", json=data))
    too_many(phone.client.post("/api/v1/games", json=GAME))
    upload = phone.client.post(
        "/games/import",
        data={"file": (io.BytesIO(json.dumps(data).encode()), "game.json")},
        content_type="multipart/form-data",
        headers={"Accept-Language": "en"},
    )
    too_many(upload)
    assert "Many tables were opened from your address" in upload.get_data(as_text=True)
    assert stored(app, Game) == SHARE
    other = from_address(app, "10.0.0.3")
    assert other.post("/api/v1/games/import", data)[0] == 201


# --- the pages ---------------------------------------------------------------------------


def test_the_new_game_form_past_its_share_answers_a_page_saying_when_to_come_back(app):
    phone = from_address(app, "10.0.0.2").client
    form = {"edition": "classic-it", "name": ["Anna", "Bruno"]}
    for n in range(SHARE):
        assert phone.post("/games", data={**form, "key": f"k{n}"}).status_code == 302
    response = phone.post("/games", data={**form, "key": "again"}, headers={"Accept-Language": "it"})
    too_many(response)
    assert response.mimetype == "text/html"
    assert "Dal tuo indirizzo sono stati aperti molti tavoli negli ultimi minuti. Riprova tra 10 min." in (
        response.get_data(as_text=True)
    )
    assert stored(app, Game) == SHARE
    # The same form sent again (a reload after the first) is that table, whatever the share.
    assert phone.post("/games", data={**form, "key": "k0"}).status_code == 302


def test_the_tournament_form_past_its_share_keeps_what_was_typed(app):
    phone = from_address(app, "10.0.0.2").client
    form = {**TOURNAMENT, "players": "\n".join(NAMES), "table_size": "4", "round_minutes": "90"}
    for n in range(SHARE):
        assert phone.post("/t", data={**form, "key": f"k{n}"}).status_code == 302
    response = phone.post("/t", data={**form, "key": "again"}, headers={"Accept-Language": "en"})
    too_many(response)
    page = response.get_data(as_text=True)
    assert "Many tournaments were created from your address in the last few minutes. Try again in 10 min." in page
    assert "Gina" in page and "Club night" in page  # the form as it was typed
    assert stored(app, Tournament) == SHARE


def test_the_editor_past_its_share_keeps_the_edits_and_the_import_page_says_it_too(app):
    phone = from_address(app, "10.0.0.2").client
    english = {"Accept-Language": "en"}
    form = form_of(phone.get("/editions/edit?from=classic-it", headers=english).get_data(as_text=True))
    for n in range(SHARE):
        form["f:id"] = f"nostra-{n}"
        assert phone.post("/editions/save", data=form).status_code == 302
    form["f:id"], form["f:name.en"] = "nostra-x", "Our very own street"
    response = phone.post("/editions/save", data=form, headers=english)
    too_many(response)
    page = response.get_data(as_text=True)
    assert "Many editions were stored from your address" in page and "Our very own street" in page
    assert "correct these values" not in page  # the values were not the matter
    upload = phone.post(
        "/editions/import",
        data={"file": (io.BytesIO(json.dumps(edition(Api(phone), "casa-x")).encode()), "casa.json")},
        content_type="multipart/form-data",
        headers=english,
    )
    too_many(upload)
    assert "Many editions were stored from your address" in upload.get_data(as_text=True)
    assert stored(app, CustomEdition) == SHARE


# --- the cap on stored editions ----------------------------------------------------------------


def test_past_the_cap_a_new_edition_is_refused_and_one_kept_may_still_be_replaced(app):
    many = [from_address(app, f"10.0.1.{n}") for n in range(5)]  # a share each: the cap is what refuses
    for n, api in enumerate(many[:4]):
        assert api.post("/api/v1/editions", edition(api, f"casa-{n}"))[0] == 201
    status, body = many[4].post("/api/v1/editions", edition(many[4], "casa-4"))
    assert status == 409 and body["error"]["code"] == "too_many_editions"
    assert "keeps 4 imported editions" in body["error"]["message"]
    assert stored(app, CustomEdition) == 4
    status, body = many[4].post("/api/v1/editions", edition(many[4], "casa-0"))
    assert status == 201 and body["replaced"] is True
    with app.app_context():
        assert db.session.get(CustomEdition, "casa-4") is None


def test_past_the_cap_the_pages_say_why(app):
    for n in range(4):
        api = from_address(app, f"10.0.1.{n}")
        assert api.post("/api/v1/editions", edition(api, f"casa-{n}"))[0] == 201
    phone = from_address(app, "10.0.2.1").client
    italian = {"Accept-Language": "it"}
    upload = phone.post(
        "/editions/import",
        data={"file": (io.BytesIO(json.dumps(edition(Api(phone), "casa-x")).encode()), "casa.json")},
        content_type="multipart/form-data",
        headers=italian,
        follow_redirects=True,
    )
    assert "Questa banca conserva già 4 edizioni importate" in upload.get_data(as_text=True)
    form = form_of(phone.get("/editions/edit?from=classic-it", headers=italian).get_data(as_text=True))
    form["f:id"] = "nostra"
    saved = phone.post("/editions/save", data=form, headers=italian)
    assert saved.status_code == 409 and "Questa banca conserva già 4 edizioni importate" in saved.get_data(as_text=True)
    assert stored(app, CustomEdition) == 4


def test_no_share_and_no_cap_where_the_host_sets_0(tmp_path):
    app = make_app(tmp_path, CREATIONS_PER_ADDRESS=0, IMPORTED_EDITIONS_LIMIT=0)
    api = Api(app.test_client())
    assert all(api.post("/api/v1/editions", edition(api, f"casa-{n}"))[0] == 201 for n in range(8))
    with app.app_context():
        db.engine.dispose()


def test_the_defaults_and_the_environment(monkeypatch, tmp_path):
    assert (config.CREATIONS_PER_ADDRESS, config.IMPORTED_EDITIONS_LIMIT) == (30, 100)
    monkeypatch.setenv("BANCO_CREATIONS_PER_ADDRESS", "5")
    monkeypatch.setenv("BANCO_IMPORTED_EDITIONS_LIMIT", "7")
    monkeypatch.setenv("SECRET_KEY", "x")
    settings = config.from_environment(tmp_path)
    assert (settings["CREATIONS_PER_ADDRESS"], settings["IMPORTED_EDITIONS_LIMIT"]) == (5, 7)


def test_every_kind_has_its_words():
    with pytest.raises(KeyError):
        ratelimit._key("poster")
