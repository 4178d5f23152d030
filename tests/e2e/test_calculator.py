"""The score calculator on a real phone: a group that played with paper money types the
players, their cash and their deeds, adds one deed by opening its printed card's URL, and
gets the ranking; a reload keeps everything, an impossible entry is refused by name."""

from __future__ import annotations

import os
import re

from playwright.sync_api import expect

SHOTS = "shots/e2e"  # looked at by hand; shots/ is not committed


def test_a_paper_game_counted_on_one_phone(live_server, phone):
    os.makedirs(SHOTS, exist_ok=True)
    url = live_server.url
    page = phone()  # Italian

    page.goto(url + "/")
    link = page.get_by_role("link", name="Calcola il punteggio")
    link.scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/calculator-home.png")
    link.click()
    page.wait_for_url(re.compile(r".*/calculator$"))
    for i, name in enumerate(["Anna", "Bruno", "Carla"]):
        page.locator("#calc-new input[name=name]").nth(i).fill(name)
    page.screenshot(path=f"{SHOTS}/calculator-start.png", full_page=True)
    page.get_by_role("button", name="Inizia il calcolo").click()
    page.wait_for_url(re.compile(r".*/calculator/entries$"))

    # Cash and deeds; the page saves each change by itself.
    status = page.locator("#calc-status")
    page.fill("#cash-0", "1500")
    page.fill("#cash-1", "900")
    expect(status).to_have_text("Salvato su questo telefono.", timeout=10_000)
    for key in ("via-roma", "corso-impero", "largo-augusto"):
        page.get_by_label("Proprietario di " + page.locator(f"#deed-{key} .calc-deed-name").inner_text()).select_option(
            label="Anna"
        )
    page.locator("select[name=build-via-roma]").select_option(label="2 case")
    for key in ("corso-impero", "largo-augusto"):  # built evenly: a group's houses differ by one at most
        page.locator(f"select[name=build-{key}]").select_option("1")
    page.locator("input[name=mortgaged-stazione-sud]").check()  # nobody holds it yet: refused, named
    expect(status).to_have_text(
        "Il contratto Stazione Sud è della Banca: solo il suo proprietario può ipotecarlo.", timeout=10_000
    )
    expect(page.locator("#deed-stazione-sud")).to_have_class(re.compile("is-wrong"))
    page.screenshot(path=f"{SHOTS}/calculator-refused-live.png")
    page.locator("select[name=owner-stazione-sud]").select_option(label="Carla")
    expect(status).to_have_text("Salvato su questo telefono.", timeout=10_000)
    expect(page.locator("#deed-stazione-sud")).not_to_have_class(re.compile("is-wrong"))
    page.locator("#deed-via-roma").scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/calculator-entries.png")
    page.screenshot(path=f"{SHOTS}/calculator-entries-full.png", full_page=True)

    # A printed card's QR code: its URL opened on the same phone adds the deed to a player.
    page.goto(f"{url}/card/classic-it/parco-della-vittoria")
    expect(page.locator("#calc-add")).to_contain_text("Chi ha Parco della Vittoria?")
    page.screenshot(path=f"{SHOTS}/calculator-card.png", full_page=True)
    page.locator("#calc-add").get_by_role("button", name="Bruno").click()
    expect(page.locator(".flash-ok")).to_have_text("Nel calcolo Parco della Vittoria va a Bruno.")
    expect(page.locator(".calc-add-owner")).to_have_text(re.compile("Nel calcolo Parco della Vittoria è di Bruno"))
    page.screenshot(path=f"{SHOTS}/calculator-card-added.png")
    page.get_by_role("link", name="Torna al calcolo").click()
    page.wait_for_url(re.compile(r".*/calculator/entries#deed-parco-della-vittoria$"))

    # Everything typed before the card is still there, and the card's deed too.
    expect(page.locator("#cash-0")).to_have_value("1500")
    expect(page.locator("select[name=owner-parco-della-vittoria]")).to_have_value("1")
    expect(page.locator("select[name=build-via-roma]")).to_have_value("2")
    expect(page.locator("select[name=owner-stazione-sud]")).to_have_value("2")

    # An impossible count is refused by name, shown as typed, and changes nothing.
    page.fill("#cash-2", "-5")
    page.get_by_role("button", name="Calcola il punteggio").click()
    expect(page.locator("#calc-error")).to_have_text("I soldi di Carla non possono essere negativi.")
    expect(page.locator("#cash-2")).to_have_value("-5")
    expect(page.locator(".calc-cash-row.is-wrong")).to_contain_text("Carla")
    page.locator("#cash-2").scroll_into_view_if_needed()
    page.screenshot(path=f"{SHOTS}/calculator-refused.png")

    page.fill("#cash-2", "300")
    page.get_by_role("button", name="Calcola il punteggio").click()
    page.wait_for_url(re.compile(r".*/calculator/result$"))
    # Anna 1,500 + 920 of green + 4 houses at 200 = 3,220; Bruno 900 + 400 = 1,300;
    # Carla 300 + Stazione Sud, mortgaged (the tick refused before she held it stayed): 100 = 400.
    expect(page.locator("h1.winner")).to_have_text("Anna")
    expect(page.locator(".rank-name")).to_have_text(["Anna", "Bruno", "Carla"])
    expect(page.locator(".rank-total")).to_have_text([re.compile(r"3\.220"), re.compile(r"1\.300"), re.compile(r"400")])
    expect(page.locator(".rank-row").first).to_contain_text(re.compile(r"Contratti €.920"))
    page.screenshot(path=f"{SHOTS}/calculator-result.png", full_page=True)

    # A reload keeps the result and the entries.
    page.reload()
    expect(page.locator(".rank-name")).to_have_text(["Anna", "Bruno", "Carla"])
    page.get_by_role("link", name="Modifica i dati").click()
    page.reload()
    expect(page.locator("#cash-2")).to_have_value("300")
    expect(page.locator("select[name=owner-largo-augusto]")).to_have_value("0")

    # The home page and the start page offer to go on with it.
    page.goto(url + "/calculator")
    expect(page.locator(".calc-current")).to_contain_text("Anna, Bruno, Carla")
    allowed = re.compile(r"status of 400")  # the refusals above answer 400, as they should
    assert [e for e in page.errors if not allowed.search(e)] == [], page.errors


