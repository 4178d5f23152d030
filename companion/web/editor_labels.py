"""The edition editor's fields in words: each section and each value of an edition file named
for a host rather than by its JSON path (the path stays beside it, as the checks name it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import N_
from .speaking import gettext as _

SECTIONS = {
    "id": N_("Id of the edition"),
    "name": N_("Name"),
    "rulebook": N_("Rulebook"),
    "provisional": N_("Provisional values"),
    "currency": N_("Currency"),
    "players": N_("Players"),
    "cash_private": N_("Cash kept private"),
    "banknotes": N_("Banknotes"),
    "starting_notes": N_("Starting notes"),
    "fixed_payments": N_("Fixed payments"),
    "groups": N_("Colour groups"),
    "deeds": N_("Deeds"),
    "station_rents": N_("Station rents"),
    "utility_multipliers": N_("Utility multipliers"),
    "time_limit_minutes": N_("Clock (minutes)"),
    "max_amount": N_("Largest single payment"),
    "dice": N_("Dice"),
    "start": N_("Start of the game"),
    "salary": N_("GO salary"),
    "rent": N_("Rent"),
    "mortgaged_rent": N_("Rent on a mortgaged deed"),
    "buildings": N_("Buildings"),
    "mortgage": N_("Mortgages"),
    "auction": N_("Auctions"),
    "jail": N_("Jail"),
    "bankruptcy": N_("Bankruptcy"),
    "valuation": N_("Final count"),
    "tiebreak": N_("Ties"),
    "end": N_("End of the game"),
    "tournament_points": N_("Tournament points"),
    "turns": N_("Turns"),
    "squares": N_("Squares"),
    "expropriation": N_("Expropriation"),
    "counterfeits": N_("Counterfeits"),
    "deed_sale": N_("Selling deeds to the bank"),
    "trades": N_("Trades between players"),
    "train": N_("Train squares"),
    "corners": N_("Corners of the board"),
    "card_squares": N_("Squares where a card is drawn"),
}
KEYS = {
    "it": N_("Italian"),
    "en": N_("English"),
    "symbol": N_("Symbol"),
    "min": N_("Fewest"),
    "max": N_("Most"),
    "house_sizes": N_("Table sizes played only as a house rule"),
    "key": N_("Key"),
    "name": N_("Name"),
    "amount": N_("Amount"),
    "color": N_("Colour"),
    "kind": N_("Kind"),
    "group": N_("Group"),
    "position": N_("Square on the board"),
    "go_to_jail": N_("Go to jail"),
    "square": N_("A square of the board"),
    "positions": N_("Squares on the board"),
    "free_parking": N_("Free Parking"),
    "price": N_("Price"),
    "mortgage": N_("Mortgage value"),
    "rents": N_("Rents (nothing built, then each building)"),
    "building_cost": N_("Cost of each building"),
    "provisional": N_("Provisional"),
    "buildable": N_("Takes buildings"),
    "dealable": N_("Dealt at the start"),
    "penalty": N_("Expropriation penalty"),
    "lot_penalty": N_("Expropriation penalty on the whole lot"),
    "policy": N_("Rule"),
    "cash": N_("Starting cash"),
    "deeds": N_("Deeds dealt"),
    "dice_multiplier": N_("Times the dice"),
    "max_total": N_("Largest dice total"),
    "max_small": N_("Most small buildings on a deed"),
    "supply_small": N_("Small buildings in the bank"),
    "supply_big": N_("Big buildings in the bank"),
    "sell_percent": N_("Sold back at (%)"),
    "interest_percent": N_("Interest to lift (%)"),
    "transfer_fee_percent": N_("Fee on a mortgaged deed received (%)"),
    "laps": N_("Laps to lift it"),
    "opening_bid": N_("Opening bid"),
    "min_raise": N_("Smallest raise"),
    "fine": N_("Fine"),
    "share_percent": N_("Share (%)"),
    "free_deeds_percent": N_("Unmortgageable deeds count, before bankruptcy, at (%)"),
    "deed_percent": N_("Deeds count at (%)"),
    "mortgaged_deed_percent": N_("Mortgaged deeds count at (%)"),
    "building_percent": N_("Buildings count at (%)"),
    "limit": N_("Rounds"),
    "counted": N_("The bank keeps the turns"),
    "trades_with_active": N_("Trades during a turn involve its player"),
    "time_up": N_("When the clock reaches zero"),
    "small": N_("Small building"),
    "small_plural": N_("Small buildings"),
    "big": N_("Big building"),
    "big_plural": N_("Big buildings"),
    "percent": N_("Percent"),
    "multiplier": N_("Times the dice"),
    "per_deed": N_("Per deed owned"),
    "per_small": N_("Per small building"),
    "chips": N_("Decoder chips"),
    "fake_note_share": N_("Share of fake notes"),
    "check_seconds": N_("Seconds to check a payment"),
    "deeds_tradable": N_("Deeds traded between players"),
    "tradable": N_("Traded while mortgaged"),
    "reach": N_("What a mortgage needs unbuilt and stops building on"),
    "unbuilt": N_("What must be unbuilt for a deed to be traded"),
    "salary": N_("GO salary"),
    "lot": N_("A lot (holding it all makes a whole lot)"),
}


def _item_name(data: Mapping, section: str, index: int) -> str | None:
    """The name of a deed, group, payment or square, to label its values."""
    items = data.get(section)
    if not isinstance(items, list) or index >= len(items) or not isinstance(items[index], Mapping):
        return None
    name = items[index].get("name")
    if isinstance(name, Mapping):
        return name.get("it") or name.get("en")
    return name if isinstance(name, str) else items[index].get("key")


def section_label(key: str) -> str:
    return _(SECTIONS[key]) if key in SECTIONS else key


def field_label(path: tuple, data: Mapping) -> str:
    """One value's label: ``("deeds", 3, "price")`` as "Vicolo Corto · Price",
    ``("start", "cash", "4")`` as "Starting cash · 4 players"."""
    parts: list[str] = []
    rest: tuple[Any, ...] = path[1:]
    if rest and isinstance(rest[0], int):
        item = _item_name(data, path[0], rest[0])
        parts.append(item if item else f"#{rest[0] + 1}")
        rest = rest[1:]
    for part in rest:
        if isinstance(part, str) and part.isdigit():
            parts.append(_("%(n)s players", n=part))
        elif isinstance(part, int):
            parts.append(f"#{part + 1}")
        else:
            parts.append(_(KEYS[part]) if part in KEYS else str(part))
    return " · ".join(parts) or section_label(path[0])
