"""Events carry the change: a phone fetches only the regions of its page that show what an
event changed, keeps what is typed there, and catches up with what it missed."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from companion import services
from companion.web.notices import KEPT
from tests.conftest import act
from tests.e2e.test_dice import shoot
from tests.e2e.test_live_morph import open_auction
from tests.e2e.test_table import open_table, pay, sit_down, started


def _fetches(page, path_end: str) -> list[str]:
    """Every request the page makes from now on to an address ending in ``path_end``."""
    seen: list[str] = []
    page.on("request", lambda r: urlsplit(r.url).path.endswith(path_end) and seen.append(r.url))
    return seen


def _tab(page):
    """Another tab of the same phone (its cookies, its seat), with a console that must stay clean."""
    tab = page.context.new_page()
    tab.errors = []
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))
    tab.on("console", lambda m: m.type == "error" and tab.errors.append(m.text))
    return tab


def asleep(page) -> None:
    """The page reloaded with a stream that hears nothing (as a phone asleep in a pocket): from
    now on its stream's request is never answered, so the page neither hears an event nor
    knows it has lost the bank, however long the test takes (a stream that ended would make it
    lose the bank after a few seconds, and catch up by itself)."""
    page.route(re.compile(r".*/stream(\?.*)?$"), lambda route: None)
    page.reload()


def _asked(urls: list[str]) -> list[set[str]]:
    return [set(parse_qs(urlsplit(u).query).get("regions", [""])[0].split(",")) for u in urls]


# Every region of a page as the page shows it now and as the server draws it at the page's
# version, each written the same way: elements with their attributes sorted, text with its
# white space folded, each form's fresh key and token left out, and what the page's scripts
# add to whatever they find (a form's novalidate, the sound choice shown, a sheet opened, a text's
# size fitted to the screen, an amount's pulse, the "not up to date" mark of a page that lost
# the bank), and the seconds a countdown has left. What
# news wrote in place must be what a fetch would have drawn.
_DRAWN_ALIKE = """async () => {
  const ids = [...document.querySelectorAll('[data-parts][id]')].map(e => e.id);
  const url = location.pathname + location.search + (location.search ? '&' : '?') + 'regions=' + ids.join(',');
  const answer = await (await fetch(url, {headers: {'X-Banco-Live': '1'}, cache: 'no-store'})).json();
  const canon = (node) => {
    if (node.nodeType === 3) { const t = node.textContent.replace(/\\s+/g, ' ').trim(); return t ? t : ''; }
    if (node.nodeType !== 1 || node.classList.contains('stale-mark')) { return ''; }
    // A countdown's seconds left (an auction's, the clock's) are of the instant each was drawn.
    if (node.hasAttribute('data-countdown') || node.hasAttribute('data-clock-time')) { return '<' + node.tagName + '>'; }
    const own = (a) => ['novalidate', 'open', 'style', 'data-seconds', 'data-remaining'].includes(a.name) || (a.name === 'hidden' && node.hasAttribute('data-sound-toggle'));
    const attrs = [...node.attributes].filter(a => !own(a) && !(node.tagName === 'INPUT' && a.name === 'value' && ['key', 'csrf_token'].includes(node.name)))
      .map(a => a.name + '=' + (a.name === 'class' ? a.value.split(/\\s+/).filter(c => c && c !== 'is-changed').sort().join(' ') : a.value)).sort();
    return '<' + node.tagName + ' ' + attrs.join(' ') + '>' + [...node.childNodes].map(canon).filter(Boolean).join('|') + '</>';
  };
  const unlike = [];
  for (const id of ids) {
    const drawn = new DOMParser().parseFromString(answer.regions[id] || '', 'text/html').getElementById(id);
    const shown = document.getElementById(id);
    if (!drawn || canon(drawn) !== canon(shown)) { unlike.push({id, shown: canon(shown), drawn: drawn && canon(drawn)}); }
  }
  return {version: answer.version, shown: Number(document.body.dataset.version), unlike};
}"""


def drawn_alike(page) -> None:
    """Every region of ``page`` is as the server draws it at the page's version."""
    seen = page.evaluate(_DRAWN_ALIKE)
    assert seen["version"] == seen["shown"], seen
    assert seen["unlike"] == [], seen["unlike"]


