"""The tournament desk in real Chromium at 1280×800: the director creates a tournament,
draws the first round, starts every table and opens a table as its banker; the big screen
shows the standings without signing in. Screenshots go to BANCO_SHOTS when set."""
from __future__ import annotations

import os
import re

from playwright.sync_api import expect

DESK = {"viewport": {"width": 1280, "height": 800}}
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina"]


def shot(page, name):
    folder = os.environ.get("BANCO_SHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def test_the_director_runs_a_round(live_server, browser):
    url = live_server.url
    context = browser.new_context(locale="en-GB", **DESK)
    try:
        desk = context.new_page()
        errors = []
        desk.on("pageerror", lambda e: errors.append(str(e)))
        desk.goto(url + "/")
        desk.get_by_role("link", name="Run a tournament").click()
        desk.wait_for_url(re.compile(r".*/t$"))
        shot(desk, "tournament-new")
        desk.fill("#t-name", "Club night")
        desk.fill("#t-players", "\n".join(NAMES))
        desk.locator("#new-tournament button").click()
        desk.wait_for_url(re.compile(r".*/t/\w+$"))
        desk.click("#draw")
        expect(desk.locator(".t-table")).to_have_count(2)  # 7 players at tables of 4: 4 and 3
        expect(desk.locator("#start-all")).to_be_visible()
        shot(desk, "tournament-desk-drawn")
        desk.click("#start-all")
        expect(desk.locator(".t-table .badge-running")).to_have_count(2)
        shot(desk, "tournament-desk-running")
        tournament = desk.url
        screen = context.browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800}).new_page()
        screen.goto(tournament + "/standings")
        expect(screen.locator(".t-standings tbody tr")).to_have_count(7)
        shot(screen, "tournament-standings")
        screen.context.close()
        desk.goto(tournament + "/referee")
        expect(desk.locator(".t-table .t-clock")).to_have_count(2)
        shot(desk, "tournament-referee")
        desk.locator(".t-table").first.get_by_role("link", name="Open the table").click()
        desk.wait_for_url(re.compile(r".*/g/\w+/table$"))
        expect(desk.locator(".clock-time")).to_be_visible()
        phone = browser.new_context(locale="it-IT", viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, device_scale_factor=2)
        small = phone.new_page()
        small.context.add_cookies(context.cookies())
        small.goto(tournament)
        expect(small.locator(".t-table")).to_have_count(2)
        shot(small, "tournament-desk-phone")
        small.goto(tournament + "/standings")
        shot(small, "tournament-standings-phone")
        phone.close()
        assert not errors
    finally:
        context.close()
