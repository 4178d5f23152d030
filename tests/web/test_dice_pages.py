"""The Dice card without JavaScript: the wallet and the table roll by posting a form, the last
roll is drawn on every page, and the fields that ask for a dice total come filled in with the
reader's own last roll."""

from __future__ import annotations

import re

from companion import services
from tests.web.test_pages import csrf, keyed, open_table, sit_down, start

EN = {"Accept-Language": "en"}


def ids(app, game_id):
    with app.app_context():
        return {p.name: p.id for p in services.get_game(game_id).players}


def last_roll(app, game_id):
    with app.app_context():
        return services.state_of(services.get_game(game_id), deeds=False).last_roll


def test_a_phone_rolls_with_a_form_and_every_page_shows_it(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    bruno = sit_down(app, game_id, "Bruno")
    assert 'id="last-roll"' not in anna.get(f"/g/{game_id}/me").get_data(as_text=True)  # not before the start
    start(client, game_id)
    page = anna.get(f"/g/{game_id}/me", headers=EN).get_data(as_text=True)
    assert "Nobody has rolled yet." in page and "Roll the dice" in page
    assert "Speedy" not in page and "Expropriation dice" not in page  # classic: two dice only
    response = anna.post(
        f"/g/{game_id}/me", data={**keyed(page, "roll"), "dice": "2d6"}, headers=EN, follow_redirects=True
    )
    html = response.get_data(as_text=True)
    roll = last_roll(app, game_id)
    assert roll["player"] == ids(app, game_id)["Anna"] and roll["dice"] == "2d6"
    first, second = roll["faces"]
    assert f"Anna rolled {first} + {second} = {first + second}" in html  # the flash and the feed
    assert "You rolled" in html
    assert len(re.findall(r'class="die" role="img"', html)) == 2
    assert f'data-roll-total="{first + second}"' in html

    other = bruno.get(f"/g/{game_id}/me", headers=EN).get_data(as_text=True)
    assert "Anna rolled" in other and 'data-roll-total=""' in other
    table = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert "Anna rolled" in table and 'class="dice-faces"' in table


def test_the_banker_rolls_for_a_player_from_the_table(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    players = ids(app, game_id)
    page = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert 'id="roll-player"' in page
    client.post(f"/g/{game_id}/table", data={**keyed(page, "roll"), "dice": "2d6", "player": players["Carla"]})
    roll = last_roll(app, game_id)
    assert roll["player"] == players["Carla"]
    # The picker offers whoever rolls next: Carla again after doubles, else the next in seat order.
    page = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    chosen = re.search(r'<option value="([^"]+)" selected>', page.split('id="roll-player"')[1]).group(1)
    assert chosen == (players["Carla"] if roll["doubles"] else players["Anna"])


def test_a_utility_rent_takes_the_total_of_the_payers_last_roll(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    bruno = sit_down(app, game_id, "Bruno")
    start(client, game_id)
    page = bruno.get(f"/g/{game_id}/deeds/societa-elettrica").get_data(as_text=True)
    bruno.post(f"/g/{game_id}/deeds/societa-elettrica", data={**keyed(page, "buy"), "deed": "societa-elettrica"})
    deed = anna.get(f"/g/{game_id}/deeds/societa-elettrica", headers=EN).get_data(as_text=True)
    assert re.search(r'id="rent-dice"[^>]*value=""', deed)

    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    anna.post(f"/g/{game_id}/me", data={**keyed(page, "roll"), "dice": "2d6"})
    total = last_roll(app, game_id)["total"]
    deed = anna.get(f"/g/{game_id}/deeds/societa-elettrica", headers=EN).get_data(as_text=True)
    assert re.search(rf'id="rent-dice"[^>]*value="{total}"', deed)
    assert "From your last roll." in deed
    # The owner's own page does not take Anna's roll as Bruno's.
    assert 'id="rent-dice"' not in bruno.get(f"/g/{game_id}/deeds/societa-elettrica").get_data(as_text=True)
    # The banker acting for Anna sees it as Anna's.
    players = ids(app, game_id)
    acting = client.get(f"/g/{game_id}/deeds/societa-elettrica?as={players['Anna']}", headers=EN).get_data(as_text=True)
    assert re.search(rf'id="rent-dice"[^>]*value="{total}"', acting) and "From Anna's last roll." in acting


def test_a_bad_kind_posted_is_refused_with_a_message(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    html = anna.post(
        f"/g/{game_id}/me", data={**keyed(page, "roll"), "dice": "speed"}, headers=EN, follow_redirects=True
    ).get_data(as_text=True)
    assert "This edition has no Speedy die." in html
    assert last_roll(app, game_id) is None
    assert csrf(html)
