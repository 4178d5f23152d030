"""The print pages and the sheets they serve, driven as a browser would (cookies, CSRF tokens).

The PDFs are rasterised and their QR codes decoded, so what is checked is what a phone's
camera will read off the paper.
"""

from __future__ import annotations

import math
import re
from urllib.parse import urlsplit

import pypdfium2 as pdfium
import pytest

from companion import services
from companion.web import printing
from tests.printables.printables_testkit import decode_qr, render_pages
from tests.web.test_pages import csrf

PUBLIC_URL = "http://banco.test"  # make_app's PUBLIC_URL
ENGLISH = {"Accept-Language": "en"}
ITALIAN = {"Accept-Language": "it-IT,it;q=0.9"}


def open_table(client, names=("Anna", "Bruno", "Carla")) -> str:
    """Opens a classic-it table from the home page; ``client`` is its banker. Returns the game id."""
    page = client.get("/").get_data(as_text=True)
    response = client.post("/games", data={"csrf_token": csrf(page), "edition": "classic-it", "name": list(names)})
    assert response.status_code == 302
    return response.location.split("/")[2]


def sit_down(app, game_id, name):
    """A new phone scans the join QR and taps ``name``; returns its client."""
    phone = app.test_client()
    with app.app_context():
        game = services.get_game(game_id)
        code, player_id = game.join_code, next(p.id for p in game.players if p.name == name)
    page = phone.get(f"/j/{code}").get_data(as_text=True)
    assert phone.post(f"/j/{code}", data={"csrf_token": csrf(page), "player": player_id}).status_code == 302
    return phone


def page_count(pdf: bytes) -> int:
    doc = pdfium.PdfDocument(pdf)
    try:
        return len(doc)
    finally:
        doc.close()


def is_pdf(response, filename_part: str) -> bool:
    disposition = response.headers.get("Content-Disposition", "")
    return (
        response.status_code == 200
        and response.mimetype == "application/pdf"
        and response.data.startswith(b"%PDF")
        and "attachment" in disposition
        and re.search(rf'filename="[\w.-]*{re.escape(filename_part)}[\w.-]*\.pdf"', disposition) is not None
    )


def is_png(response) -> bool:
    return response.status_code == 200 and response.mimetype == "image/png" and response.data.startswith(b"\x89PNG")


# --- the print page ------------------------------------------------------------------------


def test_the_print_page_previews_and_offers_every_edition_sheet(client):
    page = client.get("/print", headers=ENGLISH).get_data(as_text=True)
    assert "Deed cards" in page and "Paper money for 4 players" in page
    assert "flipping on the long edge" in page and "63×88 mm" in page and "cut along the marks" in page
    for src in re.findall(r'<img src="([^"]+)"', page):
        assert is_png(client.get(src.replace("&amp;", "&"))), src
    links = {href.replace("&amp;", "&") for href in re.findall(r'href="(/print/[^"]+\.pdf[^"]*)"', page)}
    assert any("/print/classic-it/deeds.pdf" in link for link in links)
    assert any("/print/classic-it/money.pdf" in link and "players=4" in link for link in links)
    assert "Open a table first" in page


def test_the_print_page_follows_the_choices_and_speaks_italian(client):
    page = client.get("/print?edition=campionato-2015&paper=letter&players=6", headers=ITALIAN).get_data(as_text=True)
    assert '<html lang="it">' in page and "Contratti" in page and "Banconote per 6 giocatori" in page
    assert "fronte-retro" in page
    assert "/print/campionato-2015/deeds.png?paper=letter&amp;lang=it" in page
    assert "/print/campionato-2015/money.pdf?players=6&amp;paper=letter&amp;lang=it" in page


def test_the_print_page_lists_the_tables_this_browser_banks(app):
    banker = app.test_client()
    game_id = open_table(banker)
    assert f"/g/{game_id}/print" in banker.get("/print", headers=ENGLISH).get_data(as_text=True)
    stranger = app.test_client()
    assert f"/g/{game_id}/print" not in stranger.get("/print", headers=ENGLISH).get_data(as_text=True)


