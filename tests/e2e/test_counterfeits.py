"""Niente è come sembra's decoder check on real phones: Anna pays Bruno, Carla's phone shows
Check live with its countdown, she taps it, and the result shows on the phones and the table."""

from __future__ import annotations

import os
import re

from playwright.sync_api import expect

from tests.e2e.test_table import pay, sit_down

SHOTS = os.environ.get("BANCO_SHOTS")  # a folder: the pages are also saved as screenshots


def test_a_check_among_three_phones(live_server, phone):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
    url = live_server.url
    host = phone("en-GB")
    host.goto(url + "/")
    host.locator("#edition").select_option("niente-e-come-sembra")
    for i, name in enumerate(["Anna", "Bruno", "Carla"]):
        host.locator("input[name=name]").nth(i).fill(name)
    host.locator("#new-game button[type=submit], #new-game button").last.click()
    host.wait_for_url(re.compile(r".*/g/\w+/table$"))
    code = host.locator(".join-code").inner_text().strip()
    anna, bruno, carla = phone("en-GB"), phone("en-GB"), phone("en-GB")
    for page, name in ((anna, "Anna"), (bruno, "Bruno"), (carla, "Carla")):
        sit_down(page, url, code, name)
    host.locator("form:has(input[value=start]) button").click()
    expect(carla.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"), timeout=10_000)
    # Chips and notes by face, never which are fake.
    expect(carla.locator("#checks .chip-green")).to_have_count(2)
    expect(carla.locator("#checks")).to_contain_text(re.compile(r"2 × €\s?500"))
    assert "fake" not in carla.content().lower()

    pay(anna, "Bruno", 120)
    check = carla.locator("#checks [data-check]")
    expect(check).to_contain_text(re.compile(r"Anna paid Bruno €\s?120"), timeout=10_000)
    expect(check.locator("[data-check-button]")).to_be_visible()
    expect(bruno.locator("#checks [data-check]")).to_contain_text("Only the players outside", timeout=10_000)
    expect(anna.locator("#checks [data-check]")).to_contain_text("may check it")
    expect(host.locator("#checks [data-check]")).to_contain_text("Anna", timeout=10_000)
    if SHOTS:
        carla.screenshot(path=f"{SHOTS}/check-open.png", full_page=True)
    check.locator("[data-check-button]").click()
    carla.wait_for_load_state()

    line = re.compile(r"Carla checked a note of Anna's payment: a (genuine|fake)")
    expect(carla.locator("#feed")).to_contain_text(line, timeout=10_000)
    expect(anna.locator("#feed")).to_contain_text(line, timeout=10_000)
    expect(host.locator("#feed")).to_contain_text(line, timeout=10_000)
    expect(carla.locator("#checks .chip-green")).to_have_count(1)
    expect(carla.locator("#checks .chip-red")).to_have_count(1)
    expect(carla.locator("#checks [data-check]")).to_have_count(0)
    expect(host.locator("#players .chip-red")).to_have_count(1, timeout=10_000)
    if SHOTS:
        carla.screenshot(path=f"{SHOTS}/check-done.png", full_page=True)
    for page in (host, anna, bruno, carla):
        assert page.errors == [], page.errors
