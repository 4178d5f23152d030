"""The edition editor on a real browser: open it from the home page, a value typed wrong is
named at once and its field marked, corrected it clears, saved the edition is offered for new
games."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def test_the_editor_checks_as_typed_and_saves_a_new_edition(live_server, phone):
    url = live_server.url
    page = phone("en-US")
    page.goto(url + "/")
    page.locator('a[href="/editions/edit?from=classic-it"]').click()
    page.wait_for_url(re.compile(r".*/editions/edit\?from=classic-it$"))
    status = page.locator("#editor-status")
    page.fill('input[name="f:name.en"]', "Our street")
    page.fill('input[name="f:name.it"]', "La nostra via")
    price = page.locator('input[name="f:deeds[3].price"]')
    price.fill("cheap")
    expect(status).to_contain_text("classic-it-custom: deeds[3].price must be a whole number", timeout=10_000)
    expect(price).to_have_attribute("aria-invalid", "true")
    price.fill("120")
    expect(status).to_have_text("No problems found.", timeout=10_000)
    expect(price).not_to_have_attribute("aria-invalid", "true")
    page.get_by_role("button", name="Save as an edition").click()
    page.wait_for_url(re.compile(r".*/#editions$"))
    expect(page.locator(".flash-ok")).to_contain_text("Edition Our street saved")
    expect(page.locator('#edition option[value="classic-it-custom"]')).to_have_count(1)
    assert page.errors == []
