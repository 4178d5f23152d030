"""Money that waits for a yes, on real phones: a payment request paid from the payer's wallet,
the Free Parking pot, and the strict bank's approvals on the table."""

from __future__ import annotations

import os
import re

from playwright.sync_api import expect

from tests.e2e.test_deeds import confirm
from tests.e2e.test_table import open_table, sit_down

SHOTS = "shots/e2e"  # looked at by hand; shots/ is not committed


def test_one_phone_asks_another_for_money_and_it_is_paid_from_the_request(live_server, phone):
    os.makedirs(SHOTS, exist_ok=True)
    url = live_server.url
    host = phone()
    code = open_table(host, url, ["Anna", "Bruno"], house_rules=("free_parking_pot", "strict_bank"))
    anna, bruno = phone(), phone("en-GB")
    sit_down(anna, url, code, "Anna")
    sit_down(bruno, url, code, "Bruno")
    host.locator("form:has(input[value=start]) button").click()
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"), timeout=10_000)

    # Anna asks Bruno for the rent; nothing moves yet.
    anna.locator("details.ask summary").click()
    anna.locator("#ask-form label.choice", has_text="Bruno").click()
    anna.fill("#ask-amount", "24")
    anna.fill("#ask-reason", "rent for Piazza Dante")
    anna.locator("#ask-form button").click()
    anna.wait_for_load_state()
    expect(anna.locator("#offers")).to_contain_text("Bruno")

    # It reaches the top of Bruno's wallet live, with Pay and Decline.
    request = bruno.locator("#offers [data-pending]")
    expect(request).to_contain_text("Anna asks you for", timeout=10_000)
    expect(request).to_contain_text("rent for Piazza Dante")
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]500"))
    bruno.screenshot(path=f"{SHOTS}/request-on-payer.png", full_page=True)
    request.get_by_role("button", name=re.compile("Pay")).click()
    confirm(bruno)
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]476"))
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]524"), timeout=10_000)
    expect(anna.locator("#offers")).not_to_contain_text("Bruno", timeout=10_000)
    expect(host.locator("#feed")).to_contain_text("rent for Piazza Dante", timeout=10_000)

    # A tax goes into the Free Parking pot, shown on every phone and the table.
    bruno.locator("form:has(input[value=pay_fixed]) button").first.click()
    confirm(bruno)
    expect(anna.locator("#pots")).to_contain_text("200", timeout=10_000)
    expect(host.locator("#pots")).to_contain_text("200", timeout=10_000)
    anna.screenshot(path=f"{SHOTS}/pot-on-wallet.png", full_page=True)
    anna.locator("#pots button").click()
    confirm(anna)
    expect(anna.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]724"))

    # Strict bank: GO waits on the table until the banker approves it.
    bruno.locator("form:has(input[value=pass_go]) button").click()
    bruno.wait_for_load_state()
    expect(bruno.locator("#offers")).to_contain_text("waiting for the banker")
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]276"))
    waiting = host.locator("#approvals [data-pending]")
    expect(waiting).to_contain_text("Bruno", timeout=10_000)
    host.screenshot(path=f"{SHOTS}/approvals-on-table.png", full_page=True)
    waiting.get_by_role("button", name=re.compile("Approva|Approve")).click()
    host.wait_for_load_state()
    expect(bruno.locator(".balance-cash")).to_have_text(re.compile(r"1[.,]476"), timeout=10_000)
    for page in (host, anna, bruno):
        assert page.errors == [], page.errors
