"""Motopolis on the pages: the seventh seat only when the banker does not play, the squares as
one-tap buttons, Attesa ricambi and the sosta bisognino on the wallet, the laps left on a
mortgaged deed, the end after 40 rounds and the final count's note."""

from __future__ import annotations

import re

from companion import services

from .test_pages import csrf, keyed, open_table, sit_down, start

EN = {"Accept-Language": "en"}
SEVEN = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gino")


def page(client, path) -> str:
    """The page's HTML in English, with the spaces money is written with made plain."""
    html = client.get(path, headers=EN).get_data(as_text=True)
    return html.replace("\u00a0", " ").replace("\u202f", " ")


def post_square(client, game_id, key, **extra):
    wallet = page(client, f"/g/{game_id}/me")
    form = re.search(
        rf'<form[^>]*>(?:(?!</form>).)*name="square" value="{key}"(?:(?!</form>).)*</form>', wallet, re.S
    ).group(0)
    fields = dict(re.findall(r'name="(csrf_token|key|type|square)" value="([^"]*)"', form))
    response = client.post(f"/g/{game_id}/me", data={**fields, **extra})
    assert response.status_code == 302


def test_seven_players_only_when_the_banker_does_not_play(client):
    home = page(client, "/")
    assert "Motopolis: 7 players only when the banker does not play" in home
    response = client.post(
        "/games",
        data={"csrf_token": csrf(home), "edition": "motopolis", "name": list(SEVEN), "banker_plays": "1"},
        headers=EN,
    )
    assert response.status_code == 302 and response.location == "/"
    assert "When the banker plays too, this game takes at most 6 players." in page(client, "/")
    game_id, _ = open_table(client, names=SEVEN, edition="motopolis", house_sizes_motopolis="1")
    assert game_id


def test_seven_players_are_a_house_rule_ticked_on_the_form(client):
    """Seed 002 lines 11 and 18-23: seven only as a house rule, whose values the form shows as
    the edition file's own; without the box seven names are refused, saying why."""
    home = page(client, "/")
    assert 'name="house_sizes_motopolis"' in home and "Motopolis with 7 players" in home
    assert "this house rule plays them at the edition file's own values, € 7,000 and 1 deed each" in home
    response = client.post(
        "/games", data={"csrf_token": csrf(home), "edition": "motopolis", "name": list(SEVEN)}, headers=EN
    )
    assert response.status_code == 302 and response.location == "/"
    assert "The rulebook gives no starting cash for 7 players" in page(client, "/")
    six, _ = open_table(client, names=SEVEN[:6], edition="motopolis")
    assert "does not play them as a house rule" in page(client, f"/g/{six}/table")
    game_id, _ = open_table(client, names=SEVEN, edition="motopolis", house_sizes_motopolis="1")
    table = page(client, f"/g/{game_id}/table")
    assert "Start: pay € 7,000 to each player" in table
    assert "House rule: the rulebook gives no starting values for 7 players; these are the edition file's own." in table


def test_a_motopolis_wallet_and_deed(client, app):
    game_id, _ = open_table(client, edition="motopolis", banker_plays="1")  # the banker is Anna
    start(client, game_id)
    with app.app_context():
        game = services.get_game(game_id)
        ids = {p.name: p.id for p in game.players}
        anna_deed = next(h.deed_key for h in game.holdings if h.owner_id == ids["Anna"])
    wallet = page(client, f"/g/{game_id}/me")
    for name in ("Petrol station", "A.S.I.", "Police checkpoint", "Comfort stop", "Motorway toll"):
        assert name in wallet
    assert "Pay € 20, then roll at once: 6, 7, 8 wins € 5 from the bank." in wallet
    assert "<h2>Waiting for spare parts</h2>" in wallet
    assert "The game ends after round 40, counted by the bank (now round <span data-turn-round>1</span>)" in wallet
    assert "GO: collect € 1,000" in wallet

    post_square(client, game_id, "sosta-bisognino")
    wallet = page(client, f"/g/{game_id}/me")
    assert "You sit out 1 turn. No trades until then." in wallet
    assert "sits out the next turn" in page(client, f"/g/{game_id}/table")

    post_square(client, game_id, "posto-di-blocco", dice="3")
    wallet = page(client, f"/g/{game_id}/me")
    assert "You can leave from your next turn" in wallet and "Turns waited: 0 of 3." in wallet
    assert "While there you cannot build or bid in auctions." in wallet
    assert 'value="pay_jail_fine"' not in wallet  # not before the next turn
    assert '<span class="tag tag-warn">Waiting for spare parts</span>' in page(client, f"/g/{game_id}/table")

    # A mortgaged deed says how many laps are left to lift it.
    deed = page(client, f"/g/{game_id}/deeds/{anna_deed}")
    assert (
        client.post(f"/g/{game_id}/deeds/{anna_deed}", data={**keyed(deed, "mortgage"), "deed": anna_deed}).status_code
        == 302
    )
    deed = page(client, f"/g/{game_id}/deeds/{anna_deed}")
    assert "3 laps left to lift the mortgage." in deed
    assert "50% of the rent to the bank" in deed
    assert "Provisional values" in deed

    bruno = sit_down(app, game_id, "Bruno")
    assert "No trades until then." not in page(bruno, f"/g/{game_id}/me")
    results = page(client, f"/g/{game_id}/results")
    assert "this formula is the edition file" in results and "A dealership counts as 5 service stations." in results
