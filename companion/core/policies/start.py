"""The start of a game: which deeds are dealt to the players, paid to the bank at their
printed price. (The starting cash is data: ``edition.start.cash``.)"""

from __future__ import annotations

import random

from ..editions.edition import Edition
from . import pick


def none(edition: Edition, player_ids: list[str], seed: object) -> list[tuple[str, str]]:
    """Every deed stays with the bank."""
    return []


def dealt_at_random(edition: Edition, player_ids: list[str], seed: object) -> list[tuple[str, str]]:
    """``start.deeds[n]`` deeds to each of the n players, shuffled from the dealable ones and
    dealt one at a time round the table, as from a shuffled deck. The shuffle is drawn from
    the game's ``seed``, so the same seed deals the same hands."""
    assert edition.start.deeds is not None  # the schema requires it with this policy
    each = edition.start.deeds[len(player_ids)]
    deck = [d.key for d in sorted(edition.deeds, key=lambda d: (d.position, d.key)) if d.dealable]
    random.Random(f"{seed}:deal").shuffle(deck)
    return [(player_ids[i % len(player_ids)], deck[i]) for i in range(each * len(player_ids))]


POLICIES = {"none": none, "dealt_at_random": dealt_at_random}


def dealt(edition: Edition, player_ids: list[str], seed: object = None) -> list[tuple[str, str]]:
    """The deeds dealt at the start, as ``(player id, deed key)`` pairs."""
    return pick(POLICIES, edition.start.policy, "start")(edition, player_ids, seed)
