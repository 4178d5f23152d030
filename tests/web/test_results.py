"""The results page and its exports: the winner, the ranking with each count part by part,
the chart of worth drawn from the journal, private cash kept private until the end."""

from __future__ import annotations

import csv
import io
import re

from companion import services
from tests.conftest import act
from tests.web.test_pages import keyed, open_table, sit_down, start


def play(app, client, edition="classic-it"):
    """A table of three: Anna pays Bruno 300 and buys Vicolo Corto through the API."""
    game_id, _ = open_table(client, edition=edition)
    phones = {name: sit_down(app, game_id, name) for name in ("Anna", "Bruno", "Carla")}
    start(client, game_id)
    with app.app_context():
        game = services.get_game(game_id)
        ids = {p.name: p.id for p in game.players}
        banker = services.Caller(game_id, True, None)
        act(game_id, banker, {"type": "transfer", "from": ids["Anna"], "to": ids["Bruno"], "amount": 300})
        act(game_id, banker, {"type": "buy", "player": ids["Anna"], "deed": "vicolo-corto"})
    return game_id, phones, ids


def end(client, game_id):
    page = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    assert client.post(f"/g/{game_id}/table", data=keyed(page, "end")).status_code == 302


def test_the_results_name_the_winner_and_every_count(app, client):
    game_id, phones, _ids = play(app, client)
    end(client, game_id)
    page = phones["Carla"].get(f"/g/{game_id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert re.search(r'class="winner">Bruno<', page)
    assert "1,800" in page and "1,500" in page and "1,200" in page  # Bruno, Carla; Anna's cash
    assert "Deeds" in page and "<svg" in page and "polyline" in page
    rows = list(
        csv.reader(
            io.StringIO(
                phones["Anna"]
                .get(f"/g/{game_id}/results.csv", headers={"Accept-Language": "en"})
                .get_data(as_text=True)
            )
        )
    )
    assert rows[0][:2] == ["Rank", "Player"]
    assert [r[1] for r in rows[1:]] == ["Bruno", "Carla", "Anna"]
    assert rows[3][2:6] == ["1140", "60", "0", "1200"]
    data = phones["Bruno"].get(f"/g/{game_id}/results.json").get_json()
    assert data["final"] is True and data["standings"][0]["breakdown"] == {"cash": 1800, "deeds": 0, "buildings": 0}


def test_the_chart_follows_the_journal(app, client):
    game_id, _, ids = play(app, client)
    with app.app_context():
        points = services.worth_points(services.get_game(game_id))
    worth = dict(points)
    # After the start everyone holds 1500; after the payment Anna 1200 and Bruno 1800; buying
    # at the printed price changes nobody's worth, so it draws no new point.
    assert [values for _, values in points][-2:] == [
        {ids["Anna"]: 1500, ids["Bruno"]: 1500, ids["Carla"]: 1500},
        {ids["Anna"]: 1200, ids["Bruno"]: 1800, ids["Carla"]: 1500},
    ]
    assert min(worth) == 0


def test_private_cash_stays_private_in_the_standings_until_the_end(app, client):
    game_id, phones, _ = play(app, client, edition="campionato-2015")
    page = phones["Carla"].get(f"/g/{game_id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "1,800" not in page and "1,140" not in page and "1,500" in page  # only her own count
    assert "<svg" not in page
    data = phones["Carla"].get(f"/g/{game_id}/results.json").get_json()
    assert [r["total"] for r in data["standings"] if r["name"] != "Carla"] == [None, None]
    end(client, game_id)
    page = phones["Carla"].get(f"/g/{game_id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "1,800" in page and "25 points" not in page and "22 points" in page


def test_strangers_are_sent_to_join(app, client):
    game_id, _, _ = play(app, client)
    stranger = app.test_client()
    assert stranger.get(f"/g/{game_id}/results").status_code == 302
    assert stranger.get(f"/g/{game_id}/results.csv").status_code == 302
