"""The start of a game: which deeds are dealt to the players, paid to the bank at their
printed price. (The starting cash is data: ``edition.start.cash``.)"""
from __future__ import annotations

from ..editions import Edition
from . import pick


def none(edition: Edition, player_ids: list[str]) -> list[tuple[str, str]]:
    """Every deed stays with the bank."""
    return []


POLICIES = {"none": none}


def dealt(edition: Edition, player_ids: list[str]) -> list[tuple[str, str]]:
    """The deeds dealt at the start, as ``(player id, deed key)`` pairs."""
    return pick(POLICIES, edition.start.policy, "start")(edition, player_ids)
