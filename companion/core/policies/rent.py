"""Rent on a whole group: when the base rent of an unbuilt street doubles because its owner
holds every deed of the group. Each policy is asked only once that is so."""

from __future__ import annotations

from collections.abc import Sequence

from ..editions.edition import Edition
from ..state import DeedState
from . import pick


def double_on_unmortgaged_deeds(ds: DeedState, members: Sequence[DeedState]) -> bool:
    """Doubled on each unmortgaged deed, even when another of the group is mortgaged or built."""
    return not ds.mortgaged


def double_if_none_mortgaged(ds: DeedState, members: Sequence[DeedState]) -> bool:
    return not any(m.mortgaged for m in members)


def double_if_none_mortgaged_or_built(ds: DeedState, members: Sequence[DeedState]) -> bool:
    return not any(m.mortgaged or m.houses or m.hotel for m in members)


def never_double(ds: DeedState, members: Sequence[DeedState]) -> bool:
    return False


POLICIES = {
    "double_on_unmortgaged_deeds": double_on_unmortgaged_deeds,
    "double_if_none_mortgaged": double_if_none_mortgaged,
    "double_if_none_mortgaged_or_built": double_if_none_mortgaged_or_built,
    "never_double": never_double,
}


def doubles(edition: Edition, ds: DeedState, members: Sequence[DeedState]) -> bool:
    """Whether the unbuilt street ``ds``, whose owner holds all of ``members`` (its group),
    asks double its base rent."""
    return pick(POLICIES, edition.rent.policy, "rent")(ds, members)
