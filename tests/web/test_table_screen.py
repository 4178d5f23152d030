"""The table screen (for everyone, no forms, no secrets) and the bank handed to a phone."""

from __future__ import annotations

import datetime as dt
import re

from companion import services, store
from tests.web.test_pages import csrf, keyed, open_table, sit_down, start

EN = {"Accept-Language": "en"}


def _secret_in(page: str, kind: str) -> str:
    """The one-time secret in the address a QR page shows (``r`` rejoin, ``bank`` hand-off)."""
    url = re.search(r'data-url="([^"]+)"', page).group(1)
    return re.search(rf"/{kind}/([A-Za-z0-9_-]+)$", url).group(1)


def _hand_off(banker, game_id) -> str:
    table = banker.get(f"/g/{game_id}/table").get_data(as_text=True)
    page = banker.post(f"/g/{game_id}/bank/handoff", data={"csrf_token": csrf(table)})
    assert page.status_code == 200
    return _secret_in(page.get_data(as_text=True), "bank")


def _ids(app, game_id) -> dict:
    with app.app_context():
        return {p.name: p.id for p in services.get_game(game_id).players}


def _bank_row(app, game_id) -> tuple:
    with app.app_context():
        game = services.get_game(game_id)
        return game.banker_token_hash, game.version, dict(game.extra or {})


def test_the_screen_has_no_forms_and_no_secrets(client, app):
    game_id, _ = open_table(client, banker_plays="1")  # the banker is Anna, seated on this device
    sit_down(app, game_id, "Bruno")
    start(client, game_id)
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    rejoin = client.post(f"/g/{game_id}/rejoin/{_ids(app, game_id)['Bruno']}", data={"csrf_token": csrf(table)})
    rejoin_secret = _secret_in(rejoin.get_data(as_text=True), "r")
    handoff_secret = _hand_off(client, game_id)
    for device in (app.test_client(), client):  # a stranger, and the banker's own device
        response = device.get(f"/g/{game_id}/screen", headers=EN)
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert "<form" not in html and "csrf_token" not in html
        assert rejoin_secret not in html and handoff_secret not in html
        assert "/r/" not in html and "/bank/" not in html
        assert 'id="notices"' not in html  # the seat this device holds keeps its notes to itself
        assert "Bruno" in html and "€\xa01,500" in html


