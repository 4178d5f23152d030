"""What an event tells each reader (``companion.live.news``): the cash it may see, and nothing
more (a test for every role and every edition, those that keep cash private above all), the
feed's line and the reader's own notice in the reader's language, and no news where a page
must fetch (an undo, money asked of the reader)."""

from __future__ import annotations

import json
import re

import pytest

from companion import extension
from companion.core.editions.loading import load_editions
from companion.services.wording import LANGUAGES
from tests.conftest import act

EDITIONS = sorted(load_editions().editions.values(), key=lambda edition: edition.id)


def _new_game(client, edition_id: str, names=("Anna", "Bruno", "Carla"), **more) -> dict:
    """A game started through the API, read in English and Italian (as a table screen in each
    would): its news is made in both."""
    answer = client.post("/api/v1/games", json={"edition": edition_id, "players": list(names), **more})
    assert answer.status_code == 201, answer.get_json()
    game = answer.get_json()
    game["ids"] = {p["name"]: p["id"] for p in game["players"]}
    game["tokens"] = {p["name"]: p["token"] for p in game["players"]}
    for lang in LANGUAGES:
        client.get(f"/g/{game['id']}/screen/changes?since=0", headers={"Accept-Language": lang})
    assert _act(client, game, game["banker_token"], {"type": "start"}).status_code == 200
    return game


def _act(client, game, token, payload):
    return client.post(
        f"/api/v1/games/{game['id']}/actions", json=payload, headers={"Authorization": f"Bearer {token}"}
    )


def _version(client, game) -> int:
    return client.get(f"/g/{game['id']}/screen/changes?since=0").get_json()["version"]


def _news_of(app, game, version: int, *parts: str):
    """The news ``make_news`` makes of ``game``'s ``version`` (its newest, a payment) as if the
    version's parts were ``feed``, ``cash`` and ``parts``, in every language."""
    from companion.web.news import make_news

    with app.app_context():
        return make_news(game["id"], {version: frozenset({"feed", "cash", *parts})}, frozenset(LANGUAGES))[version]


def _opening(client, path: str, headers=None) -> dict:
    """The event a stream opens with (the test client has no live loop: the opening is all)."""
    body = client.get(path, headers=headers or {}).get_data(as_text=True)
    return json.loads(re.search(r"^data: (.*)$", body, re.M).group(1))


def _readers(client, game, since: int, lang: str = "en") -> dict[str, dict]:
    """What each reader is told since ``since``: each player and the banker through the API's
    stream, the table screen through its stream and its ``changes``."""
    told = {}
    for name, token in [*game["tokens"].items(), ("banker", game["banker_token"])]:
        headers = {"Authorization": f"Bearer {token}", "Accept-Language": lang}
        told[name] = _opening(client, f"/api/v1/games/{game['id']}/stream?since={since}", headers)
    told["screen"] = _opening(client, f"/g/{game['id']}/screen/stream?since={since}", {"Accept-Language": lang})
    changes = client.get(f"/g/{game['id']}/screen/changes?since={since}", headers={"Accept-Language": lang})
    assert changes.get_json() == told["screen"]
    return told


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda edition: edition.id)
def test_each_reader_is_told_only_the_cash_it_may_see(client, edition):
    game = _new_game(client, edition.id)
    since = _version(client, game)
    anna, bruno = game["ids"]["Anna"], game["ids"]["Bruno"]
    assert (
        _act(client, game, game["tokens"]["Anna"], {"type": "transfer", "to": bruno, "amount": 10}).status_code == 200
    )
    told = _readers(client, game, since)
    everyone = {anna, bruno}
    seen = {
        "Anna": {anna} if edition.cash_private else everyone,
        "Bruno": {bruno} if edition.cash_private else everyone,
        "Carla": set() if edition.cash_private else everyone,
        "banker": everyone,
        "screen": set() if edition.cash_private else everyone,
    }
    for reader, accounts in seen.items():
        news = told[reader]["news"]
        assert set(news["cash"]) == accounts, reader
        assert all(value["amount"] >= 0 and value["text"] for value in news["cash"].values())
        assert len(news["feed"]) == 1 and "Anna paid Bruno" in news["feed"][0], reader
        # The amounts are nowhere else: not in the feed's line (a transfer's line names its
        # amount, never a balance), nor in a notice meant for another player.
        hidden = set(game["ids"].values()) - accounts
        body = json.dumps(told[reader])
        for name, player in game["ids"].items():
            if player in hidden:
                balance = told["banker"]["news"]["cash"].get(player)
                assert balance is None or balance["text"] not in body, (reader, name)
    assert ["+" in line for line in told["Bruno"]["news"]["notices"]] == [True]
    assert told["Anna"]["news"]["notices"] == told["Carla"]["news"]["notices"] == []
    assert "notices" not in told["screen"]["news"] or told["screen"]["news"]["notices"] == []
    assert "undo" in told["banker"]["news"] and all("undo" not in told[r]["news"] for r in ("Anna", "Carla", "screen"))


