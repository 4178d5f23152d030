"""Two phones: an auction with live bids, then a trade proposed on one and accepted on the other."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_table import started


def confirm(page):
    expect(page.locator("#confirm")).to_be_visible()
    page.click("#confirm-ok")
    page.wait_for_load_state()


def test_an_auction_and_a_trade_between_two_phones(live_server, phone):
    host, (anna, bruno) = started(live_server, phone)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1,500"))
    game_path = anna.url.rsplit("/", 1)[0]

    # Anna lands on Via Roma and declines to buy: the auction opens on every phone.
    anna.goto(f"{game_path}/deeds/via-roma")
    expect(anna.locator(".title-deed-name")).to_have_text("Via Roma")
    anna.get_by_role("button", name="Auction it").click()
    expect(bruno.locator("#auction")).to_contain_text("Via Roma", timeout=10_000)
    expect(host.locator("#auction")).to_contain_text("Via Roma", timeout=10_000)

    bruno.fill("#bid-amount", "120")
    bruno.get_by_role("button", name="Bid", exact=True).click()
    confirm(bruno)
    expect(anna.locator("#auction")).to_contain_text("120")
    anna.fill("#bid-amount", "110")  # below the high bid: refused before any confirmation (issue 31)
    anna.get_by_role("button", name="Bid", exact=True).click()
    expect(anna.locator("#bid .field-error")).to_have_text("The bid must be at least €\u00a0121.")
    expect(anna.locator("#confirm")).to_be_hidden()
    anna.fill("#bid-amount", "150")
    anna.get_by_role("button", name="Bid", exact=True).click()
    confirm(anna)
    expect(bruno.locator("#auction")).to_contain_text("150")

    host.get_by_role("button", name="Close the auction now").click()
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1,350"))
    expect(bruno.locator("#feed")).to_contain_text("Anna won Via Roma")

    # Bruno offers 400 for Via Roma; Anna sees the offer live and accepts it.
    bruno.goto(f"{game_path}/trade")
    bruno.locator("label.choice", has_text="Anna").click()
    bruno.fill("#give-cash", "400")
    bruno.get_by_label("Via Roma").check()
    bruno.get_by_role("button", name="Send the offer").click()
    bruno.wait_for_load_state()
    expect(anna.locator("#offers")).to_contain_text("Bruno offers you")
    anna.get_by_role("button", name="Accept").click()
    confirm(anna)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1,750"))
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1,100"))
    bruno.goto(f"{game_path}/deeds/via-roma")
    expect(bruno.locator("#deed-state")).to_contain_text("Owner: Bruno")
    for page in (host, anna, bruno):
        assert page.errors == [], page.errors
