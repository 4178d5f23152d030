"""Rent on a mortgaged deed: none, or a share of the rent it would ask, paid to the bank (the
owner gets nothing)."""

from __future__ import annotations

from ..editions.edition import Edition
from . import pick


def none(edition: Edition) -> int:
    """A mortgaged deed asks no rent."""
    return 0


def share_to_bank(edition: Edition) -> int:
    """``share_percent`` of the rent goes to the bank (Motopolis: half)."""
    assert edition.mortgaged_rent.share_percent is not None  # the schema requires it with this policy
    return edition.mortgaged_rent.share_percent


POLICIES = {"none": none, "share_to_bank": share_to_bank}


def bank_share_percent(edition: Edition) -> int:
    """The share of its rent, in percent, a lander pays the bank on a mortgaged deed (0: none)."""
    return pick(POLICIES, edition.mortgaged_rent.policy, "mortgaged_rent")(edition)
