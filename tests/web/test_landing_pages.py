"""Where did I land, in every edition, through the Flask client: the board lists every square
the edition's data knows, in board order, and a square's sheet offers the move that applies
there with its amount from the edition's numbers: buy a free deed at its price, pay the base
rent of a deed bought by another, nothing (or the bank's share) on a mortgaged one, a tax, GO,
jail and the edition's own squares. Tapping the sheet's button is the move: money moves once,
from one account to another."""

from __future__ import annotations

import math
import re

import pytest

from companion import services

from .test_pages import keyed, open_table, sit_down, start

EN = {"Accept-Language": "en"}
EDITIONS = ("classic-it", "campionato-2015", "che-impresa", "motopolis", "petropolis", "niente-e-come-sembra")


def page(client, path) -> str:
    html = client.get(path, headers=EN).get_data(as_text=True)
    return html.replace("\u00a0", " ").replace("\u202f", " ")


def euros(edition, amount) -> str:
    """An amount as the English pages write it: the edition's symbol, thousands with commas."""
    return f"{edition.currency_symbol} {amount:,}"


def post(client, path, html, action, **extra):
    """Posts the sheet's form of ``action`` as a tap would; returns where the answer sends."""
    form = re.search(rf'<form[^>]*>(?:(?!</form>).)*value="{action}"(?:(?!</form>).)*</form>', html, re.S).group(0)
    fields = dict(re.findall(r'name="(csrf_token|key|type|deed|payment|square|reason|to|pot)" value="([^"]*)"', form))
    response = client.post(path, data={**fields, **extra})
    assert response.status_code == 302
    return response.location