def test_a_payment_reaches_every_page_without_a_fetch(live_server, phone, browser):
    """A payment between two players reaches the other wallets, the Bank and the table screen
    in its event: the amounts, the feed's line, the notice, the screen's last line, the undo,
    written in place without a single request; and each region is then what the server draws."""
    from tests.e2e.test_table_screen import TV, open_screen

    host, (anna, bruno, carla) = started(live_server, phone, ("Anna", "Bruno", "Carla"))
    screen = open_screen(
        browser, live_server.url + host.locator("#bank-screen a.btn").get_attribute("href"), TV, "en-GB"
    )
    expect(carla.locator("#feed")).to_contain_text("Anna", timeout=10_000)
    expect(screen.locator(".screen-tile")).to_have_count(3)
    carla.locator("#pay-reason").fill("half typed")
    fetched = {
        "carla": _fetches(carla, "/me"),
        "bruno": _fetches(bruno, "/me"),
        "bank": _fetches(host, "/table"),
        "screen": _fetches(screen, "/screen"),
    }

    pay(anna, "Bruno", 120)
    expect(carla.locator("#players")).to_contain_text(re.compile(r"1[.,]380"))
    expect(carla.locator("#feed li").first).to_contain_text("120")
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]620"))
    expect(bruno.locator("#toasts .toast")).to_contain_text("120")
    expect(bruno.locator("#for-you summary")).to_contain_text("120")
    expect(host.locator("#players")).to_contain_text(re.compile(r"1[.,]620"))
    expect(host.locator("#feed li").first).to_contain_text("120")
    expect(host.locator("#history form.undo")).to_have_attribute("data-confirm", re.compile("120"))
    expect(screen.locator(".screen-tile", has_text="Bruno").locator(".screen-tile-cash")).to_have_text(
        re.compile(r"1[.,]620")
    )
    expect(screen.locator(".screen-last-line")).to_contain_text("120")
    for page in (carla, bruno, host, screen):
        expect(page.locator("body")).to_have_attribute("data-version", anna.evaluate("document.body.dataset.version"))
    assert fetched == {"carla": [], "bruno": [], "bank": [], "screen": []}, fetched
    for page in (carla, bruno, host, screen):
        drawn_alike(page)
    assert carla.locator("#pay-reason").input_value() == "half typed"
    for urls in fetched.values():
        urls.clear()  # drawn_alike's own

    pay(bruno, "Carla", 40)  # Bruno's page refreshes itself after his move; the others hear it
    expect(carla.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]540"))
    expect(carla.locator("#for-you summary")).to_contain_text("40")
    expect(screen.locator(".screen-earlier").first).to_contain_text("120")
    expect(anna.locator("#players")).to_contain_text(re.compile(r"1[.,]580"))
    for page in (carla, anna, host, screen):
        expect(page.locator("body")).to_have_attribute("data-version", bruno.evaluate("document.body.dataset.version"))
    assert fetched["carla"] == [] and fetched["bank"] == [] and fetched["screen"] == [], fetched
    for page in (carla, anna, host, screen):
        drawn_alike(page)
    assert carla.errors == [] and host.errors == [] and anna.errors == [] and screen.errors == []


