"""The end of a game on real phones: the banker ends it, every phone says who won and leads to
the results, with the ranking and the chart."""

from __future__ import annotations

import os
import re

from playwright.sync_api import expect

from tests.e2e.test_deeds import confirm
from tests.e2e.test_table import open_table, pay, sit_down

SHOTS = "shots/e2e"  # looked at by hand; shots/ is not committed


def test_every_phone_sees_the_winner_and_the_results(live_server, phone):
    os.makedirs(SHOTS, exist_ok=True)
    url = live_server.url
    host = phone("en-GB")
    code = open_table(host, url, ["Anna", "Bruno", "Carla"])
    anna, bruno, carla = phone(), phone("en-GB"), phone()
    for page, name in ((anna, "Anna"), (bruno, "Bruno"), (carla, "Carla")):
        sit_down(page, url, code, name)
    host.locator("form:has(input[value=start]) button").click()
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"), timeout=10_000)
    pay(anna, "Bruno", 300)
    pay(carla, "Bruno", 100)
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]900"), timeout=10_000)

    host.locator("form:has(input[value=end]) button").click()
    confirm(host)
    for page in (anna, bruno, carla, host):
        expect(page.locator(".ended .winner")).to_contain_text("Bruno", timeout=10_000)
    bruno.locator(".ended a").click()
    expect(bruno.locator("h1.winner")).to_have_text("Bruno")
    expect(bruno.locator(".rank-row")).to_have_count(3)
    expect(bruno.locator(".rank-row").nth(2)).to_contain_text("Anna")
    expect(bruno.locator("svg.chart polyline")).to_have_count(3)
    bruno.screenshot(path=f"{SHOTS}/results.png", full_page=True)
    host.screenshot(path=f"{SHOTS}/ended-table.png", full_page=True)
    for page in (host, anna, bruno, carla):
        assert page.errors == [], page.errors
