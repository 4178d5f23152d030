"""What happened to me: each kind of change that touches a player, said to that player only."""

from __future__ import annotations

import re

import pytest

from companion import services
from companion.services import Caller
from companion.web.feed import describe
from companion.web.notices import KEPT, notices_for, recent_entries
from tests.api.gamekit import ok
from tests.conftest import Game


@pytest.fixture
def told(app):
    """``told(game, name)``: the notices of player ``name``, newest first, in English."""

    def read(game, name):
        with app.test_request_context(headers={"Accept-Language": "en"}):
            row = services.get_game(game.id)
            return [n["text"] for n in notices_for(row, Caller(game.id, False, game.ids[name]))]

    return read


def test_money_from_another_player_says_from_whom_and_what_for(api, told):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 24, "reason": "Via Roma"}))
    assert told(game, "Bruno") == ["+€\u00a024 from Anna. (Via Roma)"]
    assert told(game, "Anna") == [] and told(game, "Carla") == []


def test_the_banker_moving_money_is_news_for_both_players(api, told):
    game = api.new_game().start()
    ok(game.act("banker", {"type": "transfer", "from": game.ids["Anna"], "to": game.ids["Carla"], "amount": 100}))
    assert told(game, "Carla") == ["+€\u00a0100 from Anna."]
    [paid] = told(game, "Anna")
    assert paid.startswith("−€\u00a0100: ") and "Carla" in paid  # then the feed's own line


def test_rent_paid_names_the_deed(api, told):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "buy", "deed": "via-roma"}))
    ok(game.act("Bruno", {"type": "pay_rent", "deed": "via-roma"}))
    assert told(game, "Anna")[0] == "+€\u00a026 from Bruno: rent on Via Roma."


def test_a_request_for_money_reaches_the_payer_and_a_refusal_the_asker(api, told):
    game = api.new_game().start()
    pending = ok(
        game.act("Anna", {"type": "request", "from": game.ids["Bruno"], "amount": 200, "reason": "half of Via Roma"})
    )["pending"]
    assert told(game, "Bruno") == ["Anna asks you for €\u00a0200. (half of Via Roma)"]
    ok(game.act("Bruno", {"type": "decline", "pending": pending}))
    assert told(game, "Anna") == ["Bruno declined to pay you €\u00a0200."]


def test_a_rent_request_reaches_the_payer(api, told):
    game = api.new_game(edition="campionato-2015").start()
    ok(game.act("Anna", {"type": "buy", "deed": "via-roma"}))
    ok(game.act("Anna", {"type": "rent_request", "deed": "via-roma", "payer": game.ids["Bruno"]}))
    assert told(game, "Bruno") == ["Anna asks you for M\u00a026 rent on Via Roma."]  # the championship's M


def test_a_trade_offered_then_accepted_or_refused(api, told):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "buy", "deed": "via-roma"}))
    side = {"cash": 0, "deeds": ["via-roma"], "jail_cards": 0}
    money = {"cash": 300, "deeds": [], "jail_cards": 0}
    trade = ok(game.act("Anna", {"type": "trade_propose", "to": game.ids["Bruno"], "give": side, "get": money}))[
        "trade"
    ]
    assert told(game, "Bruno") == ["Anna offers you a trade: Via Roma for €\u00a0300."]
    ok(game.act("Bruno", {"type": "trade_reject", "trade": trade}))
    assert told(game, "Anna")[0] == "Bruno refused your trade."
    trade = ok(game.act("Anna", {"type": "trade_propose", "to": game.ids["Bruno"], "give": side, "get": money}))[
        "trade"
    ]
    ok(game.act("Bruno", {"type": "trade_accept", "trade": trade}))
    assert told(game, "Anna")[0] == "Bruno accepted your trade."
    assert told(game, "Bruno") == ["Anna offers you a trade: Via Roma for €\u00a0300."] * 2