def test_a_page_is_told_what_its_seat_may_see(client, app):
    """The pages' own stream and ``changes``, signed in by the session: as the API's."""
    from tests.web.test_pages import open_table, sit_down, start

    private = next(edition for edition in EDITIONS if edition.cash_private)
    game_id, _ = open_table(client, edition=private.id)
    carla = sit_down(app, game_id, "Carla")
    start(client, game_id)
    since = carla.get(f"/g/{game_id}/changes?since=0").get_json()["version"]
    with app.app_context():
        from companion import services

        ids = {p.name: p.id for p in services.get_game(game_id).players}
        act(
            game_id, services.Caller(game_id, False, ids["Anna"]), {"type": "transfer", "to": ids["Bruno"], "amount": 5}
        )
        act(
            game_id, services.Caller(game_id, False, ids["Carla"]), {"type": "transfer", "to": ids["Anna"], "amount": 3}
        )
    for told in (
        carla.get(f"/g/{game_id}/changes?since={since}").get_json(),
        _opening(carla, f"/g/{game_id}/stream?since={since}"),
    ):
        assert set(told["news"]["cash"]) == {ids["Carla"]}
        assert len(told["news"]["feed"]) == 2
    bank = client.get(f"/g/{game_id}/changes?since={since}").get_json()
    assert set(bank["news"]["cash"]) == {ids["Anna"], ids["Bruno"], ids["Carla"]}


