"""The deed pages on the phone (issue 12): every deed as a tile in board order, findable by name;
a deed's page with the action that applies now on top and the rent that applies now marked; the
quick raises of an auction; the trade form offering only what each side can hand over; my cash
and the way back to my wallet on every game page. Amounts are worked out from the edition's
data, never copied from the page."""

from __future__ import annotations

import re
import uuid

from companion import services
from tests.conftest import act

from .test_pages import keyed, open_table, sit_down, start

EN = {"Accept-Language": "en"}


def page(client, path) -> str:
    html = client.get(path, headers=EN).get_data(as_text=True)
    return html.replace("\u00a0", " ")


def euros(amount: int) -> str:
    return f"€ {amount:,}"


def table(client, app, edition="classic-it"):
    """A started game of Anna, Bruno and Carla; Anna's phone; the players' ids; the edition."""
    game_id, _ = open_table(client, edition=edition)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    with app.app_context():
        game = services.get_game(game_id)
        ids = {p.name: p.id for p in game.players}
        edition = services.edition_of(game)
    return game_id, anna, ids, edition


def run(app, game_id, player_id, **payload):
    """One action for a player, as the banker acting for them."""
    with app.app_context():
        caller = services.Caller(game_id, True, None)
        return act(game_id, caller, {"key": uuid.uuid4().hex, "player": player_id, **payload})


def tile(html: str, key: str) -> str:
    return re.search(rf'<li id="deed-{key}".*?</li>', html, re.S).group(0)


def shown_tiles(html: str) -> list[str]:
    return re.findall(r'<li id="deed-([\w-]+)" data-search="[^"]*">', html)


def now_row(html: str) -> str | None:
    """The rent table's line marked as the one that applies now (its words), or ``None``."""
    found = re.findall(r'<div class="is-now" aria-current="true">(.*?)</div>', html, re.S)
    assert len(found) <= 1
    return " ".join(re.sub(r"<[^>]+>", " ", found[0]).split()) if found else None


def top(html: str) -> str:
    """What the page shows before the printed title deed."""
    return html[: html.index('class="title-deed"')]


# --- the list ----------------------------------------------------------------------------------


def test_every_deed_is_a_tile_in_board_order_with_its_owner_or_price(client, app):
    game_id, anna, ids, edition = table(client, app)
    run(app, game_id, ids["Anna"], type="buy", deed="vicolo-corto")
    run(app, game_id, ids["Bruno"], type="buy", deed="via-roma")
    html = page(anna, f"/g/{game_id}/deeds")
    board_order = [d.key for d in sorted(edition.deeds, key=lambda d: d.position)]
    assert re.findall(r'<li id="deed-([\w-]+)"', html) == board_order
    mine = tile(html, "vicolo-corto")
    assert "is-mine" in mine and "Yours" in mine and edition.group("brown").name("en") in mine
    assert "Bruno" in tile(html, "via-roma") and "is-mine" not in tile(html, "via-roma")
    corso = edition.deed("corso-impero")
    assert f"For sale · <strong>{euros(corso.price)}</strong>" in tile(html, "corso-impero")
    assert f'href="/g/{game_id}/deeds/corso-impero"' in tile(html, "corso-impero")
    assert 'src="/static/js/deeds.js' in html and 'id="deed-q"' in html


def test_the_search_without_javascript_keeps_the_tiles_that_match(client, app):
    game_id, anna, _ids, edition = table(client, app)
    html = page(anna, f"/g/{game_id}/deeds?q=VIALE")
    by_position = sorted(edition.deeds, key=lambda d: d.position)
    assert shown_tiles(html) == [d.key for d in by_position if "viale" in d.name.lower()]
    assert len(shown_tiles(html)) >= 2
    # Accents and case do not matter: "universita" finds "Piazza Università".
    assert shown_tiles(page(anna, f"/g/{game_id}/deeds?q=universita")) == ["piazza-universita"]
    nothing = page(anna, f"/g/{game_id}/deeds?q=zzz")
    assert shown_tiles(nothing) == [] and re.search(r'id="deed-no-match" >', nothing)


# --- a deed's page -----------------------------------------------------------------------------