def state(app, game_id):
    with app.app_context():
        game = services.get_game(game_id)
        return (
            {p.name: p for p in game.players},
            {h.deed_key: h for h in game.holdings},
            services.edition_of(game),
        )


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_the_board_and_what_each_square_offers(client, app, edition_id):
    game_id, _ = open_table(client, edition=edition_id)
    start(client, game_id)
    anna, bruno = sit_down(app, game_id, "Anna"), sit_down(app, game_id, "Bruno")
    players, holdings, edition = state(app, game_id)
    spaces = services.board_spaces(edition)

    # Every square, in board order: the placed ones by position, then the others.
    board = page(anna, f"/g/{game_id}/land")
    links = re.findall(rf'href="/g/{game_id}/land/(\w+)/([\w-]+)"', board)
    assert links == [(s.kind, s.key) for s in spaces]
    placed = [s.position for s in spaces if s.position is not None]
    assert placed == sorted(placed) and len(placed) >= len(edition.deeds)
    assert {s.key for s in spaces if s.kind == "deed"} == {d.key for d in edition.deeds}
    for deed in edition.deeds:
        assert f'<span class="land-name">{deed.name}</span>' in board.replace("&#39;", "'")
    assert ("The rulebook prints no board" in board) is any(s.position is None for s in spaces)

    # Typing part of a name: without JavaScript the server hides the others.
    streets = [d for d in edition.deeds if edition.group(d.group).kind == "street"]
    word = streets[0].name.split()[-1]
    found = page(anna, f"/g/{game_id}/land?q={word.lower()}")
    shown = re.findall(r'<li data-search="[^"]*">\s*<a class="land-square" id="land-deed-([\w-]+)"', found)
    assert streets[0].key in shown and len(shown) < len(edition.deeds)
    assert 'id="land-no-match" hidden' in found
    assert 'id="land-no-match" hidden' not in page(anna, f"/g/{game_id}/land?q=zzzz")

    # A free deed: buy it at its printed price, or auction it; the tap buys it.
    # Free deeds whose group Bruno will not hold whole once he buys them: the rent is the base.
    free = [d for d in streets if holdings[d.key].owner_id is None]
    bruno_id = players["Bruno"].id

    def short_of_group(deed):
        rest = [o for o in edition.deeds_in_group(deed.group) if o.key != deed.key]
        return any(holdings[o.key].owner_id != bruno_id for o in rest)

    bought = next(d for d in free if short_of_group(d))
    mortgaged = next(d for d in free if d.group != bought.group and short_of_group(d))
    sheet_path = f"/g/{game_id}/land/deed/{bought.key}"
    sheet = page(bruno, sheet_path)
    assert "Nobody owns it: the bank sells it." in sheet
    assert f"Buy for {euros(edition, bought.price)}" in sheet and 'value="auction_start"' in sheet
    assert "data-confirm" not in sheet  # the sheet names the move and its amount: the tap is the confirmation
    before = players["Bruno"].cash
    assert post(bruno, sheet_path, sheet, "buy") == f"/g/{game_id}/me"
    players, holdings, _ = state(app, game_id)
    assert holdings[bought.key].owner_id == players["Bruno"].id
    assert players["Bruno"].cash == before - bought.price

    # Bought by Bruno, no buildings: Anna pays him the first rent of its table.
    sheet_path = f"/g/{game_id}/land/deed/{bought.key}"
    sheet = page(anna, sheet_path)
    rent = bought.rents[0]
    assert "Owner: Bruno" in sheet and f"Pay rent to Bruno: {euros(edition, rent)}" in sheet
    cash = {name: p.cash for name, p in players.items()}
    assert post(anna, sheet_path, sheet, "pay_rent") == f"/g/{game_id}/me"
    players, holdings, _ = state(app, game_id)
    assert players["Anna"].cash == cash["Anna"] - rent and players["Bruno"].cash == cash["Bruno"] + rent
    assert "It is yours: nothing to pay." in page(bruno, sheet_path)

    # A deed Bruno bought and mortgaged: no rent to him; where the edition has the bank take a
    # share of the rent, that share to the bank.
    sheet = page(bruno, f"/g/{game_id}/land/deed/{mortgaged.key}")
    post(bruno, f"/g/{game_id}/land/deed/{mortgaged.key}", sheet, "buy")
    deed_page = page(bruno, f"/g/{game_id}/deeds/{mortgaged.key}")
    if 'value="mortgage"' in deed_page:
        post(bruno, f"/g/{game_id}/deeds/{mortgaged.key}", deed_page, "mortgage")
        sheet = page(anna, f"/g/{game_id}/land/deed/{mortgaged.key}")
        assert "mortgaged" in sheet and "Pay rent to Bruno" not in sheet
        share = edition.mortgaged_rent.share_percent
        if share:
            assert f"Pay rent to the bank: {euros(edition, math.ceil(mortgaged.rents[0] * share / 100))}" in sheet
        else:
            assert 'value="pay_rent"' not in sheet and 'id="land-closed-pay_rent"' in sheet

    # A tax: one button with its amount, paid to the bank.
    taxes = [s for s in spaces if s.kind == "tax"]
    for tax in taxes[:1]:
        path = f"/g/{game_id}/land/tax/{tax.key}"
        sheet = page(anna, path)
        assert f"Pay {tax.payment.name('en')}: {euros(edition, tax.payment.amount)}" in sheet
        before = state(app, game_id)[0]["Anna"].cash
        assert post(anna, path, sheet, "pay_fixed") == f"/g/{game_id}/me"
        assert state(app, game_id)[0]["Anna"].cash == before - tax.payment.amount

    # GO, jail and the edition's own squares.
    go = page(anna, f"/g/{game_id}/land/start/start")
    if edition.salary.dice_multiplier:
        assert f"GO: collect {edition.salary.dice_multiplier} × dice" in go
    else:
        assert f"GO: collect {euros(edition, edition.salary.amount)}" in go
    assert "Just visiting: nothing to pay." in page(anna, f"/g/{game_id}/land/jail/jail")
    assert 'value="go_to_jail"' in page(anna, f"/g/{game_id}/land/go_to_jail/go_to_jail")
    for square in edition.squares:
        sheet = page(anna, f"/g/{game_id}/land/square/{square.key}")
        assert f'name="square" value="{square.key}"' in sheet or f"<strong>{square.name('en')}:</strong>" in sheet
    for deck in edition.card_squares:
        path = f"/g/{game_id}/land/card/{deck.key}-{deck.positions[0]}"
        sheet = page(anna, path)
        assert "Draw a card and do what it says." in sheet
        before = state(app, game_id)[0]["Anna"].cash
        assert post(anna, path, sheet, "collect", amount="50") == f"/g/{game_id}/me"
        assert state(app, game_id)[0]["Anna"].cash == before + 50
        assert deck.name("en") in page(anna, f"/g/{game_id}/me")  # the reason, in the feed
    if edition.corners.free_parking is not None:
        assert "Nothing happens here." in page(anna, f"/g/{game_id}/land/free_parking/free_parking")
    if edition.train:
        assert 'value="train"' in page(anna, f"/g/{game_id}/land/train/train")
    assert anna.get(f"/g/{game_id}/land/deed/nowhere", headers=EN).status_code == 404


def test_a_special_square_taps_through_its_sheet(client, app):
    """Motopolis' A.S.I. on its sheet: collect 100, pay 50 back, the net on the button."""
    game_id, _ = open_table(client, edition="motopolis")
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    path = f"/g/{game_id}/land/square/asi"
    sheet = page(anna, path)
    assert "+€ 50" in sheet
    before = state(app, game_id)[0]["Anna"].cash
    assert post(anna, path, sheet, "square") == f"/g/{game_id}/me"
    assert state(app, game_id)[0]["Anna"].cash == before + 50
    # A refusal comes back to the sheet, in words.
    refused = anna.post(path, data={**keyed(sheet, "square"), "square": "nowhere"})
    assert refused.location == path


def test_a_stranger_is_sent_to_join(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    stranger = app.test_client()
    assert stranger.get(f"/g/{game_id}/land").status_code == 302
    assert stranger.get(f"/g/{game_id}/land/start/start").status_code == 302
