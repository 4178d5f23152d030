"""The pages against odd input, as an attacker on the same Wi-Fi would send it: digits that are
not ASCII (``²`` passes ``isdigit()`` but not ``int()``), thousands of digits, join codes
outside ASCII, forms over the body limit. Every refusal is a message or an error page, changes
nothing, and nothing answers 5xx. CSRF is on (tests/web/conftest.py), except in the random
test, whose forms must get past it to reach the handlers.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from sqlalchemy import func, select

from companion import config, extension, services
from companion.store import Game, db
from companion.web.ratelimit import RateLimiter
from tests.conftest import make_app
from tests.web.test_pages import cash, csrf, keyed, open_table, sit_down, start

# On PostgreSQL too (python -m tests): odd characters and numbers sent at the database through the forms.
pytestmark = pytest.mark.database

ODD_NUMBERS = ["²", "١٢٠", "٣", "1²", "9" * 5000, "１２", "-1", "1.5", "1 2"]


def games(app) -> int:
    with app.app_context():
        count = db.session.execute(select(func.count()).select_from(Game)).scalar()
        db.session.rollback()
        return count


@pytest.mark.parametrize("minutes", ODD_NUMBERS)
def test_the_new_game_form_refuses_a_time_limit_in_other_digits(client, app, minutes):
    page = client.get("/").get_data(as_text=True)
    response = client.post(
        "/games",
        data={"csrf_token": csrf(page), "edition": "classic-it", "name": ["Anna", "Bruno"], "time_limit": minutes},
        headers={"Accept-Language": "en"},
        follow_redirects=True,
    )
    assert response.status_code == 200
    assert "The time limit must be 1 to 1440 minutes." in response.get_data(as_text=True)
    assert games(app) == 0


@pytest.mark.parametrize("amount", ODD_NUMBERS)
def test_the_wallet_refuses_an_amount_in_other_digits(client, app, amount):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    response = anna.post(
        f"/g/{game_id}/me", data={**keyed(page, "transfer"), "to": "bank", "amount": amount}, follow_redirects=True
    )
    assert response.status_code == 200 and 'class="flash flash-error"' in response.get_data(as_text=True)
    assert cash(app, game_id) == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}


@pytest.mark.parametrize("field", ["give_cash", "get_cash", "give_cards", "get_cards"])
def test_the_trade_form_refuses_cash_and_cards_in_other_digits(client, app, field):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    with app.app_context():
        bruno = next(p.id for p in services.get_game(game_id).players if p.name == "Bruno")
        version = services.get_game(game_id).version
    page = anna.get(f"/g/{game_id}/trade?with={bruno}").get_data(as_text=True)
    for odd in ("²", "9" * 5000):
        form = {**keyed(page, "trade_propose"), "to": bruno, field: odd}
        response = anna.post(f"/g/{game_id}/trade", data=form, follow_redirects=True)
        assert response.status_code == 200 and 'class="flash flash-error"' in response.get_data(as_text=True)
    with app.app_context():
        assert services.get_game(game_id).version == version and not services.get_game(game_id).trades


def test_the_table_refuses_a_banker_payout_in_other_digits(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    with app.app_context():
        anna = next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
    for amount in ("²", "٣", "9" * 5000):
        page = client.get(f"/g/{game_id}/table").get_data(as_text=True)
        form = {**keyed(page, "transfer"), "from": "bank", "to": anna, "amount": amount}
        assert client.post(f"/g/{game_id}/table", data=form).status_code == 302
    assert cash(app, game_id) == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}


@pytest.mark.parametrize("players", ODD_NUMBERS)
def test_print_pages_take_a_table_size_in_other_digits(client, players):
    assert client.get("/print", query_string={"players": players}).status_code == 200
    for sheet in ("money.pdf", "money.png"):
        response = client.get(f"/print/classic-it/{sheet}", query_string={"players": players})
        assert response.status_code == 400 and response.mimetype == "text/html"


def test_the_page_stream_resumes_from_other_digits_as_now(client, app):
    game_id, _ = open_table(client)
    for odd in ("²", "٣", "9" * 5000):
        for response in (
            client.get(f"/g/{game_id}/stream", headers={"Last-Event-ID": odd.encode().decode("latin-1")}),
            client.get(f"/g/{game_id}/stream", query_string={"since": odd}),
        ):
            assert response.status_code == 200 and response.mimetype == "text/event-stream"
            assert "id: 1\n" in response.get_data(as_text=True)


@pytest.mark.parametrize("code", ["ÉÉÉÉÉÉ", "日本語コード", "²²²²²²", "ａｂｃｄｅｆ"])
def test_a_join_code_outside_ascii_is_a_friendly_404(client, code):
    response = client.get(f"/j/{code}")
    assert response.status_code == 404 and response.mimetype == "text/html"
    page = client.get("/").get_data(as_text=True)
    response = client.post("/join", data={"csrf_token": csrf(page), "code": code})
    assert response.status_code == 302
    assert client.get(response.location).status_code == 404


def test_a_typed_deed_code_of_a_page_of_text_is_not_echoed_whole(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    response = anna.get(f"/g/{game_id}/deeds", query_string={"code": "X" * 5000}, headers={"Accept-Language": "en"})
    assert response.status_code == 200
    assert f"No deed of this game has the code {'X' * 20}." in response.get_data(as_text=True)


# --- forms over the body limit ---------------------------------------------------------------


def test_a_new_game_form_over_the_limit_is_the_413_page_and_opens_nothing(client, app):
    page = client.get("/").get_data(as_text=True)
    response = client.post(
        "/games",
        data={
            "csrf_token": csrf(page),
            "edition": "classic-it",
            "name": ["Anna", "Bruno", "x" * config.MAX_BODY_BYTES],
        },
        headers={"Accept-Language": "it"},
    )
    assert response.status_code == 413 and response.mimetype == "text/html"
    assert "La richiesta è troppo grande." in response.get_data(as_text=True)
    assert games(app) == 0


def test_a_wallet_form_over_the_limit_moves_no_money(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    form = {**keyed(page, "transfer"), "to": "bank", "amount": "100", "reason": "x" * (config.MAX_BODY_BYTES + 1)}
    response = anna.post(f"/g/{game_id}/me", data=form, headers={"Accept-Language": "en"})
    assert response.status_code == 413 and "The request is too large." in response.get_data(as_text=True)
    assert cash(app, game_id)["Anna"] == 1500


def test_a_form_for_8_long_names_fits_easily(client, app):
    page = client.get("/").get_data(as_text=True)
    response = client.post(
        "/games",
        data={
            "csrf_token": csrf(page),
            "edition": "classic-it",
            "name": [f"{i} " + "é" * 38 for i in range(8)],
            "time_limit": "1440",
        },
    )
    assert response.status_code == 302 and games(app) == 1


# --- anything at all: never a 5xx ------------------------------------------------------------


@pytest.fixture
def open_app(tmp_path):
    """CSRF off, so that random forms reach the handlers; no rate limit to hit."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=False)
    extension.init_app(app, replace(extension.banco(app), limiter=RateLimiter(limit=10**6, window_seconds=60)))
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