def test_a_deed_for_sale_offers_buying_at_its_price_first(client, app):
    game_id, anna, _ids, edition = table(client, app)
    html = page(anna, f"/g/{game_id}/deeds/corso-impero")
    first = top(html)
    assert f"Buy for {euros(edition.deed('corso-impero').price)}" in first and "Auction it" in first
    assert first.index("Buy for") < first.index("Auction it") and now_row(html) is None


def test_the_rent_owed_to_another_player_is_on_top_and_marked_in_the_table(client, app):
    game_id, anna, ids, edition = table(client, app)
    bruno = ids["Bruno"]
    roma = edition.deed("via-roma")
    run(app, game_id, bruno, type="buy", deed="via-roma")
    html = page(anna, f"/g/{game_id}/deeds/via-roma")
    assert f"Pay rent to Bruno: {euros(roma.rents[0])}" in top(html)
    assert now_row(html) == f"Rent now {euros(roma.rents[0])}"

    # The whole group doubles the base rent (the classic rule), and the table says so.
    for deed in edition.deeds_in_group(roma.group):
        if deed.key != roma.key:
            run(app, game_id, bruno, type="buy", deed=deed.key)
    html = page(anna, f"/g/{game_id}/deeds/via-roma")
    assert f"Pay rent to Bruno: {euros(roma.rents[0] * 2)}" in top(html)
    assert now_row(html) == f"Whole group, nothing built now {euros(roma.rents[0] * 2)}"

    run(app, game_id, bruno, type="build", deed="via-roma")
    html = page(anna, f"/g/{game_id}/deeds/via-roma")
    assert f"Pay rent to Bruno: {euros(roma.rents[1])}" in top(html)
    assert now_row(html) == f"With 1 house now {euros(roma.rents[1])}"


def test_stations_utilities_and_mortgages_on_top(client, app):
    game_id, anna, ids, edition = table(client, app)
    bruno = ids["Bruno"]
    for key in ("stazione-sud", "stazione-nord", "societa-elettrica"):
        run(app, game_id, bruno, type="buy", deed=key)
    html = page(anna, f"/g/{game_id}/deeds/stazione-sud")
    assert f"Pay rent to Bruno: {euros(edition.station_rents[1])}" in top(html)
    assert now_row(html) == f"With 2 stations owned now {euros(edition.station_rents[1])}"
    # A utility asks the dice total, as before; its line is the one for one utility owned.
    html = page(anna, f"/g/{game_id}/deeds/societa-elettrica")
    assert 'id="rent-dice"' in top(html) and "Pay the rent to Bruno" in top(html)
    assert now_row(html) == f"With 1 utility owned now {edition.utility_multipliers[0]} × the dice"
    # A mortgaged deed asks nothing in the classic rules: said on top, no line marked.
    run(app, game_id, bruno, type="mortgage", deed="stazione-nord")
    html = page(anna, f"/g/{game_id}/deeds/stazione-nord")
    assert "Stazione Nord is mortgaged: no rent is due." in top(html)
    assert "Pay rent" not in html and now_row(html) is None


def test_the_big_building_is_broken_only_where_there_is_one(client, app):
    game_id, anna, ids, edition = table(client, app)
    me = ids["Anna"]
    brown = [d.key for d in edition.deeds_in_group("brown")]
    for key in brown:
        run(app, game_id, me, type="buy", deed=key)
    for _ in range(edition.buildings.max_small):
        for key in brown:
            run(app, game_id, me, type="build", deed=key)
    html = page(anna, f"/g/{game_id}/deeds/{brown[0]}")
    assert "Sell a building" in html and "Break the" not in html and 'name="break_hotel"' not in html
    with app.app_context():
        version = services.get_game(game_id).version
    refused = anna.post(
        f"/g/{game_id}/deeds/{brown[0]}",
        headers=EN,
        follow_redirects=True,
        data={**keyed(html, "sell_building"), "deed": brown[0], "break_hotel": "1"},
    )
    assert "has no big building to break" in refused.get_data(as_text=True)
    with app.app_context():
        assert services.get_game(game_id).version == version
    run(app, game_id, me, type="build", deed=brown[0])  # the hotel
    html = page(anna, f"/g/{game_id}/deeds/{brown[0]}")
    assert "Break the hotel into houses" in html and 'name="break_hotel"' in html
    assert now_row(html) == f"With a hotel now {euros(edition.deed(brown[0]).rents[-1])}"


