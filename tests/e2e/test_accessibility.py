"""Every page, at phone size, in Italian and in English, checked with axe-core; and the tap
targets of the phone's main pages measured.

axe-core 4.14.1 (``tests/e2e/vendor/axe-core/``, MPL-2.0) is injected by the test into the page
it checks: it is not under ``static/`` and never reaches a player. A page fails on any
violation axe rates *serious* or *critical* under the WCAG 2.0, 2.1 and 2.2 A/AA rules and
axe's best practices (contrast, names of buttons and images, labels, ``lang``, landmarks...).

One game is played for the whole module and shows the pages in their rich states: a classic
game running with three phones and a clock, Anna owning the brown deeds with a house on each,
an auction open, Bruno's request for money and Carla's trade waiting on Anna's phone; a
finished game for the results, a game with printed money for the scan page, a table still
setting up with its seats free, a paper game on the score calculator, and a tournament with
its round running. The phones sign in
through the join link, as players do; what happens in the game afterwards goes through the API
with the tokens their cookies hold.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.store import db
from tests.conftest import LiveServer, make_app
from tests.e2e.conftest import PHONE
from tests.e2e.test_table import sit_down

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
LANGUAGES = ("it", "en")
FOR_SALE, AUCTIONED, BRUNOS, ANNAS = "parco-della-vittoria", "via-verdi", "via-roma", "vicolo-corto"


class World:
    """The server, the phones (browser contexts) and the ids of what was played."""

    def __init__(self, server, browser):
        self.server = server
        self.url = server.url
        self.browser = browser
        self.pages = {}

    def phone(self, who: str):
        """The page of ``who``'s phone (made on first use): ``host`` (the banker, also the
        tournament's director), ``anna``, ``bruno``, ``carla``, ``referee`` (the tournament's), or ``stranger``."""
        if who not in self.pages:
            # bypass_csp: the page's policy would refuse the injected axe script.
            context = self.browser.new_context(locale="it-IT", bypass_csp=True, **PHONE)
            self.pages[who] = context.new_page()
        return self.pages[who]

    def screen(self, width: int, height: int):
        """A table screen (a TV or a tablet) of that size, signed in nowhere."""
        key = f"screen-{width}x{height}"
        if key not in self.pages:
            context = self.browser.new_context(
                locale="it-IT", bypass_csp=True, viewport={"width": width, "height": height}
            )
            self.pages[key] = context.new_page()
        return self.pages[key]

    def tokens(self, who: str) -> dict:
        """The seats ``who``'s browser holds, read from its signed session cookie."""
        cookie = next(c for c in self.phone(who).context.cookies() if c["name"] == "session")
        serializer = self.server.app.session_interface.get_signing_serializer(self.server.app)
        return serializer.loads(cookie["value"])["games"]

    def act(self, game_id: str, token: str, action: dict) -> dict:
        """One action through the API as ``token``; a refusal raises (HTTPError)."""
        request = urllib.request.Request(
            f"{self.url}/api/v1/games/{game_id}/actions",
            method="POST",
            data=json.dumps(action).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as response:
            return json.load(response)

    def new_game(self, names, edition="classic-it", minutes=""):
        """A game opened on the host's new-game form; returns (game id, join code)."""
        host = self.phone("host")
        host.goto(self.url + "/")
        host.locator("#edition").select_option(edition)
        for i, name in enumerate(names):
            host.locator("input[name=name]").nth(i).fill(name)
        host.fill("#time_limit", minutes)
        host.locator("#new-game button[type=submit], #new-game button").last.click()
        host.wait_for_url(re.compile(r".*/g/\w+/table$"))
        return host.url.split("/")[-2], host.locator(".join-code").inner_text().strip()


@pytest.fixture(scope="module")
def world(browser, tmp_path_factory):
    server = LiveServer(make_app(tmp_path_factory.mktemp("a11y"))).start()
    world = World(server, browser)
    try:
        _play(world)
        yield world
    finally:
        for page in world.pages.values():
            page.context.close()
        server.stop()
        with server.app.app_context():
            db.engine.dispose()


def _play(world: World) -> None:
    url = world.url
    game, code = world.new_game(["Anna", "Bruno", "Carla"], minutes="90")
    world.game, world.code = game, code
    for who, name in (("anna", "Anna"), ("bruno", "Bruno"), ("carla", "Carla")):
        sit_down(world.phone(who), url, code, name)
    banker = world.tokens("host")[game]["b"]
    anna, bruno, carla = (world.tokens(who)[game]["p"] for who in ("anna", "bruno", "carla"))
    world.act(game, banker, {"type": "start"})
    for token, deed in ((anna, "vicolo-corto"), (anna, "vicolo-stretto"), (anna, "stazione-sud"), (bruno, BRUNOS)):
        world.act(game, token, {"type": "buy", "deed": deed})
    for deed in ("vicolo-corto", "vicolo-stretto"):
        world.act(game, anna, {"type": "build", "deed": deed})
    ids = _player_ids(world, game, banker)
    world.act(game, bruno, {"type": "request", "from": ids["Anna"], "amount": 50, "reason": "Vicolo Corto"})
    world.act(
        game,
        carla,
        {
            "type": "trade_propose",
            "to": ids["Anna"],
            "give": {"cash": 100, "deeds": []},
            "get": {"cash": 0, "deeds": ["stazione-sud"]},
        },
    )
    world.act(game, banker, {"type": "auction_start", "deed": AUCTIONED})
    world.act(game, bruno, {"type": "bid", "amount": 120})

    # A finished game, for the results.
    ended, _code = world.new_game(["Anna", "Bruno", "Carla"])
    world.ended = ended
    token = world.tokens("host")[ended]["b"]
    world.act(ended, token, {"type": "start"})
    world.act(
        ended,
        token,
        {"type": "transfer", "from": "bank", "to": _player_ids(world, ended, token)["Bruno"], "amount": 300},
    )
    world.act(ended, token, {"type": "end"})

    # A game with printed money, for the scan page.
    checked, world.checked_code = world.new_game(["Anna", "Bruno", "Carla"], edition="niente-e-come-sembra")
    world.checked = checked
    world.act(checked, world.tokens("host")[checked]["b"], {"type": "start"})

    # A table still setting up, its seats free.
    world.waiting, world.waiting_code = world.new_game(["Dora", "Elio"])

    # A paper game counted on the score calculator.
    counter = world.phone("stranger")
    counter.goto(url + "/calculator")
    for i, name in enumerate(["Anna", "Bruno"]):
        counter.locator("#calc-new input[name=name]").nth(i).fill(name)
    counter.locator("#calc-new button.btn-big").click()
    counter.wait_for_url(re.compile(r".*/calculator/entries$"))
    counter.fill("#cash-0", "1000")
    counter.fill("#cash-1", "800")
    counter.locator(f"select[name=owner-{BRUNOS}]").select_option(label="Anna")
    counter.locator("#calc-form button.btn-big").click()
    counter.wait_for_url(re.compile(r".*/calculator/result$"))

    # A tournament whose first round is running.
    desk = world.phone("host")
    desk.goto(url + "/t")
    desk.fill("#t-name", "Club night")
    desk.fill("#t-players", "\n".join(["Dora", "Elio", "Franca", "Gino"]))
    desk.locator("#new-tournament button").click()
    desk.wait_for_url(re.compile(r".*/t/\w+$"))
    world.tournament = desk.url.rsplit("/", 1)[1]
    desk.click("#draw")
    desk.click("#start-all")
    expect(desk.locator(".t-table .badge-running")).to_have_count(1)
    # Its table waits on a player (a trade): the referee's view shows it stuck.
    with urllib.request.urlopen(f"{world.url}/api/v1/tournaments/{world.tournament}") as response:
        table_game = json.load(response)["rounds"][0]["tables"][0]["game"]
    banker = world.tokens("host")[table_game]["b"]
    seated = _player_ids(world, table_game, banker)
    world.act(
        table_game,
        banker,
        {
            "type": "trade_propose",
            "player": seated["Dora"],
            "to": seated["Elio"],
            "give": {"cash": 10, "deeds": []},
            "get": {"cash": 0, "deeds": []},
        },
    )


def _player_ids(world: World, game: str, token: str) -> dict:
    request = urllib.request.Request(f"{world.url}/api/v1/games/{game}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        return {p["name"]: p["id"] for p in json.load(response)["players"]}


# Each page: who opens it, its address (filled from the world), the HTTP status it answers.
PAGES = {
    "home": ("host", "/", 200),
    "join": ("stranger", "/j/{code}", 200),
    "join-free-seats": ("stranger", "/j/{waiting_code}", 200),
    "join-unknown": ("stranger", "/j/ZZZZZZ", 404),
    "wallet": ("anna", "/g/{game}/me", 200),
    "deeds": ("anna", "/g/{game}/deeds", 200),
    "land": ("anna", "/g/{game}/land", 200),
    "land-deed-of-another": ("anna", "/g/{game}/land/deed/" + BRUNOS, 200),
    "deed-for-sale": ("anna", "/g/{game}/deeds/" + FOR_SALE, 200),
    "deed-at-auction": ("anna", "/g/{game}/deeds/" + AUCTIONED, 200),
    "deed-of-another": ("anna", "/g/{game}/deeds/" + BRUNOS, 200),
    "deed-my-own": ("anna", "/g/{game}/deeds/" + ANNAS, 200),
    "trade": ("anna", "/g/{game}/trade", 200),
    "table": ("host", "/g/{game}/table", 200),
    "table-setting-up": ("host", "/g/{waiting}/table", 200),
    "screen": ("host", "/g/{game}/screen", 200),
    "bank-take": ("stranger", "/g/{game}/bank/not-a-real-secret", 200),
    "results": ("host", "/g/{ended}/results", 200),
    "print": ("stranger", "/print", 200),
    "print-game": ("host", "/g/{game}/print", 200),
    "calculator": ("stranger", "/calculator", 200),
    "calculator-entries": ("stranger", "/calculator/entries", 200),
    "calculator-result": ("stranger", "/calculator/result", 200),
    "card": ("stranger", "/card/classic-it/" + BRUNOS, 200),
    "editor": ("stranger", "/editions/edit?from=classic-it", 200),
    "tournament-new": ("host", "/t", 200),
    "tournament-desk": ("host", "/t/{tournament}", 200),
    "tournament-referee": ("host", "/t/{tournament}/referee", 200),
    "tournament-standings": ("stranger", "/t/{tournament}/standings", 200),
    "tournament-referee-refused": ("stranger", "/t/{tournament}/referee/sign-in/not-a-real-secret", 403),
    "scan": ("host", "/g/{checked}/scan", 200),
    "scan-unknown-note": ("stranger", "/s/AB1234", 200),
    "rejoin": ("stranger", "/r/not-a-real-secret", 200),
    "error-404": ("stranger", "/g/nothing-here/me", 404),
}


def visit(world: World, who, path: str, lang: str, status: int = 200):
    """Opens ``path`` on ``who``'s phone (or on ``who``, a page) in ``lang`` (the language
    switch's cookie) and checks the answer's status and the page's ``lang``."""
    page = world.phone(who) if isinstance(who, str) else who
    page.context.add_cookies([{"name": "lang", "value": lang, "url": world.url}])
    response = page.goto(world.url + path.format(**vars(world)))
    assert response.status == status, f"{path}: HTTP {response.status}"
    expect(page.locator("html")).to_have_attribute("lang", re.compile(f"^{lang}"))
    return page


def open_every_details(page) -> None:
    """What a tap unfolds (a ``<details>``) is checked too: axe skips what is not shown."""
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")


def axe_violations(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now, every
    ``<details>`` opened."""
    open_every_details(page)
    # Injected once a page load (marked, so a second look at the same page does not take the
    # test's own copy for one the page loads).
    if not page.evaluate("() => window.axeByTheTest === true"):
        assert page.evaluate("typeof window.axe") == "undefined", "the page itself loads axe-core"
        page.add_script_tag(path=str(AXE))
        page.evaluate("() => { window.axeByTheTest = true; }")
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", AXE_TAGS)
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"][:8]:
            lines.append(f"    {' '.join(node['target'])}: {node.get('failureSummary', '').splitlines()[-1:]}")
    return "\n".join(lines)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_nothing_serious(world, name, lang):
    who, path, status = PAGES[name]
    page = visit(world, who, path, lang, status)
    violations = axe_violations(page)
    assert not violations, f"{name} ({lang}):\n{describe(violations)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_on_the_rejoin_qr(world, lang):
    """The banker's rejoin QR for a lost phone (a page answered to a form)."""
    page = visit(world, "host", "/g/{game}/table", lang)
    page.locator(".rejoin-list form").first.locator("button").click()
    page.wait_for_url(re.compile(r".*/rejoin/\w+$"))
    expect(page.locator("svg").first).to_be_visible()
    violations = axe_violations(page)
    assert not violations, f"rejoin QR ({lang}):\n{describe(violations)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_on_the_referee_code_and_the_referees_phone(world, lang):
    """The desk's referee's code (a page answered to a form), then the referee's own phone
    signed in with it, on the view of every table (one waiting on a player)."""
    page = visit(world, "host", "/t/{tournament}", lang)
    page.locator("#referee-code").click()
    expect(page.locator(".qr-box svg")).to_be_visible()
    violations = axe_violations(page)
    assert not violations, f"referee's code ({lang}):\n{describe(violations)}"
    address = page.locator("code.url").inner_text()
    referee = world.phone("referee")
    referee.context.add_cookies([{"name": "lang", "value": lang, "url": world.url}])
    referee.goto(address)
    referee.wait_for_url(re.compile(r".*/referee$"))
    expect(referee.locator(".t-table.is-stuck")).to_have_count(1)
    violations = axe_violations(referee)
    assert not violations, f"referee's phone ({lang}):\n{describe(violations)}"


def test_the_standings_follow_the_desk_without_a_timed_reload(world, monkeypatch):
    """The wall pages once reloaded themselves (a meta refresh, which axe rates critical:
    WCAG 2.2.1); they now morph in place: a late arrival shows up, the page is the same one."""
    from companion.web import tournaments

    monkeypatch.setattr(tournaments, "REFRESH_SECONDS", 1)
    wall = visit(world, "stranger", "/t/{tournament}/standings", "en")
    wall.evaluate("() => { window.sameWall = true; }")
    desk = visit(world, "host", "/t/{tournament}", "en")
    desk.fill("#late", "Hugo")
    desk.locator("form:has(#late) button").click()
    expect(wall.locator(".t-standings")).to_contain_text("Hugo", timeout=10_000)
    assert wall.evaluate("() => window.sameWall") is True


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_on_the_confirmation_of_a_payment(world, lang):
    """The dialog that asks before money leaves the wallet, open (then cancelled: nothing is
    paid)."""
    page = visit(world, "anna", "/g/{game}/me", lang)
    page.locator("#pay-form label.choice", has_text="Bruno").click()
    page.fill("#pay-amount", "10")
    page.locator("#pay-form button.btn-big").click()
    expect(page.locator("#confirm")).to_be_visible()
    violations = axe_violations(page)
    page.locator("#confirm button[value=cancel]").click()
    assert not violations, f"confirmation ({lang}):\n{describe(violations)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_on_a_named_bad_amount_and_a_move_waiting_for_the_wifi(world, lang):
    """The wallet naming an amount the cash does not cover under its box; then off the Wi-Fi:
    the banner, the amounts marked as not up to date and a payment waiting in the outbox
    (withdrawn before the Wi-Fi returns: nothing is paid)."""
    page = visit(world, "anna", "/g/{game}/me", lang)
    page.locator("#pay-form label.choice", has_text="Bruno").click()
    page.fill("#pay-amount", "999999")
    page.locator("#pay-form button.btn-big").click()
    expect(page.locator("#pay-form .field-error")).to_be_visible()
    expect(page.locator("#confirm")).to_be_hidden()
    named = axe_violations(page)

    page.context.set_offline(True)
    try:
        expect(page.locator("#offline")).to_be_visible()
        page.fill("#pay-amount", "10")
        page.locator("#pay-form button.btn-big").click()
        page.click("#confirm-ok")
        expect(page.locator("#outbox .outbox-item")).to_have_count(1)
        expect(page.locator(".balance .stale-mark")).to_be_visible()
        waiting = axe_violations(page)
        page.locator("#outbox .outbox-item button").click()
        expect(page.locator("#outbox .outbox-item")).to_have_count(0)
    finally:
        page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    assert not named, f"bad amount ({lang}):\n{describe(named)}"
    assert not waiting, f"waiting for the Wi-Fi ({lang}):\n{describe(waiting)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_on_the_bank_hand_off_qr(world, lang):
    """The banker's device showing the QR that moves the bank to a phone (a page answered to
    a form)."""
    page = visit(world, "host", "/g/{game}/table", lang)
    open_every_details(page)
    page.locator("form[action$='/bank/handoff'] button").first.click()
    page.wait_for_url(re.compile(r".*/bank/handoff$"))
    expect(page.locator("svg.qr")).to_be_visible()
    violations = axe_violations(page)
    assert not violations, f"bank hand-off QR ({lang}):\n{describe(violations)}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", ((1280, 800), (1920, 1080)), ids=("tablet", "tv"))
def test_axe_on_the_table_screen_at_its_own_size(world, size, lang):
    """The table screen is read on a TV or a tablet: checked there too, its auction open."""
    page = visit(world, world.screen(*size), "/g/{game}/screen", lang)
    violations = axe_violations(page)
    assert not violations, f"screen {size} ({lang}):\n{describe(violations)}"


# --- tap targets -----------------------------------------------------------------------------

TARGETS_JS = """
() => {
  const MIN = 44 - 0.5;  // half a pixel of rounding
  const visible = el => {
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !el.closest('[hidden], [aria-hidden=true], .sr-only, .visually-hidden');
  };
  // WCAG 2.5.8's inline exception: a link laid out inside a line of text.
  const inlineInText = el => {
    if (el.tagName !== 'A' || el.classList.contains('btn')) return false;
    if (!getComputedStyle(el).display.startsWith('inline')) return false;
    const block = el.parentElement;
    const text = Array.from(block.childNodes).filter(n => n !== el)
      .map(n => n.textContent).join('').trim();
    return text.length > 0;
  };
  const label = el => el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
  const name = el => {
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '').trim().slice(0, 40);
    const classes = String(el.className || '').trim().split(/\\s+/).filter(Boolean).map(c => '.' + c).join('');
    return `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${classes}> "${text}"`;
  };
  const targets = new Set();
  document.querySelectorAll('button, a, input, select, textarea, summary, label.choice, label.check').forEach(el => {
    if (el.disabled || (el.tagName === 'INPUT' && el.type === 'hidden')) return;
    if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio') && label(el)) el = label(el);
    if (!visible(el) || inlineInText(el)) return;
    targets.add(el);
  });
  const small = [];
  targets.forEach(el => {
    const r = el.getBoundingClientRect();
    if (r.width < MIN || r.height < MIN) small.push(`${name(el)} is ${Math.round(r.width)}x${Math.round(r.height)}`);
  });
  return small;
}
"""

TAP_PAGES = (
    "home",
    "join-free-seats",
    "wallet",
    "deeds",
    "land",
    "land-deed-of-another",
    "deed-for-sale",
    "deed-at-auction",
    "deed-of-another",
    "deed-my-own",
    "trade",
    "table",
    "table-setting-up",
)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", TAP_PAGES)
def test_every_tap_target_is_at_least_44_px(world, name, lang):
    """Every visible control a finger aims at on the phone's main pages measures at least
    44x44 CSS px: buttons, links, inputs, selects, text areas, summaries, and a checkbox or
    radio button through its label (the label is what the finger taps; an unlabelled one is
    measured itself). Exempt, as WCAG 2.5.8 allows: a link laid out inline inside a sentence
    (display inline, with other text in the same block), and what is hidden or disabled."""
    who, path, status = PAGES[name]
    page = visit(world, who, path, lang, status)
    open_every_details(page)
    small = page.evaluate(TARGETS_JS)
    assert not small, f"{name} ({lang}): targets under 44x44 CSS px:\n" + "\n".join(small)


FOCUS_JS = """
() => {
  const el = document.activeElement;
  if (el === document.body) return null;  // past the last control: the browser's own bar
  // A choice's radio is hidden: its ring is drawn on the tile beside it.
  const shown = el.matches('.choice input') ? el.nextElementSibling : el;
  const s = getComputedStyle(shown);
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map(v => v / 255)
    .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  // The colour the ring is drawn on: the first ancestor with an opaque background.
  let under = shown.parentElement, behind = [255, 255, 255];
  for (; under; under = under.parentElement) {
    const [r, g, b, a = 1] = rgb(getComputedStyle(under).backgroundColor);
    if (a === 1) { behind = [r, g, b]; break; }
  }
  const [hi, lo] = [luminance(rgb(s.outlineColor)), luminance(behind)].sort((a, b) => b - a);
  const contrast = (hi + 0.05) / (lo + 0.05);
  const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 && contrast >= 3;
  const label = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '').trim().slice(0, 40);
  return {ring, what: `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}> "${label}" ` +
                      `(${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}, ${contrast.toFixed(1)}:1)`};
}
"""


@pytest.mark.parametrize("name", ("wallet", "table"))
def test_the_keyboard_focus_is_always_visible(world, name):
    """Tabbing through the page (its first 40 stops), each control reached shows a ring at
    least 2 px wide whose colour has 3:1 against what it is drawn on (WCAG 2.4.7, 1.4.11)."""
    who, path, status = PAGES[name]
    page = visit(world, who, path, "en", status)
    missing = []
    for _ in range(40):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS_JS)
        if focus is not None and not focus["ring"]:
            missing.append(focus["what"])
    assert not missing, f"{name}: no visible focus on " + ", ".join(dict.fromkeys(missing))
