"""The server's dice on the phones: a player taps "Roll the dice", sees the faces, and the field
that asks for a dice total (a utility's rent, GO by the dice) comes filled in with the total;
the other phones and the table see the roll live, and the banker rolls for a player from the
table. With BANCO_SHOTS=<folder> the pages are also saved as phone-size screenshots."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.core.editions.loading import EDITIONS_DIR
from companion.extension import banco
from companion.store import db
from tests.conftest import LiveServer, make_app
from tests.e2e.test_table import open_table, sit_down, started

SHOTS = os.environ.get("BANCO_SHOTS")
PHONE_SIZE = {"width": 390, "height": 844}


def shoot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=False)


def confirm(page):
    expect(page.locator("#confirm")).to_be_visible()
    page.click("#confirm-ok")
    page.wait_for_load_state()


def shown_roll(page):
    """The faces the page draws in its last roll, and the total it shows."""
    faces = page.locator("#last-roll .die").evaluate_all("els => els.map(e => e.dataset.face)")
    total = page.locator("#last-roll .last-roll-total strong").inner_text()
    return [int(f) for f in faces], int(total)


def test_a_player_rolls_and_the_utility_rent_takes_the_total(live_server, phone):
    host, (anna, bruno) = started(live_server, phone)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1,500"))
    expect(anna.locator("#last-roll")).to_contain_text("Nobody has rolled yet.", timeout=10_000)
    game_path = anna.url.rsplit("/", 1)[0]

    # Bruno buys the Electric Company.
    bruno.goto(f"{game_path}/deeds/societa-elettrica")
    bruno.get_by_role("button", name=re.compile("^Buy for")).click()
    confirm(bruno)
    expect(bruno.locator("#deed-state")).to_contain_text("Owner: Bruno")
    bruno.goto(f"{game_path}/me")

    # Anna rolls on her phone: the Dice section opens with a tap; two dice, drawn, with their
    # total, and the section stays open after the roll.
    anna.locator("#dice-sheet summary").click()
    anna.get_by_role("button", name="Roll the dice").click()
    anna.wait_for_load_state()
    expect(anna.locator("#last-roll")).to_contain_text("You rolled")
    expect(anna.locator("#last-roll .die")).to_have_count(2)
    faces, total = shown_roll(anna)
    assert all(1 <= f <= 6 for f in faces) and total == sum(faces)
    assert anna.locator("#last-roll .die").first.locator(".pip").count() == faces[0]
    expect(anna.locator("#feed")).to_contain_text(f"Anna rolled {faces[0]} + {faces[1]} = {total}")
    anna.locator("#dice").scroll_into_view_if_needed()
    shoot(anna, "wallet-roll")

    # Everyone else sees it live: Bruno's phone and the table.
    expect(bruno.locator("#last-roll")).to_contain_text("Anna rolled", timeout=10_000)
    expect(host.locator("#last-roll .die")).to_have_count(2, timeout=10_000)
    if SHOTS:  # the table as the laptop or the tablet shows it
        host.set_viewport_size({"width": 1366, "height": 900})
        host.locator("#dice").scroll_into_view_if_needed()
        shoot(host, "table-roll")
        host.set_viewport_size(PHONE_SIZE)

    # She landed on Bruno's utility: the rent asks for the dice, and her roll's total is there.
    anna.goto(f"{game_path}/deeds/societa-elettrica")
    expect(anna.locator("#rent-dice")).to_have_value(str(total))
    expect(anna.locator("[data-roll-hint]").first).to_have_text("From your last roll.")
    shoot(anna, "deed-rent-dice")
    anna.get_by_role("button", name="Pay the rent to Bruno").click()
    anna.wait_for_load_state()
    expect(anna.locator(".flash-ok")).to_contain_text(f"paid Bruno €\u00a0{4 * total} rent")

    # The banker rolls for Bruno from the table; Bruno's phone shows it as his own roll.
    host.select_option("#roll-player", label="Bruno")
    host.locator("#roll-form").get_by_role("button", name="Roll the dice").click()
    host.wait_for_load_state()
    expect(bruno.locator("#last-roll")).to_contain_text("You rolled", timeout=10_000)
    # Bruno's roll is not Anna's: her utility rent is no longer filled in.
    anna.reload()
    expect(anna.locator("#rent-dice")).to_have_value("")
    expect(anna.locator("[data-roll-hint]").first).to_be_hidden()
    for page in (host, anna, bruno):
        assert page.errors == [], page.errors


@pytest.fixture
def dice_salary_server(tmp_path):
    """The app with one more edition, the classic board paying GO by the dice (10 × the
    total) and with the two expropriation dice, as Che Impresa! has them: the wallet's GO form
    asks for the dice."""
    folder = tmp_path / "editions"
    folder.mkdir()
    for path in EDITIONS_DIR.glob("*.json"):
        (folder / path.name).write_bytes(path.read_bytes())
    data = json.loads((EDITIONS_DIR / "classic-it.json").read_text(encoding="utf-8"))
    data.update(
        id="classic-dice-go",
        salary={"policy": "dice_times", "dice_multiplier": 10},
        expropriation={
            "buyer_die": ["si", "si", "si", "no", "no", "vita"],
            "owner_die": ["no", "no", "doppio", "meta", "ritira", "vita"],
            "double_percent": 200,
            "half_percent": 50,
        },
    )
    (folder / "classic-dice-go.json").write_text(json.dumps(data), encoding="utf-8")
    app = make_app(tmp_path, EDITIONS_DIR=str(folder), DEFAULT_EDITION="classic-dice-go")
    assert "classic-dice-go" in banco(app).editions
    server = LiveServer(app).start()
    yield server
    server.stop()
    with app.app_context():
        db.engine.dispose()


def test_the_go_salary_by_the_dice_takes_the_total_even_rolled_at_the_table(dice_salary_server, phone):
    url = dice_salary_server.url
    host = phone("en-GB")
    code = open_table(host, url, ["Anna", "Bruno"])
    anna = phone("en-GB")
    sit_down(anna, url, code, "Anna")
    host.locator("form:has(input[value=start]) button").click()
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1,500"), timeout=10_000)
    expect(anna.locator("#go-dice")).to_have_value("")

    anna.locator("#dice-sheet summary").click()
    anna.get_by_role("button", name="Roll the dice").click()
    anna.wait_for_load_state()
    _faces, total = shown_roll(anna)
    expect(anna.locator("#go-dice")).to_have_value(str(total))
    expect(anna.locator("#go-dice + [data-roll-hint]")).to_be_visible()
    anna.locator("#go-dice").scroll_into_view_if_needed()
    shoot(anna, "wallet-go-dice")

    # The banker rolls for Anna at the table: her open wallet fills the GO field without a reload.
    host.select_option("#roll-player", label="Anna")
    host.locator("#roll-form").get_by_role("button", name="Roll the dice").click()
    host.wait_for_load_state()
    # Her second roll in the feed: the page has caught up with it (its total may equal the first).
    expect(anna.locator("#feed li", has_text="Anna rolled")).to_have_count(2, timeout=10_000)
    second = int(anna.locator("#last-roll").get_attribute("data-roll-total"))
    expect(anna.locator("#go-dice")).to_have_value(str(second))

    anna.locator("form:has(input[value=pass_go]) button").click()
    anna.wait_for_load_state()
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(f"{1500 + 10 * second:,}"))

    # Someone else's roll clears the total offered to Anna (it is no longer her roll).
    host.select_option("#roll-player", label="Bruno")
    host.locator("#roll-form").get_by_role("button", name="Roll the dice").click()
    host.wait_for_load_state()
    expect(anna.locator("#last-roll")).to_contain_text("Bruno rolled", timeout=10_000)
    expect(anna.locator("#go-dice")).to_have_value("")
    expect(anna.locator("#go-dice + [data-roll-hint]")).to_be_hidden()

    # The expropriation dice: the buyer's yellow die and the owner's red one, in words. The Dice
    # section is still open: the GO payment updated the wallet in place (issue 31), no reload.
    expect(anna.locator("#dice-sheet")).to_have_attribute("open", "")
    anna.locator("#roll-form button[value=expropriation]").click()
    anna.wait_for_load_state()
    expect(anna.locator("#last-roll .die-buyer")).to_have_count(1)
    expect(anna.locator("#last-roll .die-owner")).to_have_count(1)
    expect(anna.locator("#last-roll .last-roll-total")).to_have_count(0)
    expect(anna.locator("#feed li").first).to_contain_text("Anna rolled the expropriation dice: yellow die")
    expect(anna.locator("#go-dice")).to_have_value("")  # words, no total
    anna.locator("#dice").scroll_into_view_if_needed()
    shoot(anna, "wallet-expropriation")
    for page in (host, anna):
        assert page.errors == [], page.errors


def test_the_speedy_die_in_italian(live_server, phone):
    """The championship offers the Speedy die; the phone speaks Italian."""
    url = live_server.url
    host = phone()
    host.goto(url + "/")
    host.select_option("#edition", value="campionato-2015")
    for i, name in enumerate(["Anna", "Bruno"]):
        host.locator("input[name=name]").nth(i).fill(name)
    host.locator("#new-game button[type=submit], #new-game button").last.click()
    host.wait_for_url(re.compile(r".*/g/\w+/table$"))
    code = host.locator(".join-code").inner_text().strip()
    anna = phone()
    sit_down(anna, url, code, "Anna")
    host.locator("form:has(input[value=start]) button").click()
    expect(anna.locator("#roll-form button")).to_have_count(2, timeout=10_000)
    anna.locator("#dice-sheet summary").click()
    anna.locator("#roll-form button[value=speed]").click()
    anna.wait_for_load_state()
    expect(anna.locator("#last-roll .die")).to_have_count(3)
    expect(anna.locator("#last-roll .die-speedy")).to_have_count(1)
    anna.locator("#dice").scroll_into_view_if_needed()
    shoot(anna, "wallet-speedy")
    assert anna.errors == [], anna.errors
