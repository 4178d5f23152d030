"""Jail: what leaving it costs, by the fine or after a roll without doubles."""

from __future__ import annotations

from ..editions.edition import Edition
from ..state import PlayerState
from . import pick


def fine_card_or_doubles(edition: Edition, player: PlayerState) -> int | None:
    """Leave by paying the edition's ``fine`` (or by a card, or by rolling doubles, for free);
    a roll without doubles keeps the player in."""
    return None


def fine_before_roll_or_doubles(edition: Edition, player: PlayerState) -> int | None:
    """Leave by paying ``fine`` before rolling, or roll: doubles leave for free, any other roll
    pays ``failed_roll_fine`` and leaves (Che Impresa!)."""
    return edition.jail.failed_roll_fine


POLICIES = {"fine_card_or_doubles": fine_card_or_doubles, "fine_before_roll_or_doubles": fine_before_roll_or_doubles}


def fine(edition: Edition, player: PlayerState) -> int:
    """What ``player`` pays to leave jail now by the fine."""
    return edition.jail.fine


def failed_roll_fine(edition: Edition, player: PlayerState) -> int | None:
    """What a roll without doubles costs to leave, or ``None`` where such a roll keeps the
    player in jail."""
    return pick(POLICIES, edition.jail.policy, "jail")(edition, player)
