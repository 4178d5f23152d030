"""Che Impresa! on real phones: Anna pays the rent on one of Bruno's deeds and tries to
expropriate it; she enters the yellow die's YES on her phone, Bruno's phone asks him live for
the red die, he enters HALF, and the deed and half its price change hands on both phones. A
second attempt in the same turn is not offered, and "End my turn" hands the turn to Bruno on
the table. With BANCO_SHOTS=<folder> the pages are also saved as screenshots."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from playwright.sync_api import expect

from companion import services
from companion.core.editions.loading import EDITIONS_DIR
from tests.e2e.test_deeds import confirm
from tests.e2e.test_table import sit_down

SHOTS = os.environ.get("BANCO_SHOTS")
EDITION = json.loads((EDITIONS_DIR / "che-impresa.json").read_text(encoding="utf-8"))
PRICES = {d["key"]: d["price"] for d in EDITION["deeds"]}
HALF = EDITION["expropriation"]["half_percent"]
TABLET = {"width": 1180, "height": 820}


def shoot(page, name, full_page=False):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full_page)


def cash(page) -> int:
    return int(page.locator(".balance-cash").get_attribute("data-cash"))


def board(server, game_id) -> dict:
    """The game as the banker's GET /api/v1/games/{id} shows it (read in the test server's own
    process: the home page's form keeps the banker's token in the table's cookie)."""
    with server.app.app_context():
        game = services.get_game(game_id)
        return services.game_state(game, services.Caller(game.id, True, None))


def single_deeds_of(state, name) -> list[str]:
    """The deeds ``name`` owns without the rest of their lot (an attempt on one of those is on
    that deed alone, at its own price)."""
    player = next(p["id"] for p in state["players"] if p["name"] == name)
    owner = {d["key"]: d["owner"] for d in state["deeds"]}
    groups = {d["key"]: d["group"] for d in EDITION["deeds"]}
    return [
        key
        for key, who in owner.items()
        if who == player and not all(owner[k] == player for k, g in groups.items() if g == groups[key])
    ]


