"""Petropolis on the pages: the box's building counts on the new-game form, the International
Court and its reminder on the wallet, an auction declined on a deed page (the decliner does not
bid), and a tie at the end played off from the table for ten more minutes."""

from __future__ import annotations

from companion import services
from companion.store import Game, db
from tests.conftest import act

from .test_pages import csrf, keyed, open_table, start

EN = {"Accept-Language": "en"}


def page(client, path) -> str:
    html = client.get(path, headers=EN).get_data(as_text=True)
    return html.replace("\u00a0", " ").replace("\u202f", " ")


def bank_of(app, game_id):
    with app.app_context():
        state = services.state_of(services.get_game(game_id), deeds=False)
        return state.bank_small, state.bank_big, state.settings["supply_small"], state.settings["supply_big"]


def test_the_box_counts_of_towers_and_platforms_are_set_on_the_new_game_form(client, app):
    home = page(client, "/")
    assert 'name="supply_small_petropolis"' in home and "the buildings in your box" in home
    game_id, _ = open_table(client, edition="petropolis", supply_small_petropolis="24", supply_big_petropolis="")
    assert bank_of(app, game_id) == (24, 12, 24, None)
    game_id, _ = open_table(client, edition="petropolis")
    assert bank_of(app, game_id) == (32, 12, None, None)


def test_a_bad_box_count_is_refused_and_opens_nothing(client, app):
    with app.app_context():
        before = db.session.query(Game).count()
    home = page(client, "/")
    response = client.post(
        "/games",
        data={
            "csrf_token": csrf(home),
            "edition": "petropolis",
            "name": ["Anna", "Bruno"],
            "supply_big_petropolis": "x",
        },
        headers=EN,
        follow_redirects=True,
    )
    assert "supply_big" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).count() == before


def test_the_court_and_a_declined_auction_on_the_phone(client, app):
    game_id, _ = open_table(client, edition="petropolis", banker_plays="1")  # the banker is Anna
    start(client, game_id)
    wallet = page(client, f"/g/{game_id}/me")
    assert "<h2>International Court</h2>" in wallet and "GO: collect P$ 500,000" in wallet
    assert client.post(f"/g/{game_id}/me", data=keyed(wallet, "go_to_jail")).status_code == 302
    wallet = page(client, f"/g/{game_id}/me")
    assert "You are in International Court." in wallet
    assert "After 3 rounds here you must pay P$ 500,000 and leave" in wallet
    assert "While there you still collect rent, build, trade and bid." in wallet

    deed = page(client, f"/g/{game_id}/deeds/arabia-saudita")
    assert "Decline: auction it among the others" in deed and "Provisional values" in deed
    assert "P$ 200,000 plus 3 towers" in deed
    response = client.post(
        f"/g/{game_id}/deeds/arabia-saudita", data={**keyed(deed, "auction_start"), "deed": "arabia-saudita"}
    )
    assert response.status_code == 302
    wallet = page(client, f"/g/{game_id}/me")
    assert "You declined to buy this deed: the auction is among the other players." in wallet
    assert 'name="type" value="bid"' not in wallet
    assert "Anna declined to buy it and does not bid." in wallet
    assert "opens at P$ 550,000" in wallet

    table = page(client, f"/g/{game_id}/table")
    assert "A tie for first place at the count plays 10 more minutes among the tied players." in table


def test_a_tie_at_the_end_is_played_off_from_the_table(client, app):
    game_id, _ = open_table(client, names=("Anna", "Bruno"), edition="petropolis")
    start(client, game_id)
    banker = services.Caller(game_id, True, None)
    with app.app_context():
        cash = {p.id: p.cash for p in services.get_game(game_id).players}
        rich, poor = sorted(cash, key=cash.get, reverse=True)
        if cash[rich] != cash[poor]:
            act(game_id, banker, {"type": "transfer", "from": rich, "to": "bank", "amount": cash[rich] - cash[poor]})
    table = page(client, f"/g/{game_id}/table")
    assert client.post(f"/g/{game_id}/table", data=keyed(table, "end")).status_code == 302
    table = page(client, f"/g/{game_id}/table")
    assert "The rules play 10 more minutes among the players tied for first: " in table
    assert "Start the 10-minute play-off" in table
    results = page(client, f"/g/{game_id}/results")
    assert "are tied for first place: the rules play 10 more minutes among them." in results
    assert "deeds do not count" in results and "A platform counts as 4 towers." in results
    assert client.post(f"/g/{game_id}/table", data=keyed(table, "play_off")).status_code == 302
    table = page(client, f"/g/{game_id}/table")
    assert "Play-off for first place: " in table and "play on among themselves" in table
    assert "play 10 more minutes among themselves." in table  # the feed
    assert "Start the 10-minute play-off" not in table
    results = page(client, f"/g/{game_id}/results")
    assert "Standings so far" in results and "play 10 more minutes among themselves; the others keep" in results


def test_a_wallet_shows_no_empty_to_the_bank_card_where_the_board_has_no_taxes(client, app):
    """Petropolis has no fixed payments to the bank: no row of tax buttons with nothing in it
    (paying the bank any amount is in Pay, above); the classic board keeps its tax buttons. (The
    wallet built around the turn, issue 31, puts them under Pay without a heading of their own.)"""
    game_id, _ = open_table(client, edition="petropolis", banker_plays="1")
    start(client, game_id)
    assert 'id="taxes"' not in page(client, f"/g/{game_id}/me")
    game_id, _ = open_table(client, edition="classic-it", banker_plays="1")
    start(client, game_id)
    wallet = page(client, f"/g/{game_id}/me")
    assert 'id="taxes"' in wallet and 'value="pay_fixed"' in wallet


def test_the_trade_form_says_deeds_wait_until_the_bank_has_sold_them_all(client, app):
    """Seed 003 line 35: deeds are traded once the bank has sold every one. The form offers
    none until then and says why once, with what can change hands now."""
    game_id, _ = open_table(client, edition="petropolis", banker_plays="1")
    start(client, game_id)
    trade = page(client, f"/g/{game_id}/trade")
    assert 'id="trade-deeds-closed"' in trade and 'name="give_deeds"' not in trade
    assert "Deeds change hands between players only once the bank has sold them all: " in trade
    assert "still with the bank. Cash and get-out-of-jail cards can change hands now." in trade
    banker = services.Caller(game_id, True, None)
    with app.app_context():
        state = services.state_of(services.get_game(game_id))
        first = next(iter(state.players))
        act(game_id, banker, {"type": "transfer", "from": "bank", "to": first, "amount": 10_000_000})
        for key, ds in state.deeds.items():
            if ds.owner is None:
                act(game_id, banker, {"type": "buy", "deed": key, "player": first})
    trade = page(client, f"/g/{game_id}/trade")
    assert 'id="trade-deeds-closed"' not in trade and 'name="give_deeds"' in trade
