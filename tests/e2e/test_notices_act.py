"""Notices that help (issue 31): on Bruno's phone at 390×844 they pop up at the foot of the
screen, clear of the header and the balance, at most two at once; a request's notice pays (two
taps) or declines it, and never offers a Pay the cash cannot cover; a trade's notice opens the
trade; money arriving buzzes the phone, and plays a short sound once the player turns it on.

One phone per test (Bruno's); the other players act through the API, as their phones would.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE
from tests.e2e.test_accessibility import axe_violations, describe

SHOTS = "shots/e2e"  # looked at by hand; shots/ is not committed
# How long a change may take to reach the phone on a loaded machine (a condition, not a wait).
LIVE_MS = 10_000

# Headless Chromium has neither a vibration motor nor a speaker: both are recorded instead,
# and every toast's count is watched as it changes.
SPIES = """
window.__buzzes = [];
navigator.vibrate = function (p) { window.__buzzes.push(p); return true; };
window.__notes = 0;
window.AudioContext = function () {
  function node() {
    return { connect: function () {}, start: function () { window.__notes += 1; }, stop: function () {},
             frequency: { value: 0 }, type: "",
             gain: { setValueAtTime: function () {}, exponentialRampToValueAtTime: function () {} } };
  }
  return { state: "running", currentTime: 0, destination: {}, resume: function () {},
           createOscillator: node, createGain: node };
};
window.__most = 0;
window.__answers = [];
document.addEventListener("DOMContentLoaded", function () {
  var box = document.getElementById("toasts");
  if (!box) { return; }
  new MutationObserver(function (changes) {
    window.__most = Math.max(window.__most, box.querySelectorAll(".toast").length);
    changes.forEach(function (c) {
      c.addedNodes.forEach(function (n) {
        if (n.classList && n.classList.contains("toast-answer")) { window.__answers.push(n.className); }
      });
    });
  }).observe(box, { childList: true });
});
"""

# Every toast, and the count of those waiting, against the header and the balance.
OVERLAPS = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const meets = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const fixed = [...document.querySelectorAll('.topbar, #balance, [data-cash]')].map(box);
  return [...document.querySelectorAll('#toasts > *')].map(box).filter(t => fixed.some(f => meets(t, f))).length;
}"""

# Dismisses what shows, as a thumb would: a tap on a plain notice, the × of one with answers.
DISMISS_ALL = """() => document.querySelectorAll('#toasts .toast').forEach(
  t => (t.querySelector('.toast-dismiss') || t).click())"""


