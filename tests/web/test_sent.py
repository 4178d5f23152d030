"""Moves sent by the page's script (``web/sent.py``): the same form post answered with where the
page goes next, the check before a confirmation, and refusals that write money with the
edition's currency, in both languages (issue 31)."""

from __future__ import annotations

from companion import services
from tests.web.test_pages import keyed, open_table, sit_down, start

NBSP = "\u00a0"
SENT = {"X-Banco-Sent": "1"}


def _wallet(phone, game_id, lang="en"):
    return phone.get(f"/g/{game_id}/me", headers={"Accept-Language": lang}).get_data(as_text=True)


def _players(app, game_id):
    with app.app_context():
        return {p.name: p.id for p in services.get_game(game_id).players}


def test_a_refusal_writes_its_amounts_in_the_editions_money_in_both_languages(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    for lang, said in (
        ("en", f"Anna has €{NBSP}1,500: €{NBSP}98,499 missing to pay €{NBSP}99,999."),
        ("it", f"Anna ha €{NBSP}1.500: mancano €{NBSP}98.499 per pagare €{NBSP}99.999."),
    ):
        form = {**keyed(_wallet(anna, game_id, lang), "transfer"), "to": "bank", "amount": "99999"}
        answer = anna.post(f"/g/{game_id}/me", data=form, headers={"Accept-Language": lang, **SENT}).get_json()
        assert answer["said"] == {"tone": "error", "text": said}
    form = {**keyed(_wallet(anna, game_id), "transfer"), "to": "bank", "amount": "100001"}
    answer = anna.post(f"/g/{game_id}/me", data=form, headers={"Accept-Language": "en", **SENT}).get_json()
    assert answer["said"]["text"] == f"One payment can be at most €{NBSP}100,000."


def test_the_script_is_told_where_the_page_goes_and_the_form_still_posts_without_it(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    bruno = _players(app, game_id)["Bruno"]

    # Without JavaScript: the post, its redirect, the words on the next page.
    form = {**keyed(_wallet(anna, game_id), "transfer"), "to": bruno, "amount": "10"}
    response = anna.post(f"/g/{game_id}/me", data=form)
    assert response.status_code == 302 and response.location.endswith(f"/g/{game_id}/me")
    assert 'class="flash flash-ok" role="alert">Anna paid Bruno' in _wallet(anna, game_id)

    # The script's post: JSON, the words left for the page it updates in place.
    form = {**keyed(_wallet(anna, game_id), "transfer"), "to": bruno, "amount": "20"}
    response = anna.post(f"/g/{game_id}/me", data=form, headers=SENT)
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    answer = response.get_json()
    assert answer["location"].endswith(f"/g/{game_id}/me")
    assert answer["said"]["tone"] == "ok" and f"€{NBSP}20" in answer["said"]["text"]
    assert 'class="flash flash-ok" role="alert">Anna paid Bruno €\u00a020' in _wallet(anna, game_id)

    # Sent again with the same key (its first answer was lost): the first answer, nothing paid twice.
    again = anna.post(f"/g/{game_id}/me", data=form, headers={**SENT, "X-Banco-Late": "1"}).get_json()
    assert again["said"]["tone"] == "ok"
    assert "flash-ok" not in _wallet(anna, game_id)  # a late move's words are the script's to show
    with app.app_context():
        game = services.get_game(game_id)
        assert [p.cash for p in game.players if p.name == "Anna"] == [1470]


def test_a_move_is_checked_before_its_confirmation_and_nothing_is_written(client, app):
    game_id, _ = open_table(client)
    anna = sit_down(app, game_id, "Anna")
    start(client, game_id)
    with app.app_context():
        version = services.get_game(game_id).version
    page = _wallet(anna, game_id, "it")
    refused = anna.post(
        f"/g/{game_id}/check",
        data={**keyed(page, "transfer"), "to": "bank", "amount": "99999"},
        headers={"Accept-Language": "it"},
    ).get_json()
    assert refused["ok"] is False and refused["error"]["code"] == "insufficient_cash"
    assert refused["error"]["message"] == f"Anna ha €{NBSP}1.500: mancano €{NBSP}98.499 per pagare €{NBSP}99.999."
    allowed = anna.post(f"/g/{game_id}/check", data={**keyed(page, "transfer"), "to": "bank", "amount": "50"})
    assert allowed.get_json() == {"ok": True, "checked": True}
    with app.app_context():
        game = services.get_game(game_id)
        assert game.version == version and {p.cash for p in game.players} == {1500}
    # A stranger's phone has no seat here.
    stranger = app.test_client()
    assert stranger.post(f"/g/{game_id}/check", data={"type": "transfer"}).status_code in (400, 403)