# --- deed cards ----------------------------------------------------------------------------


@pytest.mark.parametrize("edition_id", ["classic-it", "campionato-2015"])
def test_the_deed_pdf_has_every_card_and_its_qr_leads_to_the_card_page(client, app, edition_id):
    response = client.get(f"/print/{edition_id}/deeds.pdf?paper=a4&lang=it")
    assert is_pdf(response, f"{edition_id}-deeds-a4")
    with app.app_context():
        keys = [d.key for d in services.editions()[edition_id].deeds]
    sheets = math.ceil(len(keys) / 9)
    assert page_count(response.data) == 2 * sheets  # each front page, then its mirrored back
    fronts = render_pages(response.data)[::2]
    decoded = [url for image, _size in fronts for url in decode_qr(image)]
    assert sorted(decoded) == sorted(f"{PUBLIC_URL}/card/{edition_id}/{key}" for key in keys)


def test_the_deed_pdf_is_drawn_once_per_edition_paper_language_and_address(client):
    printing._deeds_pdf.cache_clear()
    first = client.get("/print/classic-it/deeds.pdf?paper=letter&lang=en")
    second = client.get("/print/classic-it/deeds.pdf?paper=letter&lang=en")
    assert is_pdf(first, "classic-it-deeds-letter-en") and first.data == second.data
    info = printing._deeds_pdf.cache_info()
    assert (info.hits, info.misses) == (1, 1)


def test_the_deed_sheet_language_defaults_to_the_readers(client):
    assert is_pdf(client.get("/print/classic-it/deeds.pdf", headers=ENGLISH), "classic-it-deeds-a4-en")
    assert is_pdf(client.get("/print/classic-it/deeds.pdf", headers=ITALIAN), "classic-it-deeds-a4-it")


def test_the_deed_preview_is_a_png(client):
    assert is_png(client.get("/print/classic-it/deeds.png?paper=letter"))


# --- money ---------------------------------------------------------------------------------


def test_the_money_pdf_is_for_four_players_unless_told(client):
    response = client.get("/print/classic-it/money.pdf?paper=a4&lang=en")
    assert is_pdf(response, "classic-it-money-4-players-a4-en") and page_count(response.data) > 1
    assert is_pdf(client.get("/print/classic-it/money.pdf?players=6"), "money-6-players")
    assert is_png(client.get("/print/classic-it/money.png?players=2&paper=letter"))


def test_the_money_saves_ink_unless_full_colour_is_chosen(client):
    page = client.get("/print", headers=ENGLISH).get_data(as_text=True)
    assert re.search(r'name="ink" value="saver" checked', page) and "Full colour" in page
    assert "/print/classic-it/money.pdf?players=4&amp;paper=a4&amp;lang=en&amp;ink=saver" in page
    full_page = client.get("/print?ink=full&players=6", headers=ITALIAN).get_data(as_text=True)
    assert re.search(r'name="ink" value="full" checked', full_page)
    assert "/print/classic-it/money.png?players=6&amp;paper=a4&amp;lang=it&amp;ink=full" in full_page
    assert "Risparmio d" in full_page and "A colori pieni" in full_page

    saver = client.get("/print/classic-it/money.pdf?paper=a4&lang=en")
    assert saver.data == client.get("/print/classic-it/money.pdf?paper=a4&lang=en&ink=saver").data
    full = client.get("/print/classic-it/money.pdf?paper=a4&lang=en&ink=full")
    assert is_pdf(full, "classic-it-money-4-players-a4-en-full-colour") and full.data != saver.data
    assert is_png(client.get("/print/classic-it/money.png?ink=full"))
    for sheet in ("money.pdf", "money.png"):
        refused = client.get(f"/print/classic-it/{sheet}?ink=rainbow", headers=ENGLISH)
        assert refused.status_code == 400
        assert "Unknown ink choice: choose the ink saver or full colour." in refused.get_data(as_text=True)