def _call(url, path, body=None, token=None):
    request = urllib.request.Request(
        url + path,
        method="POST" if body is not None else "GET",
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


class Table:
    """A classic game made through the API for Anna and Carla, who act by token; Bruno sits
    down at it on his phone."""

    def __init__(self, live_server, browser, locale):
        self.url = live_server.url
        created = _call(self.url, "/api/v1/games", {"edition": "classic-it", "players": ["Anna", "Carla"]})
        self.id, self.banker = created["id"], created["banker_token"]
        self.tokens = {p["name"]: p["token"] for p in created["players"]}
        # bypass_csp: the page's policy would refuse the axe-core the test injects.
        self.bruno = browser.new_context(locale=locale, bypass_csp=True, **PHONE).new_page()
        self.bruno.errors = []
        self.bruno.on("pageerror", lambda e: self.bruno.errors.append(str(e)))
        self.bruno.on("console", lambda m: m.type == "error" and self.bruno.errors.append(m.text))
        self.bruno.add_init_script(SPIES)
        self.bruno.goto(f"{self.url}/j/{created['join_code']}")  # Bruno adds himself to the table
        self.bruno.fill("#name", "Bruno")
        self.bruno.locator(".inline-form button").click()
        self.bruno.wait_for_url(re.compile(r".*/me$"))
        self.ids = {p["name"]: p["id"] for p in self.state()["players"]}
        self.act("banker", {"type": "start"})
        expect(self.bruno.locator("#pay-form")).to_be_visible(timeout=LIVE_MS)

    def act(self, who, action):
        token = self.banker if who == "banker" else self.tokens[who]
        return _call(self.url, f"/api/v1/games/{self.id}/actions", action, token)

    def pay(self, who, amount):
        return self.act(who, {"type": "transfer", "to": self.ids["Bruno"], "amount": amount})

    def ask(self, who, amount):
        return self.act(who, {"type": "request", "from": self.ids["Bruno"], "amount": amount})["result"]["pending"]

    def state(self):
        return _call(self.url, f"/api/v1/games/{self.id}", token=self.banker)

    def cash(self, name):
        return next(p["cash"] for p in self.state()["players"] if p["name"] == name)

    def events(self, kind):
        return [
            e
            for e in _call(self.url, f"/api/v1/games/{self.id}/events?since=0", token=self.banker)["events"]
            if e["type"] == kind
        ]


@pytest.fixture
def table(live_server, browser):
    """``table(locale)``: a new table, Bruno's phone in ``locale``."""
    made = []

    def make(locale):
        made.append(Table(live_server, browser, locale))
        return made[-1]

    yield make
    for each in made:
        each.bruno.context.close()


def open_for_you(page):
    """Unfolds the wallet's "For you" (a tap on its summary), unless it is open already."""
    if page.locator("#for-you[open]").count() == 0:
        page.locator("#for-you summary").click()
    expect(page.locator("#for-you")).to_have_attribute("open", "")


def _accessible(page):
    """axe-core finds nothing serious on the page with its notices showing."""
    violations = axe_violations(page)
    assert not violations, describe(violations)


def _clear_of_the_top(page):
    """No notice meets the header or the balance, at the top of the page and scrolled."""
    assert page.evaluate(OVERLAPS) == 0
    page.evaluate("window.scrollTo(0, 250)")
    assert page.evaluate(OVERLAPS) == 0
    page.evaluate("window.scrollTo(0, 0)")


def test_notices_stay_clear_of_the_balance_and_answer_requests_and_trades(table):
    os.makedirs(SHOTS, exist_ok=True)
    table = table("en-GB")
    bruno = table.bruno

    # The sound is off until the player turns it on, and says so in words.
    open_for_you(bruno)
    sound = bruno.locator("[data-sound-toggle]")
    expect(sound).to_have_text("A short sound when money arrives")
    expect(sound.locator("input")).not_to_be_checked()
    assert bruno.evaluate("localStorage.getItem('banco:sound')") is None

    # Three notices at once: at most two show, the third waits and is counted; none covers
    # the header or the balance.
    pending = table.ask("Anna", 30)
    table.pay("Anna", 10)
    table.pay("Carla", 20)
    toasts = bruno.locator("#toasts .toast")
    expect(bruno.locator("#toasts .toasts-more")).to_have_text("1 more notice", timeout=LIVE_MS)
    expect(toasts).to_have_count(2)
    expect(bruno.locator("#for-you summary")).to_contain_text("+€\u00a020 from Carla.")  # open, and still told
    bruno.screenshot(path=f"{SHOTS}/notices-three-at-once.png", animations="disabled")
    _clear_of_the_top(bruno)
    assert bruno.evaluate("window.__most") == 2
    assert bruno.evaluate("window.__buzzes.length") >= 1  # money arrived
    assert bruno.evaluate("window.__notes") == 0  # and the sound is off
    _accessible(bruno)

    # Its answers take no tap the moment it slides in (a thumb on its way to the page beneath).
    assert [set(c.split()) for c in bruno.evaluate("window.__answers")] == [
        {"toast", "toast-info", "toast-answer", "is-arming"}
    ]
    # The request's notice pays it: Pay (naming the amount), then Confirm. One payment.
    asked = bruno.locator(f"#toasts .toast[data-asks='{pending}']")
    expect(asked).to_contain_text("Anna asks you for €\u00a030.")
    asked.get_by_role("button", name="Pay €\u00a030").click()
    expect(bruno.locator("#confirm-text")).to_have_text("Pay €\u00a030 to Anna?")
    bruno.click("#confirm-ok")
    expect(bruno.locator(".balance-cash")).to_have_text("€\u00a01,500", timeout=LIVE_MS)  # +10 +20 −30
    assert table.cash("Anna") == 1_520
    assert [e for e in table.events("transfer") if "30" in e["summary"]] and len(table.events("transfer")) == 3
    assert table.state().get("pending", []) == []
    expect(bruno.locator(f"#toasts .toast[data-asks='{pending}']")).to_have_count(0, timeout=LIVE_MS)

    # The sound, turned on, is kept on this phone and plays when money arrives.
    open_for_you(bruno)
    sound.locator("input").check()
    assert bruno.evaluate("localStorage.getItem('banco:sound')") == "on"
    bruno.reload()
    open_for_you(bruno)
    expect(sound.locator("input")).to_be_checked()
    notes, buzzes = bruno.evaluate("[window.__notes, window.__buzzes.length]")
    table.pay("Carla", 5)
    expect(toasts.filter(has_text="+€\u00a05 from Carla.")).to_have_count(1, timeout=LIVE_MS)
    assert bruno.evaluate("window.__notes") > notes
    assert bruno.evaluate("window.__buzzes.length") == buzzes + 1

    # Decline, from the notice.
    bruno.evaluate(DISMISS_ALL)
    pending = table.ask("Carla", 40)
    asked = bruno.locator(f"#toasts .toast[data-asks='{pending}']")
    asked.get_by_role("button", name="Decline").click()
    expect(bruno.locator("#offers [data-pending]")).to_have_count(0, timeout=LIVE_MS)
    assert table.cash("Bruno") == 1_505 and table.events("pending_declined")

    # More than Bruno has: no Pay that would be refused; what is missing, and the way out.
    bruno.evaluate(DISMISS_ALL)
    pending = table.ask("Anna", 99_999)
    asked = bruno.locator(f"#toasts .toast[data-asks='{pending}']")
    expect(asked).to_contain_text("You have €\u00a01,505: €\u00a098,494 missing.", timeout=LIVE_MS)
    expect(asked.get_by_role("button", name=re.compile("Pay"))).to_have_count(0)
    expect(asked.get_by_role("button", name="Decline")).to_be_visible()
    card = bruno.locator(f"#offers [data-pending='{pending}']")
    expect(card).to_contain_text("You have €\u00a01,505: €\u00a098,494 missing.")
    expect(card.get_by_role("button", name=re.compile("Pay"))).to_have_count(0)
    bruno.screenshot(path=f"{SHOTS}/notice-beyond-means.png", animations="disabled")
    asked.get_by_role("link", name="Raise money or declare bankruptcy").click()
    expect(bruno.locator("#danger-zone")).to_have_attribute("open", "")
    expect(bruno.locator("#bankrupt-form")).to_contain_text("Anna asks you for €\u00a099,999.")

    # A trade offered: its notice opens the trade.
    table.act("Anna", {"type": "buy", "deed": "via-roma"})
    bruno.evaluate(DISMISS_ALL)
    side = {"cash": 0, "deeds": ["via-roma"], "jail_cards": 0}
    money = {"cash": 100, "deeds": [], "jail_cards": 0}
    trade = table.act("Anna", {"type": "trade_propose", "to": table.ids["Bruno"], "give": side, "get": money})
    trade_id = trade["result"]["trade"]
    offered = bruno.locator(f"#toasts .toast[data-offer='{trade_id}']")
    expect(offered).to_contain_text("Anna offers you a trade: Via Roma for €\u00a0100.", timeout=LIVE_MS)
    _clear_of_the_top(bruno)
    offered.get_by_role("link", name="See the offer").click()
    expect(bruno).to_have_url(re.compile(f"#trade-{trade_id}$"))
    expect(bruno.locator(f"#trade-{trade_id}")).to_be_in_viewport()
    expect(bruno.locator(f"#trade-{trade_id}").get_by_role("button", name="Accept")).to_be_visible()
    assert bruno.errors == []


def test_in_italian_a_request_is_paid_from_its_notice_in_two_taps(table):
    table = table("it-IT")
    bruno = table.bruno
    open_for_you(bruno)
    sound = bruno.locator("[data-sound-toggle]")
    expect(sound).to_have_text("Un breve suono quando arrivano soldi")
    expect(sound.locator("input")).not_to_be_checked()

    pending = table.ask("Anna", 24)
    table.pay("Carla", 50)
    table.pay("Anna", 7)
    expect(bruno.locator("#toasts .toasts-more")).to_have_text("1 altra notifica", timeout=LIVE_MS)
    expect(bruno.locator("#toasts .toast")).to_have_count(2)
    os.makedirs(SHOTS, exist_ok=True)
    bruno.screenshot(path=f"{SHOTS}/notices-three-at-once-it.png", animations="disabled")
    _clear_of_the_top(bruno)
    assert bruno.evaluate("window.__buzzes.length") >= 1 and bruno.evaluate("window.__notes") == 0

    taps = 0
    asked = bruno.locator(f"#toasts .toast[data-asks='{pending}']")
    asked.get_by_role("button", name="Paga €\u00a024").click()
    taps += 1
    expect(bruno.locator("#confirm-text")).to_have_text("Paghi €\u00a024 ad Anna?")
    bruno.get_by_role("button", name="Conferma").click()
    taps += 1
    expect(bruno.locator(".balance-cash")).to_have_text("€\u00a01.533", timeout=LIVE_MS)  # +50 +7 −24
    assert taps == 2 and table.cash("Anna") == 1_517
    assert len(table.events("transfer")) == 3

    # Beyond the cash: what is missing, in Italian; withdrawn by Carla, the notice goes by itself.
    bruno.evaluate(DISMISS_ALL)
    pending = table.ask("Carla", 2_000)
    asked = bruno.locator(f"#toasts .toast[data-asks='{pending}']")
    expect(asked).to_contain_text("Hai €\u00a01.533: mancano €\u00a0467.", timeout=LIVE_MS)
    expect(asked.get_by_role("button", name=re.compile("Paga"))).to_have_count(0)
    expect(asked.get_by_role("link", name="Ricava il denaro o dichiara bancarotta")).to_be_visible()
    _accessible(bruno)
    table.act("Carla", {"type": "decline", "pending": pending})
    expect(asked).to_have_count(0, timeout=LIVE_MS)

    pending = table.ask("Anna", 10)
    bruno.locator(f"#toasts .toast[data-asks='{pending}']").get_by_role("button", name="Rifiuta").click()
    expect(bruno.locator("#offers [data-pending]")).to_have_count(0, timeout=LIVE_MS)
    assert table.cash("Bruno") == 1_533 and len(table.events("pending_declined")) == 1
    assert bruno.errors == []
