"""Jail: what leaving it costs."""
from __future__ import annotations

from ..editions import Edition
from ..state import PlayerState
from . import pick


def fine_card_or_doubles(edition: Edition, player: PlayerState) -> int:
    """Leave by paying the edition's ``fine`` (or by a card, or by rolling doubles, for free)."""
    return edition.jail.fine


POLICIES = {"fine_card_or_doubles": fine_card_or_doubles}


def fine(edition: Edition, player: PlayerState) -> int:
    """What ``player`` pays to leave jail now."""
    return pick(POLICIES, edition.jail.policy, "jail")(edition, player)