def test_a_roll_reaches_every_other_page_without_a_fetch(live_server, phone, browser):
    """A roll of the dice reaches the other wallets, the Bank and the table screen in its
    event: the faces and the total on the Dice card and the screen, the total in the Dice
    sheet's title, who rolls next in the Bank's picker, written in place without a request; only
    the roller's own phone fetches (its forms offer the total). A later roll lets go of the
    total the first roller's fields were given."""
    from tests.e2e.test_table_screen import TV, open_screen

    host, (anna, bruno, carla) = started(live_server, phone, ("Anna", "Bruno", "Carla"))
    screen = open_screen(
        browser, live_server.url + host.locator("#bank-screen a.btn").get_attribute("href"), TV, "en-GB"
    )
    expect(carla.locator("#last-roll")).to_contain_text("Nobody has rolled yet.", timeout=10_000)
    expect(screen.locator("#screen-roll")).to_be_hidden()
    fetched = {"carla": _fetches(carla, "/me"), "bank": _fetches(host, "/table"), "screen": _fetches(screen, "/screen")}

    anna.locator("#dice-sheet summary").click()
    anna.get_by_role("button", name="Roll the dice").click()
    anna.wait_for_load_state()
    expect(anna.locator("#last-roll")).to_contain_text("You rolled")
    total = anna.locator("#last-roll .last-roll-total strong").inner_text()
    expect(carla.locator("#last-roll")).to_contain_text("Anna rolled")
    expect(carla.locator("#last-roll .die")).to_have_count(2)
    expect(carla.locator("#dice-sheet summary")).to_contain_text(f"last roll: {total}")
    expect(host.locator("#last-roll .last-roll-total strong")).to_have_text(total)
    expect(screen.locator("#screen-roll")).to_be_visible()
    expect(screen.locator("#screen-roll")).to_contain_text("Anna rolled")
    expect(screen.locator("#screen-roll .die")).to_have_count(2)
    for page in (carla, host, screen):
        expect(page.locator("body")).to_have_attribute("data-version", anna.evaluate("document.body.dataset.version"))
    assert fetched == {"carla": [], "bank": [], "screen": []}, fetched
    carla.locator("#dice-sheet summary").click()
    shoot(carla, "wallet-roll-heard")
    shoot(screen, "screen-roll-heard")
    for page in (carla, host, screen):
        drawn_alike(page)
    for urls in fetched.values():
        urls.clear()  # drawn_alike's own

    # Bruno rolls: Anna's page is no longer hers to offer a total from, and the Bank's picker
    # follows who rolls next.
    bruno.locator("#dice-sheet summary").click()
    bruno.get_by_role("button", name="Roll the dice").click()
    bruno.wait_for_load_state()
    expect(anna.locator("#last-roll")).to_contain_text("Bruno rolled")
    expect(anna.locator("#last-roll")).to_have_attribute("data-roll-total", "")
    expect(screen.locator("#screen-roll")).to_contain_text("Bruno rolled")
    for page in (anna, carla, host, screen):
        expect(page.locator("body")).to_have_attribute("data-version", bruno.evaluate("document.body.dataset.version"))
    assert fetched == {"carla": [], "bank": [], "screen": []}, fetched
    for page in (anna, carla, host, screen):
        drawn_alike(page)
    assert anna.errors == [] and carla.errors == [] and host.errors == [] and screen.errors == []


def test_a_turn_passed_on_reaches_every_other_page_without_a_fetch(live_server, phone, browser):
    """Where the bank keeps the turns (Motopolis), a turn passed on reaches the wallet of the
    player it does not concern and the table screen in its event: whose turn it is and the
    round on the turn card, the round the end of the game counts, the screen's tile marked,
    written in place without a request. The wallet of the player who plays now fetches its
    turn card's region alone (the card gains its End my turn), and shows it; so does the Bank
    (its card's forms name the player in turn)."""
    from tests.e2e.test_deeds import confirm
    from tests.e2e.test_table_screen import TV, open_screen

    host, (anna, bruno, carla) = started(live_server, phone, ("Anna", "Bruno", "Carla"), edition="motopolis")
    screen = open_screen(
        browser, live_server.url + host.locator("#bank-screen a.btn").get_attribute("href"), TV, "en-GB"
    )
    expect(carla.locator("#turn")).to_contain_text("Anna's turn", timeout=10_000)
    expect(screen.locator(".screen-tile.is-turn .tag-turn")).to_be_visible()
    pages = {"anna": anna, "bruno": bruno, "carla": carla, "screen": screen}
    fetched = {name: _fetches(page, "/screen" if name == "screen" else "/me") for name, page in pages.items()}
    fetched["bank"] = _fetches(host, "/table")

    for ender, now, aside, rounds in (
        ("anna", "Bruno", "carla", "1"),
        ("bruno", "Carla", "anna", "1"),
        ("carla", "Anna", "bruno", "2"),
    ):
        for urls in fetched.values():
            urls.clear()
        pages[ender].get_by_role("button", name="End my turn").click()
        confirm(pages[ender])
        expect(pages[ender].locator("#turn")).to_contain_text(f"{now}'s turn")
        version = pages[ender].evaluate("document.body.dataset.version")
        player = pages[now.lower()]
        expect(player.locator("body")).to_have_attribute("data-version", version)
        expect(player.locator("#turn .turn-who")).to_contain_text("Your turn")
        expect(player.get_by_role("button", name="End my turn")).to_be_visible()
        assert _asked(fetched[now.lower()]) == [{"play"}], (now, fetched)
        for page in (pages[aside], screen):
            expect(page.locator("body")).to_have_attribute("data-version", version)
            expect(page.locator("#turn .turn-who")).to_contain_text(f"{now}'s turn")
            expect(page.locator("#turn .turn-round")).to_have_text(f"round {rounds} of 40")
        expect(pages[aside].locator("#ends [data-turn-round]")).to_have_text(rounds)
        expect(screen.locator(".screen-tile.is-turn")).to_have_count(1)
        expect(screen.locator(".screen-tile.is-turn .screen-tile-name")).to_have_text(now)
        expect(screen.locator(".tag-turn:visible")).to_have_count(1)
        assert fetched[aside] == [] and fetched["screen"] == [], (ender, fetched)
        expect(host.locator("body")).to_have_attribute("data-version", version)
        expect(host.get_by_role("button", name=f"End {now}'s turn")).to_be_visible()
        assert _asked(fetched["bank"]) == [{"turn-region"}], (ender, fetched)
        shoot(pages[aside], f"wallet-turn-heard-{rounds}")
        for page in (pages[aside], player, screen, host):
            drawn_alike(page)
    shoot(screen, "screen-turn-heard")
    shoot(host, "bank-turn-heard")
    assert all(page.errors == [] for page in (*pages.values(), host)), [page.errors for page in pages.values()]


