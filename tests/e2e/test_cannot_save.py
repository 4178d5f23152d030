"""When the bank's computer cannot save (a full disk, a read-only file), the phone that tried
says why in words, and every open page of the table, the table screen first, shows it live
until a payment is saved again."""

from __future__ import annotations

import os

from playwright.sync_api import expect

from tests.api.test_storage_faults import refusing_writes
from tests.e2e.test_table import pay, started
from tests.e2e.test_table_screen import TV, open_screen

SHOTS = os.environ.get("BANCO_SHOTS")  # a folder: the test also leaves its screenshots there, to look at


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"cannot-save-{name}.png"))


def test_the_table_hears_that_the_bank_cannot_save_and_that_it_saves_again(live_server, phone, browser):
    host, (anna, bruno) = started(live_server, phone)
    screen = open_screen(browser, host.url.replace("/table", "/screen"), TV, locale="en-GB")
    banner = screen.locator("#cannot-save")
    expect(banner).to_be_hidden()

    with refusing_writes(live_server.app):
        pay(anna, "Bruno", 50)
        expect(anna.locator(".flash-error")).to_have_text(
            "The bank's computer cannot save right now: nothing was changed."
        )
        for page in (screen, bruno, host):  # told live, without a reload
            expect(page.locator("#cannot-save")).to_be_visible(timeout=10_000)
        expect(banner).to_contain_text("The bank's computer cannot save right now")
        expect(anna.locator("[data-cash]").first).to_contain_text("1,500")
        shot(anna, "wallet")
        shot(screen, "screen")

    pay(anna, "Bruno", 50)
    for page in (screen, bruno, host, anna):
        expect(page.locator("#cannot-save")).to_be_hidden(timeout=10_000)
    expect(bruno.locator("[data-cash]").first).to_contain_text("1,550", timeout=10_000)
    assert screen.errors == [] and anna.errors == [] and bruno.errors == []
