"""The edition's ``rules`` section: read from the files, validated, defaulted."""
import json

import pytest

from companion.core.editions import EDITIONS_DIR, EditionError, RentRequest, Rules, parse_edition

from conftest import EDITIONS


def test_each_edition_reads_its_rules():
    classic, campionato = EDITIONS["classic-it"].rules, EDITIONS["campionato-2015"].rules
    assert classic.auction_no_bids == "deed_stays_with_bank" and classic.hotel_sale == "group"
    assert campionato.auction_no_bids == "richest_buys_at_opening_bid"
    assert campionato.auction_winner_cannot_pay == "rerun_without_winner"
    assert campionato.hotel_sale == "deed" and campionato.dice_max == 15
    assert campionato.double_rent_on_group == "unmortgaged_deeds"
    assert campionato.rent_request == RentRequest(enabled=True, lapse_seconds=None)


def _raw():
    return json.loads((EDITIONS_DIR / "classic-it.json").read_text(encoding="utf-8"))


def test_an_edition_without_rules_gets_the_defaults():
    data = _raw()
    del data["rules"]
    assert parse_edition(data).rules == Rules()


@pytest.mark.parametrize("name,value", [
    ("double_rent_on_group", "sometimes"), ("auction_no_bids", None), ("hotel_sale", 1),
    ("auction_winner_cannot_pay", "jail"), ("sets_count_mortgaged", "yes"),
    ("building_shortage_auction", 1), ("dice_max", 1), ("dice_max", "12"),
    ("mortgaged_transfer_fee_percent", -1), ("jail_cards_total", 2.5),
    ("rent_request", {"enabled": "yes"}), ("rent_request", {"enabled": True, "lapse_seconds": 0}),
    ("rent_request", []),
])
def test_a_bad_rule_value_refuses_the_edition(name, value):
    data = _raw()
    data["rules"][name] = value
    with pytest.raises(EditionError):
        parse_edition(data)
