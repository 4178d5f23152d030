"""Every action of the game, each declared once beside the others of its rule family
(``docs/engine.md`` shows how to add one). The door reads payloads through these declarations;
the OpenAPI document, the forms and the feed read the same."""

from __future__ import annotations

from . import auctions, counterfeits, deeds, entries, expropriation, journal, payments, trades, turns
from .action import (
    BIDS,
    COMMON,
    NOBODYS,
    OPENS_BIDDING,
    OTHERS,
    OWN,
    Action,
    Asked,
    Field,
    Kind,
    Offer,
    Who,
    acting_player,
)
from .lines import Line, Say, Tell

ACTIONS: dict[str, Action] = {}
for _family in (payments, deeds, auctions, trades, turns, expropriation, counterfeits, journal):
    for _action in _family.ACTIONS:
        assert _action.name not in ACTIONS, f"{_action.name} is declared twice"
        ACTIONS[_action.name] = _action

# Every kind of entry in words: an action's own (its declaration's ``line``), and those that
# follow from an action or from the table (each family's ``ENTRIES``). An entry of a kind not
# here (none made now) is said by its kind.
LINES: dict[str, Line] = {name: action.line for name, action in ACTIONS.items() if action.line is not None}
for _family in (payments, auctions, trades, entries):
    for _kind, _line in _family.ENTRIES.items():
        assert _kind not in LINES, f"{_kind} is said twice"
        LINES[_kind] = _line

# What an entry tells the player it concerns, by kind: an action's (its declaration's
# ``told``), and those of the entries that follow from one.
TOLD: dict[str, tuple[Tell, ...]] = {name: action.told for name, action in ACTIONS.items() if action.told}
TOLD.update(payments.TOLD)
TOLD.update(auctions.TOLD)

# A deed's page's buttons, in the order of the declarations: each action's offers.
OFFERS: tuple[tuple[str, Offer], ...] = tuple(
    (name, offer) for name, action in ACTIONS.items() for offer in action.offers
)

# How each kind of entry follows an auction's bidders (``Action.bidding``), and those that
# follow from an action.
BIDDING: dict[str, str] = {name: action.bidding for name, action in ACTIONS.items() if action.bidding}
BIDDING.update(auctions.BIDDING)

__all__ = [
    "ACTIONS",
    "BIDDING",
    "BIDS",
    "COMMON",
    "LINES",
    "NOBODYS",
    "OFFERS",
    "OPENS_BIDDING",
    "OTHERS",
    "OWN",
    "TOLD",
    "Action",
    "Asked",
    "Field",
    "Kind",
    "Line",
    "Offer",
    "Say",
    "Tell",
    "Who",
    "acting_player",
]
