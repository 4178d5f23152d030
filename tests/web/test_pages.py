"""The pages, driven as a browser would (forms, cookies, CSRF tokens), without JavaScript."""

from __future__ import annotations

import re

import pytest

from companion import services, store
from companion.services import door


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def keyed(html: str, action: str) -> dict:
    """The hidden fields of the form whose type is ``action``."""
    form = re.search(rf'<form[^>]*>(?:(?!</form>).)*value="{action}"(?:(?!</form>).)*</form>', html, re.S).group(0)
    return dict(re.findall(r'name="(csrf_token|key|type)" value="([^"]*)"', form))


def open_table(client, names=("Anna", "Bruno", "Carla"), **form):
    page = client.get("/").get_data(as_text=True)
    data = {"csrf_token": csrf(page), "edition": "classic-it", "name": list(names), **form}
    response = client.post("/games", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    game_id = response.location.split("/")[2]
    return game_id, response.location


def sit_down(app, game_id, name):
    """A new phone scans the join QR and taps ``name``; returns its client."""
    phone = app.test_client()
    with app.app_context():
        game = services.get_game(game_id)
        code = game.join_code
        player_id = next(p.id for p in game.players if p.name == name)
    page = phone.get(f"/j/{code}").get_data(as_text=True)
    response = phone.post(f"/j/{code}", data={"csrf_token": csrf(page), "player": player_id})
    assert response.status_code == 302 and response.location.endswith("/me")
    return phone


def start(banker, game_id):
    page = banker.get(f"/g/{game_id}/table").get_data(as_text=True)
    assert banker.post(f"/g/{game_id}/table", data=keyed(page, "start")).status_code == 302


def cash(app, game_id):
    with app.app_context():
        return {p.name: p.cash for p in services.get_game(game_id).players}


def test_home_speaks_the_browser_language(client):
    assert "Nuova partita" in client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9"}).get_data(as_text=True)
    assert "New game" in client.get("/", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)


def test_the_language_switch_wins_over_the_browser(client):
    response = client.get("/lang/en?next=/")
    assert response.status_code == 302 and response.location == "/"
    assert "New game" in client.get("/", headers={"Accept-Language": "it"}).get_data(as_text=True)


@pytest.mark.parametrize(
    "target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]
)
def test_the_language_switch_never_leaves_the_site(client, target):
    response = client.get("/lang/it", query_string={"next": target})
    assert response.status_code == 302 and response.location == "/"


@pytest.mark.parametrize("target", ["/\r\nX: y", "/g/\n", "/a\tb", "/\x00", "/\x7f", "/\x85", "/\u2028x", "/\u2029"])
def test_a_control_character_in_next_goes_home_and_the_language_still_switches(client, target):
    response = client.get("/lang/en", query_string={"next": target})
    assert response.status_code == 302 and response.location == "/"
    assert "lang=en" in response.headers["Set-Cookie"]


def test_the_language_switch_keeps_a_path_in_any_language(client):
    response = client.get("/lang/it", query_string={"next": "/g/città?x=1"})
    assert response.status_code == 302 and response.location == "/g/citt%C3%A0?x=1"


def test_opening_a_table_shows_the_join_qr_and_code(client, app):
    game_id, table = open_table(client, time_limit="90")
    assert table == f"/g/{game_id}/table"
    page = client.get(table).get_data(as_text=True)
    with app.app_context():
        game = services.get_game(game_id)
        assert game.time_limit_seconds == 5400 and all(not p.claimed for p in game.players)
        assert game.join_code in page
    assert "<svg" in page and 'class="qr"' in page


def test_the_host_can_play_too(client, app):
    game_id, _ = open_table(client, banker_plays="1")
    with app.app_context():
        game = services.get_game(game_id)
        assert game.banker_player_id == game.players[0].id and game.players[0].claimed
    assert client.get(f"/g/{game_id}/me").status_code == 200


@pytest.mark.parametrize(
    "names, message",
    [
        (["Anna"], "at least 2"),
        (["Anna", "anna"], "same name"),
        (["Anna", "x" * 41], "at most 40"),
    ],
)
def test_bad_tables_are_refused_with_a_message(client, app, names, message):
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    response = client.post(
        "/games",
        data={"csrf_token": csrf(page), "edition": "classic-it", "name": names},
        headers={"Accept-Language": "en"},
        follow_redirects=True,
    )
    assert message in response.get_data(as_text=True)
    with app.app_context():
        assert store.db.session.query(store.Game).count() == 0


def test_a_form_without_its_csrf_token_changes_nothing(client, app):
    response = client.post(
        "/games", data={"edition": "classic-it", "name": ["Anna", "Bruno"]}, headers={"Accept-Language": "en"}
    )
    assert response.status_code == 400 and "expired" in response.get_data(as_text=True)
    with app.app_context():
        assert store.db.session.query(store.Game).count() == 0


def test_phones_join_and_pay(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    sit_down(app, game_id, "Bruno")
    start(client, game_id)
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    assert "1.500" in page or "1,500" in page
    with app.app_context():
        bruno_id = next(p.id for p in services.get_game(game_id).players if p.name == "Bruno")
    form = {**keyed(page, "transfer"), "to": bruno_id, "amount": "120"}
    assert anna.post(f"/g/{game_id}/me", data=form).status_code == 302
    assert anna.post(f"/g/{game_id}/me", data=form).status_code == 302  # a double tap: same key
    assert cash(app, game_id) == {"Anna": 1380, "Bruno": 1620, "Carla": 1500}
    page = anna.get(f"/g/{game_id}/me", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Anna paid" in page


def test_a_refused_payment_says_why_and_changes_nothing(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    response = anna.post(
        f"/g/{game_id}/me",
        data={**keyed(page, "transfer"), "to": "bank", "amount": "2000"},
        headers={"Accept-Language": "en"},
        follow_redirects=True,
    )
    assert "500 missing" in response.get_data(as_text=True)
    for amount in ("-5", "abc", "1.5", "0"):
        page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
        anna.post(f"/g/{game_id}/me", data={**keyed(page, "transfer"), "to": "bank", "amount": amount})
    assert cash(app, game_id)["Anna"] == 1500


def test_a_form_goes_through_the_actions_door_and_its_one_writer(client, app, monkeypatch):
    """A page's form is judged as the API's action is (``services.door``), in a batch of the
    app's one writer, and its refusal is worded there in the reader's language, once."""
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    writer, batches = door.of(app).writer, []
    run_batch = writer.run_batch
    monkeypatch.setattr(writer, "run_batch", lambda batch: (batches.append([w.kind for w in batch]), run_batch(batch)))
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    response = anna.post(
        f"/g/{game_id}/me",
        data={**keyed(page, "transfer"), "to": "bank", "amount": "2000"},
        headers={"Accept-Language": "it"},
        follow_redirects=True,
    )
    # The amounts in the edition's currency, as the pages write money (issue 31).
    assert "Anna ha €\u00a01.500: mancano €\u00a0500 per pagare €\u00a02.000." in response.get_data(as_text=True)
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    assert (
        anna.post(f"/g/{game_id}/me", data={**keyed(page, "transfer"), "to": "bank", "amount": "20"}).status_code == 302
    )
    assert batches == [["transfer"], ["transfer"]]  # each run once, the refused one too
    assert cash(app, game_id)["Anna"] == 1480


def test_fixed_payments_and_go_are_one_tap(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    assert "Tassa di Lusso" in anna.get(f"/g/{game_id}/me", headers={"Accept-Language": "it"}).get_data(as_text=True)
    anna.post(f"/g/{game_id}/me", data={**keyed(page, "pay_fixed"), "payment": "luxury-tax"})
    page = anna.get(f"/g/{game_id}/me").get_data(as_text=True)
    anna.post(f"/g/{game_id}/me", data=keyed(page, "pass_go"))
    assert cash(app, game_id)["Anna"] == 1600


def test_a_taken_seat_cannot_be_taken_again(client, app):
    game_id, _ = open_table(client)
    sit_down(app, game_id, "Anna")
    with pytest.raises(AssertionError):
        sit_down(app, game_id, "Anna")


def test_names_are_escaped_everywhere(client, app):
    evil = "<script>alert(1)</script>"
    game_id, _ = open_table(client, names=(evil, "Bruno"))
    phone = sit_down(app, game_id, evil)
    start(client, game_id)
    with app.app_context():
        code = services.get_game(game_id).join_code
    page = phone.get(f"/g/{game_id}/me").get_data(as_text=True)
    phone.post(f"/g/{game_id}/me", data={**keyed(page, "transfer"), "to": "bank", "amount": "5", "reason": evil})
    pages = [client.get(f"/g/{game_id}/table"), phone.get(f"/g/{game_id}/me"), app.test_client().get(f"/j/{code}")]
    for response in pages:
        html = response.get_data(as_text=True)
        assert evil not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    table = pages[0].get_data(as_text=True)
    assert ": &lt;script&gt;alert(1)&lt;/script&gt;." in table  # the payment's reason, in the feed
    assert cash(app, game_id)[evil] == 1495


def test_the_table_is_the_bankers_only(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    assert anna.get(f"/g/{game_id}/table").location == f"/g/{game_id}/me"  # a player goes to their wallet
    page = anna.get("/").get_data(as_text=True)
    response = anna.post(f"/g/{game_id}/table", data={"csrf_token": csrf(page), "type": "start"})
    assert response.status_code == 403
    assert app.test_client().get(f"/g/{game_id}/me").status_code == 302  # a stranger is sent to join


def test_a_lost_phone_is_replaced_by_a_rejoin_code(client, app):
    game_id, _ = open_table(client)
    old_phone = sit_down(app, game_id, "Anna")
    start(client, game_id)
    with app.app_context():
        anna_id = next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
    table = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    page = client.post(f"/g/{game_id}/rejoin/{anna_id}", data={"csrf_token": csrf(table)}).get_data(as_text=True)
    secret = re.search(r"/r/([A-Za-z0-9_-]+)", _qr_text(page)).group(1)
    new_phone = app.test_client()
    landing = new_phone.get(f"/r/{secret}").get_data(as_text=True)  # a preview does not use it up
    response = new_phone.post(f"/r/{secret}", data={"csrf_token": csrf(landing)})
    assert response.status_code == 302 and response.location.endswith("/me")
    assert new_phone.get(f"/g/{game_id}/me").status_code == 200
    assert old_phone.get(f"/g/{game_id}/me").status_code == 302  # signed out
    again = app.test_client()
    landing = again.get(f"/r/{secret}").get_data(as_text=True)
    assert again.post(f"/r/{secret}", data={"csrf_token": csrf(landing)}).status_code == 403


def _qr_text(page: str) -> str:
    """The rejoin URL the page's QR encodes (decoded here from the server's own record)."""
    match = re.search(r'data-url="([^"]+)"', page)
    return match.group(1)


def test_unknown_join_code_gets_a_friendly_page(client):
    response = client.get("/j/NOPE42", headers={"Accept-Language": "en"})
    assert response.status_code == 404 and "No game has this code" in response.get_data(as_text=True)


def test_join_code_guessing_is_rate_limited(client):
    codes = [client.get(f"/j/GUESS{i}").status_code for i in range(22)]
    assert codes[:20] == [404] * 20 and codes[20:] == [429, 429]


def test_the_live_stream_needs_a_seat(client, app):
    game_id, _ = open_table(client)
    assert app.test_client().get(f"/g/{game_id}/stream").status_code == 401
    response = client.get(f"/g/{game_id}/stream?since=0")
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    first = next(response.response)
    assert first.startswith(b"retry:")
    response.close()


def test_unknown_pages_are_polite(client):
    response = client.get("/g/nope/me", headers={"Accept-Language": "en"})
    assert response.status_code == 404 and "no such game" in response.get_data(as_text=True)


def test_the_banker_acts_on_a_deed_for_a_player(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    with app.app_context():
        carla = next(p.id for p in services.get_game(game_id).players if p.name == "Carla")
    page = client.get(f"/g/{game_id}/deeds/via-roma?as={carla}", headers={"Accept-Language": "en"})
    html = page.get_data(as_text=True)
    assert "What Carla can do" in html and f'name="player" value="{carla}"' in html
    form = {**keyed(html, "buy"), "deed": "via-roma", "player": carla}
    response = client.post(f"/g/{game_id}/deeds/via-roma", data=form)
    assert response.status_code == 302 and f"as={carla}" in response.location
    assert cash(app, game_id)["Carla"] == 1200
    with app.app_context():
        holding = next(h for h in services.get_game(game_id).holdings if h.deed_key == "via-roma")
        assert holding.owner_id == carla


def test_the_banker_opens_a_building_shortage_auction(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    with app.app_context():
        ids = {p.name: p.id for p in services.get_game(game_id).players}
        game = services.get_game(game_id)
        game.bank_small = 1  # the bank is down to its last house
        store.db.session.commit()
    for name, keys in (
        ("Anna", ["vicolo-corto", "vicolo-stretto"]),
        ("Bruno", ["bastioni-gran-sasso", "viale-monterosa", "viale-vesuvio"]),
    ):
        for key in keys:
            page = client.get(f"/g/{game_id}/deeds/{key}?as={ids[name]}").get_data(as_text=True)
            client.post(f"/g/{game_id}/deeds/{key}", data={**keyed(page, "buy"), "deed": key, "player": ids[name]})
    table = client.get(f"/g/{game_id}/table", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Building shortage" in table
    form = {**keyed(table, "building_auction_start"), "building": "small", "deeds": ["vicolo-corto", "viale-vesuvio"]}
    client.post(f"/g/{game_id}/table", data=form)
    with app.app_context():
        auction = services.get_game(game_id).auction
    assert auction["lot"] == "small" and auction["opening_bid"] == 50


def test_the_new_game_form_sent_twice_opens_one_table(client, app):
    page = client.get("/").get_data(as_text=True)
    form = {
        "csrf_token": csrf(page),
        "key": re.search(r'name="key" value="([^"]+)"', page).group(1),
        "edition": "classic-it",
        "name": ["Anna", "Bruno"],
    }
    first = client.post("/games", data=form)
    again = client.post("/games", data=form)
    assert first.location == again.location
    with app.app_context():
        assert store.db.session.query(store.Game).count() == 1
