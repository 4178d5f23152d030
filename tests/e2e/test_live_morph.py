"""Live updates change only what changed: what a player is typing survives every kind of
event, and what happens to a player pops up on their phone."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_table import pay, started

# Records the phone's buzzes: headless Chromium has no vibration motor to ask.
VIBRATE_SPY = "window.__buzzes = []; navigator.vibrate = function (p) { window.__buzzes.push(p); return true; };"


def started_game(live_server, phone, names=("Anna", "Bruno")):
    """A started table whose players' phones record their buzzes."""
    real_phone = phone

    def spied(locale="en-GB"):
        page = real_phone(locale)
        page.add_init_script(VIBRATE_SPY)
        return page

    host, phones = started(live_server, spied, names, host_locale="it-IT")
    for page in phones:
        expect(page.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"))
    return host, phones


def open_auction(host, deed="Vicolo Corto"):
    host.locator("#auction-deed").select_option(label=deed)
    host.locator("form:has(input[value=auction_start]) button").click()
    host.wait_for_load_state()


def test_a_half_typed_payment_survives_an_auction_opening_and_closing(live_server, phone):
    host, (anna, bruno) = started_game(live_server, phone)
    anna.locator("#pay-form label.choice", has_text="Bruno").click()
    anna.fill("#pay-reason", "rent for Piazza Dante")
    anna.fill("#pay-amount", "24")  # focus stays here, as when a thumb is still typing
    anna.evaluate("window.scrollTo(0, 400)")
    # Where the field stands on the screen: the page may grow above it, the field must not move.
    where = anna.locator("#pay-amount").bounding_box()["y"]

    open_auction(host)
    expect(anna.locator("#auction")).to_contain_text("Vicolo Corto")
    expect(anna.locator("#bid-amount")).to_be_visible()
    assert anna.locator("#pay-amount").input_value() == "24"
    assert anna.locator("#pay-reason").input_value() == "rent for Piazza Dante"
    assert anna.locator("#pay-form input[name=to]:checked").get_attribute("data-label") == "Bruno"
    assert anna.evaluate("document.activeElement.id") == "pay-amount"
    assert abs(anna.locator("#pay-amount").bounding_box()["y"] - where) < 2
    # Morphed in place: still one page, not a page inside the old one.
    assert anna.evaluate("document.querySelectorAll('body, main, header').length") == 3
    assert anna.evaluate(
        "new Set([...document.querySelectorAll('[id]')].map(e => e.id)).size "
        "=== document.querySelectorAll('[id]').length"
    )

    host.locator("form:has(input[value=auction_close]) button.btn-big").click()
    expect(anna.locator("#bid-amount")).to_have_count(0)
    assert anna.locator("#pay-amount").input_value() == "24"
    assert anna.evaluate("document.activeElement.id") == "pay-amount"

    # The half-typed payment still goes through as typed.
    anna.locator("#pay-form button.btn-big").click()
    anna.click("#confirm-ok")
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]476"))
    assert anna.errors == [] and bruno.errors == []


def test_a_confirmation_open_when_the_game_changes_stays_open(live_server, phone):
    host, (anna, _bruno) = started_game(live_server, phone)
    anna.locator("#pay-form label.choice", has_text="Bruno").click()
    anna.fill("#pay-amount", "50")
    anna.locator("#pay-form button.btn-big").click()
    expect(anna.locator("#confirm")).to_be_visible()
    text = anna.locator("#confirm-text").inner_text()
    assert "50" in text and "Bruno" in text

    open_auction(host)
    expect(anna.locator("#auction")).to_contain_text("Vicolo Corto")
    expect(anna.locator("#confirm")).to_be_visible()
    assert anna.locator("#confirm-text").inner_text() == text
    anna.click("#confirm-ok")
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]450"))


def test_a_payment_pops_up_on_the_receivers_phone(live_server, phone):
    """How fast is a benchmark's to say (bench_pages.py: a page updated at a p95 of about 40 ms);
    here, that it pops up, on the receiver's phone only, and buzzes."""
    _host, (anna, bruno) = started_game(live_server, phone)
    pay(anna, "Bruno", 24)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]476"))
    toast = bruno.locator("#toasts .toast")
    expect(toast).to_have_text(re.compile(r"^\+€\s?24 from Anna\.$"))
    assert bruno.evaluate("window.__buzzes.length") >= 1
    # Nothing pops up on the payer's own phone for what they did themselves.
    expect(anna.locator("#toasts .toast")).to_have_count(0)
    # It stays in the short list of what happened to me after the toast has gone.
    expect(toast).to_have_count(0)
    expect(bruno.locator("#for-you summary")).to_contain_text("from Anna")


def test_an_outbid_player_is_told_and_the_winner_and_loser_hear_the_result(live_server, phone):
    host, (anna, bruno) = started_game(live_server, phone)
    open_auction(host)
    for page, amount in ((anna, 60), (bruno, 80)):
        expect(page.locator("#bid-amount")).to_be_visible()
        page.fill("#bid-amount", str(amount))
        page.locator("form:has(#bid-amount) button.btn-big").click()
        page.click("#confirm-ok")
        page.wait_for_load_state()
    expect(anna.locator("#toasts")).to_contain_text("Bruno outbid you")
    host.locator("form:has(input[value=auction_close]) button.btn-big").click()
    expect(bruno.locator("#toasts")).to_contain_text("You won Vicolo Corto")
    expect(anna.locator("#toasts")).to_contain_text("Bruno won Vicolo Corto")


def test_a_tab_that_opens_the_game_shows_no_old_news(live_server, phone):
    _host, (anna, bruno) = started_game(live_server, phone)
    pay(anna, "Bruno", 24)
    expect(bruno.locator("#toasts .toast")).to_have_count(1)
    fresh = bruno.context.new_page()  # the same phone, a new tab
    fresh.goto(bruno.url)
    expect(fresh.locator("#for-you summary")).to_contain_text("from Anna")
    expect(fresh.locator("#toasts .toast")).to_have_count(0)


def test_the_bankers_half_typed_transfer_survives_players_paying(live_server, phone):
    host, (anna, _bruno) = started_game(live_server, phone)
    host.locator("#t-from").select_option(label="Bruno")
    host.fill("#t-reason", "Community Chest")
    host.fill("#t-amount", "75")
    pay(anna, "Bruno", 24)
    expect(host.locator("#players")).to_contain_text(re.compile(r"1[.,]524"))
    assert host.locator("#t-amount").input_value() == "75"
    assert host.locator("#t-reason").input_value() == "Community Chest"
    assert host.locator("#t-from option:checked").inner_text() == "Bruno"


def test_a_request_arriving_while_typing_keeps_what_is_typed_and_tells_the_payer(live_server, phone):
    _host, (anna, bruno) = started_game(live_server, phone)
    bruno.locator("#pay-form label.choice", has_text="Anna").click()
    bruno.fill("#pay-amount", "33")
    anna.locator("details.ask summary").click()
    anna.locator("#ask-form label.choice", has_text="Bruno").click()
    anna.fill("#ask-amount", "24")
    anna.fill("#ask-reason", "rent for Piazza Dante")
    anna.locator("#ask-form button").click()
    expect(bruno.locator("#offers [data-pending]")).to_contain_text("Anna")
    expect(bruno.locator("#toasts")).to_contain_text("Anna asks you for €\u00a024. (rent for Piazza Dante)")
    assert bruno.locator("#pay-amount").input_value() == "33"
    assert bruno.evaluate("document.activeElement.id") == "pay-amount"