@pytest.mark.parametrize("players", ["1", "9", "0", "-3", "four", "4.5", "99999999999"])
def test_money_for_a_table_size_the_edition_lacks_is_refused(client, players):
    for sheet in ("money.pdf", "money.png"):
        response = client.get(
            f"/print/classic-it/money.{sheet[-3:]}", query_string={"players": players}, headers=ENGLISH
        )
        assert response.status_code == 400, players
        assert "This game takes 2 to 8 players." in response.get_data(as_text=True)


# --- refusals ------------------------------------------------------------------------------

EDITION_SHEETS = [
    "/print/{e}/deeds.pdf",
    "/print/{e}/deeds.png",
    "/print/{e}/money.pdf",
    "/print/{e}/money.png",
    "/print",
]


def get_sheet(client, path, edition, headers, **query):
    """``path`` for ``edition``: in the path for a sheet, as ``?edition=`` for the print page."""
    if "{e}" not in path:
        query["edition"] = edition
    return client.get(path.format(e=edition), query_string=query, headers=headers)


@pytest.mark.parametrize("path", EDITION_SHEETS)
def test_an_unknown_edition_is_a_friendly_404_in_the_readers_language(client, path):
    response = get_sheet(client, path, "monopoli-di-marte", ITALIAN)
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "Questa edizione non esiste." in page and "Torna all'inizio" in page


@pytest.mark.parametrize("path", EDITION_SHEETS)
@pytest.mark.parametrize("paper", ["a5", "legal", "<b>A4</b>", " "])
def test_an_unknown_paper_is_refused_with_a_clear_message(client, path, paper):
    response = get_sheet(client, path, "classic-it", ENGLISH, paper=paper)
    assert response.status_code == 400
    assert "Unknown paper size: choose A4 or US Letter." in response.get_data(as_text=True)


def test_the_paper_is_read_whatever_its_case(client):
    assert is_png(client.get("/print/classic-it/money.png?paper=LETTER"))


@pytest.mark.parametrize("lang", ["de", "IT", "fr"])
def test_an_unknown_sheet_language_is_refused(client, lang):
    response = client.get("/print/classic-it/deeds.png", query_string={"lang": lang}, headers=ENGLISH)
    assert response.status_code == 400
    assert "Unknown language: choose Italian or English." in response.get_data(as_text=True)


# --- a game's sheets: the poster ------------------------------------------------------------


def test_the_banker_prints_the_poster_whose_qr_is_the_join_address(app):
    banker = app.test_client()
    game_id = open_table(banker)
    with app.app_context():
        code = services.get_game(game_id).join_code
    response = banker.get(f"/g/{game_id}/print/poster.pdf?paper=letter")
    assert is_pdf(response, f"poster-{code}-letter") and page_count(response.data) == 1
    assert response.headers["Cache-Control"] == "no-store"
    [(image, _size)] = render_pages(response.data)
    assert set(decode_qr(image)) == {f"{PUBLIC_URL}/j/{code}"}
    assert is_png(banker.get(f"/g/{game_id}/print/poster.png"))


def test_the_banker_print_page_shows_the_poster_and_the_rejoin_form(app):
    banker = app.test_client()
    game_id = open_table(banker)
    page = banker.get(f"/g/{game_id}/print", headers=ENGLISH).get_data(as_text=True)
    assert f'src="/g/{game_id}/print/poster.png?paper=a4&amp;lang=en"' in page
    assert f'href="/g/{game_id}/print/poster.pdf?paper=a4&amp;lang=en"' in page
    assert f'action="/g/{game_id}/print/rejoin.pdf"' in page and 'name="csrf_token"' in page
    assert "Anna, Bruno, Carla" in page and "stop working" in page
    letter = banker.get(f"/g/{game_id}/print?paper=letter", headers=ENGLISH).get_data(as_text=True)
    assert 'name="paper" value="letter"' in letter


@pytest.mark.parametrize("path", ["/g/{g}/print", "/g/{g}/print/poster.pdf", "/g/{g}/print/poster.png"])
def test_only_the_banker_sees_the_game_sheets(app, path):
    banker = app.test_client()
    game_id = open_table(banker)
    player = sit_down(app, game_id, "Bruno")
    stranger = app.test_client()
    for who in (player, stranger):
        assert who.get(path.format(g=game_id), headers=ENGLISH).status_code == 403
    assert banker.get(path.format(g="nosuchgame"), headers=ENGLISH).status_code == 404