def test_news_is_made_in_the_languages_the_game_is_read_in(client):
    """A game nobody reads (no stream opened, nobody caught up) gets no news: its first reader
    is told the parts and fetches. From then on it is made in that reader's language, and in a
    second one only from the moment a page reads the game in it."""
    answer = client.post("/api/v1/games", json={"edition": "classic-it", "players": ["Anna", "Bruno"]})
    game = answer.get_json()
    anna, bruno = game["players"]
    _act(client, game, game["banker_token"], {"type": "start"})

    def heard(since: int, lang: str) -> dict:
        headers = {"Authorization": f"Bearer {anna['token']}", "Accept-Language": lang}
        return _opening(client, f"/api/v1/games/{game['id']}/stream?since={since}", headers)

    def paid() -> int:
        version = client.get(f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {anna['token']}"})
        _act(client, game, bruno["token"], {"type": "transfer", "to": anna["id"], "amount": 1})
        return version.get_json()["version"]

    unread = paid()
    told = heard(unread, "en")
    assert "cash" in told["parts"] and "news" not in told  # nobody read it when it was made
    english = paid()
    assert "Bruno paid Anna" in heard(english, "en")["news"]["feed"][0]
    told = heard(english, "it")
    assert "cash" in told["parts"] and "news" not in told  # not made in Italian: fetched
    both = paid()
    assert "Bruno paga" in heard(both, "it")["news"]["feed"][0]
    assert "Bruno paid Anna" in heard(both, "en")["news"]["feed"][0]


def test_news_speaks_the_readers_language(client):
    game = _new_game(client, "classic-it")
    since = _version(client, game)
    bruno = game["ids"]["Bruno"]
    _act(client, game, game["tokens"]["Anna"], {"type": "transfer", "to": bruno, "amount": 1500})
    english, italian = _readers(client, game, since, "en"), _readers(client, game, since, "it")
    assert "Anna paid Bruno €\u00a01,500." in english["screen"]["news"]["feed"][0]
    assert "Anna paga €\u00a01.500 a Bruno." in italian["screen"]["news"]["feed"][0]
    assert english["Bruno"]["news"]["cash"][bruno]["text"] == "€\u00a03,000"
    assert italian["Bruno"]["news"]["cash"][bruno]["text"] == "€\u00a03.000"
    assert "from Anna" in english["Bruno"]["news"]["notices"][0]
    assert "da Anna" in italian["Bruno"]["news"]["notices"][0]


def test_what_news_cannot_say_is_fetched(client, app):
    """An undo marks an older line: no news, the pages fetch by the parts. Money asked of a
    player: no news for that player (the notice's Pay is a form of their session), news for
    the others."""
    from companion.live.newsroom import Newsroom

    game = _new_game(client, "classic-it")
    anna, bruno = game["ids"]["Anna"], game["ids"]["Bruno"]
    since = _version(client, game)
    _act(client, game, game["tokens"]["Anna"], {"type": "transfer", "to": bruno, "amount": 7})
    _act(client, game, game["banker_token"], {"type": "undo"})
    told = _readers(client, game, since)
    assert all("news" not in told[reader] and told[reader]["parts"] for reader in told)
    asked = _version(client, game)
    assert (
        _act(
            client, game, game["tokens"]["Bruno"], {"type": "request", "from": anna, "amount": 20, "reason": "x"}
        ).status_code
        == 200
    )
    told = _readers(client, game, asked)
    assert "news" not in told["Anna"] and "news" in told["Carla"] and "news" in told["screen"]
    # A server without news (an older one, or news that failed) still tells the parts.
    shared = extension.banco(app)
    extension.init_app(app, shared.__class__(**{**shared.__dict__, "newsroom": Newsroom(shared.broker)}))
    again = _version(client, game)
    _act(client, game, game["tokens"]["Anna"], {"type": "transfer", "to": bruno, "amount": 2})
    told = _readers(client, game, again)
    assert all("news" not in told[reader] and "feed" in told[reader]["parts"] for reader in told)


def test_a_roll_is_news_for_every_page_but_the_rollers(client, app):
    """A roll of the dice tells every reader but the roller the roll drawn in their language, the
    Dice sheet's note and who rolls next; the roller's pages fetch (their forms offer its total).
    The dice changed otherwise than by a roll would be no news: the pages write them from a roll
    alone."""
    game = _new_game(client, "classic-it")
    since = _version(client, game)
    rolled = _act(client, game, game["tokens"]["Anna"], {"type": "roll"}).get_json()["result"]
    after = game["ids"]["Anna" if rolled["doubles"] else "Bruno"]  # doubles: the same player again
    told = _readers(client, game, since)
    assert "news" not in told["Anna"] and told["Anna"]["parts"]
    for reader in ("Bruno", "Carla", "banker", "screen"):
        roll = told[reader]["news"]["roll"]
        assert "Anna rolled" in roll["drawn"] and roll["drawn"].count('class="die"') == 2, reader
        assert roll["note"] == f"last roll: {rolled['total']}" and roll["next"] == after, reader
    italian = _readers(client, game, since, "it")
    assert "Anna ha tirato" in italian["Bruno"]["news"]["roll"]["drawn"]
    paid = _version(client, game)
    _act(client, game, game["tokens"]["Anna"], {"type": "transfer", "to": game["ids"]["Bruno"], "amount": 5})
    with app.app_context():
        assert "roll" not in _readers(client, game, paid)["Bruno"]["news"]  # a payment says no roll
    assert _news_of(app, game, paid + 1, "dice") is None
    assert _news_of(app, game, paid + 1) is not None


def test_a_turn_passed_on_is_news_for_every_page(client, app):
    """A turn passed on tells every reader whose turn it is and the round, drawn in their
    language, and the player who ended it, the one who plays now and the banker that it
    concerns them (their turn cards gain, lose or change a form, which they fetch). The
    turn changed otherwise than by passing it on would be no news: the pages write the turn
    from a turn's news alone."""
    game = _new_game(client, "motopolis")
    since = _version(client, game)
    _act(client, game, game["tokens"]["Anna"], {"type": "end_turn"})
    told = _readers(client, game, since)
    for reader in ("Anna", "Bruno", "Carla", "banker", "screen"):
        turn = told[reader]["news"]["turn"]
        assert turn["player"] == game["ids"]["Bruno"] and turn["number"] == 1, reader
        assert turn["concerns_you"] == (reader in ("Anna", "Bruno", "banker")), reader
        assert "<strong>Bruno's turn</strong>" in turn["drawn"] and "round 1 of 40" in turn["drawn"], reader
    italian = _readers(client, game, since, "it")["Carla"]["news"]["turn"]["drawn"]
    assert "Tocca a Bruno" in italian and "giro 1 di 40" in italian
    paid = _version(client, game)
    _act(client, game, game["tokens"]["Carla"], {"type": "transfer", "to": game["ids"]["Anna"], "amount": 5})
    assert "turn" not in _readers(client, game, paid)["Bruno"]["news"]  # a payment passes no turn on
    assert _news_of(app, game, paid + 1, "turn") is None
    assert _news_of(app, game, paid + 1) is not None
    # The last turn of the last round ends the game: no turn passed on, and the pages fetch
    # what shows the game's status.
    while True:
        last = _version(client, game)
        ended = _act(client, game, game["banker_token"], {"type": "end_turn"}).get_json()["result"]
        if ended.get("finished"):
            break
    told = _readers(client, game, last)
    assert all("turn" not in seen.get("news", {}) and "status" in seen["parts"] for seen in told.values()), told


def test_the_clock_paused_or_resumed_is_news_for_every_page(client, app):
    """The clock paused, then resumed, tells every reader the clock drawn anew in their
    language: paused, with the time left; then running (the Bank fetches the card around it,
    whose form says Pause or Resume: ``test_live_regions``). The clock changed otherwise than
    by pausing or resuming it would be no news: the pages write the clock from its own news
    alone."""
    game = _new_game(client, "campionato-2015", time_limit_minutes=90)
    since = _version(client, game)
    assert _act(client, game, game["banker_token"], {"type": "clock_pause"}).status_code == 200
    told = _readers(client, game, since)
    for reader in ("Anna", "Bruno", "Carla", "banker", "screen"):
        clock = told[reader]["news"]["clock"]
        assert 'id="clock"' in clock and 'data-running="0"' in clock and ">paused<" in clock, reader
        assert re.search(r'data-remaining="(539\d|5400)"', clock), reader
    assert ">in pausa<" in _readers(client, game, since, "it")["Carla"]["news"]["clock"]
    resumed = _version(client, game)
    _act(client, game, game["banker_token"], {"type": "clock_resume"})
    clock = _readers(client, game, resumed)["Carla"]["news"]["clock"]
    assert 'data-running="1"' in clock and "paused" not in clock
    paid = _version(client, game)
    _act(client, game, game["tokens"]["Carla"], {"type": "transfer", "to": game["ids"]["Anna"], "amount": 5})
    assert "clock" not in _readers(client, game, paid)["Bruno"]["news"]  # a payment leaves the clock alone
    assert _news_of(app, game, paid + 1, "clock") is None


def test_a_countdown_drawn_longer_ago_than_a_moment_is_no_news():
    """A page catching up seconds later (back from the pocket) on a resumed clock or a bid would
    show the seconds left as they were then: it is told no news, and fetches. A paused clock,
    which counts nothing down, stays news."""
    from dataclasses import replace

    from companion.live.news import TICKING_FRESH_SECONDS, News, Reader, told

    drawn = {"en": '<div class="clock" id="clock"></div>'}
    running = News(cash=(), feed={"en": ()}, notices={}, undo={}, clock=drawn, ticking_since=100.0)
    reader = Reader("en", "anna", False)
    assert told([running], reader, now=100.5)["clock"] == drawn["en"]
    assert told([running], reader, now=100.0 + TICKING_FRESH_SECONDS + 0.1) is None
    paid = News(cash=(), feed={"en": ()}, notices={}, undo={})
    assert told([running, paid], reader, now=100.0 + TICKING_FRESH_SECONDS + 0.1) is None
    paused = replace(running, ticking_since=None)
    assert told([paused], reader, now=1000.0)["clock"] == drawn["en"]


def test_a_bid_is_news_of_the_auctions_card_for_every_page(client, app):
    """A bid tells every reader, the Bank among them, the auction's card drawn anew in their
    language (the high bid, who holds it, the seconds left, the deed's link), the table screen
    the auction as it draws it (large, with no link: nobody taps the screen), and each player
    their own quick raises, with a key of their own and no CSRF token (the
    browser fills in its session's); the high bidder has none. An auction opening or closing is
    no news: the pages fetch the forms it brings or takes away."""
    game = _new_game(client, "classic-it")
    opened = _version(client, game)
    _act(client, game, game["banker_token"], {"type": "auction_start", "deed": "vicolo-corto"})
    assert all("news" not in seen for seen in _readers(client, game, opened).values())
    since = _version(client, game)
    assert _act(client, game, game["tokens"]["Anna"], {"type": "bid", "amount": 70}).status_code == 200
    told = _readers(client, game, since)
    for reader in ("Anna", "Bruno", "Carla", "banker"):
        card = told[reader]["news"]["auction"]
        assert 'class="card auction" id="auction"' in card and re.search(r"€\s70 <span", card), reader
        assert "by Anna" in card and re.search(r'data-seconds="\d+"', card), reader
        assert f'href="/g/{game["id"]}/deeds/vicolo-corto"' in card, reader
    large = told["screen"]["news"]["auction"]
    assert '<section class="screen-auction" id="auction"' in large and re.search(r'data-seconds="\d+"', large)
    assert re.search(r'screen-auction-bid">€\s70<', large) and "by Anna" in large and "href" not in large
    assert "di Anna" in _readers(client, game, since, "it")["screen"]["news"]["auction"]
    assert "di Anna" in _readers(client, game, since, "it")["Bruno"]["news"]["auction"]
    assert "raises" not in told["banker"]["news"] and "raises" not in told["screen"]["news"]
    assert "quick-bid-1" not in told["Anna"]["news"]["raises"]  # she holds the high bid
    for reader in ("Bruno", "Carla"):
        raises = told[reader]["news"]["raises"]
        assert 'name="amount" value="80"' in raises and "bid € 80" in raises.replace("\xa0", " "), reader
        assert 'name="csrf_token" value=""' in raises and re.search(r'name="key" value="[0-9a-f]{32}"', raises)
    assert "offri € 80" in _readers(client, game, since, "it")["Carla"]["news"]["raises"].replace("\xa0", " ")
    closed = _version(client, game)
    _act(client, game, game["banker_token"], {"type": "auction_close"})
    assert all("news" not in seen for seen in _readers(client, game, closed).values())


@pytest.mark.parametrize("edition_id", ["classic-it", "campionato-2015"])
def test_a_payment_is_told_in_as_few_events_as_its_readers_need(client, app, edition_id):
    """Anna pays Bruno: his page is told his notice, the Bank's what undo would reverse, and every
    other page one same event (the screen's and Anna's among them) where the game shows every
    player's cash; where it hides it, Anna's page is told her own cash, and the Bank's and
    the pages of those who see no cash but their own are told apart. A version without news is
    one event for every page."""
    from companion.live.news import Alike, Reader, told

    game = _new_game(client, edition_id, names=("Anna", "Bruno", "Carla", "Dario"))
    ids, tokens = game["ids"], game["tokens"]
    since = _version(client, game)
    assert _act(client, game, tokens["Anna"], {"type": "transfer", "to": ids["Bruno"], "amount": 10}).status_code == 200
    alike = Alike(extension.banco(app).broker.news_since(game["id"], since, since + 1))
    private = next(e for e in EDITIONS if e.id == edition_id).cash_private
    readers = {name: Reader("en", ids[name], not private) for name in ids}
    readers["banker"] = Reader("en", None, True, banker=True)
    readers["screen"] = Reader("en", None, not private, screen=True)
    events = {}
    for name, reader in readers.items():
        events.setdefault(alike.key(reader), []).append(name)
        assert told(alike.versions, alike.seen_as(reader), now=0.0) == told(alike.versions, reader, now=0.0), name
    told_alike = sorted(sorted(names) for names in events.values())
    if private:
        assert told_alike == [["Anna"], ["Bruno"], ["Carla", "Dario", "screen"], ["banker"]]
    else:
        assert told_alike == [["Anna", "Carla", "Dario", "screen"], ["Bruno"], ["banker"]]
    # An auction opening has no news (its forms are fetched): every page is told its parts alone.
    since = _version(client, game)
    opened = {"type": "auction_start", "deed": "vicolo-corto"}
    assert _act(client, game, game["banker_token"], opened).status_code == 200
    alike = Alike(extension.banco(app).broker.news_since(game["id"], since, since + 1))
    assert {alike.key(reader) for reader in readers.values()} == {()}
    assert all(told(alike.versions, reader) is None for reader in readers.values())


@pytest.mark.parametrize("edition_id", ["classic-it", "campionato-2015", "motopolis"])
def test_a_seat_a_version_says_nothing_of_its_own_to_is_told_as_a_page_with_none(client, app, edition_id):
    """The streams make one event for the pages of every player a version says nothing of their
    own to (``Alike.seen_as``): through payments, a roll, a turn passed on, a bid and its raises, each
    reader (every player, the banker, the screen; English and Italian) is told by its seatless
    stand-in exactly what it is told itself, and the players it concerns keep their seats."""
    from companion.live.news import Alike, Reader, told

    game = _new_game(client, edition_id, names=("Anna", "Bruno", "Carla", "Dario"))
    ids, tokens = game["ids"], game["tokens"]
    steps = [
        (tokens["Anna"], {"type": "transfer", "to": ids["Bruno"], "amount": 10}),
        (tokens["Carla"], {"type": "roll"}),
        (game["banker_token"], {"type": "end_turn"}),
        (game["banker_token"], {"type": "auction_start", "deed": "vicolo-corto"}),
        (tokens["Bruno"], {"type": "bid", "amount": 70}),
        (tokens["Dario"], {"type": "bid", "amount": 80}),
        (game["banker_token"], {"type": "transfer", "from": "bank", "to": ids["Carla"], "amount": 200}),
    ]
    broker = extension.banco(app).broker
    private = next(e for e in EDITIONS if e.id == edition_id).cash_private
    shared = 0
    for token, payload in steps:
        since = _version(client, game)
        if _act(client, game, token, payload).status_code != 200:
            continue  # not in this edition (a roll where the bank keeps no dice, say)
        said = broker.news_since(game["id"], since, since + 1)
        readers = [
            Reader(lang, player, not private or banker, banker, screen)
            for lang in LANGUAGES
            for player, banker, screen in [
                *((ids[name], False, False) for name in ids),
                (None, True, False),
                (None, False, True),
            ]
        ]
        for reader in readers:
            stand_in = Alike(said).seen_as(reader)
            assert told(said, stand_in, now=0.0) == told(said, reader, now=0.0), (payload, reader)
            if stand_in.player is None and reader.player is not None:
                shared += 1
                assert all(reader.player not in news.concerned for news in said if news is not None)
    assert shared >= 10
    assert Alike(said).seen_as(Reader("en", ids["Carla"], True)).player == ids["Carla"]  # her notice of the bank's 200
    # A notice alone concerns its player, whatever else the version says.
    from companion.live.news import News

    noticed = News(cash=(), feed={"en": ()}, notices={("carla", "en"): ("<li>…</li>",)}, undo={})
    assert Alike([noticed]).seen_as(Reader("en", "carla", True)).player == "carla"
    assert Alike([noticed]).seen_as(Reader("en", "dario", True)).player is None