def test_the_screen_shows_cash_or_keeps_it_private(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    html = app.test_client().get(f"/g/{game_id}/screen", headers=EN).get_data(as_text=True)
    assert html.count('class="screen-tile-cash') == 3 and "€\xa01,500" in html

    private_id, _ = open_table(client, names=("Anna", "Bruno", "Carla", "Dario"), edition="campionato-2015")
    start(client, private_id)
    ids = _ids(app, private_id)
    table = client.get(f"/g/{private_id}/table").get_data(as_text=True)
    client.post(
        f"/g/{private_id}/table",
        data={**keyed(table, "transfer"), "from": ids["Anna"], "to": ids["Bruno"], "amount": "120"},
    )
    with app.app_context():
        game = services.get_game(private_id)
        assert game.cash_private
        balances = {p.cash for p in game.players}
    html = client.get(f"/g/{private_id}/screen", headers=EN).get_data(as_text=True)  # even on the banker's device
    assert all(name in html for name in ("Anna", "Bruno", "Carla", "Dario"))
    assert "screen-tile-cash" not in html and "data-cash" not in html
    assert len(balances) == 3 and not any(f"{cash:,}" in html for cash in balances - {game.players[2].cash})
    assert "Cash is private in this game" in html


def test_the_screen_follows_the_game_from_setup_to_the_end(client, app):
    game_id, _ = open_table(client)
    stranger = app.test_client()
    with app.app_context():
        code = services.get_game(game_id).join_code
    setup = stranger.get(f"/g/{game_id}/screen", headers=EN).get_data(as_text=True)
    assert 'class="screen screen-setup"' in setup and code in setup and 'class="qr"' in setup
    assert "Waiting for the banker to start." in setup and "waiting for a phone" in setup
    start(client, game_id)
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    client.post(f"/g/{game_id}/table", data={**keyed(table, "auction_start"), "deed": "via-roma"})
    running = stranger.get(f"/g/{game_id}/screen", headers=EN).get_data(as_text=True)
    assert 'class="screen-auction" id="auction" data-seconds="' in running and "data-countdown" in running
    assert "Via Roma" in running and 'class="screen-corner"' in running and code in running
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    client.post(f"/g/{game_id}/table", data=keyed(table, "end"))
    ended = stranger.get(f"/g/{game_id}/screen", headers=EN).get_data(as_text=True)
    assert 'class="screen screen-finished"' in ended and "The game is over." in ended and "screen-winner" in ended


def test_the_screen_shows_the_last_action_large(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    ids = _ids(app, game_id)
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    form = {**keyed(table, "transfer"), "from": ids["Anna"], "to": ids["Bruno"], "amount": "120"}
    client.post(f"/g/{game_id}/table", data=form)
    html = app.test_client().get(f"/g/{game_id}/screen", headers=EN).get_data(as_text=True)
    last = re.search(r'<p class="screen-last-line" data-version="\d+">([^<]+)</p>', html).group(1)
    assert "Anna" in last and "Bruno" in last and "120" in last


def test_the_screen_and_its_stream_need_no_sign_in(client, app):
    game_id, _ = open_table(client)
    stranger = app.test_client()
    assert stranger.get(f"/g/{game_id}/stream").status_code == 401  # the pages' own stream stays signed in
    response = stranger.get(f"/g/{game_id}/screen/stream?since=0")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert next(response.response).startswith(b"retry:")
    response.close()
    page = stranger.get(f"/g/{game_id}/screen").get_data(as_text=True)
    assert f'data-stream="/g/{game_id}/screen/stream"' in page
    assert stranger.get("/g/nope/screen").status_code == 404


def test_the_screen_is_offered_on_the_join_page_and_the_bank(client, app):
    game_id, _ = open_table(client)
    with app.app_context():
        code = services.get_game(game_id).join_code
    join = app.test_client().get(f"/j/{code}", headers=EN).get_data(as_text=True)
    assert f'href="/g/{game_id}/screen"' in join and "Use this device as the table screen" in join
    bank = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert "<title>Bank · Banco</title>" in bank
    assert re.search(rf">https?://[^<]+/g/{game_id}/screen</a>", bank) and bank.count('class="qr"') == 2
    assert "Put the table screen on the TV or tablet." in bank and "Tap Start when everyone is on a phone." in bank
    start(client, game_id)
    bank = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert f'href="/g/{game_id}/screen"' in bank and "Table screen" in bank


def test_the_bank_moves_to_a_phone_once_and_signs_the_old_device_out(client, app):
    game_id, _ = open_table(client, banker_plays="1")  # Anna banks and plays, from this device
    start(client, game_id)
    secret = _hand_off(client, game_id)
    phone = app.test_client()
    landing = phone.get(f"/g/{game_id}/bank/{secret}", headers=EN)  # a preview does not use it up
    assert landing.status_code == 200 and "Take over the bank" in landing.get_data(as_text=True)
    assert client.get(f"/g/{game_id}/table").status_code == 200  # still the bank until the phone taps
    taken = phone.post(f"/g/{game_id}/bank/{secret}", data={"csrf_token": csrf(landing.get_data(as_text=True))})
    assert taken.status_code == 302 and taken.location == f"/g/{game_id}/table"
    bank = phone.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert "This phone runs the bank now." in bank and 'value="transfer"' in bank
    # The old device is the table screen now; Anna's seat stays on it.
    assert client.get(f"/g/{game_id}/table").location == f"/g/{game_id}/screen"
    page = client.get(f"/g/{game_id}/me").get_data(as_text=True)
    form = {"csrf_token": csrf(page), "key": "k-end", "type": "end"}
    assert client.post(f"/g/{game_id}/table", data=form).status_code == 403
    assert client.get(f"/g/{game_id}/me").status_code == 200 and 'value="transfer"' in page
    with app.app_context():
        assert services.get_game(game_id).status == "running"
    # Used once: the same code again is refused, clearly, and the bank stays on the phone.
    before = _bank_row(app, game_id)
    again = app.test_client()
    second = again.get(f"/g/{game_id}/bank/{secret}").get_data(as_text=True)
    refused = again.post(f"/g/{game_id}/bank/{secret}", data={"csrf_token": csrf(second)}, headers=EN)
    assert refused.status_code == 403 and "not valid" in refused.get_data(as_text=True)
    assert _bank_row(app, game_id) == before and phone.get(f"/g/{game_id}/table").status_code == 200
    feed = phone.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert "The bank moved to another phone." in feed


def test_the_phone_taking_the_bank_may_be_the_bankers_own_wallet(client, app):
    game_id, _ = open_table(client, banker_plays="1")
    start(client, game_id)
    anna = app.test_client()  # Anna's own phone, given her seat by a rejoin code
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    page = client.post(f"/g/{game_id}/rejoin/{_ids(app, game_id)['Anna']}", data={"csrf_token": csrf(table)})
    rejoin = _secret_in(page.get_data(as_text=True), "r")
    landing = anna.get(f"/r/{rejoin}").get_data(as_text=True)
    anna.post(f"/r/{rejoin}", data={"csrf_token": csrf(landing)})
    secret = _hand_off(client, game_id)
    landing = anna.get(f"/g/{game_id}/bank/{secret}").get_data(as_text=True)
    anna.post(f"/g/{game_id}/bank/{secret}", data={"csrf_token": csrf(landing)})
    wallet = anna.get(f"/g/{game_id}/me", headers=EN).get_data(as_text=True)
    assert wallet and f'href="/g/{game_id}/table"' in wallet and ">Bank<" in wallet
    assert anna.get(f"/g/{game_id}/table").status_code == 200


def test_bad_hand_off_codes_are_refused_and_change_nothing(client, app):
    game_id, _ = open_table(client)
    secret = _hand_off(client, game_id)
    phone = app.test_client()
    landing = phone.get(f"/g/{game_id}/bank/{secret}").get_data(as_text=True)
    token = csrf(landing)
    before = _bank_row(app, game_id)
    for wrong in ("nope", "x" * 65, secret[:-1] + ("A" if secret[-1] != "A" else "B")):
        response = phone.post(f"/g/{game_id}/bank/{wrong}", data={"csrf_token": token}, headers=EN)
        assert response.status_code == 403
        assert "This code to take over the bank is not valid: ask the banker for a new one." in response.get_data(
            as_text=True
        )
    assert _bank_row(app, game_id) == before
    with app.app_context():  # an expired code: fifteen minutes have passed
        game = services.get_game(game_id)
        old = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(minutes=16)
        game.extra = {**game.extra, "bank_handoff": {**game.extra["bank_handoff"], "expires": old.isoformat()}}
        store.db.session.commit()
    before = _bank_row(app, game_id)
    response = phone.post(f"/g/{game_id}/bank/{secret}", data={"csrf_token": token}, headers=EN)
    assert response.status_code == 403 and _bank_row(app, game_id) == before
    assert client.get(f"/g/{game_id}/table").status_code == 200  # the bank never moved
    assert phone.get(f"/g/{game_id}/table").status_code == 302
    other_id, _ = open_table(client)  # a code is worth nothing in another game
    fresh = _hand_off(client, game_id)
    response = phone.post(f"/g/{other_id}/bank/{fresh}", data={"csrf_token": token}, headers=EN)
    assert response.status_code == 403
    assert phone.post(f"/g/nope/bank/{fresh}", data={"csrf_token": token}).status_code == 404


def test_only_the_banker_hands_the_bank_over(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    page = anna.get("/").get_data(as_text=True)
    assert anna.post(f"/g/{game_id}/bank/handoff", data={"csrf_token": csrf(page)}).status_code == 403
    assert app.test_client().post(f"/g/{game_id}/bank/handoff").status_code in (400, 403)
    with app.app_context():
        assert "bank_handoff" not in (services.get_game(game_id).extra or {})


def test_the_hand_off_page_is_the_bankers_not_the_screen(client, app):
    game_id, _ = open_table(client, banker_plays="1")
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    page = client.post(f"/g/{game_id}/bank/handoff", data={"csrf_token": csrf(table)}, headers=EN).get_data(
        as_text=True
    )
    assert "screen-page" not in page and 'class="qr"' in page and "Valid for 15 minutes, once." in page
    # Anna's seat stays on this device: the page offers her own rejoin code for the phone.
    assert f"/g/{game_id}/rejoin/{_ids(app, game_id)['Anna']}" in page


def test_the_old_device_finds_its_game_as_the_table_screen(client, app):
    game_id, _ = open_table(client)  # the banker does not play
    secret = _hand_off(client, game_id)
    phone = app.test_client()
    landing = phone.get(f"/g/{game_id}/bank/{secret}").get_data(as_text=True)
    phone.post(f"/g/{game_id}/bank/{secret}", data={"csrf_token": csrf(landing)})
    home = client.get("/").get_data(as_text=True)
    assert f'href="/g/{game_id}/screen"' in home and f'href="/g/{game_id}/table"' not in home
    assert client.get(f"/g/{game_id}/table").location == f"/g/{game_id}/screen"
    assert f'href="/g/{game_id}/table"' in phone.get("/").get_data(as_text=True)


def test_a_reloaded_hand_off_page_says_where_the_bank_went(client, app):
    game_id, _ = open_table(client, banker_plays="1")  # the banker is Anna
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    token = csrf(table)
    page = client.post(f"/g/{game_id}/bank/handoff", data={"csrf_token": token}, headers=EN)
    secret = _secret_in(page.get_data(as_text=True), "bank")
    assert client.get(f"/g/{game_id}/bank/handoff").headers["Location"].endswith(f"/g/{game_id}/table")
    phone = app.test_client()
    landing = phone.get(f"/g/{game_id}/bank/{secret}").get_data(as_text=True)
    phone.post(f"/g/{game_id}/bank/{secret}", data={"csrf_token": csrf(landing)})
    before = _bank_row(app, game_id)
    for reload in (client.post, client.get):  # the form posted again, or the address opened
        response = reload(f"/g/{game_id}/bank/handoff", data={"csrf_token": token}, headers=EN)
        html = response.get_data(as_text=True)
        assert response.status_code == 200 and "The bank moved to Anna's phone." in html
        assert "goes on as the table screen" in html and f'href="/g/{game_id}/screen"' in html
        assert 'class="qr' not in html
    assert _bank_row(app, game_id) == before  # no new code was made
    italian = client.get(f"/g/{game_id}/bank/handoff", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "La Banca è passata al telefono di Anna." in italian


def test_a_hand_off_without_a_playing_banker_says_the_phone_that_scanned(client, app):
    game_id, _ = open_table(client)
    secret = _hand_off(client, game_id)
    phone = app.test_client()
    landing = phone.get(f"/g/{game_id}/bank/{secret}").get_data(as_text=True)
    phone.post(f"/g/{game_id}/bank/{secret}", data={"csrf_token": csrf(landing)})
    html = client.get(f"/g/{game_id}/bank/handoff", headers=EN).get_data(as_text=True)
    assert "The bank moved to the phone that scanned the code." in html
    assert app.test_client().get(f"/g/{game_id}/bank/handoff").status_code == 403  # a stranger
