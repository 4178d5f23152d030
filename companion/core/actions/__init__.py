"""Every action of the game, each declared once beside the others of its rule family
(``docs/engine.md`` shows how to add one). The door reads payloads through these declarations,
the OpenAPI document, the forms, the feed and the notices read the same."""

from __future__ import annotations

from . import auctions, counterfeits, deeds, expropriation, journal, payments, trades, turns
from .action import COMMON, Action, Asked, Field, Kind, Who, acting_player

ACTIONS: dict[str, Action] = {}
for _family in (payments, deeds, auctions, trades, turns, expropriation, counterfeits, journal):
    for _action in _family.ACTIONS:
        assert _action.name not in ACTIONS, f"{_action.name} is declared twice"
        ACTIONS[_action.name] = _action

__all__ = ["ACTIONS", "COMMON", "Action", "Asked", "Field", "Kind", "Who", "acting_player"]