def test_an_expropriation_on_two_phones_and_the_table(live_server, phone):
    url = live_server.url
    host = phone("en-GB")
    host.goto(url + "/")
    host.select_option("#edition", value="che-impresa")
    for i, name in enumerate(["Anna", "Bruno"]):
        host.locator("input[name=name]").nth(i).fill(name)
    host.locator("#new-game button[type=submit], #new-game button").last.click()
    host.wait_for_url(re.compile(r".*/g/\w+/table$"))
    game_id = host.url.rsplit("/", 2)[1]
    code = host.locator(".join-code").inner_text().strip()
    anna, bruno = phone("en-GB"), phone("en-GB")
    sit_down(anna, url, code, "Anna")
    sit_down(bruno, url, code, "Bruno")
    host.locator("form:has(input[value=start]) button").click()
    # Anna plays first; the deeds are dealt at the start, each paid at its price out of the
    # starting cash, and every wallet shows what is left.
    expect(anna.locator("#turn")).to_contain_text("Your turn", timeout=10_000)
    expect(bruno.locator("#turn")).to_contain_text("Anna's turn", timeout=10_000)
    expect(host.locator("#turn")).to_contain_text("Anna's turn")
    game_path = anna.url.rsplit("/", 1)[0]
    dealt = board(live_server, game_id)
    ids = {p["name"]: p["id"] for p in dealt["players"]}
    for page, who in ((anna, "Anna"), (bruno, "Bruno")):
        held = [d["key"] for d in dealt["deeds"] if d["owner"] == ids[who]]
        assert len(held) == EDITION["start"]["deeds"]["2"]
        left = EDITION["start"]["cash"]["2"] - sum(PRICES[k] for k in held)
        expect(page.locator(".balance-cash")).to_have_attribute("data-cash", str(left))

    # Anna opens one of Bruno's deeds from the list of deeds (one without the rest of its lot).
    singles = single_deeds_of(dealt, "Bruno")
    assert singles, "Bruno was dealt only whole lots"
    target = singles[0]
    other = next(d["key"] for d in dealt["deeds"] if d["owner"] == ids["Bruno"] and d["key"] != target)
    anna.get_by_role("link", name="Deeds").click()
    anna.locator(f"a[href$='/deeds/{target}']").last.click()
    expect(anna.locator("#deed-state")).to_contain_text("Owner: Bruno")
    name = anna.locator(".title-deed-name").inner_text().strip()
    # No attempt before the rent: the page says why.
    expect(anna.get_by_role("button", name="Try to expropriate", exact=True)).to_have_count(0)
    expect(anna.locator("main")).to_contain_text(f"Pay the rent on {name} first")

    anna.get_by_role("button", name=re.compile("rent to Bruno")).click()
    confirm(anna)
    expect(anna.locator(".flash-ok")).to_contain_text("rent")
    anna.get_by_role("button", name="Try to expropriate", exact=True).click()
    anna.wait_for_load_state()
    expect(anna.locator("#expropriation")).to_contain_text(f"Anna tries to take {name} from Bruno.")
    expect(anna.locator("#expropriation")).to_contain_text("Now Anna rolls the yellow die.")

    # Every page sees the attempt without a reload: Bruno's wallet and the table.
    expect(bruno.locator("#expropriation")).to_contain_text("Now Anna rolls the yellow die.", timeout=10_000)
    expect(bruno.locator("#expropriation button")).to_have_count(0)
    expect(host.locator("#expropriation")).to_contain_text("Now Anna rolls the yellow die.", timeout=10_000)

    # On her wallet Anna enters the face her yellow die shows: YES.
    anna.goto(f"{game_path}/me")
    expect(anna.locator("#expropriation")).to_contain_text("Now Anna rolls the yellow die.")
    anna.locator("#expropriation .expropriation").scroll_into_view_if_needed()
    shoot(anna, "wallet-expropriation-buyer")
    anna.locator("#expropriation form:has(input[name=face][value=si]) button").click()
    anna.wait_for_load_state()
    expect(anna.locator("#expropriation")).to_contain_text("Now Bruno rolls the red die.")
    expect(anna.locator("#expropriation button")).to_have_count(0)

    # Bruno's wallet asks him, live, for the red die.
    expect(bruno.locator("#expropriation")).to_contain_text("Now Bruno rolls the red die.", timeout=10_000)
    expect(bruno.locator("#expropriation")).to_contain_text("yellow die: YES")
    half = bruno.locator("#expropriation form:has(input[name=face][value=meta]) button")
    expect(half).to_have_text("HALF")
    expect(host.locator("#expropriation")).to_contain_text("Now Bruno rolls the red die.", timeout=10_000)
    bruno.locator("#expropriation .expropriation").scroll_into_view_if_needed()
    shoot(bruno, "wallet-expropriation-owner")
    if SHOTS:  # the table as the tablet shows it
        host.set_viewport_size(TABLET)
        host.locator("#expropriation .expropriation").scroll_into_view_if_needed()
        shoot(host, "table-expropriation")
        host.set_viewport_size({"width": 390, "height": 844})

    before = {"Anna": cash(anna), "Bruno": cash(bruno)}
    paid = -(-PRICES[target] * HALF // 100)  # half the price, rounded up
    half.click()
    bruno.wait_for_load_state()

    # The deed is Anna's at half its price, on both phones and in the feed.
    line = re.compile(rf"Expropriation done: Anna takes {re.escape(name)} for B\W{paid}\b")
    for page in (bruno, anna):
        expect(page.locator("#feed li").first).to_contain_text(line, timeout=10_000)
        expect(page.locator("#expropriation .expropriation")).to_have_count(0)
    expect(bruno.locator(".balance-cash")).to_have_attribute("data-cash", str(before["Bruno"] + paid))
    expect(anna.locator(".balance-cash")).to_have_attribute("data-cash", str(before["Anna"] - paid), timeout=10_000)
    expect(host.locator("#feed li").first).to_contain_text(line, timeout=10_000)
    for page in (anna, bruno):
        page.goto(f"{game_path}/deeds/{target}")
        expect(page.locator("#deed-state")).to_contain_text("Owner: Anna")
    assert board(live_server, game_id)["expropriation"] is None

    # A second attempt in the same turn: after the rent on another of Bruno's deeds, the
    # page offers none and says why.
    anna.goto(f"{game_path}/deeds/{other}")
    anna.get_by_role("button", name=re.compile("rent to Bruno")).click()
    confirm(anna)
    expect(anna.get_by_role("button", name=re.compile("^Try to expropriate"))).to_have_count(0)
    expect(anna.locator("main")).to_contain_text("Anna already tried an expropriation this turn.")

    # Anna ends her turn: the table and Bruno's open wallet show Bruno's turn.
    bruno.goto(f"{game_path}/me")
    expect(bruno.get_by_role("button", name="End my turn")).to_have_count(0)
    anna.goto(f"{game_path}/me")
    anna.locator("#turn").scroll_into_view_if_needed()
    shoot(anna, "wallet-turn")
    anna.get_by_role("button", name="End my turn").click()
    confirm(anna)
    expect(anna.locator("#turn")).to_contain_text("Bruno's turn")
    expect(anna.get_by_role("button", name="End my turn")).to_have_count(0)
    expect(host.locator("#turn")).to_contain_text("Bruno's turn", timeout=10_000)
    expect(bruno.locator("#turn")).to_contain_text("Your turn", timeout=10_000)
    expect(bruno.get_by_role("button", name="End my turn")).to_be_visible()
    for page in (host, anna, bruno):
        assert page.errors == [], page.errors
