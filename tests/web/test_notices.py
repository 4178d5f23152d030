"""What happened to me: each kind of change that touches a player, said to that player only."""

from __future__ import annotations

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