def test_the_clock_paused_or_resumed_reaches_every_page_without_a_fetch(live_server, phone, browser):
    """A timed game (the championship): the banker pauses the clock on the Bank, and the wallets
    and the table screen stop it and say "paused" from the event, without a request; resumed, it
    ticks on from there on each of them."""
    from tests.e2e.test_table_screen import TV, open_screen

    host, (anna, bruno) = started(live_server, phone, edition="campionato-2015", time_limit="30")
    screen = open_screen(
        browser, live_server.url + host.locator("#bank-screen a.btn").get_attribute("href"), TV, "en-GB"
    )
    expect(anna.locator("#clock")).to_have_attribute("data-running", "1", timeout=10_000)
    fetched = {"anna": _fetches(anna, "/me"), "bruno": _fetches(bruno, "/me"), "screen": _fetches(screen, "/screen")}

    _clock_heard(host, "Pause the clock", "Resume the clock", (anna, bruno, screen), "0", "paused")
    still = anna.locator("#clock [data-clock-time]").inner_text()
    anna.wait_for_timeout(1500)
    assert anna.locator("#clock [data-clock-time]").inner_text() == still  # stopped
    assert fetched == {"anna": [], "bruno": [], "screen": []}, fetched
    shoot(anna, "wallet-clock-paused")
    for page in (anna, bruno, screen):
        drawn_alike(page)
    for urls in fetched.values():
        urls.clear()  # drawn_alike's own

    _clock_heard(host, "Resume the clock", "Pause the clock", (anna, bruno, screen), "1", "")
    expect(anna.locator("#clock [data-clock-time]")).not_to_have_text(still, timeout=3_000)  # ticking again
    assert fetched == {"anna": [], "bruno": [], "screen": []}, fetched
    assert anna.errors == [] and bruno.errors == [] and screen.errors == [] and host.errors == []


def _clock_heard(host, button, then, pages, running, state) -> None:
    """The banker taps ``button`` on the Bank, which then offers ``then``; each of ``pages``
    reaches the Bank's version with its clock ``running`` ("1" or "0") and saying ``state``."""
    host.get_by_role("button", name=button).click()
    host.wait_for_load_state()
    expect(host.get_by_role("button", name=then)).to_be_visible()
    version = host.evaluate("document.body.dataset.version")
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-version", version)
        expect(page.locator("#clock")).to_have_attribute("data-running", running)
        expect(page.locator("#clock .clock-state")).to_have_text(state)