def test_no_building_line_where_nothing_is_ever_built(client, app):
    game_id, anna, ids, _edition = table(client, app)
    run(app, game_id, ids["Anna"], type="buy", deed="stazione-sud")
    run(app, game_id, ids["Anna"], type="buy", deed="via-roma")
    station = page(anna, f"/g/{game_id}/deeds/stazione-sud")
    assert "Nothing can be built" not in station and 'id="closed-build"' not in station
    assert "Mortgage for" in station
    # Where building applies, the page still says why it is closed now.
    street = page(anna, f"/g/{game_id}/deeds/via-roma")
    assert 'id="closed-build"' in street and "needs its whole group" in street


# --- auctions ----------------------------------------------------------------------------------


def test_the_quick_raises_scale_with_the_editions_money(app):
    with app.app_context():
        editions = services.editions()
    from companion.web.deeds import raise_steps

    classic = editions["classic-it"]
    # Classic: deeds from 60, a fifth of it (12) rounds down to 10; the minimum raise is 1.
    assert min(d.price for d in classic.deeds) // 5 // 10 == 1 and classic.auction.min_raise == 1
    assert raise_steps(classic) == (10, 50, 100)
    # Petropolis: a fifth of its cheapest deed is below its minimum raise, which sets the unit.
    petropolis = editions["petropolis"]
    least = petropolis.auction.min_raise
    assert min(d.price for d in petropolis.deeds) // 5 < least
    assert raise_steps(petropolis) == (least, 5 * least, 10 * least)


def test_a_quick_raise_bids_the_high_bid_plus_its_step(client, app):
    game_id, anna, ids, edition = table(client, app)
    carla = sit_down(app, game_id, "Carla")
    run(app, game_id, ids["Bruno"], type="auction_start", deed="via-roma")
    run(app, game_id, ids["Bruno"], type="bid", amount=120)
    from companion.web.deeds import raise_steps

    steps = raise_steps(edition)
    wallet = page(anna, f"/g/{game_id}/me")
    offered = [int(a) for a in re.findall(r'name="amount" value="(\d+)"', wallet)]
    assert offered == [120 + step for step in steps]
    assert f'data-confirm="Bid {euros(120 + steps[0])}?"' in wallet
    form = re.search(r'<form method="post" id="quick-bid-1".*?</form>', wallet, re.S).group(0)
    fields = dict(re.findall(r'name="(csrf_token|key|type|amount)" value="([^"]*)"', form))
    assert anna.post(f"/g/{game_id}/me", data=fields).status_code == 302
    with app.app_context():
        auction = services.get_game(game_id).auction
    assert auction["high_bid"] == 120 + steps[0] and auction["high_bidder"] == ids["Anna"]
    # The high bidder is offered no raise of their own bid.
    assert 'id="quick-bid-1"' not in page(anna, f"/g/{game_id}/me")
    # A raise above the bidder's cash is not offered where the edition refuses such bids.
    assert not edition.auction.bids_above_cash
    with app.app_context():
        cash = next(p.cash for p in services.get_game(game_id).players if p.name == "Carla")
    high = 120 + steps[0]
    run(app, game_id, ids["Carla"], type="transfer", to="bank", amount=cash - (high + steps[0]))
    offered = [
        int(a)
        for a in re.findall(r'id="quick-bid-\d".*?name="amount" value="(\d+)"', page(carla, f"/g/{game_id}/me"), re.S)
    ]
    assert offered == [high + steps[0]]


# --- trades ------------------------------------------------------------------------------------


def fieldset(html: str, owner: str) -> str:
    return re.search(rf'<fieldset class="deed-picks" data-owner="{owner}".*?</fieldset>', html, re.S).group(0)


