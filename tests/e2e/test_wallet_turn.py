"""The wallet built around the turn (issue 31), on real phones at 390x844: the balance and the
moves of a turn on the first screen with no scrolling, in both languages; the commonest moves
counted tap by tap from that screen (a confirmation counts, typed digits do not); and "Where did
I land?", whose list narrows in place as a name is typed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_table import sit_down, started

WIDTH, HEIGHT = 390, 844
# Every control of the first screen: the balance, the turn, the moves and the tabs.
FIRST_SCREEN = (
    "#balance, #turn button, #moves button, #moves a, #moves input:not([type=hidden]):not([type=radio]),"
    " #moves label.choice, nav.tabs a"
)


class Thumb:
    """Taps on a phone, counted."""

    def __init__(self, page):
        self.page, self.taps = page, 0

    def tap(self, target):
        (self.page.locator(target) if isinstance(target, str) else target).click()
        self.taps += 1

    def confirm(self):
        expect(self.page.locator("#confirm")).to_be_visible()
        self.tap("#confirm-ok")

    def counted(self) -> int:
        taps, self.taps = self.taps, 0
        return taps


def cash(page) -> int:
    return int(page.locator(".balance-cash").get_attribute("data-cash"))


def first_screen_fits(page, language):
    """Every control of the wallet's first screen lies inside the viewport, scrolled to the top."""
    page.evaluate("window.scrollTo(0, 0)")
    boxes = page.locator(FIRST_SCREEN).evaluate_all(
        """els => els.map(e => { const r = e.getBoundingClientRect();
             return [e.id || e.textContent.trim().slice(0, 40), r.top, r.bottom, r.left, r.right, r.height]; })"""
    )
    assert len(boxes) >= 8, boxes
    for name, top, bottom, left, right, height in boxes:
        assert height > 0 and top >= 0 and bottom <= HEIGHT and left >= 0 and right <= WIDTH, (language, name, bottom)
    assert page.evaluate("window.scrollY") == 0


def in_italian(page):
    page.locator("nav.langs a[hreflang=it]").click()
    page.wait_for_url(re.compile(r".*/me$"))
    expect(page.locator("#where-landed")).to_have_text("Su che casella sono?")


def test_the_commonest_moves_in_few_taps_from_the_first_screen(live_server, phone):
    _host, (anna, bruno, carla) = started(live_server, phone, ("Anna", "Bruno", "Carla"))
    for page in (anna, bruno, carla):
        expect(page.locator(".balance-cash")).to_have_attribute("data-cash", "1500", timeout=10_000)
    first_screen_fits(anna, "en")
    a, b, c = Thumb(anna), Thumb(bruno), Thumb(carla)

    # Collect GO: one tap.
    a.tap("#moves button.btn-go")
    expect(anna.locator(".balance-cash")).to_have_attribute("data-cash", "1700")
    assert a.counted() == 1

    # Pay a tax: the button, then the confirmation.
    a.tap(anna.locator("#taxes button", has_text="Income tax"))
    a.confirm()
    expect(anna.locator(".balance-cash")).to_have_attribute("data-cash", "1500")
    assert a.counted() == 2

    # Buy the deed I landed on: "Where did I land?", the square, the move named with its price.
    a.tap("#where-landed")
    a.tap("#land-deed-vicolo-corto")
    a.tap(anna.get_by_role("button", name="Buy for € 60"))
    expect(anna.locator(".balance-cash")).to_have_attribute("data-cash", "1440")
    assert a.counted() == 3 and anna.url.endswith("/me")

    # Pay its rent: the same three taps on Bruno's phone; the money goes to Anna.
    b.tap("#where-landed")
    expect(bruno.locator("#land-deed-vicolo-corto")).to_contain_text("Anna")
    b.tap("#land-deed-vicolo-corto")
    b.tap(bruno.get_by_role("button", name="Pay rent to Anna: € 2"))
    expect(bruno.locator(".balance-cash")).to_have_attribute("data-cash", "1498")
    expect(anna.locator(".balance-cash")).to_have_attribute("data-cash", "1442", timeout=10_000)
    assert b.counted() == 3

    # Pay a player: who, the amount typed (not a tap), Pay, the confirmation.
    c.tap(carla.locator("#pay-form label.choice", has_text="Bruno"))
    carla.fill("#pay-amount", "75")
    c.tap("#pay-form button.btn-big")
    c.confirm()
    expect(carla.locator(".balance-cash")).to_have_attribute("data-cash", "1425")
    expect(bruno.locator(".balance-cash")).to_have_attribute("data-cash", "1573", timeout=10_000)
    assert c.counted() == 3

    # Everything else is one tap away: a section that opens.
    for sheet in ("#dice-sheet", "#ask-sheet", "#bank-sheet", "#jail-sheet", "#players-sheet", "#feed-sheet"):
        expect(carla.locator(sheet)).not_to_have_attribute("open", "")
        c.tap(carla.locator(f"{sheet} > summary"))
        expect(carla.locator(sheet)).to_have_attribute("open", "")
        assert c.counted() == 1
    expect(carla.get_by_role("button", name="Roll the dice")).to_be_visible()

    # "Where did I land?" narrows as a name is typed, in place; a name nobody has says so.
    bruno.goto(anna.url.rsplit("/", 1)[0] + "/land")
    squares = bruno.locator("#land-squares li")
    total = squares.count()
    assert total == 40  # the classic board, every square in its place
    assert [t.strip() for t in bruno.locator(".land-name").all_inner_texts()[:5]] == [
        "GO",
        "Vicolo Corto",
        "Community Chest",
        "Vicolo Stretto",
        "Income tax",
    ]
    url = bruno.url
    bruno.fill("#land-q", "vitt")
    expect(squares.locator("visible=true")).to_have_count(1)
    expect(bruno.locator("#land-squares li:visible")).to_contain_text("Parco della Vittoria")
    bruno.fill("#land-q", "zzz")
    expect(bruno.locator("#land-no-match")).to_be_visible()
    bruno.fill("#land-q", "")
    expect(squares.locator("visible=true")).to_have_count(total)
    assert bruno.url == url

    # The first screen in Italian too, its long words included.
    in_italian(anna)
    first_screen_fits(anna, "it")
    for page in (anna, bruno, carla):
        assert page.errors == [], page.errors


