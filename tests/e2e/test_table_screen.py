"""The table screen on a TV (1920×1080) and a laptop (1280×800): big cash, the join QR in a
corner once the game runs, auctions taking the screen live, never a secret."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_table import open_table, sit_down

TV = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 800}


def open_screen(browser, url, viewport, locale="it-IT"):
    """A table screen: a big display of its own, signed in to nothing."""
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.goto(url)
    # Marks this document: a reload would lose it, a live update in place keeps it.
    page.evaluate("window.__sameDocument = true")
    return page


def screen_url(host) -> str:
    return host.locator("#step-screen a.url").get_attribute("href")


def box(locator) -> dict:
    return locator.bounding_box()


def same_document(page) -> bool:
    return page.evaluate("window.__sameDocument === true")


def start_game(host):
    host.locator("form:has(input[value=start]) button").click()
    host.wait_for_url(re.compile(r".*/table$"))


def test_the_cash_reads_from_two_metres_and_the_join_qr_moves_to_a_corner(live_server, phone, browser):
    url = live_server.url
    host = phone()
    code = open_table(host, url, ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Ugo"])
    screen = open_screen(browser, url + screen_url(host), TV)
    qr = screen.locator(".screen-join .qr")
    expect(qr).to_be_visible()
    assert box(qr)["height"] >= 0.4 * TV["height"]  # before the start: the join QR big
    expect(screen.locator(".screen-join .join-code")).to_have_text(code)

    anna = phone()
    sit_down(anna, url, code, "Anna")
    expect(screen.locator(".screen-seat", has_text="Anna")).to_have_class(re.compile("is-claimed"), timeout=10_000)
    start_game(host)

    tiles = screen.locator(".screen-tile")
    expect(tiles).to_have_count(8, timeout=10_000)
    cash = screen.locator(".screen-tile-cash")
    expect(cash.first).to_have_text(re.compile(r"1\.500"))
    for i in range(8):
        assert box(cash.nth(i))["height"] >= 0.05 * TV["height"], box(cash.nth(i))
        tile = box(tiles.nth(i))
        figure = box(cash.nth(i))
        assert figure["x"] + figure["width"] <= tile["x"] + tile["width"]  # the figure fits its tile
    corner = box(screen.locator(".screen-corner .qr"))
    assert corner["height"] <= 0.25 * TV["height"]  # small, but still a QR to scan
    assert corner["height"] >= 100
    assert corner["x"] >= 0.75 * TV["width"] and corner["y"] >= 0.6 * TV["height"]  # in the bottom right corner
    expect(screen.locator(".screen-corner .join-code")).to_have_text(code)
    assert same_document(screen)  # the start arrived without a reload
    assert screen.errors == [] and host.errors == []


def test_eight_players_fit_a_laptop_without_scrolling(live_server, phone, browser):
    url = live_server.url
    host = phone("en-GB")
    open_table(host, url, ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Ugo"])
    start_game(host)
    host.locator("form:has(input[value=roll]) button").first.click()  # a roll and a feed line to show too
    host.wait_for_url(re.compile(r".*/table$"))
    screen = open_screen(browser, url + host.locator("#bank-screen a.btn").get_attribute("href"), LAPTOP, "en-GB")
    expect(screen.locator(".screen-tile")).to_have_count(8)
    expect(screen.locator(".screen-roll")).to_be_visible()
    size = screen.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size[0] <= LAPTOP["width"] and size[1] <= LAPTOP["height"], size
    for element in screen.locator(".screen-tile, .screen-last, .screen-corner").all():
        shown = box(element)
        assert shown["y"] >= 0 and shown["y"] + shown["height"] <= LAPTOP["height"], shown
    for cash in screen.locator(".screen-tile-cash").all():
        assert box(cash)["height"] >= 0.04 * LAPTOP["height"]
    assert screen.errors == []


def test_an_auction_takes_the_screen_with_its_countdown_live(live_server, phone, browser):
    url = live_server.url
    host = phone()
    open_table(host, url, ["Anna", "Bruno", "Carla"])
    start_game(host)
    screen = open_screen(browser, url + host.locator("#bank-screen a.btn").get_attribute("href"), TV)
    expect(screen.locator(".screen-tile")).to_have_count(3)
    expect(screen.locator("#auction")).to_have_count(0)

    host.select_option("#auction-deed", "via-roma")
    host.locator("form:has(input[value=auction_start]) button").click()
    auction = screen.locator(".screen-auction")
    expect(auction).to_be_visible(timeout=10_000)
    expect(auction.locator(".screen-auction-lot")).to_have_text("Via Roma")
    shown = box(auction)
    assert shown["width"] >= 0.9 * TV["width"] and shown["height"] >= 0.5 * TV["height"]  # it takes the screen
    countdown = auction.locator("[data-countdown]")
    first = int(countdown.inner_text())
    assert box(countdown)["height"] >= 0.1 * TV["height"]
    expect(countdown).not_to_have_text(str(first))  # it counts down on the screen itself
    assert int(countdown.inner_text()) < first
    assert same_document(screen)
    expect(screen.locator(".screen-corner")).to_be_hidden()  # the strip below keeps only the cash
    expect(screen.locator(".screen-tile-cash")).to_have_count(3)

    host.locator("form:has(input[value=auction_close]) button.btn-big").click()  # the banker closes it early
    expect(screen.locator(".screen-auction")).to_have_count(0, timeout=10_000)
    expect(screen.locator(".screen-corner")).to_be_visible()
    assert same_document(screen) and screen.errors == []


def test_no_secret_ever_reaches_the_screen(live_server, phone, browser):
    url = live_server.url
    host = phone("en-GB")
    code = open_table(host, url, ["Anna", "Bruno"])
    anna = phone()
    sit_down(anna, url, code, "Anna")
    start_game(host)
    screen = open_screen(browser, url + host.locator("#bank-screen a.btn").get_attribute("href"), TV, "en-GB")

    host.get_by_role("button", name="Rejoin code: Anna").click()
    rejoin = host.locator("code.url").get_attribute("data-url")
    assert "/r/" in rejoin
    fresh = phone()
    fresh.goto(rejoin)
    fresh.locator("main form button").click()  # Anna's seat moves: every page hears of it
    fresh.wait_for_url(re.compile(r".*/me$"))
    expect(screen.locator(".screen-last-line")).to_contain_text("Anna", timeout=10_000)
    html = screen.content()
    assert "/r/" not in html and rejoin.rsplit("/", 1)[1] not in html
    assert screen.locator("form").count() == 0 and screen.locator(".qr").count() == 1  # the join QR only

    # The bank moves to a phone: the old device goes on as the table screen.
    host.get_by_role("link", name="Back to the table").click()
    host.locator("#bank-handoff summary").click()
    host.locator("#bank-handoff button").click()
    handoff = host.locator("code.url").get_attribute("data-url")
    banker = phone("en-GB")
    banker.goto(handoff)
    banker.locator("main form button").click()
    banker.wait_for_url(re.compile(r".*/table$"))
    expect(banker.locator(".flash-ok")).to_contain_text("This phone runs the bank now.")
    expect(screen.locator(".screen-last-line")).to_contain_text("The bank moved to another phone.", timeout=10_000)
    assert handoff.rsplit("/", 1)[1] not in screen.content() and "/bank/" not in screen.content()
    host.get_by_role("link", name="Back to the bank").click()
    host.wait_for_url(re.compile(r".*/screen$"))  # signed out of the bank, a table screen now
    assert host.locator("form").count() == 0
    assert screen.errors == [] and banker.errors == []
