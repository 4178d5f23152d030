"""Italian's words before a name on the phone: "Bruno paga € 50 ad Anna" in the feed, live,
and the confirmation, filled by banco.js, with no preposition to fit ("Paghi Anna: € 50?")."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.test_table import started


def test_the_confirmation_and_the_feed_say_ad_anna(live_server, phone):
    _host, (bruno, anna) = started(live_server, phone, ("Bruno", "Anna"), locale="it-IT", host_locale="it-IT")
    bruno.locator("#pay-form label.choice", has_text="Anna").click()
    bruno.fill("#pay-amount", "50")
    bruno.locator("form[data-confirm] button.btn-big").click()
    expect(bruno.locator("#confirm-text")).to_have_text(re.compile(r"^Paghi Anna: €\s?50\?"))
    bruno.click("#confirm-ok")
    expect(anna.locator("#feed")).to_contain_text(re.compile(r"Bruno paga €\s?50 ad Anna\."), timeout=10_000)
    assert bruno.errors == [] and anna.errors == []