def test_the_trade_form_offers_each_partners_deeds_that_can_be_traded(client, app):
    game_id, anna, ids, edition = table(client, app)
    brown = [d.key for d in edition.deeds_in_group("brown")]
    for key in brown:
        run(app, game_id, ids["Anna"], type="buy", deed=key)
    run(app, game_id, ids["Anna"], type="build", deed=brown[0])
    run(app, game_id, ids["Anna"], type="buy", deed="via-roma")
    run(app, game_id, ids["Bruno"], type="buy", deed="corso-impero")
    run(app, game_id, ids["Carla"], type="buy", deed="largo-augusto")
    html = page(anna, f"/g/{game_id}/trade")
    bruno, carla = fieldset(html, ids["Bruno"]), fieldset(html, ids["Carla"])
    assert re.findall(r'name="get_deeds" value="([\w-]+)"', bruno) == ["corso-impero"]
    assert re.findall(r'name="get_deeds" value="([\w-]+)"', carla) == ["largo-augusto"]
    assert "Deeds of Bruno" in bruno and "Deeds of Carla" in carla
    # My side: a group with buildings stays out, with the rule's reason.
    assert re.findall(r'name="give_deeds" value="([\w-]+)"', html) == ["via-roma"]
    assert "Sell the buildings of Vicolo Corto&#39;s group before trading it." in html
    assert 'src="/static/js/deeds.js' in html and 'id="trade-form"' in html


def test_a_mortgaged_deed_is_not_offered_where_the_edition_keeps_it_out_of_trades(client, app):
    game_id, anna, ids, edition = table(client, app, edition="motopolis")
    assert edition.mortgage.tradable is False
    with app.app_context():
        holdings = services.get_game(game_id).holdings
    bruno_deeds = [
        d.key
        for d in sorted(edition.deeds, key=lambda d: d.position)
        if next(h for h in holdings if h.deed_key == d.key).owner_id == ids["Bruno"]
    ]
    assert len(bruno_deeds) >= 2  # dealt at the start
    run(app, game_id, ids["Bruno"], type="mortgage", deed=bruno_deeds[0])
    bruno = fieldset(page(anna, f"/g/{game_id}/trade"), ids["Bruno"])
    assert re.findall(r'name="get_deeds" value="([\w-]+)"', bruno) == bruno_deeds[1:]
    assert "is mortgaged: lift the mortgage before it can go to another player." in bruno


# --- my cash and the way back --------------------------------------------------------------------


def test_every_game_page_but_the_wallet_shows_my_cash_and_the_way_back(client, app):
    game_id, anna, ids, edition = table(client, app)
    run(app, game_id, ids["Anna"], type="buy", deed="via-roma")
    cash = edition.starting_cash_for(3) - edition.deed("via-roma").price
    for path in ("deeds", "deeds/via-roma", "deeds/corso-impero", "trade", "results"):
        html = page(anna, f"/g/{game_id}/{path}")
        bar = re.search(r'<nav class="wallet-bar".*?</nav>', html, re.S)
        assert bar, path
        assert f'href="/g/{game_id}/me"' in bar.group(0) and "Wallet" in bar.group(0)
        assert f'data-cash="{cash}">{euros(cash)}</strong>' in bar.group(0), path
    assert 'class="wallet-bar"' not in page(anna, f"/g/{game_id}/me")
    # The banker who does not play has no wallet to go back to.
    assert 'class="wallet-bar"' not in page(client, f"/g/{game_id}/deeds")
    assert 'class="wallet-bar"' not in page(client, f"/g/{game_id}/deeds/via-roma")


def test_the_deed_at_auction_shows_the_bid_and_its_quick_raises(client, app):
    game_id, anna, ids, edition = table(client, app)
    run(app, game_id, ids["Bruno"], type="auction_start", deed="via-roma")
    run(app, game_id, ids["Bruno"], type="bid", amount=120)
    from companion.web.deeds import raise_steps

    steps = raise_steps(edition)
    html = page(anna, f"/g/{game_id}/deeds/via-roma")
    assert 'id="auction"' in top(html) and "by Bruno" in top(html) and "being auctioned" not in html
    offered = [int(a) for a in re.findall(r'id="quick-bid-\d".*?name="amount" value="(\d+)"', top(html), re.S)]
    assert offered == [120 + step for step in steps]
    form = re.search(r'<form method="post" id="quick-bid-2".*?</form>', html, re.S).group(0)
    fields = dict(re.findall(r'name="(csrf_token|key|type|amount)" value="([^"]*)"', form))
    response = anna.post(f"/g/{game_id}/deeds/via-roma", data=fields)
    assert response.status_code == 302 and response.location.endswith("/deeds/via-roma")
    with app.app_context():
        assert services.get_game(game_id).auction["high_bid"] == 120 + steps[1]
    # Other deeds' pages do not show this auction.
    assert 'id="quick-bid-1"' not in page(anna, f"/g/{game_id}/deeds/corso-impero")
