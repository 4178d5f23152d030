"""The table screen read from two metres: at 1280×800 and 1920×1080, in every edition, no line
is cut ("…", a clamp, text hidden past its box): a long line wraps, then shrinks. The corner's
join code is at least 48 px on a TV."""

from __future__ import annotations

import os

import pytest

from companion.core.editions.loading import EDITIONS_DIR, load_editions
from tests.conftest import Api

TV = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1280, "height": 800}
PLAYERS = ("Annamaria", "Bartolomeo", "Carla", "Domenico", "Elena", "Francesca")
LOADED = load_editions(EDITIONS_DIR)[0]
EDITIONS = sorted(LOADED)

# Every element of the screen whose text its box hides: cut with an ellipsis or a line clamp,
# or running past a box that hides its overflow.
CLIPPED = """() => [...document.querySelectorAll('#screen *')].filter(el => {
  if (!el.textContent.trim() || !el.getClientRects().length || el.closest('.sr-only')) return false;
  const s = getComputedStyle(el);
  const hides = s.overflowX !== 'visible' || s.overflowY !== 'visible';
  const wide = el.scrollWidth > el.clientWidth + 1, tall = el.scrollHeight > el.clientHeight + 1;
  if (s.textOverflow === 'ellipsis' && wide) return true;
  if (s.webkitLineClamp && s.webkitLineClamp !== 'none' && tall) return true;
  return hides && (wide || tall) && [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
}).map(el => el.className + ': ' + el.textContent.trim().slice(0, 80))"""


# The fonts in, every running animation (a pulse on a changed amount) ended, fit.js's frame drawn.
SETTLED = """() => document.fonts.ready
  .then(() => Promise.all(document.getAnimations().map(a => a.finished.catch(() => null))))
  .then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))"""


def _open(browser, url):
    """The table screen at each size in each language, opened once: each then follows the game
    live, as a screen on the table does, and fit.js fits it after every update."""
    screens = []
    for size in (LAPTOP, TV):
        for locale in ("it-IT", "en-GB"):
            page = browser.new_context(viewport=size, locale=locale).new_page()
            page.goto(url)
            page.wait_for_selector(".screen-running")
            screens.append((size, locale, page))
    return screens


def _look(screens, version, name, problems):
    """Once each screen shows ``version``, notes every cut line in ``problems``."""
    shots = os.environ.get("BANCO_SHOTS")  # a folder to keep the screenshots in, to look at
    for size, locale, page in screens:
        page.wait_for_function(f"() => Number(document.body.dataset.version) >= {version}")
        page.evaluate(SETTLED)
        if shots:
            page.screenshot(path=f"{shots}/{name}-{size['width']}-{locale}.png")
        problems += [(name, size["width"], locale, cut) for cut in page.evaluate(CLIPPED)]
        if size == TV:
            code = page.locator(".screen-corner .join-code")
            px = float(code.evaluate("el => getComputedStyle(el).fontSize")[:-2])
            if px < 48:
                problems.append((name, size["width"], locale, f"join code {px} px"))


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_line_of_the_table_screen_is_cut(live_server, browser, edition):
    api = Api(live_server.app.test_client())
    game = api.new_game(players=PLAYERS, edition=edition).start()
    screens = _open(browser, f"{live_server.url}/g/{game.id}/screen")
    problems: list = []
    _look(screens, game.state()["version"], f"{edition}-start", problems)  # the start's line (the deal) the newest
    first, second = game.ids[PLAYERS[0]], game.ids[PLAYERS[1]]
    note = min(LOADED[edition].banknotes)  # half the payer's cash, in the edition's notes
    amount = game.cash()[PLAYERS[0]] // 2 // note * note
    reason = "half of the rent on the two stations, as agreed at the start of the round"
    status, body = game.act(
        "banker", {"type": "transfer", "from": first, "to": second, "amount": amount, "reason": reason}
    )
    assert status == 200, body
    _look(screens, body["version"], f"{edition}-paid", problems)  # the deal now an earlier line
    free = [d["key"] for d in game.state()["deeds"] if d["owner"] is None]
    if free:  # the longest name the bank still holds, up for auction: the auction takes the screen
        status, body = game.act("banker", {"type": "auction_start", "deed": max(free, key=len)})
        assert status == 200, body
        _look(screens, body["version"], f"{edition}-auction", problems)
    for _, _, page in screens:
        page.context.close()
    assert problems == [], "\n".join(map(str, problems))
