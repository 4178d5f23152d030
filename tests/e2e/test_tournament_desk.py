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
        phone = browser.new_context(
            locale="it-IT",
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
        )
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


FINALISTS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]


def end_every_table(desk):
    """From the desk, open each table of the current round as its banker and end its game."""
    tournament = desk.url
    count = desk.locator(".t-rounds > .t-tables .t-table").count()
    for i in range(count):
        desk.goto(tournament)
        desk.locator(".t-rounds > .t-tables .t-table").nth(i).get_by_role("link", name="Open the table").click()
        desk.wait_for_url(re.compile(r".*/g/\w+/table$"))
        desk.select_option("#t-from", index=0)  # the bank pays the table's first seat: one winner
        desk.select_option("#t-to", index=0)
        desk.fill("#t-amount", str(100 * (i + 1)))
        desk.get_by_role("button", name="Move the money").click()
        desk.click("#confirm-ok")
        expect(desk.locator("#t-amount")).to_have_value("")
        desk.get_by_role("button", name="End the game").click()
        desk.click("#confirm-ok")
        expect(desk.get_by_role("button", name="End the game")).to_have_count(0)
    desk.goto(tournament)
    expect(desk.locator(".t-rounds > .t-tables .badge-finished")).to_have_count(count)


def test_the_desk_runs_the_finals_and_a_referees_phone_follows(live_server, phone, browser, tmp_path):
    import subprocess

    url = live_server.url
    desk = phone("en-GB")
    desk.goto(url + "/t")
    desk.fill("#t-name", "Finals night")
    desk.fill("#t-players", "\n".join(FINALISTS))
    desk.fill("#t-semi", "8")
    desk.fill("#t-last", "10")
    desk.fill("#t-rounds", "1")
    desk.locator("#new-tournament button").click()
    desk.wait_for_url(re.compile(r".*/t/\w+$"))
    tournament = desk.url
    expect(desk.locator("#draw-semi-final")).to_have_count(0)
    desk.click("#draw")
    desk.click("#start-all")
    expect(desk.locator(".t-table .badge-running")).to_have_count(2)

    # The referee's phone signs in from the code the desk shows.
    desk.click("#referee-code")
    expect(desk.locator(".qr-box svg")).to_be_visible()
    shot(desk, "tournament-referee-code-phone")
    sign_in = desk.locator("code.url").inner_text()
    referee = phone("it-IT")
    referee.goto(sign_in)
    referee.wait_for_url(re.compile(r".*/referee$"))
    expect(referee.locator(".t-table")).to_have_count(2)
    expect(referee.get_by_role("link", name="Apri lo schermo del tavolo")).to_have_count(2)
    expect(referee.get_by_role("link", name="Torna alla direzione")).to_have_count(0)
    clock = referee.locator("[data-clock-time]").first
    before = clock.inner_text()
    expect(clock).not_to_have_text(before)  # ticks between refreshes
    shot(referee, "tournament-referee-phone")
    referee.goto(tournament)
    referee.wait_for_url(re.compile(r".*/standings$"))  # the desk is the director's only

    desk.goto(tournament)
    end_every_table(desk)
    # One preliminary round planned: the semi-finals are put first, another round second.
    expect(desk.locator("#draw-semi-final")).to_have_class(re.compile(r"\bbtn-primary\b"))
    expect(desk.locator("#draw")).to_have_class(re.compile(r"\bbtn-secondary\b"))
    desk.click("#draw-semi-final")
    expect(desk.locator(".t-rounds h2").first).to_have_text("Semi-finals")
    expect(desk.locator(".t-rounds > .t-tables .t-table")).to_have_count(2)
    shot(desk, "tournament-desk-semi-finals-phone")
    with desk.expect_download() as download:
        desk.get_by_role("button", name="Print the seating plan (PDF)").click()
        desk.click("#confirm-ok")
    plan = tmp_path / "plan.pdf"
    download.value.save_as(plan)
    text = subprocess.run(["pdftotext", str(plan), "-"], capture_output=True, check=True).stdout.decode()
    assert "Finals night · semi-finals" in text or "Finals night · semifinali" in text
    desk.goto(tournament)
    desk.click("#start-all")
    referee.goto(url + urlparse_path(tournament) + "/referee")
    expect(referee.locator(".t-round-title").first).to_have_text("Semifinali")
    end_every_table(desk)
    desk.click("#draw-final")
    expect(desk.locator(".t-rounds h2").first).to_have_text("Final")
    desk.click("#start-all")
    end_every_table(desk)
    expect(desk.locator("#champion")).to_contain_text("Champion:")
    shot(desk, "tournament-desk-final-phone")

    wall = browser.new_context(locale="en-GB", viewport={"width": 1920, "height": 1080}).new_page()
    try:
        wall.goto(tournament + "/standings")
        expect(wall.locator("#champion")).to_be_visible()
        expect(wall.locator(".t-standings tbody tr")).to_have_count(8)
        # The finals' tables read from two metres: 32 px at least.
        finals = wall.locator(".t-stage-final .t-seats li, .t-stage-semi-final .t-seats li")
        assert finals.count() == 8 + 4
        for size in finals.evaluate_all("items => items.map(li => parseFloat(getComputedStyle(li).fontSize))"):
            assert size >= 32
        shot(wall, "tournament-standings-final-1920")
    finally:
        wall.context.close()
    assert not desk.errors and not referee.errors


def urlparse_path(address: str) -> str:
    from urllib.parse import urlparse

    return urlparse(address).path