ODD = [
    "²",
    "٣",
    "\u0000",
    "é",
    "ÉÉÉÉÉÉ",
    "\ufeff",
    "💸",
    "%00",
    "..",
    "a" * 3000,
    "9" * 40,
    "9" * 5000,
    "-1",
    " ",
    "",
    "0",
    "1",
    "1.5",
    "bank",
    "free_parking",
    "big",
    "small",
    "<b>",
    "' OR 1=1 --",
]
FIELDS = [
    "type",
    "key",
    "to",
    "from",
    "amount",
    "dice",
    "deed",
    "player",
    "trade",
    "pending",
    "reason",
    "pot",
    "give_cash",
    "get_cash",
    "give_cards",
    "get_cards",
    "give_deeds",
    "get_deeds",
    "deeds",
    "break_hotel",
    "creditor",
    "building",
    "award_to",
    "payment",
    "request",
    "payer",
    "name",
    "edition",
    "time_limit",
    "banker_plays",
    "free_parking_pot",
    "strict_bank",
    "code",
    "paper",
    "lang",
    "back",
    "cash-0",
    "cash-1",
    "owner-vicolo-corto",
    "build-vicolo-corto",
    "mortgaged-vicolo-corto",
]
TYPES = [
    "transfer",
    "collect",
    "pay_fixed",
    "pass_go",
    "buy",
    "pay_rent",
    "build",
    "sell_building",
    "mortgage",
    "unmortgage",
    "auction_start",
    "bid",
    "auction_close",
    "trade_propose",
    "trade_accept",
    "trade_reject",
    "request",
    "approve",
    "decline",
    "pot_collect",
    "bankrupt",
    "undo",
    "end",
    "clock_pause",
    "start",
    "nope",
]


def test_a_few_hundred_odd_forms_never_get_a_5xx(open_app):
    rng = random.Random(1130)
    app = open_app
    banker = app.test_client()
    game_id, _ = open_table(banker)
    anna = sit_down(app, game_id, "Anna")
    start(banker, game_id)
    with app.app_context():
        ids = [p.id for p in services.get_game(game_id).players]
    paths = [
        f"/g/{game_id}/me",
        f"/g/{game_id}/table",
        f"/g/{game_id}/deeds/vicolo-corto",
        f"/g/{game_id}/deeds/{{}}",
        f"/g/{game_id}/trade",
        f"/g/{game_id}/rejoin/{{}}",
        f"/g/{game_id}/print/rejoin.pdf",
        "/games",
        "/join",
        "/j/{}",
        "/r/{}",
        "/calculator",
        "/calculator/entries",
        "/calculator/save",
        "/g/{}/me",
    ]
    for _ in range(300):
        path = rng.choice(paths)
        while "{}" in path:
            path = path.replace("{}", rng.choice(ODD + ids + [game_id]), 1)
        form = {}
        for name in rng.sample(FIELDS, rng.randint(1, 6)):
            form[name] = [rng.choice(ODD + ids + ["vicolo-corto"]) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.7:
            form["type"] = rng.choice(TYPES)
        phone = rng.choice([banker, anna])
        response = phone.post(
            path, data=form, headers={"Last-Event-ID": "²", "Accept-Language": rng.choice(["it", "en", "²"])}
        )
        assert response.status_code < 500, (path, form, response.get_data(as_text=True)[:300])
        query = {
            rng.choice(["players", "paper", "lang", "edition", "code", "as", "with", "next", "since"]): rng.choice(ODD)
        }
        target = rng.choice(
            [
                "/print",
                "/print/classic-it/money.pdf",
                f"/g/{game_id}/deeds",
                f"/g/{game_id}/trade",
                f"/g/{game_id}/deeds/vicolo-corto",
                "/lang/it",
                f"/g/{game_id}/print",
                "/calculator",
            ]
        )
        response = phone.get(target, query_string=query)
        assert response.status_code < 500, (target, query, response.get_data(as_text=True)[:300])
    with app.app_context():
        checked, findings = services.verify_all()
        assert checked == 1 and findings == []
