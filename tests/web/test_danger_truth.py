"""Dangerous actions look dangerous and everything on the screen is true: the bankruptcy form
names the creditor and says what could still be raised first, a one-tap GO or tax can be
taken back for a few seconds, the feed speaks in sentences, the clock says the game is over."""

from __future__ import annotations

import html as markup
import re
from datetime import timedelta

from companion import services, store
from companion.core.take_back import TAKE_BACK_SECONDS
from companion.services import Caller
from tests.conftest import act

from .test_pages import keyed, open_table, sit_down, start

EN = {"Accept-Language": "en"}


def page(client, path) -> str:
    html = client.get(path, headers=EN).get_data(as_text=True)
    return html.replace("\u00a0", " ").replace("\u202f", " ")


def text(html: str) -> str:
    return markup.unescape(" ".join(re.sub(r"<[^>]*>", " ", html).split()))


def ids(app, game_id) -> dict:
    with app.app_context():
        return {p.name: p.id for p in services.get_game(game_id).players}


def banker_act(app, game_id, **payload):
    with app.app_context():
        return act(game_id, Caller(game_id, True, None), payload)


def test_bankruptcy_names_the_creditor_and_what_could_still_be_raised(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    who = ids(app, game_id)
    for deed in ("vicolo-corto", "vicolo-stretto"):
        banker_act(app, game_id, type="buy", player=who["Anna"], deed=deed)
    banker_act(app, game_id, type="build", player=who["Anna"], deed="vicolo-corto")
    wallet = page(anna, f"/g/{game_id}/me")
    # By hand from the classic board: a house on Vicolo Corto (cost 50) sells back at half, 25;
    # then both brown deeds mortgage at their printed 30 each: 25 + 30 + 30 = 85.
    assert "You could still raise € 85 by selling buildings and mortgaging: see your deeds" in text(wallet)
    assert f'href="/g/{game_id}/deeds"' in wallet.split('id="raise-money"')[1].split("</p>")[0]
    assert 'class="card danger-zone" id="danger-zone"' in wallet
    assert 'name="type" value="bankrupt"' not in wallet  # first, say to whom

    banker_act(app, game_id, type="buy", player=who["Bruno"], deed="parco-della-vittoria")
    banker_act(app, game_id, type="buy", player=who["Bruno"], deed="societa-elettrica")
    picked = page(anna, f"/g/{game_id}/me?bankrupt_to={who['Bruno']}")
    zone = picked.split('id="bankrupt-form"')[1].split('class="btn btn-ghost"')[0]
    assert 'data-confirm="Declare bankruptcy to Bruno? You leave the game and hand everything over."' in zone
    assert "You owe Bruno and cannot pay. What is the debt?" in text(zone)
    # Anna's cash (1,500 - 60 - 60 - 50 = 1,330) and the 85 she could raise.
    assert "accepted only for a debt above € 1,415" in text(zone)
    # The debts the rules know: the rent on each of Bruno's deeds (the utility's by the dice).
    assert '<option value="parco-della-vittoria">Parco della Vittoria · € 50</option>' in zone
    assert '<option value="societa-elettrica">Società Elettrica</option>' in zone and 'name="dice"' in zone
    assert 'name="payment"' not in zone  # taxes are owed to the bank
    assert zone.count(f'name="creditor" value="{who["Bruno"]}"') == 2 and 'name="amount"' in zone
    assert 'class="card danger-zone" id="danger-zone" open' in picked
    to_bank = page(anna, f"/g/{game_id}/me?bankrupt_to=bank")
    assert "I cannot pay this tax</button>" in to_bank and 'name="deed"' not in to_bank.split('id="bankrupt-form"')[1]
    # A creditor who is not in the game (or Anna herself) is no choice: back to the first step.
    assert 'id="bankrupt-form"' not in page(anna, f"/g/{game_id}/me?bankrupt_to={who['Anna']}")

    form = {**keyed(picked, "bankrupt"), "creditor": who["Bruno"]}
    response = anna.post(f"/g/{game_id}/me", data={**form, "deed": "parco-della-vittoria"}, headers=EN)
    assert response.status_code == 302
    refused = text(page(anna, f"/g/{game_id}/me"))  # 50 can be paid: refused, saying how much she has
    assert "Anna can still pay € 1,415" in refused and "the debt of € 50: no bankruptcy" in refused
    response = anna.post(
        f"/g/{game_id}/me", data={**keyed(picked, "bankrupt"), "creditor": who["Bruno"], "amount": 1416}
    )
    assert response.status_code == 302
    feed = text(page(client, f"/g/{game_id}/table"))
    assert "Anna cannot pay Bruno € 1,416 and goes bankrupt, out of the game." in feed
    assert "€ 1,355 passed to Bruno. 2 deeds passed to Bruno." in feed  # her cash and the house sold back


def test_mortgaged_deeds_raise_nothing_more_and_an_empty_hand_shows_no_hint(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    assert 'id="raise-money"' not in page(anna, f"/g/{game_id}/me")  # nothing owned
    who = ids(app, game_id)
    banker_act(app, game_id, type="buy", player=who["Anna"], deed="stazione-sud")
    assert "You could still raise € 100 by mortgaging: see your deeds" in text(page(anna, f"/g/{game_id}/me"))
    banker_act(app, game_id, type="mortgage", player=who["Anna"], deed="stazione-sud")
    assert 'id="raise-money"' not in page(anna, f"/g/{game_id}/me")


def test_without_mortgages_the_bank_raises_nothing_but_the_lands_still_count(client, app):
    """Che Impresa! deals deeds at the start but has no mortgages: with no businesses built the
    bank would raise nothing, but the rulebook (lines 283-287) counts the free lands in what a
    player has: at their price, the edition file's choice, which the form says."""
    game_id, _ = open_table(client, edition="che-impresa")
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    with app.app_context():
        game = services.get_game(game_id)
        worth = sum(
            services.edition_of(game).deed(h.deed_key).price
            for h in game.holdings
            if h.owner_id == ids(app, game_id)["Anna"]
        )
    assert worth
    wallet = page(anna, f"/g/{game_id}/me")
    said = text(wallet.split('id="raise-money"')[1].split("</p>")[0])
    assert "You could still raise" not in said and "Your deeds count for" in said and f"{worth:,} more" in said
    picked = text(page(anna, f"/g/{game_id}/me?bankrupt_to=bank"))
    assert "the rulebook counts them without saying at what value" in picked


def test_a_one_tap_go_is_taken_back_by_its_player_within_the_seconds(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    anna, bruno = sit_down(app, game_id, "Anna"), sit_down(app, game_id, "Bruno")
    wallet = page(anna, f"/g/{game_id}/me")
    assert 'id="take-back"' not in wallet
    assert anna.post(f"/g/{game_id}/me", data=keyed(wallet, "pass_go")).status_code == 302
    wallet = page(anna, f"/g/{game_id}/me")
    section = wallet.split('id="take-back"')[1].split("</section>")[0]
    seconds = int(re.search(r'data-take-back-seconds="(\d+)"', wallet).group(1))
    assert 8 <= seconds <= TAKE_BACK_SECONDS
    assert "Wrong button? GO +€ 200" in text(section) and "Take back" in section
    assert "js/takeback.js" in wallet
    assert 'id="take-back"' not in page(bruno, f"/g/{game_id}/me")  # not his to take back

    response = anna.post(f"/g/{game_id}/me", data=keyed(wallet, "take_back"))
    assert response.status_code == 302
    wallet = page(anna, f"/g/{game_id}/me")
    assert "Anna took back: GO +€ 200." in text(wallet)  # the flash, and the feed
    assert 'id="take-back"' not in wallet
    with app.app_context():
        game = services.get_game(game_id)
        assert {p.name: p.cash for p in game.players}["Anna"] == 1500
        assert services.verify_game(game) == []
    table = text(page(client, f"/g/{game_id}/table"))
    assert "Anna passed GO and collected € 200. (undone)" in table and "Anna took back: GO +€ 200." in table


def test_a_late_take_back_is_refused_with_a_message(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    wallet = page(anna, f"/g/{game_id}/me")
    tax = anna.post(f"/g/{game_id}/me", data={**keyed(wallet, "pay_fixed"), "payment": "luxury-tax"})
    assert tax.status_code == 302
    wallet = page(anna, f"/g/{game_id}/me")
    assert "Wrong button? Luxury tax −€ 100" in text(wallet)
    with app.app_context():  # eleven seconds later
        game = services.get_game(game_id)
        entry = services.entry_at(game, game.version)
        entry.at = entry.at - timedelta(seconds=TAKE_BACK_SECONDS + 1)
        store.db.session.commit()
    late = page(anna, f"/g/{game_id}/me")
    assert 'id="take-back"' not in late
    anna.post(f"/g/{game_id}/me", data=keyed(wallet, "take_back"))
    assert "Too late to take it back: ask the banker." in page(anna, f"/g/{game_id}/me")
    with app.app_context():
        assert {p.name: p.cash for p in services.get_game(game_id).players}["Anna"] == 1400


def test_the_clock_says_the_game_is_over(client, app):
    game_id, _ = open_table(client, time_limit="30")
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    assert "Time left" in page(anna, f"/g/{game_id}/me")
    banker_act(app, game_id, type="end")
    for html in (page(anna, f"/g/{game_id}/me"), page(client, f"/g/{game_id}/table")):
        clock = text(html.split('id="clock"')[1].split("</div>")[0])
        assert "Time left at the end" in clock and "Game over" in clock
        assert "paused" not in clock and "starts with the game" not in clock


def test_feed_lines_are_sentences_with_the_currency_sign(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    who = ids(app, game_id)
    a, b, c = who["Anna"], who["Bruno"], who["Carla"]
    steps = [
        ({"type": "transfer", "from": a, "to": b, "amount": 24}, "Anna paid Bruno € 24."),
        ({"type": "transfer", "from": a, "to": b, "amount": 5, "reason": "snacks"}, "Anna paid Bruno € 5: snacks."),
        ({"type": "collect", "player": a, "amount": 50, "reason": "card"}, "The bank paid Anna € 50: card."),
        ({"type": "pay_fixed", "player": a, "payment": "luxury-tax"}, "Anna paid Luxury tax: € 100."),
        ({"type": "buy", "player": a, "deed": "vicolo-corto"}, "Anna bought Vicolo Corto for € 60."),
        ({"type": "buy", "player": a, "deed": "vicolo-stretto"}, "Anna bought Vicolo Stretto for € 60."),
        ({"type": "pay_rent", "player": b, "deed": "vicolo-corto"}, "Bruno paid Anna € 4 rent for Vicolo Corto."),
        ({"type": "build", "player": a, "deed": "vicolo-corto"}, "Anna built a house on Vicolo Corto for € 50."),
        (
            {"type": "sell_building", "player": a, "deed": "vicolo-corto"},
            "Anna sold a house on Vicolo Corto back to the bank for € 25.",
        ),
        ({"type": "mortgage", "player": a, "deed": "vicolo-stretto"}, "Anna mortgaged Vicolo Stretto and got € 30."),
        (
            {"type": "unmortgage", "player": a, "deed": "vicolo-stretto"},
            "Anna paid € 33 to lift the mortgage on Vicolo Stretto.",
        ),
        ({"type": "auction_start", "deed": "stazione-sud"}, "Stazione Sud is up for auction, opening at"),
        ({"type": "bid", "player": c, "amount": 120}, "Carla bid € 120."),
        ({"type": "auction_close"}, "Carla won Stazione Sud at auction for € 120."),
        (
            {
                "type": "trade_propose",
                "player": c,
                "to": b,
                "give": {"cash": 10, "deeds": [], "jail_cards": 0},
                "get": {"cash": 0, "deeds": [], "jail_cards": 0},
            },
            "Carla offered Bruno a trade: € 10 for nothing.",
        ),
        ({"type": "go_to_jail", "player": b}, "Bruno went to jail."),
        ({"type": "pay_jail_fine", "player": b}, "Bruno paid € 50 and left jail."),
        (
            {"type": "request", "player": a, "from": b, "amount": 7, "reason": "pizza"},
            "Anna asked Bruno for € 7: pizza.",
        ),
    ]
    for payload, line in steps:
        banker_act(app, game_id, **payload)
        assert line in text(page(client, f"/g/{game_id}/table")), line
    with app.app_context():
        board = services.state_of(services.get_game(game_id))
        trade, asked = next(iter(board.trades)), next(iter(board.pending))
    banker_act(app, game_id, type="decline", player=b, pending=asked)
    assert "Bruno declined to pay Anna € 7." in text(page(client, f"/g/{game_id}/table"))
    banker_act(app, game_id, type="trade_accept", player=b, trade=trade)
    table = text(page(client, f"/g/{game_id}/table"))
    assert "Bruno accepted Carla's trade: € 10 for nothing." in table
    banker_act(app, game_id, type="undo")
    table = text(page(client, f"/g/{game_id}/table"))
    assert "Undid: Bruno accepted Carla's trade: € 10 for nothing." in table
    banker_act(app, game_id, type="transfer", **{"from": a, "to": c, "amount": 24})
    banker_act(app, game_id, type="undo")
    assert "Undid: Anna paid Carla € 24." in text(page(client, f"/g/{game_id}/table"))
