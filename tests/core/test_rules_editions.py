"""The edition's rule sections: read from the files, one policy per concern, validated."""

import json

import pytest
from conftest import EDITIONS

from companion.core.editions.edition import EditionError, RentRequest
from companion.core.editions.loading import EDITIONS_DIR, parse_edition


def test_each_edition_reads_its_rules():
    classic, campionato = EDITIONS["classic-it"], EDITIONS["campionato-2015"]
    assert classic.auction.no_bids == "deed_stays_with_bank" and classic.buildings.big_sale == "together_with_group"
    assert campionato.auction.no_bids == "richest_buys_at_opening_bid"
    assert campionato.auction.winner_cannot_pay == "rerun_without_winner"
    assert campionato.buildings.big_sale == "one_by_one_evenly" and campionato.dice.max_total == 15
    assert campionato.rent.policy == "double_on_unmortgaged_deeds"
    assert campionato.rent.request == RentRequest(enabled=True, lapse_seconds=None)
    for edition in (classic, campionato):
        assert edition.mortgage.policy == "interest" and edition.mortgage.interest_percent == 10
        assert edition.mortgage.transfer_fee_percent == 10 and edition.jail.cards_total == 2
        assert edition.buildings.policy == "houses_then_hotel" and edition.buildings.shortage_auction
        assert edition.start.policy == "none" and edition.salary.policy == "fixed"
        assert edition.mortgaged_rent.policy == "none" and edition.bankruptcy.policy == "to_creditor"
    assert campionato.jail.card_max_price == 50 and classic.jail.card_max_price is None
    assert campionato.tiebreak.policy == "unmortgaged_property_value" and classic.tiebreak.policy == "shared"


def _raw():
    return json.loads((EDITIONS_DIR / "classic-it.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "section",
    [
        "start",
        "salary",
        "rent",
        "mortgaged_rent",
        "buildings",
        "mortgage",
        "auction",
        "jail",
        "bankruptcy",
        "valuation",
        "tiebreak",
        "dice",
    ],
)
def test_every_rule_section_is_required(section):
    data = _raw()
    del data[section]
    with pytest.raises(EditionError, match=f"classic-it: {section} is missing"):
        parse_edition(data)


@pytest.mark.parametrize(
    "section,name,value",
    [
        ("rent", "policy", "sometimes"),
        ("auction", "no_bids", None),
        ("buildings", "big_sale", 1),
        ("auction", "winner_cannot_pay", "jail"),
        ("rent", "sets_count_mortgaged", "yes"),
        ("buildings", "shortage_auction", 1),
        ("dice", "max_total", 1),
        ("dice", "max_total", "12"),
        ("mortgage", "transfer_fee_percent", -1),
        ("jail", "cards_total", 2.5),
        ("rent", "request", {"enabled": "yes"}),
        ("rent", "request", {"enabled": True, "lapse_seconds": 0}),
        ("rent", "request", []),
    ],
)
def test_a_bad_rule_value_refuses_the_edition(section, name, value):
    data = _raw()
    data[section][name] = value
    with pytest.raises(EditionError, match=f"classic-it: {section}.{name}"):
        parse_edition(data)