def test_an_auction_outbids_then_tells_the_winner_and_the_other_bidders(api, told):
    game = api.new_game().start()
    ok(game.act("banker", {"type": "auction_start", "deed": "via-verdi"}))
    ok(game.act("Anna", {"type": "bid", "amount": 60}))
    ok(game.act("Bruno", {"type": "bid", "amount": 80}))
    assert told(game, "Anna") == ["Bruno outbid you: €\u00a080."]
    assert told(game, "Carla") == []  # she did not bid
    ok(game.act("banker", {"type": "auction_close"}))
    assert told(game, "Bruno")[0] == "You won Via Verdi for €\u00a080."
    assert told(game, "Anna")[0] == "Bruno won Via Verdi for €\u00a080."
    assert told(game, "Carla") == []


def test_the_banker_who_plays_is_not_told_what_they_did_as_the_banker(app, api, told):
    with app.app_context():
        created = services.create_game("classic-it", ["Anna", "Bruno"], None, banker_seat=0)
    game = Game(api, created)
    game.start()
    ok(game.act("banker", {"type": "transfer", "from": "bank", "to": game.ids["Anna"], "amount": 50}))
    ok(game.act("banker", {"type": "transfer", "from": game.ids["Anna"], "to": game.ids["Bruno"], "amount": 20}))
    assert told(game, "Anna") == []
    assert told(game, "Bruno") == ["+€\u00a020 from Anna."]


def test_a_phone_keeps_only_the_newest_few(api, told):
    game = api.new_game().start()
    for amount in range(1, KEPT + 4):
        ok(game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": amount}))
    said = told(game, "Bruno")
    assert len(said) == KEPT
    assert said[0] == f"+€\u00a0{KEPT + 3} from Anna."


def test_the_start_is_news_for_nobody(api, told):
    game = api.new_game().start()
    assert told(game, "Anna") == [] and told(game, "Bruno") == []


def test_italian_lines_fit_the_word_before_a_name(api, app):
    """ "paga ad Anna", "alla Banca", never "a Anna" or "a la Banca" (services.elision)."""
    game = api.new_game(players=("Anna", "Bruno", "Elena")).start()
    ok(game.act("Bruno", {"type": "transfer", "to": game.ids["Anna"], "amount": 24}))
    ok(game.act("Elena", {"type": "transfer", "to": "bank", "amount": 10}))
    ok(game.act("banker", {"type": "transfer", "from": "bank", "to": game.ids["Anna"], "amount": 50}))
    with app.test_request_context(headers={"Accept-Language": "it"}):
        row = services.get_game(game.id)
        names = {p.id: p.name for p in row.players}
        feed = [describe(e, names, services.edition_of(row)) for e in recent_entries(row, 10)]
    assert "Bruno paga €\u00a024 ad Anna." in feed
    assert "Elena paga €\u00a010 alla Banca." in feed
    assert "La Banca paga €\u00a050 ad Anna." in feed


@pytest.fixture
def notices(app):
    """``notices(game, name)``: the notices of player ``name``, newest first, whole, in English."""

    def read(game, name):
        with app.test_request_context(headers={"Accept-Language": "en"}):
            return notices_for(services.get_game(game.id), Caller(game.id, False, game.ids[name]))

    return read


def test_a_request_s_notice_carries_its_answer_while_it_waits(api, notices):
    game = api.new_game().start()
    pending = ok(game.act("Anna", {"type": "request", "from": game.ids["Bruno"], "amount": 200}))["pending"]
    [asked] = notices(game, "Bruno")
    assert asked["asks"] == {
        "id": pending,
        "rent": False,
        "amount": "€\u00a0200",
        "payee": game.ids["Anna"],
        "payee_name": "Anna",
        "cash": "€\u00a01,500",
        "missing": None,
    }
    assert "asks" not in notices(game, "Anna") and notices(game, "Carla") == []
    ok(game.act("Bruno", {"type": "approve", "pending": pending}))
    assert "asks" not in notices(game, "Bruno")[-1]  # paid: nothing left to answer


def test_a_request_beyond_the_cash_says_what_is_missing(api, notices):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "request", "from": game.ids["Bruno"], "amount": 2_000}))
    assert notices(game, "Bruno")[0]["asks"]["missing"] == "€\u00a0500"
    ok(game.act("Carla", {"type": "transfer", "to": game.ids["Bruno"], "amount": 500}))
    assert [n.get("asks", {}).get("missing") for n in notices(game, "Bruno")] == [None, None]  # now enough