def test_a_bid_reaches_every_other_page_without_a_fetch(live_server, phone, browser):
    """A bid reaches the other phones, the Bank and the table screen in its event: the auction's
    card (the high bid, who holds it, the countdown started again) is written in place, the
    screen's drawn large as it draws it, and each phone's quick raises, drawn for it, get the
    page's own CSRF token: a raise tapped then is a bid like any other. No page fetches, and a
    half-typed bid stays as typed."""
    from tests.e2e.test_deeds import confirm
    from tests.e2e.test_table_screen import TV, open_screen

    host, (anna, _bruno, carla) = started(live_server, phone, ("Anna", "Bruno", "Carla"))
    screen = open_screen(
        browser, live_server.url + host.locator("#bank-screen a.btn").get_attribute("href"), TV, "en-GB"
    )
    open_auction(host)
    expect(carla.locator("#quick-bid-1 button")).to_be_visible(timeout=10_000)
    raise_before = carla.locator("#quick-bid-1 button").inner_text()
    bid = anna.locator("#quick-bid-1 input[name=amount]").get_attribute("value")
    expect(screen.locator(".screen-auction")).to_be_visible()
    carla.fill("#bid-amount", "9")  # half typed
    fetched = {"carla": _fetches(carla, "/me"), "bank": _fetches(host, "/table"), "screen": _fetches(screen, "/screen")}

    anna.locator("#quick-bid-1 button").click()
    confirm(anna)
    expect(carla.locator("#auction .auction-bid")).to_contain_text("by Anna")
    expect(carla.locator("#auction .auction-bid")).to_contain_text(f"€ {bid}")
    expect(carla.locator("#quick-bid-1 button")).not_to_have_text(raise_before)  # her raises follow
    expect(host.locator("#auction .auction-bid")).to_contain_text("by Anna")
    expect(screen.locator(".screen-auction-bidder")).to_contain_text("by Anna")
    version = anna.evaluate("document.body.dataset.version")
    for page in (carla, host, screen):
        expect(page.locator("body")).to_have_attribute("data-version", version)
    assert fetched["carla"] == [] and fetched["bank"] == [], fetched
    assert fetched["screen"] == [], fetched
    assert carla.locator("#bid-amount").input_value() == "9"
    token = carla.locator("#bid input[name=csrf_token]").first.get_attribute("value")
    assert carla.locator("#quick-bid-1 input[name=csrf_token]").get_attribute("value") == token
    shoot(carla, "wallet-bid-heard")
    shoot(screen, "screen-bid-heard")
    for page in (carla, host, screen):
        drawn_alike(page)

    # Carla taps a raise the news drew: it is her bid.
    raised = carla.locator("#quick-bid-1 input[name=amount]").get_attribute("value")
    carla.locator("#quick-bid-1 button").click()
    confirm(carla)
    expect(anna.locator("#auction .auction-bid")).to_contain_text("by Carla")
    expect(anna.locator("#auction .auction-bid")).to_contain_text(f"€ {raised}")
    assert carla.errors == [] and host.errors == [] and anna.errors == [] and screen.errors == []


def test_amounts_whose_shape_changes_are_fetched(live_server, phone):
    """The Free Parking pot: its first tax shows the pot's Collect (its region is fetched);
    the next only writes the amount, and the Collect's question with it."""
    host = phone("en-GB")
    code = open_table(host, live_server.url, ["Anna", "Bruno"], house_rules=("free_parking_pot",))
    anna, bruno = phone("en-GB"), phone("en-GB")
    sit_down(anna, live_server.url, code, "Anna")
    sit_down(bruno, live_server.url, code, "Bruno")
    host.locator("form:has(input[value=start]) button").click()
    expect(bruno.locator("#pay-form")).to_be_visible()
    game_id = re.search(r"/g/(\w+)/", bruno.url).group(1)
    fetched = _fetches(bruno, "/me")

    def tax(amount):
        with live_server.app.app_context():
            anna_id = next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
            act(
                game_id,
                services.Caller(game_id, False, anna_id),
                {"type": "transfer", "to": "free_parking", "amount": amount},
            )

    tax(50)
    expect(bruno.locator("#pots form")).to_have_attribute("data-confirm", re.compile(r"€\s?50\b"))
    assert any("news" in asked for asked in _asked(fetched)), fetched
    fetched.clear()
    tax(25)
    expect(bruno.locator("#pots .pot-amount")).to_have_text(re.compile(r"€\s?75"))
    expect(bruno.locator("#pots form")).to_have_attribute("data-confirm", re.compile(r"€\s?75\b"))
    assert fetched == [], fetched
    drawn_alike(bruno)
    assert bruno.errors == []


