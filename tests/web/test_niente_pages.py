"""Niente è come sembra on the pages: what ends the game and how far it is, the deed page's
sale to the bank (and why a built deed waits for its hotel to be sold), a hotel-only title deed,
the bank's hotels and the final count's note on the results."""

from __future__ import annotations

from companion import services

from .test_pages import keyed, open_table, sit_down, start

EN = {"Accept-Language": "en"}


def page(client, path) -> str:
    """The page's HTML in English, with the spaces money is written with made plain."""
    html = client.get(path, headers=EN).get_data(as_text=True)
    return html.replace("\u00a0", " ").replace("\u202f", " ")


def act_on_deed(client, game_id, key, player_id, action, **extra):
    page = client.get(f"/g/{game_id}/deeds/{key}?as={player_id}", headers=EN).get_data(as_text=True)
    response = client.post(
        f"/g/{game_id}/deeds/{key}", data={**keyed(page, action), "deed": key, "player": player_id, **extra}
    )
    assert response.status_code == 302


def test_the_pages_of_a_hotel_only_game(client, app):
    game_id, _ = open_table(client, edition="niente-e-come-sembra")
    start(client, game_id)
    with app.app_context():
        anna = next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
    table = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert "It ends by itself as soon as every deed is owned: 0 of 22 now." in table

    for key in ("vicolo-storto", "vicolo-cieco"):
        act_on_deed(client, game_id, key, anna, "buy")
    table = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert "every deed is owned: 2 of 22 now." in table
    bruno = sit_down(app, game_id, "Bruno")
    assert "every deed is owned: 2 of 22 now." in page(bruno, f"/g/{game_id}/me")

    deed = page(client, f"/g/{game_id}/deeds/vicolo-storto?as={anna}")
    assert "Sell to the bank for € 60" in deed and 'value="sell_to_bank"' in deed
    assert "Provisional values" in deed
    # The title deed of a hotel-only edition: a hotel's price alone, no houses anywhere.
    assert "A hotel costs" in deed and "plus 0" not in deed and "house" not in deed
    assert "Sold back to the bank for" in deed

    act_on_deed(client, game_id, "vicolo-storto", anna, "build")
    deed = page(client, f"/g/{game_id}/deeds/vicolo-storto?as={anna}")
    assert "Sell the buildings on Vicolo Storto to the bank first: then the deed." in deed
    assert 'value="sell_to_bank"' not in deed and "Break the big building" not in deed
    deeds = client.get(f"/g/{game_id}/deeds?as={anna}", headers=EN).get_data(as_text=True)
    assert "The bank has 11 hotels left." in deeds and "houses" not in deeds

    results = client.get(f"/g/{game_id}/results", headers=EN).get_data(as_text=True)
    assert "the rent of each deed they own and of each hotel, collected once from the bank" in results
    assert "Deed rents" in results and "Hotel rents" in results


def test_the_classic_deed_page_offers_no_sale_to_the_bank(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    with app.app_context():
        anna = next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
    act_on_deed(client, game_id, "vicolo-corto", anna, "buy")
    deed = client.get(f"/g/{game_id}/deeds/vicolo-corto?as={anna}", headers=EN).get_data(as_text=True)
    assert "Sell to the bank" not in deed and "Sold back to the bank" not in deed
    table = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert "every deed is owned" not in table


def test_the_train_on_the_wallet_opens_the_free_deed_it_stops_on(client, app):
    """Seed 004 lines 95-98: the wallet's Treno card names the street before the square; the
    phone then opens the free deed the train stops on, to buy or auction it."""
    game_id, _ = open_table(client, edition="niente-e-come-sembra")
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    wallet = page(anna, f"/g/{game_id}/me")
    assert "<h2>Train</h2>" in wallet and 'value="train"' in wallet
    assert "The street just before your square" in wallet and "passing Start on the way collects € 200" in wallet
    assert "the rulebook prints no board" in wallet
    assert wallet.index('value="vicolo-storto"') < wallet.index('value="vicolo-cieco"')  # in board order
    form = {**keyed(wallet, "train"), "after": "parco-dell-illusione"}
    response = anna.post(f"/g/{game_id}/me", data=form, headers=EN)
    assert response.status_code == 302 and response.location == f"/g/{game_id}/deeds/vicolo-storto"
    deed = page(anna, response.location)
    assert "Anna took the train to Vicolo Storto, passing Start: € 200." in deed
    assert 'value="buy"' in deed
    refused = anna.post(f"/g/{game_id}/me", data={**keyed(page(anna, f"/g/{game_id}/me"), "train"), "after": "x"})
    assert refused.location == f"/g/{game_id}/me"
    assert "There is no such deed in this edition." in page(anna, f"/g/{game_id}/me")
    # The Bank moves a player whose phone is not at hand, and opens the deed for them.
    with app.app_context():
        bruno = next(p.id for p in services.get_game(game_id).players if p.name == "Bruno")
    table = page(client, f"/g/{game_id}/table")
    assert 'id="train-player"' in table and "The street just before their square" in table
    form = {**keyed(table, "train"), "player": bruno, "after": "vicolo-storto"}
    response = client.post(f"/g/{game_id}/table", data=form)
    assert response.location == f"/g/{game_id}/deeds/vicolo-cieco?as={bruno}"
    assert "Bruno took the train to Vicolo Cieco." in page(client, response.location)
    # The classic board has no train squares: no card.
    classic_id, _ = open_table(client)
    start(client, classic_id)
    assert 'value="train"' not in page(sit_down(app, classic_id, "Anna"), f"/g/{classic_id}/me")
    assert 'value="train"' not in page(client, f"/g/{classic_id}/table")
