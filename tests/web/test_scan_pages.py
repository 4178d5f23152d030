"""Printed money on the phone: a note's QR code (``/s/<serial>``) opens a page whose GET changes
nothing; the tap on *Check this note* (a POST) spends one chip and says GENUINE or FAKE in big
type; a typed serial on the wallet does the same; a serial of no game of this phone says so;
the banker's print page offers the game's money and the decoder chips."""

from __future__ import annotations

from companion import services
from companion.core.counterfeits import serials
from companion.services import serials as serial_service

from .test_pages import csrf, open_table, sit_down, start

EN = {"Accept-Language": "en"}
NE = "niente-e-come-sembra"


def setup_game(client, app):
    game_id, _ = open_table(client, edition=NE)
    start(client, game_id)
    anna = sit_down(app, game_id, "Anna")
    # Until the game's money is printed, the wallet has no field for a printed serial.
    assert "Check a printed note: its serial" not in anna.get(f"/g/{game_id}/me", headers=EN).get_data(as_text=True)
    printed = client.get(f"/g/{game_id}/print/money-serials.pdf?lang=en")
    assert printed.status_code == 200 and printed.mimetype == "application/pdf"
    with app.app_context():
        row = services.get_game(game_id)
        run = serials.print_run(services.state_of(row, deeds=False), serial_service.secret_of(row))
    return game_id, run


def chips_and_version(app, game_id, name):
    with app.app_context():
        row = services.get_game(game_id)
        state = services.state_of(row, deeds=False)
        return next(p.chips for p in state.players.values() if p.name == name), row.version


def test_a_printed_code_opens_the_check_and_only_a_tap_spends_a_chip(client, app):
    game_id, run = setup_game(client, app)
    fake = next(i for i in run if i.kind == "note" and i.fake)
    genuine = next(i for i in run if i.kind == "card" and not i.fake)
    carla = sit_down(app, game_id, "Carla")
    before = chips_and_version(app, game_id, "Carla")
    page = carla.get(f"/s/{fake.serial}", headers=EN)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Check this note" in html and "Green decoder chips left: 2." in html
    assert "FAKE" not in html and "GENUINE" not in html
    assert chips_and_version(app, game_id, "Carla") == before  # opening the page spends nothing

    answer = carla.post(f"/g/{game_id}/scan", data={"csrf_token": csrf(html), "serial": fake.serial}, headers=EN)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and 'class="verdict verdict-fake"' in html and ">FAKE<" in html
    assert "the phone moves no money" in html and "Green decoder chips left: 1." in html
    assert chips_and_version(app, game_id, "Carla")[0] == 1

    # The typed serial on the wallet, as printed (dash, lower case).
    wallet = carla.get(f"/g/{game_id}/me", headers=EN).get_data(as_text=True)
    assert "Check a printed note: its serial" in wallet
    typed = f"{genuine.serial[:5].lower()}-{genuine.serial[5:]}"
    html = carla.post(f"/g/{game_id}/scan", data={"csrf_token": csrf(wallet), "serial": typed}, headers=EN).get_data(
        as_text=True
    )
    assert ">GENUINE<" in html and "Green decoder chips left: 0." in html
    assert 'name="serial" value=""' in html  # emptied: a second tap spends nothing by mistake
    # No chip left: refused in words, nothing spent.
    response = carla.post(f"/g/{game_id}/scan", data={"csrf_token": csrf(wallet), "serial": fake.serial}, headers=EN)
    assert response.status_code == 409
    assert "Carla has no green decoder chip left: GO turns them green." in response.get_data(as_text=True)
    # The feed says what was checked.
    table = client.get(f"/g/{game_id}/table", headers=EN).get_data(as_text=True)
    assert "Carla checked a printed note: fake!" in table
    assert "Carla checked a printed Imprevisti card: genuine." in table


def test_a_code_of_no_game_of_this_phone(client, app):
    game_id, run = setup_game(client, app)
    bruno = sit_down(app, game_id, "Bruno")
    edited = run[0].serial[:-1] + ("2" if run[0].serial[-1] != "2" else "3")
    response = bruno.get(f"/s/{edited}", headers=EN)
    assert response.status_code == 404 and "This is not a note of this game." in response.get_data(as_text=True)
    html = bruno.post(
        f"/g/{game_id}/scan",
        data={"csrf_token": csrf(bruno.get(f"/g/{game_id}/me").get_data(as_text=True)), "serial": edited},
        headers=EN,
    )
    assert html.status_code == 404
    assert chips_and_version(app, game_id, "Bruno")[0] == 2
    # A phone in no game: how to check, and nothing else.
    stranger = app.test_client()
    html = stranger.get(f"/s/{run[0].serial}", headers=EN).get_data(as_text=True)
    assert "Open this code with the phone of a player in the game" in html and "Check this note" not in html
    assert stranger.post(f"/g/{game_id}/scan", data={"serial": run[0].serial}).status_code in (400, 403)


def test_the_bankers_print_page_offers_the_games_money_and_chips(client, app):
    game_id, _run = setup_game(client, app)
    html = client.get(f"/g/{game_id}/print", headers=EN).get_data(as_text=True)
    assert "Download this game’s money (PDF)" in html and "Download the decoder chips (PDF)" in html
    for path in ("money-serials.png", "decoder-chips.pdf", "decoder-chips.png"):
        assert client.get(f"/g/{game_id}/print/{path}").status_code == 200, path
    phone = sit_down(app, game_id, "Bruno")
    assert phone.get(f"/g/{game_id}/print/money-serials.pdf").status_code == 403
    classic, _ = open_table(client)
    html = client.get(f"/g/{classic}/print", headers=EN).get_data(as_text=True)
    assert "decoder" not in html.lower()
    assert client.get(f"/g/{classic}/print/money-serials.pdf").status_code == 404
