"""Niente è come sembra's fake money on the pages: chips and notes by face on the wallet, a
payment open to a check with Check only on the phones outside it, the check from a phone, the
result in the feed and the chips on the table; no page ever says which notes are fake."""

from __future__ import annotations

import re

from companion import services

from .test_pages import keyed, open_table, sit_down, start

EN = {"Accept-Language": "en"}


def page(client, path) -> str:
    html = client.get(path, headers=EN).get_data(as_text=True)
    return html.replace("\u00a0", " ").replace("\u202f", " ")


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]*>", " ", html).split())


def test_a_check_from_the_pages(client, app):
    game_id, _ = open_table(client, edition="niente-e-come-sembra")
    start(client, game_id)
    with app.app_context():
        ids = {p.name: p.id for p in services.get_game(game_id).players}
    anna, bruno, carla = (sit_down(app, game_id, name) for name in ("Anna", "Bruno", "Carla"))
    wallet = page(anna, f"/g/{game_id}/me")
    assert "Decoder chips" in wallet and wallet.count("chip chip-green") >= 2
    assert "2 × € 500 · 3 × € 100 · 3 × € 50 · 1 × € 20 · 3 × € 10" in text(wallet)

    response = anna.post(f"/g/{game_id}/me", data={**keyed(wallet, "transfer"), "to": ids["Bruno"], "amount": "120"})
    assert response.status_code == 302
    seen = page(carla, f"/g/{game_id}/me")
    assert "Anna paid Bruno € 120." in text(seen) and "Open to a check for" in seen
    assert 'value="check"' in seen
    assert 'value="check"' not in page(anna, f"/g/{game_id}/me")
    assert "Only the players outside this payment can check it." in page(bruno, f"/g/{game_id}/me")
    assert "Anna paid Bruno € 120." in text(page(client, f"/g/{game_id}/table"))
    for html in (
        seen,
        page(anna, f"/g/{game_id}/me"),
        page(bruno, f"/g/{game_id}/me"),
        page(client, f"/g/{game_id}/table"),
    ):
        assert "fake" not in html.lower()
        assert not re.search(r"\bn\d+\b", text(html))  # no note ids

    payment = re.search(r'name="payment" value="([^"]+)"', seen).group(1)
    response = carla.post(f"/g/{game_id}/me", data={**keyed(seen, "check"), "payment": payment})
    assert response.status_code == 302
    table = page(client, f"/g/{game_id}/table")
    assert re.search(r"Carla checked a note of Anna(&#39;|')s payment: a (genuine|fake)", table)
    assert table.count("chip chip-red") == 1
    after = page(carla, f"/g/{game_id}/me")
    assert 'value="check"' not in after and "Open to a check" not in after
    with app.app_context():
        assert services.verify_game(services.get_game(game_id)) == []


def test_imprevisti_from_the_wallet(client, app):
    game_id, _ = open_table(client, edition="niente-e-come-sembra")
    start(client, game_id)
    anna, bruno = sit_down(app, game_id, "Anna"), sit_down(app, game_id, "Bruno")
    wallet = page(anna, f"/g/{game_id}/me")
    assert anna.post(f"/g/{game_id}/me", data=keyed(wallet, "chance_draw")).status_code == 302
    wallet = page(anna, f"/g/{game_id}/me")
    card = re.search(r'name="card" value="([^"]+)"', wallet).group(1)
    assert f'value="{card}"' not in page(bruno, f"/g/{game_id}/me")
    assert anna.post(f"/g/{game_id}/me", data={**keyed(wallet, "chance_play"), "card": card}).status_code == 302
    seen = page(bruno, f"/g/{game_id}/me")
    assert "Anna plays an Imprevisti card." in text(seen) and 'value="check"' in seen
    assert "Anna plays an Imprevisti card: read it from the box." in page(client, f"/g/{game_id}/table")


def test_other_editions_show_none_of_it(client, app):
    game_id, _ = open_table(client)
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    wallet = page(anna, f"/g/{game_id}/me")
    assert "Decoder chips" not in wallet and 'id="checks"' not in wallet