def test_a_bid_being_typed_survives_the_fragment_of_another_bid(live_server, phone):
    host, (anna, bruno) = started(live_server, phone)
    open_auction(host)
    expect(anna.locator("#bid-amount")).to_be_visible()
    wallet = _fetches(anna, "/me")
    anna.fill("#bid-amount", "95")  # the thumb is still on it

    bruno.fill("#bid-amount", "80")
    bruno.locator("#bid form[data-confirm] button.btn-big").click()
    bruno.click("#confirm-ok")
    expect(anna.locator("#auction")).to_contain_text("80")
    assert anna.locator("#bid-amount").input_value() == "95"
    assert anna.evaluate("document.activeElement.id") == "bid-amount"
    # The card and the quick raises written from the bid's news: nothing fetched, the field
    # left alone.
    assert wallet == [], wallet
    assert anna.errors == []


def test_a_phone_that_missed_events_catches_up_from_the_journal(live_server, phone):
    """Its stream hears nothing (as a phone asleep in a pocket): back in view, it asks what
    changed since its version, and the answer's news is all it needs: one request."""
    _host, (anna, bruno) = started(live_server, phone)
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"))
    asleep(bruno)
    version = bruno.evaluate("Number(document.body.dataset.version)")
    changes = _fetches(bruno, "/changes")
    wallet = _fetches(bruno, "/me")

    pay(anna, "Bruno", 70)
    pay(anna, "Bruno", 30)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]400"))
    bruno.wait_for_timeout(500)
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"))  # it missed both

    bruno.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]600"))
    expect(bruno.locator("#feed")).to_contain_text("70")
    # One request catches up.
    assert len(changes) == 1 and f"since={version}" in changes[0], changes
    assert wallet == [], wallet
    drawn_alike(bruno)
    assert bruno.evaluate("Number(document.body.dataset.version)") == version + 2

    pay(anna, "Bruno", 5)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]395"))  # the payment is made
    bruno.evaluate("window.dispatchEvent(new Event('online'))")  # back on the Wi-Fi
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]605"))
    assert bruno.errors == []


def test_the_table_screen_redraws_only_what_an_action_changed(live_server, phone, browser):
    """A payment is written on the tiles and the last line from its event; an auction redraws
    its own region, and the layout follows it; the screen is never fetched whole, never reloaded."""
    from tests.e2e.test_table_screen import TV, open_screen, same_document

    host, (anna, _bruno) = started(live_server, phone)
    screen = open_screen(
        browser, live_server.url + host.locator("#bank-screen a.btn").get_attribute("href"), TV, "en-GB"
    )
    expect(screen.locator(".screen-tile")).to_have_count(2)
    fetched = _fetches(screen, "/screen")

    pay(anna, "Bruno", 120)
    expect(screen.locator(".screen-tile", has_text="Bruno").locator(".screen-tile-cash")).to_have_text(
        re.compile(r"1[.,]620"), timeout=3000
    )
    expect(screen.locator(".screen-last-line")).to_contain_text("120")
    assert fetched == [], fetched

    fetched.clear()
    open_auction(host)
    expect(screen.locator(".screen-auction")).to_contain_text("Vicolo Corto")
    expect(screen.locator(".screen-corner")).to_be_hidden()  # the auction takes the screen
    assert fetched and all("regions=" in u and "screen-auction" in u for u in fetched), fetched
    assert not any("screen" in asked for asked in _asked(fetched))
    assert same_document(screen) and screen.errors == []


