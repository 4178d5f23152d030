"""A game as a file on the pages: the Bank downloads it, the home page of another server carries it
on, and the players sit down again with the new join code."""

from __future__ import annotations

import io
import json

from companion import services
from companion.store import Game, db
from tests.conftest import make_app
from tests.web.test_pages import cash, csrf, keyed, open_table, sit_down, start


def saved(client, app):
    """A table opened, started and played a little from the pages, saved from its Bank."""
    game_id, _ = open_table(client, banker_plays="1")  # the host holds Anna's seat too
    anna = client
    start(client, game_id)
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    with app.app_context():
        bruno = next(p.id for p in services.get_game(game_id).players if p.name == "Bruno")
    assert (
        anna.post(f"/g/{game_id}/me", data={**keyed(page, "transfer"), "to": bruno, "amount": "120"}).status_code == 302
    )
    table = client.get(f"/g/{game_id}/table", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Save the game as a file" in table and f"/g/{game_id}/game-file" in table
    response = client.get(f"/g/{game_id}/game-file")
    assert response.status_code == 200 and response.headers["Content-Disposition"].startswith("attachment;")
    return game_id, response.get_data()


def carry_on(host, raw, name="game.json"):
    page = host.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Carry on a saved game" in page
    return host.post(
        "/games/import",
        data={"csrf_token": csrf(page), "file": (io.BytesIO(raw), name)},
        content_type="multipart/form-data",
        headers={"Accept-Language": "en"},
    )


def test_only_the_banker_downloads_the_game(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    assert anna.get(f"/g/{game_id}/game-file").status_code == 403
    assert app.test_client().get(f"/g/{game_id}/game-file").status_code == 403


def test_a_saved_game_goes_on_on_another_server_and_the_players_sit_down_again(client, app, tmp_path):
    game_id, raw = saved(client, app)
    (tmp_path / "other").mkdir()
    other = make_app(tmp_path / "other", fresh=False)
    host = other.test_client()
    response = carry_on(host, raw)
    assert response.status_code == 302 and response.location.endswith("/table")
    new_id = response.location.split("/")[2]
    assert new_id != game_id
    table = host.get(response.location, headers={"Accept-Language": "en"}).get_data(as_text=True)
    with other.app_context():
        game = services.get_game(new_id)
        version, code = game.version, game.join_code
    assert f"The game goes on from version {version}" in table and code in table
    assert cash(other, new_id) == cash(app, game_id) == {"Anna": 1380, "Bruno": 1620, "Carla": 1500}
    with other.app_context():
        anna_seat = next(p for p in services.get_game(new_id).players if p.name == "Anna")
        assert services.get_game(new_id).banker_player_id == anna_seat.id  # still the banker's own seat
    # Nobody holds a seat yet: each phone takes its own with the new code, and pays on.
    bruno = sit_down(other, new_id, "Bruno")
    page = bruno.get(f"/g/{new_id}/me").get_data(as_text=True)
    with other.app_context():
        anna = next(p.id for p in services.get_game(new_id).players if p.name == "Anna")
    assert (
        bruno.post(f"/g/{new_id}/me", data={**keyed(page, "transfer"), "to": anna, "amount": "20"}).status_code == 302
    )
    assert cash(other, new_id)["Bruno"] == 1600
    with other.app_context():
        assert services.verify_game(services.get_game(new_id)) == []
        db.engine.dispose()


def test_a_file_that_does_not_check_out_is_refused_on_the_page(client, app):
    _game_id, raw = saved(client, app)
    data = json.loads(raw)
    data["journal"][2]["params"]["reason"] = "changed"
    with app.app_context():
        games = db.session.query(Game).count()
    response = carry_on(client, json.dumps(data).encode())
    assert response.status_code == 302 and response.location == "/"
    home = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "The game file was refused and nothing was stored." in home
    assert "Entry 3 of the game file has been changed." in home
    with app.app_context():
        assert db.session.query(Game).count() == games
    response = carry_on(client, b"this is not json")
    home = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "This game file is not valid JSON" in home