def seated(live_server, phone, edition, names):
    """A table of ``edition`` opened by a host and started, Anna on an Italian phone and Bruno on
    an English one: the host's page and theirs."""
    url = live_server.url
    host = phone("en-GB")
    host.goto(url + "/")
    host.select_option("#edition", value=edition)
    for i, name in enumerate(names):
        host.locator("input[name=name]").nth(i).fill(name)
    host.locator("#new-game button[type=submit], #new-game button").last.click()
    host.wait_for_url(re.compile(r".*/g/\w+/table$"))
    code = host.locator(".join-code").inner_text().strip()
    anna, bruno = phone("it-IT"), phone("en-GB")
    sit_down(anna, url, code, "Anna")
    sit_down(bruno, url, code, "Bruno")
    host.locator("form:has(input[value=start]) button").click()
    return host, anna, bruno


def test_a_motopolis_first_screen_and_its_squares(live_server, phone):
    """Motopolis: five taxes, the turn and GO on the first screen in both languages; its own
    squares and the tax by the board, three taps each at most."""
    host, anna, bruno = seated(live_server, phone, "motopolis", ["Anna", "Bruno"])
    expect(anna.locator("#turn")).to_be_visible(timeout=10000)
    expect(bruno.locator("#turn")).to_contain_text("Anna's turn", timeout=10000)
    expect(anna.locator("#taxes button")).to_have_count(5)
    first_screen_fits(anna, "it")
    first_screen_fits(bruno, "en")

    # A.S.I.: "Where did I land?", the square, its button (+50 net), the confirmation.
    b = Thumb(bruno)
    before = cash(bruno)
    b.tap("#where-landed")
    bruno.fill("#land-q", "a.s.i")
    b.tap("#land-square-asi")
    b.tap(bruno.locator("#land-sheet button.btn-go"))
    b.confirm()
    expect(bruno.locator(".balance-cash")).to_have_attribute("data-cash", str(before + 50))
    assert b.counted() == 4  # a special square, not one of the targets: its own confirmation

    # A tax from the board: its sheet's button is the move.
    b.tap("#where-landed")
    b.tap("#land-tax-assicurazione")
    b.tap(bruno.get_by_role("button", name=re.compile(r"Pay Insurance: € 100")))
    expect(bruno.locator(".balance-cash")).to_have_attribute("data-cash", str(before + 50 - 100))
    assert b.counted() == 3
    for page in (host, anna, bruno):
        assert page.errors == [], page.errors


@pytest.mark.parametrize("edition", ["che-impresa", "petropolis", "niente-e-come-sembra", "campionato-2015"])
def test_every_other_edition_has_its_turn_on_the_first_screen_in_both_languages(live_server, phone, edition):
    """The editions the two tests above do not play: a table of four (the wallet has a pay chip
    for each other player), a phone in each language, its whole first screen."""
    host, anna, bruno = seated(live_server, phone, edition, ["Anna", "Bruno", "Carla", "Dario"])
    expect(anna.locator("#pay-form")).to_be_visible()
    expect(bruno.locator("#pay-form")).to_be_visible()
    first_screen_fits(anna, "it")
    first_screen_fits(bruno, "en")
    for page in (host, anna, bruno):
        assert page.errors == [], page.errors
