"""A live page's regions rendered alone (``?regions=``) are exactly those regions of the whole
page, in rich states (houses, a request, a trade, an auction, a finished game); they are
authorised as the page is; and every region a live page marks names parts an entry can have."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from markupsafe import escape

from companion import extension, services
from companion.core import parts as entry_parts
from companion.live.broker import Broker
from companion.services import Caller
from tests.conftest import act
from tests.web.test_pages import open_table, sit_down, start

EN = {"Accept-Language": "en"}
# Any element with an id and the parts it shows: a region (``<div class="region" ...>``, the
# notices list, the wallet bar, a section that is its own region).
REGION = re.compile(r'<\w+\b[^>]*?\sid="([\w-]+)"[^>]*?\sdata-parts="([\w: ]+)"')


def _steady(html: str) -> str:
    """The page without what changes at each rendering (each form's fresh idempotency key, the
    CSRF token's time stamp, the seconds left on the auction and the clock)."""
    html = re.sub(r'name="(key|csrf_token)" value="[^"]*"', r'name="\1" value=""', html)
    html = re.sub(r'data-(seconds|remaining)="\d+"', r'data-\1=""', html)
    html = re.sub(r"data-clock-time>\d+:\d+<", "data-clock-time><", html)
    return re.sub(r"<strong data-countdown>\d+</strong>", "<strong data-countdown></strong>", html)


def _act(app, game_id, who, payload):
    with app.app_context():
        game = services.get_game(game_id)
        ids = {p.name: p.id for p in game.players}
        caller = Caller(game_id, who == "banker", None if who == "banker" else ids[who])
        return act(game_id, caller, {k: ids.get(v, v) if isinstance(v, str) else v for k, v in payload.items()})


def _regions_match(device, path, at_least=5) -> list[str]:
    whole = device.get(path, headers=EN)
    assert whole.status_code == 200
    html = _steady(whole.get_data(as_text=True))
    assert "data-regions" in html, path
    ids = [m.group(1) for m in REGION.finditer(html)]
    assert len(ids) >= at_least, path
    answer = device.get(f"{path}{'&' if '?' in path else '?'}regions={','.join(ids)}", headers=EN)
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    data = answer.get_json()
    assert sorted(data["regions"]) == sorted(ids)
    assert data["version"] == int(re.search(r'data-version="(\d+)"', html).group(1))
    for name, fragment in data["regions"].items():
        assert _steady(fragment) in html, name
    return ids


@pytest.fixture
def rich(client, app):
    """Anna with houses, a request and a trade waiting for her, an auction with a bid; Bruno
    and the banker's device signed in."""
    game_id, _ = open_table(client)
    anna, bruno = sit_down(app, game_id, "Anna"), sit_down(app, game_id, "Bruno")
    start(client, game_id)
    for deed in ("vicolo-corto", "vicolo-stretto", "stazione-sud"):
        _act(app, game_id, "Anna", {"type": "buy", "deed": deed})
    for deed in ("vicolo-corto", "vicolo-stretto"):
        _act(app, game_id, "Anna", {"type": "build", "deed": deed})
    _act(app, game_id, "Bruno", {"type": "request", "from": "Anna", "amount": 50, "reason": "Vicolo Corto"})
    _act(
        app,
        game_id,
        "Carla",
        {
            "type": "trade_propose",
            "to": "Anna",
            "give": {"cash": 100, "deeds": []},
            "get": {"cash": 0, "deeds": ["stazione-sud"]},
        },
    )
    _act(app, game_id, "banker", {"type": "auction_start", "deed": "parco-della-vittoria"})
    _act(app, game_id, "Bruno", {"type": "bid", "amount": 120})
    return game_id, client, anna, bruno


def _pages(game_id, banker, anna, bruno, screen):
    """Every live page of the rich game, as who sees it, with the regions it has at least."""
    deed = f"/g/{game_id}/deeds"
    return (
        (anna, f"/g/{game_id}/me", 5),
        (bruno, f"/g/{game_id}/me", 5),
        (banker, f"/g/{game_id}/table", 5),
        (anna, f"/g/{game_id}/me?bankrupt_to=bank", 5),
        (screen, f"/g/{game_id}/screen", 5),
        (anna, deed, 3),
        (banker, deed, 2),
        (anna, f"{deed}?q=vicolo", 3),
        (anna, f"{deed}/vicolo-corto", 8),
        (bruno, f"{deed}/vicolo-corto", 8),
        (bruno, f"{deed}/parco-della-vittoria", 8),
        (banker, f"{deed}/vicolo-corto?as=", 7),
        (anna, f"/g/{game_id}/results", 3),
        (banker, f"/g/{game_id}/results", 2),
        (anna, f"/g/{game_id}/land", 3),
        (anna, f"/g/{game_id}/land?q=vicolo", 3),
        (bruno, f"/g/{game_id}/land/deed/vicolo-corto", 3),
        (anna, f"/g/{game_id}/land/tax/wealth-tax", 3),
    )


def test_regions_alone_are_the_regions_of_the_whole_page(rich, app):
    game_id, banker, anna, bruno = rich
    screen = app.test_client()
    for device, path, at_least in _pages(game_id, banker, anna, bruno, screen):
        _regions_match(device, path, at_least)
    with app.app_context():
        ids = {p.name: p.id for p in services.get_game(game_id).players}
    # The banker acting for Bruno: Bruno's actions, and no wallet bar (the banker has no seat).
    assert "wallet-bar" not in _regions_match(banker, f"/g/{game_id}/deeds/vicolo-corto?as={ids['Bruno']}", 7)
    _act(app, game_id, "banker", {"type": "auction_close"})
    _act(app, game_id, "banker", {"type": "end"})
    for device, path in (
        (anna, f"/g/{game_id}/me"),
        (banker, f"/g/{game_id}/table"),
        (screen, f"/g/{game_id}/screen"),
        (anna, f"/g/{game_id}/results"),
        (anna, f"/g/{game_id}/deeds/vicolo-corto"),
    ):
        _regions_match(device, path, 1)


def test_regions_of_a_table_setting_up(client, app):
    game_id, _ = open_table(client)
    assert "bank-start" in _regions_match(client, f"/g/{game_id}/table")
    assert _regions_match(app.test_client(), f"/g/{game_id}/screen", 2) == ["screen", "screen-seats"]


def test_a_region_is_authorised_as_its_page(rich, app):
    game_id, _banker, anna, _bruno = rich
    stranger = app.test_client()
    answer = stranger.get(f"/g/{game_id}/me?regions=balance-region")
    assert answer.status_code == 302 and "/j/" in answer.location  # to the join page, as the page
    answer = anna.get(f"/g/{game_id}/table?regions=players-region")
    assert answer.status_code == 302 and answer.location.endswith("/me")  # a player is no banker
    unknown = anna.get(f"/g/{game_id}/me?regions=nothing,balance-region").get_json()
    assert list(unknown["regions"]) == ["balance-region"]  # an unknown region is left out


def test_private_cash_stays_private_in_a_region(client, app):
    page = client.get("/").get_data(as_text=True)
    from tests.web.test_pages import csrf

    response = client.post(
        "/games", data={"csrf_token": csrf(page), "edition": "campionato-2015", "name": ["Anna", "Bruno", "Carla"]}
    )
    game_id = response.location.split("/")[2]
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    fragment = anna.get(f"/g/{game_id}/me?regions=players-region", headers=EN).get_json()["regions"]["players-region"]
    assert "Bruno" in fragment and fragment.count(">private<") == 2  # Bruno's and Carla's; Anna sees her own
    _regions_match(anna, f"/g/{game_id}/me")


def test_every_region_names_parts_an_entry_can_have(rich, app):
    game_id, banker, anna, bruno = rich
    for device, path, _at_least in _pages(game_id, banker, anna, bruno, app.test_client()):
        html = device.get(path).get_data(as_text=True)
        for match in REGION.finditer(html):
            names = set(match.groups()[-1].split())
            assert names and all(entry_parts.is_part(name) for name in names), match.group(0)


def test_what_changed_since_a_version(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    with app.app_context():
        version = services.get_game(game_id).version
        ids = {p.name: p.id for p in services.get_game(game_id).players}
    anna.get(f"/g/{game_id}/changes?since={version}")  # her page reads the game: its news is made in English
    _act(app, game_id, "Anna", {"type": "transfer", "to": "Bruno", "amount": 10})
    paid = sorted(["cash", f"cash:{ids['Anna']}", f"cash:{ids['Bruno']}", "dice", "feed"])
    _act(app, game_id, "Bruno", {"type": "roll"})
    for device, path in ((anna, f"/g/{game_id}/changes"), (app.test_client(), f"/g/{game_id}/screen/changes")):
        answer = device.get(f"{path}?since={version}")
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
        told = answer.get_json()
        assert {"version": told["version"], "parts": told["parts"]} == {"version": version + 2, "parts": paid}
        # With their news, in one answer: the two lines, newest first, and the amounts.
        assert [re.search(r'data-version="(\d+)"', line).group(1) for line in told["news"]["feed"]] == [
            str(version + 2),
            str(version + 1),
        ]
        assert sorted(told["news"]["cash"]) == sorted([ids["Anna"], ids["Bruno"]])
        assert device.get(f"{path}?since={version + 1}").get_json()["parts"] == ["dice", "feed"]
        assert device.get(f"{path}?since={version + 2}").get_json() == {"version": version + 2, "parts": []}
        assert device.get(f"{path}?since=soon").status_code == 400
    assert app.test_client().get(f"/g/{game_id}/changes?since=1").status_code == 401  # the pages' own: signed in
    # A server that started after those versions reads them from the journal.
    extension.init_app(app, replace(extension.banco(app), broker=Broker()))
    assert anna.get(f"/g/{game_id}/changes?since={version}").get_json()["parts"] == paid
    # Further behind than the journal is read for: the page fetches itself whole.
    for _ in range(65):
        _act(app, game_id, "banker", {"type": "transfer", "from": "bank", "to": "Anna", "amount": 1})
    extension.init_app(app, replace(extension.banco(app), broker=Broker()))
    assert anna.get(f"/g/{game_id}/changes?since={version}").get_json()["parts"] is None
    assert anna.get(f"/g/{game_id}/changes?since={version + 3}").get_json()["parts"] == sorted(
        ["cash", "cash:bank", f"cash:{ids['Anna']}", "feed"]
    )


def test_a_live_fetch_does_not_sign_the_cookie_again(rich, app):
    """A page's own fetches (``X-Banco-Live``) answer without a new session cookie; the page
    opened renews it, and a fetch that forgets a seat still says so."""
    game_id, _banker, anna, _bruno = rich
    live = {**EN, "X-Banco-Live": "1"}
    assert "session=" in anna.get(f"/g/{game_id}/me", headers=EN).headers.get("Set-Cookie", "")
    answer = anna.get(f"/g/{game_id}/me?regions=balance-region", headers=live)
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    assert "Set-Cookie" not in anna.get(f"/g/{game_id}/me", headers=live).headers
    with app.app_context():
        anna_id = next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
        services.redeem_rejoin(services.issue_rejoin(game_id, anna_id))  # her seat moved to another phone
    gone = anna.get(f"/g/{game_id}/me?regions=balance-region", headers=live)
    assert gone.status_code == 302 and "session=" in gone.headers.get("Set-Cookie", "")


def _regions_now(pages) -> dict:
    """Every region of ``pages`` (``(device, path)``) as ``{(path, id): (parts, html)}``, each
    region's html with the regions inside it taken out (the browser fetches those apart)."""
    out = {}
    for device, path in pages:
        html = device.get(path, headers=EN).get_data(as_text=True)
        found = {m.group(1): set(m.group(2).split()) for m in REGION.finditer(html)}
        fetched = device.get(f"{path}{'&' if '?' in path else '?'}regions={','.join(found)}", headers=EN).get_json()[
            "regions"
        ]
        # Steadied first: each region drawn alone draws its forms' keys afresh.
        steady = {name: _steady(fragment) for name, fragment in fetched.items()}
        for name, fragment in steady.items():
            for other, inner in steady.items():
                if other != name and inner in fragment:
                    fragment = fragment.replace(inner, f"[{other}]")
            out[(path, name)] = (found[name], fragment)
    return out


# Actions on the rich game, each with who takes it: what another page did not fetch must not
# have changed (a payment between Bruno and Carla leaves Anna's balance as it was).
UNTOUCHED = (
    ("Bruno", {"type": "transfer", "to": "Carla", "amount": 10}),
    ("banker", {"type": "transfer", "from": "bank", "to": "Carla", "amount": 200}),
    ("Bruno", {"type": "roll"}),
    ("Carla", {"type": "roll"}),
    ("Carla", {"type": "bid", "amount": 140}),
    ("Bruno", {"type": "bid", "amount": 150}),  # Carla outbid
    ("Carla", {"type": "bid", "amount": 160}),
    ("Anna", {"type": "approve", "pending": "the one waiting"}),
    ("Anna", {"type": "trade_reject", "trade": "the one waiting"}),
    ("banker", {"type": "auction_close"}),
    ("Carla", {"type": "pay_rent", "deed": "vicolo-corto"}),
    ("Anna", {"type": "build", "deed": "vicolo-corto"}),
    ("Carla", {"type": "mortgage", "deed": "parco-della-vittoria"}),
    ("Carla", {"type": "request", "from": "Bruno", "amount": 30}),
    ("Bruno", {"type": "decline", "pending": "the one waiting"}),
    ("Anna", {"type": "sell_building", "deed": "vicolo-corto"}),
    ("banker", {"type": "undo"}),
)


def _take(app, game_id, who, payload) -> int:
    """``who`` takes one of ``UNTOUCHED``'s actions, "the one waiting" read as the request or
    trade that waits now; returns the version before it."""
    with app.app_context():
        game = services.get_game(game_id)
        version, state = game.version, services.state_of(game)
    waiting = {"pending": next(iter(state.pending), None), "trade": next(iter(state.trades or {}), None)}
    _act(app, game_id, who, {k: waiting.get(k) if v == "the one waiting" else v for k, v in payload.items()})
    return version


def test_a_region_an_entry_does_not_touch_stays_as_it_was(rich, app):
    """Every region of every live page, as three players, the Bank and the screen see it, whose
    parts an entry did not name (before or after it) is byte for byte what it was: a page that
    does not fetch it shows no stale value. (A region may come or go inside an outer one: only
    those on both sides are compared.)"""
    game_id, banker, anna, bruno = rich
    with app.app_context():
        ids = {p.name: p.id for p in services.get_game(game_id).players}
    carla = sit_down(app, game_id, "Carla")
    deed = f"/g/{game_id}/deeds"
    # Each page once; a query the page ignores (``?b``) keeps two readers' same address apart.
    pages = (
        (anna, f"/g/{game_id}/me"),
        (bruno, f"/g/{game_id}/me?b"),
        (carla, f"/g/{game_id}/me?c"),
        (banker, f"/g/{game_id}/table"),
        (app.test_client(), f"/g/{game_id}/screen"),
        (anna, deed),
        (bruno, f"{deed}?b"),
        (anna, f"{deed}/vicolo-corto"),
        (carla, f"{deed}/parco-della-vittoria"),
        (banker, f"{deed}/vicolo-stretto?as={ids['Bruno']}"),
        (anna, f"/g/{game_id}/results"),
        (carla, f"/g/{game_id}/results?c"),
    )
    before = _regions_now(pages)
    checked = 0
    for who, payload in UNTOUCHED:
        version = _take(app, game_id, who, payload)
        changed = set(anna.get(f"/g/{game_id}/changes?since={version}").get_json()["parts"])
        after = _regions_now(pages)
        for key, (parts, html) in after.items():
            if key in before and not parts & changed and not before[key][0] & changed:
                assert html == before[key][1], (payload, key, changed)
                checked += 1
        before = after
    assert checked > 100


# What the browser writes from an event's news (static/js/banco.js, ``tell``), taken out of a
# region's html: the amounts of the accounts, the feed's and the notices' lines and the For you
# box, the table screen's last lines, the questions that name an amount or what undo reverses.
_TOLD = (
    (re.compile(r'(data-cash-of="[\w]+") data-cash="-?\d+"( data-long)?>[^<]*<'), r"\1\2><"),
    (re.compile(r'class="(balance-cash|screen-tile-cash)( is-long)?"'), r'class="\1"'),
    (re.compile(r'<li class="[^"]*" data-version="\d+">.*?</li>', re.S), ""),
    (re.compile(r'<li data-version="\d+" data-tone="\w+"><span class="notice-text">.*?</span></li>', re.S), ""),
    (re.compile(r'<li class="muted">.*?</li>', re.S), ""),
    (re.compile(r'<summary><span class="for-you-label">.*?</ol>', re.S), ""),
    (re.compile(r'<p class="screen-(last-line|earlier)" data-version.*?</p>', re.S), ""),
    (re.compile(r'data-confirm="[^"]*"(\s+data-confirm-of)'), r"\1"),
    (re.compile(r'(<form method="post" class="undo") data-confirm="[^"]*"'), r"\1"),
    (re.compile(r'data-version="\d+" data-kept'), "data-kept"),
    # A roll: drawn where rolls are shown, its total in the Dice sheet's title and the dice fields,
    # who rolls next for the table's picker.
    (re.compile(r'<p class="last-roll-who">.*?</p>|<div class="dice-faces">.*?</div>', re.S), ""),
    (re.compile(r'<p class="last-roll-total">.*?</p>|<p class="hint">Nobody has rolled yet.</p>', re.S), ""),
    (re.compile(r"(data-roll-said)( hidden)?>\s*"), r"\1>"),
    (re.compile(r' data-roll-total="\d*" data-next-roller="\w*"'), ""),
    (re.compile(r"data-roll-note>[^<]*<"), "data-roll-note><"),
    (re.compile(r'value="\d*"( data-roll-fill) data-filled="\d*"'), r"\1"),
    (re.compile(r"(data-roll-hint)( hidden)?"), r"\1"),
    (re.compile(r'<select id="roll-player" name="player">.*?</select>', re.S), "roll-player"),
    # A turn passed on: whose it is and the round on the turn cards and in the end's words, the
    # screen's tile marked.
    (re.compile(r"(data-turn-said>).*?(</p>)", re.S), r"\1\2"),
    (re.compile(r"(data-turn-round>)\d+<"), r"\1<"),
    (re.compile(r'class="screen-tile is-turn"'), 'class="screen-tile"'),
    (re.compile(r'(<span class="tag tag-turn") hidden>'), r"\1>"),
    # The clock paused or resumed, the auction's card after a bid: drawn anew, whole.
    (re.compile(r'<section class="(card auction[^"]*|screen-auction)" id="auction".*?</section>', re.S), "<auction>"),
    # A bid: the reader's quick raises, the whole of their region.
    (re.compile(r'<div class="quick-bids" id="quick-bids">.*</div>(?=\s*</div>\s*$)', re.S), "<raises>"),
    (re.compile(r'<div class="clock[^"]*" id="clock".*?</div>', re.S), "<clock>"),
    (re.compile(r"\s+"), " "),
)


def _untold(html: str) -> str:
    for pattern, replacement in _TOLD:
        html = pattern.sub(replacement, html)
    return html


def _fold(html: str) -> str:
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


def test_what_news_writes_is_what_the_page_draws(rich, app):
    """Through a dozen kinds of entries, every region of every live page that the browser would
    not fetch (its changed parts all in its ``data-applies``) differs from before only in what
    the event's news writes, and the news says what the page draws: each amount, the feed's new
    lines, the reader's new notices, the Bank's undo, a roll, a bid's auction card and raises."""
    game_id, banker, anna, bruno = rich
    carla = sit_down(app, game_id, "Carla")
    screen = app.test_client()
    pages = (
        (anna, f"/g/{game_id}/me"),
        (bruno, f"/g/{game_id}/me?b"),
        (carla, f"/g/{game_id}/me?c"),
        (banker, f"/g/{game_id}/table"),
        (screen, f"/g/{game_id}/screen"),
        (anna, f"/g/{game_id}/deeds"),
        (carla, f"/g/{game_id}/results?c"),
    )
    seen = _news_drawn(app, game_id, pages, UNTOUCHED, screen)
    assert (
        seen["told"] > 40
        and seen["checked"] > 150
        and seen["rolled"] >= 6
        and seen["bid"] >= 12
        and seen["raised"] >= 6
    ), seen


# A game whose bank keeps the turns, and limits the rounds (the end counted "now round 2").
PASSED_ON = (
    ("Anna", {"type": "end_turn"}),
    ("Bruno", {"type": "roll"}),
    ("Bruno", {"type": "end_turn"}),
    ("Carla", {"type": "transfer", "to": "Dario", "amount": 10}),
    ("banker", {"type": "end_turn"}),
    ("Dario", {"type": "end_turn"}),  # round 2
    ("banker", {"type": "end_turn", "to": "Carla"}),
    ("Anna", {"type": "transfer", "to": "Bruno", "amount": 10}),
    ("Carla", {"type": "end_turn"}),
)


def test_a_turn_passed_on_is_written_from_news_as_the_page_draws_it(client, app):
    """Where the bank keeps the turns (Motopolis: 40 rounds), each turn passed on, by its player
    or by the banker, into a new round or to a player named: every region the browser would not
    fetch differs only in what news writes (whose turn it is and the round on every turn card,
    the round the end of the game counts, the table screen's tile marked, who rolls next), and
    the news says what the page draws. The turn cards of the two players it concerns gain or
    lose a form and are fetched, and the Bank's whole state card."""
    game_id, pages, screen = _seated(client, app, ("Anna", "Bruno", "Carla", "Dario"), edition="motopolis")
    seen = _news_drawn(app, game_id, pages, PASSED_ON, screen)
    assert seen["turned"] >= 24 and seen["checked"] > 500, seen


# A timed game (the championship, 90 minutes): the clock paused and resumed between other moves.
CLOCKED = (
    ("banker", {"type": "clock_pause"}),
    ("Anna", {"type": "transfer", "to": "Bruno", "amount": 10}),
    ("banker", {"type": "clock_resume"}),
    ("Anna", {"type": "end_turn"}),
    ("banker", {"type": "clock_pause"}),
    ("Bruno", {"type": "roll"}),
    ("banker", {"type": "clock_resume"}),
)


def test_the_clock_paused_or_resumed_is_written_from_news_as_the_page_draws_it(client, app):
    """The clock of a timed game paused and resumed by the banker: every region the browser
    would not fetch differs only in what news writes (the clock, drawn anew), and the news is
    the clock the page draws. The Bank fetches its clock card (its Pause or Resume)."""
    game_id, pages, screen = _seated(
        client, app, ("Anna", "Bruno", "Carla"), edition="campionato-2015", time_limit="90"
    )
    seen = _news_drawn(app, game_id, pages, CLOCKED, screen)
    assert seen["clocked"] >= 12 and seen["checked"] > 300, seen


def _seated(client, app, names, **form):
    """A table of ``names`` opened by ``client`` (the banker) with ``form``'s edition and clock,
    each player seated on a phone of their own, started: the game, its live pages (each wallet,
    the Bank, the screen, a player's results) and the screen's client."""
    game_id, _ = open_table(client, names=names, **form)
    phones = {name: sit_down(app, game_id, name) for name in names}
    start(client, game_id)
    screen = app.test_client()
    pages = (
        *((phone, f"/g/{game_id}/me?{name}") for name, phone in phones.items()),
        (client, f"/g/{game_id}/table"),
        (screen, f"/g/{game_id}/screen"),
        (phones[names[0]], f"/g/{game_id}/results"),
    )
    return game_id, pages, screen


def _news_drawn(app, game_id, pages, steps, screen) -> dict[str, int]:
    """Takes ``steps`` one by one and holds every region of ``pages`` the browser would not
    fetch after each to what news writes (``_untold``), and the news to what the page draws.
    Returns how many events had news (``told``), regions were checked, rolls, turns, clocks,
    auctions and quick raises were seen drawn as news said."""
    applies = re.compile(r'\sid="([\w-]+)"[^>]*?\sdata-parts="[^"]*"(?:[^>]*?\sdata-applies="([^"]*)")?')
    screen.get(f"/g/{game_id}/screen/changes?since=0", headers=EN)  # the table is read in English
    before = _regions_now(pages)
    seen = dict.fromkeys(("told", "checked", "rolled", "turned", "clocked", "bid", "raised"), 0)
    for who, payload in steps:
        version = _take(app, game_id, who, payload)
        after = _regions_now(pages)
        for device, path in pages:
            changes = f"/g/{game_id}/screen/changes" if device is screen else f"/g/{game_id}/changes"
            answer = device.get(f"{changes}?since={version}", headers=EN).get_json()
            news, changed = answer.get("news"), set(answer["parts"])
            if news is None:
                continue
            seen["told"] += 1
            page = _steady(device.get(path, headers=EN).get_data(as_text=True))
            covered = {m.group(1): set((m.group(2) or "").split()) for m in applies.finditer(page)}
            for (where, name), (parts, html) in after.items():
                if where != path or (path, name) not in before:
                    continue
                was_parts, was = before[(path, name)]
                if (parts | was_parts) & changed - covered.get(name, set()):
                    continue  # the browser fetches it
                if news.get("turn", {}).get("concerns_you") and "data-turn-said" in html + was:
                    continue  # the turn card of a player the turn concerns: fetched for its form
                assert _untold(html) == _untold(was), (payload, path, name)
                seen["checked"] += 1
            # The amounts, the lines and the notices the news says are the page's.
            for account, value in news["cash"].items():
                for text in re.findall(rf'data-cash-of="{account}" data-cash="{value["amount"]}"[^>]*>([^<]*)<', page):
                    assert text == value["text"], (payload, path, account)
            for line in news["feed"] if 'id="feed"' in page else ():
                assert _fold(line) in _fold(page), (payload, path)
            for notice in news["notices"] if 'id="notices"' in page else ():
                assert _fold(notice) in _fold(page), (payload, path)
            if "undo" in news and news["undo"] is not None:
                assert f'data-confirm="{escape(news["undo"])}"' in page, (payload, path)
            if "roll" in news and "data-roll-said" in page:
                seen["rolled"] += 1
                assert _fold(news["roll"]["drawn"]) in _fold(page), (payload, path)
                assert "data-roll-note" not in page or f"data-roll-note>{news['roll']['note']}<" in page
                assert 'id="last-roll"' not in page or f'data-next-roller="{news["roll"]["next"]}"' in page
            if "turn" in news and "data-turn-said" in page:
                turn = news["turn"]
                seen["turned"] += 1
                if not turn["concerns_you"]:
                    assert _fold(f"data-turn-said> {turn['drawn']} </p>") in _fold(page), (payload, path)
                assert "data-turn-round>" not in page or f"data-turn-round>{turn['number']}<" in page
                assert 'id="last-roll"' not in page or f'data-next-roller="{turn["player"]}"' in page
                assert "screen-tile" not in page or f'class="screen-tile is-turn" id="tile-{turn["player"]}"' in page
            if "auction" in news and 'id="auction"' in page:
                seen["bid"] += 1
                assert _fold(_steady(news["auction"])) in _fold(page), (payload, path)
            if "raises" in news and 'id="quick-bids"' in page:
                seen["raised"] += 1
                assert _fold(_steady(news["raises"])) in _fold(page), (payload, path)
            if "clock" in news and 'id="clock"' in page:
                seen["clocked"] += 1
                assert _fold(_steady(news["clock"])) in _fold(page), (payload, path)
        before = after
    return seen