def test_the_game_sheets_refuse_an_unknown_paper(app):
    banker = app.test_client()
    game_id = open_table(banker)
    assert banker.get(f"/g/{game_id}/print/poster.pdf?paper=a3").status_code == 400
    assert banker.get(f"/g/{game_id}/print?paper=a3").status_code == 400


# --- rejoin cards --------------------------------------------------------------------------


def print_rejoin_cards(banker, game_id, paper="a4"):
    page = banker.get(f"/g/{game_id}/print").get_data(as_text=True)
    return banker.post(f"/g/{game_id}/print/rejoin.pdf", data={"csrf_token": csrf(page), "paper": paper})


def test_each_rejoin_card_lets_a_new_phone_take_its_players_seat(app):
    banker = app.test_client()
    game_id = open_table(banker)
    old_phone = sit_down(app, game_id, "Bruno")
    response = print_rejoin_cards(banker, game_id, paper="letter")
    assert is_pdf(response, "rejoin-cards") and response.headers["Cache-Control"] == "no-store"
    urls = [url for image, _size in render_pages(response.data) for url in decode_qr(image)]
    assert len(urls) == len(set(urls)) == 3 and all(url.startswith(f"{PUBLIC_URL}/r/") for url in urls)
    seats = set()
    for url in urls:
        path = urlsplit(url).path
        phone = app.test_client()
        page = phone.get(path, headers=ENGLISH).get_data(as_text=True)
        taken = phone.post(path, data={"csrf_token": csrf(page)})
        assert taken.status_code == 302 and taken.location == f"/g/{game_id}/me"
        wallet = phone.get(f"/g/{game_id}/me", headers=ENGLISH).get_data(as_text=True)
        seats.add(re.search(r'class="balance-name">([^<]+)<', wallet).group(1))
        assert phone.post(path, data={"csrf_token": csrf(page)}).status_code == 403  # once only
    assert seats == {"Anna", "Bruno", "Carla"}
    # Bruno's lost phone was signed out when his card was used.
    assert old_phone.get(f"/g/{game_id}/me").status_code == 302


def test_printing_rejoin_cards_replaces_the_codes_given_before(app):
    banker = app.test_client()
    game_id = open_table(banker)
    with app.app_context():
        anna = next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
    table = banker.get(f"/g/{game_id}/table").get_data(as_text=True)
    shown = banker.post(f"/g/{game_id}/rejoin/{anna}", data={"csrf_token": csrf(table)}).get_data(as_text=True)
    shown_path = urlsplit(re.search(r'data-url="([^"]+)"', shown).group(1)).path
    first_cards = print_rejoin_cards(banker, game_id)
    first_urls = {url for image, _ in render_pages(first_cards.data) for url in decode_qr(image)}
    print_rejoin_cards(banker, game_id)
    phone = app.test_client()
    for path in [shown_path] + [urlsplit(url).path for url in first_urls]:
        page = phone.get(path).get_data(as_text=True)
        assert phone.post(path, data={"csrf_token": csrf(page)}).status_code == 403, path


def test_rejoin_cards_are_the_bankers_and_need_a_posted_form(app):
    banker = app.test_client()
    game_id = open_table(banker)
    player = sit_down(app, game_id, "Anna")
    token = csrf(player.get("/").get_data(as_text=True))
    assert player.post(f"/g/{game_id}/print/rejoin.pdf", data={"csrf_token": token}).status_code == 403
    assert banker.get(f"/g/{game_id}/print/rejoin.pdf").status_code == 405  # a GET never issues secrets
    assert banker.post(f"/g/{game_id}/print/rejoin.pdf", data={"paper": "a4"}).status_code == 400  # no CSRF token
    refused = print_rejoin_cards(banker, game_id, paper="tabloid")
    assert refused.status_code == 400
    with app.app_context():
        assert all(p.rejoin_hash is None for p in services.get_game(game_id).players)
