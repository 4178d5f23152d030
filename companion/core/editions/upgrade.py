"""Edition files written before rule policies, read in today's layout.

Games pin the edition content they began with, so a game started before the policies keeps
that older content in the database; it must still load. The older layout held the starting
cash at the top level and the rule variants in one flat ``rules`` section; this moves each
value into its concern's section with the policy that gives the same game. Data already in
today's layout, or not an object at all, is returned as it is (the schema judges it).
"""

from __future__ import annotations

from typing import Any

_DOUBLE_RENT = {
    "unmortgaged_deeds": "double_on_unmortgaged_deeds",
    "none_mortgaged": "double_if_none_mortgaged",
    "none_mortgaged_or_built": "double_if_none_mortgaged_or_built",
    "never": "never_double",
}
_BIG_SALE = {"group": "together_with_group", "deed": "one_by_one"}


def is_first_layout(data: Any) -> bool:
    return isinstance(data, dict) and ("rules" in data or "starting_cash" in data) and "start" not in data


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name)
    return dict(value) if isinstance(value, dict) else {}


def upgrade_layout(data: Any) -> Any:
    """``data`` in today's layout: a copy with the older layout's values moved, or ``data``
    itself when it is not in the older layout. Values are moved, never checked: a bad one
    stays bad and the schema names it in its new place."""
    if not is_first_layout(data):
        return data
    out = dict(data)
    rules = out.pop("rules", None)
    rules = dict(rules) if isinstance(rules, dict) else {}
    out["start"] = {"policy": "none", "cash": out.pop("starting_cash", None)}
    salary = _section(out, "salary")
    salary["policy"] = "dice_times" if salary.get("dice_multiplier") is not None else "fixed"
    out["salary"] = {k: v for k, v in salary.items() if v is not None}
    out["dice"] = {"max_total": rules.get("dice_max", 12)}
    double = rules.get("double_rent_on_group", "unmortgaged_deeds")
    out["rent"] = {
        "policy": _DOUBLE_RENT.get(double, double),
        "sets_count_mortgaged": rules.get("sets_count_mortgaged", True),
        "request": rules.get("rent_request", {"enabled": False}),
    }
    out["mortgaged_rent"] = {"policy": "none"}
    buildings = _section(out, "buildings")
    sale = rules.get("hotel_sale", "group")
    out["buildings"] = {
        "policy": "houses_then_hotel",
        **buildings,
        "big_sale": _BIG_SALE.get(sale, sale),
        "shortage_auction": rules.get("building_shortage_auction", False),
    }
    out["mortgage"] = {
        "policy": "interest",
        **_section(out, "mortgage"),
        "transfer_fee_percent": rules.get("mortgaged_transfer_fee_percent", 10),
    }
    out["auction"] = {
        "policy": "fixed_opening",
        **_section(out, "auction"),
        "no_bids": rules.get("auction_no_bids", "deed_stays_with_bank"),
        "winner_cannot_pay": rules.get("auction_winner_cannot_pay", "winner_raises_cash"),
    }
    out["jail"] = {
        "policy": "fine_card_or_doubles",
        **_section(out, "jail"),
        "cards_total": rules.get("jail_cards_total", 2),
    }
    out["bankruptcy"] = {"policy": "to_creditor"}
    out["valuation"] = {
        "policy": "cash_deeds_buildings",
        "deed_percent": 100,
        "mortgaged_deed_percent": 50,
        "building_percent": 100,
    }
    out["tiebreak"] = {"policy": "shared"}
    return out
