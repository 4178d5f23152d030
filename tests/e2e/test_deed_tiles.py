"""'I landed on …' in the fewest taps, in a real browser at phone size: the deeds as tiles in
board order, a search that narrows them as a name is typed, a tapped tile opening the deed with
the rent owed on top; an auction's quick raises bidding the right amount, seen live on the other
phone. Amounts are worked out from the edition's data."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from companion import services
from tests.e2e.test_deeds import confirm
from tests.e2e.test_table import started


def test_find_a_deed_by_name_and_pay_its_rent_or_raise_its_auction(live_server, phone):
    with live_server.app.app_context():
        edition = services.editions()["classic-it"]
    board = sorted(edition.deeds, key=lambda d: d.position)
    host, (anna, bruno) = started(live_server, phone)
    start = edition.starting_cash_for(2)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(f"{start:,}"))
    game_path = anna.url.rsplit("/", 1)[0]

    # Bruno buys Via Roma from its page.
    roma = edition.deed("via-roma")
    bruno.goto(f"{game_path}/deeds/via-roma")
    bruno.get_by_role("button", name=f"Buy for € {roma.price}").click()
    confirm(bruno)
    expect(bruno.locator("#deed-state")).to_contain_text("Owner: Bruno")

    # Anna lands on it: the deeds in board order, narrowed as she types, one tap to the deed.
    anna.locator(".wallet-bar-back").wait_for(state="detached")  # the wallet has no bar
    anna.get_by_role("link", name="Deeds").click()
    tiles = anna.locator("#deed-tiles > li")
    expect(tiles).to_have_count(len(board))
    assert tiles.evaluate_all("els => els.map(e => e.id)") == [f"deed-{d.key}" for d in board]
    visible = anna.locator("#deed-tiles > li:visible")
    anna.locator("#deed-q").press_sequentially("vial")
    expect(visible).to_have_count(sum("vial" in d.name.lower() for d in board))
    anna.locator("#deed-q").fill("")
    anna.locator("#deed-q").press_sequentially("roma")
    expect(visible).to_have_count(1)
    expect(anna.locator("#deed-no-match")).to_be_hidden()
    anna.locator("#deed-via-roma a").click()
    pay = anna.get_by_role("button", name=f"Pay rent to Bruno: € {roma.rents[0]}")
    expect(pay).to_be_visible()
    expect(anna.locator(".rents .is-now")).to_contain_text(f"€ {roma.rents[0]}")
    expect(anna.locator("#wallet-bar")).to_contain_text(f"€ {start:,}")
    pay.click()
    confirm(anna)
    expect(anna.locator("#wallet-bar")).to_contain_text(f"€ {start - roma.rents[0]:,}")

    # Corso Impero goes to auction; Bruno raises with one tap, and Anna sees it live.
    from companion.web.deeds import raise_steps

    steps = raise_steps(edition)
    opening = edition.auction.opening_bid
    bruno.locator(".wallet-bar-back").click()
    expect(bruno.locator(".balance-cash")).to_be_visible()
    anna.goto(f"{game_path}/deeds/corso-impero")
    anna.get_by_role("button", name="Auction it").click()
    expect(bruno.locator("#auction")).to_contain_text("Corso Impero", timeout=10_000)
    bruno.locator("#quick-bid-1 button").click()
    expect(bruno.locator("#confirm-text")).to_have_text(f"Bid € {opening + steps[0]}?")
    confirm(bruno)
    expect(anna.locator("#auction .auction-bid")).to_contain_text(f"€ {opening + steps[0]}")
    # Anna's raises follow the new high bid: +50 on top of it.
    expect(anna.locator("#quick-bid-2 button")).to_contain_text(f"€ {opening + steps[0] + steps[1]}")
    anna.locator("#quick-bid-2 button").click()
    confirm(anna)
    expect(bruno.locator("#auction .auction-bid")).to_contain_text(f"€ {opening + steps[0] + steps[1]}")
    expect(bruno.locator("#auction")).to_contain_text("by Anna")

    # The trade form shows the deeds of the partner picked, and only theirs.
    anna.get_by_role("link", name="Trade").click()
    expect(anna.locator("#trade-pick-partner")).to_be_visible()
    expect(anna.get_by_label("Via Roma")).to_be_hidden()
    anna.locator("label.choice", has_text="Bruno").click()
    expect(anna.get_by_label("Via Roma")).to_be_visible()
    expect(anna.locator("#trade-pick-partner")).to_be_hidden()
    for page in (host, anna, bruno):
        assert page.errors == [], page.errors