def test_the_deed_pages_and_the_results_fetch_only_what_shows_the_change(live_server, phone):
    """A payment reaches the deeds board in its event alone (the wallet bar's amount); a purchase
    redraws its tiles; a deed's page keeps its title deed card; the results redraw the count and
    nothing else."""
    _host, (anna, bruno) = started(live_server, phone)
    game_path = anna.url.rsplit("/", 1)[0]
    board, deed, results = (_tab(anna) for _ in range(3))  # Anna's other tabs
    board.goto(f"{game_path}/deeds")
    deed.goto(f"{game_path}/deeds/vicolo-corto")
    results.goto(f"{game_path}/results")
    seen = {
        "board": _fetches(board, "/deeds"),
        "deed": _fetches(deed, "/vicolo-corto"),
        "results": _fetches(results, "/results"),
    }

    pay(bruno, "Anna", 40)
    for page in (board, deed, results):
        expect(page.locator("#wallet-bar")).to_contain_text(re.compile(r"1[.,]540"))
    expect(results.locator(".ranking")).to_contain_text(re.compile(r"1[.,]540"))
    assert seen["board"] == [], seen["board"]
    for asked in _asked(seen["deed"]):
        assert "deed-card" not in asked and "deed-now" in asked, asked
    for asked in _asked(seen["results"]):
        assert asked <= {"wallet-bar", "notices", "results"}, asked

    for urls in seen.values():
        urls.clear()
    bruno.goto(f"{game_path}/deeds/vicolo-corto")
    bruno.get_by_role("button", name=re.compile("Buy for")).click()
    bruno.click("#confirm-ok")
    expect(board.locator("#deed-vicolo-corto")).to_contain_text("Bruno")
    expect(deed.locator("#deed-state")).to_contain_text("Owner: Bruno")
    assert any("deeds-live" in asked for asked in _asked(seen["board"])), seen["board"]
    assert any("deed-card" in asked for asked in _asked(seen["deed"])), seen["deed"]
    for name, urls in seen.items():
        assert urls and all("regions=" in u for u in urls), (name, urls)
    assert board.errors == [] and deed.errors == [] and results.errors == []


@pytest.mark.parametrize("missed", [50, 80], ids=["50 events", "80 events, past the broker's memory"])
def test_a_phone_back_from_the_pocket_after_many_events_shows_each_once(live_server, phone, missed):
    """Bruno's stream hears nothing while the bank pays him ``missed`` times, each amount its own
    (1, 2, 3...). Back in view, his page catches up: the balance with every payment, the feed's
    newest lines each once and in order, no gap; the newest notices pop up two at a time, the
    others counted, none of them twice. Within the broker's memory of 64 versions it takes one
    request, whose news says it all; past it, the page is fetched whole."""
    host, (anna, bruno) = started(live_server, phone)
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"))
    asleep(bruno)
    version = bruno.evaluate("Number(document.body.dataset.version)")
    asked = _fetches(bruno, "")
    game_id = re.search(r"/g/(\w+)/", bruno.url).group(1)
    with live_server.app.app_context():
        bruno_id = next(p.id for p in services.get_game(game_id).players if p.name == "Bruno")
        for amount in range(1, missed + 1):
            act(
                game_id,
                services.Caller(game_id, True, None),
                {"type": "transfer", "from": "bank", "to": bruno_id, "amount": amount},
            )
    paid = missed * (missed + 1) // 2
    bruno.wait_for_timeout(300)
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"))  # it heard nothing

    bruno.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(bruno.locator(".balance-cash")).to_have_attribute("data-cash", str(1500 + paid))
    assert bruno.evaluate("Number(document.body.dataset.version)") == version + missed
    lines = bruno.locator("#feed li").evaluate_all("els => els.map(e => e.textContent.trim())")  # folded away
    amounts = [int(re.search(r"€\s?([\d.,]+)", line).group(1).replace(",", "").replace(".", "")) for line in lines]
    assert amounts == list(range(missed, missed - len(lines), -1)), lines  # newest first, each once, no gap
    # The notices the wallet keeps (its newest KEPT), each once: two toasts at a time, the others
    # counted as waiting; the older ones are in the feed.
    listed = bruno.locator("#notices li").evaluate_all("els => els.map(e => e.dataset.version)")
    assert len(listed) == KEPT and len(set(listed)) == KEPT, listed
    shown = bruno.locator("#toasts .toast").evaluate_all("els => els.map(e => e.dataset.version)")
    assert len(shown) == 2 and set(shown) <= set(listed), shown
    expect(bruno.locator("#toasts .toasts-more")).to_have_text(f"{KEPT - 2} more notices")
    pages = [u for u in asked if "/static/" not in u and "/stream" not in u]
    if missed <= 64:
        assert pages and all("/changes?since=" in u for u in pages), pages  # never the page itself
        drawn_alike(bruno)
    else:
        whole = [u for u in pages if urlsplit(u).path.endswith("/me")]
        assert "/changes?since=" in pages[0] and len(whole) == 1 and "regions=" not in whole[0], pages
    assert bruno.errors == [] and anna.errors == [] and host.errors == []