def test_a_rent_request_s_notice_is_paid_never_declined(api, notices):
    game = api.new_game(edition="campionato-2015").start()
    ok(game.act("Anna", {"type": "buy", "deed": "via-roma"}))
    ok(game.act("Anna", {"type": "rent_request", "deed": "via-roma", "payer": game.ids["Bruno"]}))
    [asked] = notices(game, "Bruno")
    assert asked["asks"]["rent"] is True and asked["asks"]["amount"] == "M\u00a026"


def test_a_trade_s_notice_names_it_until_it_is_answered(api, notices):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "buy", "deed": "via-roma"}))
    side = {"cash": 0, "deeds": ["via-roma"], "jail_cards": 0}
    money = {"cash": 300, "deeds": [], "jail_cards": 0}
    trade = ok(game.act("Anna", {"type": "trade_propose", "to": game.ids["Bruno"], "give": side, "get": money}))[
        "trade"
    ]
    assert notices(game, "Bruno")[0]["offer"] == trade
    ok(game.act("Bruno", {"type": "trade_reject", "trade": trade}))
    assert "offer" not in notices(game, "Bruno")[0]


def test_the_notice_s_pay_posts_without_javascript_and_pays_once(app):
    """The form the toast offers is the wallet's own: posted twice with its key, it pays once;
    a request beyond the cash gets no Pay, on the notice or on the wallet's card."""
    from tests.web.test_pages import cash, open_table, sit_down, start

    client = app.test_client()
    game_id, _ = open_table(client)
    anna, bruno = sit_down(app, game_id, "Anna"), sit_down(app, game_id, "Bruno")
    start(client, game_id)
    with app.app_context():
        bruno_id = next(p.id for p in services.get_game(game_id).players if p.name == "Bruno")
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    ask = dict(re.findall(r'name="(csrf_token|key|type)" value="([^"]*)"', _form(page, "request")))
    assert anna.post(f"/g/{game_id}/me", data={**ask, "from": bruno_id, "amount": "60"}).status_code == 302

    page = bruno.get(f"/g/{game_id}/me", headers={"Accept-Language": "en"}).get_data(as_text=True)
    notice = re.search(r'<ol id="notices".*?</ol>', page, re.S).group(0)
    pay = dict(re.findall(r'name="(csrf_token|key|type|pending)" value="([^"]*)"', _form(notice, "approve")))
    assert pay["type"] == "approve" and pay["key"] and "Pay €\u00a060 to Anna?" in notice
    assert 'value="decline"' in notice
    for _tap in range(2):  # a double tap: the same key
        assert bruno.post(f"/g/{game_id}/me", data=pay).status_code == 302
    assert cash(app, game_id) == {"Anna": 1560, "Bruno": 1440, "Carla": 1500}

    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    ask = dict(re.findall(r'name="(csrf_token|key|type)" value="([^"]*)"', _form(page, "request")))
    assert anna.post(f"/g/{game_id}/me", data={**ask, "from": bruno_id, "amount": "5000"}).status_code == 302
    page = bruno.get(f"/g/{game_id}/me", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'value="approve"' not in page
    assert page.count("You have €\u00a01,440: €\u00a03,560 missing.") == 2  # the notice and the card
    assert f"bankrupt_to={_anna(app, game_id)}#danger-zone" in page


def _form(html: str, action: str) -> str:
    return re.search(rf'<form[^>]*>(?:(?!</form>).)*value="{action}"(?:(?!</form>).)*</form>', html, re.S).group(0)


def _anna(app, game_id) -> str:
    with app.app_context():
        return next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