def test_the_calculator_in_english_on_a_championship(live_server, phone):
    os.makedirs(SHOTS, exist_ok=True)
    url = live_server.url
    page = phone("en-GB")
    page.goto(url + "/calculator")
    page.locator("#calc-edition").select_option("campionato-2015")
    for i, name in enumerate(["Anna", "Bruno", "Carla", "Dario"]):
        page.locator("#calc-new input[name=name]").nth(i).fill(name)
    page.get_by_role("button", name="Start counting").click()
    page.wait_for_url(re.compile(r".*/calculator/entries$"))
    for i, cash in enumerate(["1000", "1030", "500", "500"]):
        page.fill(f"#cash-{i}", cash)
    page.locator("select[name=owner-via-roma]").select_option(label="Anna")
    page.locator("input[name=mortgaged-via-roma]").check()
    page.locator("select[name=owner-vicolo-corto]").select_option(label="Bruno")
    page.locator("select[name=owner-vicolo-stretto]").select_option(label="Bruno")
    page.get_by_role("button", name="Count the score").click()
    page.wait_for_url(re.compile(r".*/calculator/result$"))
    expect(page.locator(".rank-name")).to_have_text(["Bruno", "Anna", "Carla", "Dario"])
    expect(page.locator(".rank-points")).to_have_text(["19 points", "10 points", "5 points", "5 points"])
    expect(page.locator("#calc-ranking")).to_contain_text("the rules' tiebreak puts Bruno first")
    page.screenshot(path=f"{SHOTS}/calculator-result-championship.png", full_page=True)
    assert page.errors == [], page.errors


def test_a_card_added_on_another_tab_shows_when_coming_back(live_server, phone):
    """The camera often opens a scanned card in a new tab: the calculator's tab, shown again,
    draws itself anew with the card's deed, keeping what was typed."""
    url = live_server.url
    page = phone("en-GB")
    page.goto(url + "/calculator")
    for i, name in enumerate(["Anna", "Bruno"]):
        page.locator("#calc-new input[name=name]").nth(i).fill(name)
    page.get_by_role("button", name="Start counting").click()
    page.wait_for_url(re.compile(r".*/calculator/entries$"))
    page.fill("#cash-0", "100")
    expect(page.locator("#calc-status")).to_have_text("Saved on this phone.", timeout=10_000)

    scanned = page.context.new_page()
    scanned.goto(f"{url}/card/classic-it/via-roma")
    scanned.locator("#calc-add").get_by_role("button", name="Bruno").click()
    expect(scanned.locator(".calc-add-owner")).to_contain_text("Via Roma is Bruno's")

    # Headless tabs never hide: tell the first one it is shown again, as a phone would.
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("select[name=owner-via-roma]")).to_have_value("1", timeout=10_000)
    expect(page.locator("#cash-0")).to_have_value("100")
    assert page.errors == [], page.errors
