"""A one-tap GO taken back on a real phone: the button shows its seconds, tapping it restores
the cash, the banker's table shows both lines; left alone, the button goes at zero."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from companion.core.take_back import TAKE_BACK_SECONDS

from .test_table import started


def test_a_one_tap_go_taken_back(live_server, phone):
    host, (anna, bruno) = started(live_server, phone)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"))
    expect(anna.locator("#take-back")).to_have_count(0)

    anna.locator("button.btn-go").click()
    anna.wait_for_load_state()
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]700"))
    take_back = anna.locator("#take-back")
    expect(take_back).to_be_visible()
    expect(take_back).to_contain_text(re.compile(r"GO \+€\s?200"))
    left = int(take_back.locator("[data-take-back-left]").inner_text())
    assert 1 <= left <= TAKE_BACK_SECONDS
    expect(take_back.get_by_role("button")).to_have_text(re.compile(r"Take back \(\d+ s\)"))
    expect(bruno.locator("#take-back")).to_have_count(0)  # only on the phone that tapped it

    take_back.get_by_role("button").click()
    anna.wait_for_load_state()
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"))
    expect(anna.locator("#take-back")).to_have_count(0)
    feed = host.locator("#feed")
    expect(feed).to_contain_text("Anna passed GO and collected", timeout=10_000)
    expect(feed).to_contain_text(re.compile(r"Anna took back: GO \+€\s?200\."), timeout=10_000)
    expect(feed.locator("li.is-reversed")).to_contain_text("Anna passed GO")

    # Left alone, the button counts down and goes at zero; the server would refuse it then.
    anna.locator("button.btn-go").click()
    anna.wait_for_load_state()
    expect(anna.locator("#take-back")).to_be_visible()
    expect(anna.locator("#take-back")).to_be_hidden(timeout=(TAKE_BACK_SECONDS + 3) * 1000)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]700"))
    assert anna.errors == [] and host.errors == []
