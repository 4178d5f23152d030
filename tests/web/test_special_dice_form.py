"""The new-game form: a group sets the faces of Che Impresa!'s special dice as counted on their
box, and a count that is not a number is refused by name, opening nothing."""

from __future__ import annotations

from companion import services
from companion.store import Game, db
from tests.web.test_pages import csrf, open_table


def settings_of(app, game_id):
    with app.app_context():
        return services.state_of(services.get_game(game_id), deeds=False).settings


def test_the_faces_counted_on_the_box_become_the_games_dice(client, app):
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'data-edition-only="che-impresa"' in page and "buyer_die_si" in page
    game_id, _ = open_table(client, edition="che-impresa", buyer_die_si="4", buyer_die_no="1", buyer_die_vita="1")
    chosen = settings_of(app, game_id)
    assert sorted(chosen["buyer_die"]) == sorted(["si"] * 4 + ["no", "vita"])
    assert chosen["owner_die"] is None  # left as the edition's


def test_the_editions_own_faces_are_not_stored_as_a_choice(client, app):
    game_id, _ = open_table(client, edition="che-impresa")
    assert settings_of(app, game_id)["buyer_die"] is None


def test_a_bad_count_is_refused_and_opens_nothing(client, app):
    with app.app_context():
        before = db.session.query(Game).count()
    page = client.get("/").get_data(as_text=True)
    response = client.post(
        "/games",
        data={"csrf_token": csrf(page), "edition": "che-impresa", "name": ["Anna", "Bruno"], "owner_die_no": "x"},
        headers={"Accept-Language": "en"},
        follow_redirects=True,
    )
    assert "owner_die" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).count() == before
