"""Buildings: the shape of the big building, and how big buildings are sold whole.

A building policy reads the edition's numbers into ``BigBuilding`` terms (or ``None`` when
there is no big building); the building rules apply the terms, whatever the policy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..editions.edition import Buildings, Deed, Edition
from ..errors import N_, RuleViolation
from ..state import DeedState
from . import pick


@dataclass(frozen=True)
class BigBuilding:
    """``needs_small``: the small buildings it needs on its deed and on each deed of the group;
    those on its deed go back to the bank when it goes up, and come back when it is broken.
    ``worth_small``: what it is worth counted in small buildings (selling it, the final count)."""

    needs_small: int
    worth_small: int


def houses_then_hotel(b: Buildings) -> BigBuilding:
    """The hotel: every house a deed takes, then the hotel in their place; worth the houses
    and itself."""
    return BigBuilding(b.max_small, b.max_small + 1)


def big_replaces_small(b: Buildings) -> BigBuilding:
    """A big building that takes back ``small_per_big`` small ones and is worth ``big_worth``
    (Motopolis's dealership: 3 stations, worth 5; Petropolis's platform: 3 towers, worth 4)."""
    assert b.small_per_big is not None and b.big_worth is not None  # the schema requires them here
    return BigBuilding(b.small_per_big, b.big_worth)


def small_only(b: Buildings) -> None:
    """No big building (Che Impresa!'s activities)."""
    return None


def big_only(b: Buildings) -> BigBuilding:
    """No small buildings: one big building per deed, needing none (only the whole group), at
    the deed's building price and worth it (Niente è come sembra's hotels); it cannot be broken."""
    return BigBuilding(0, 1)


POLICIES = {
    "houses_then_hotel": houses_then_hotel,
    "big_replaces_small": big_replaces_small,
    "small_only": small_only,
    "big_only": big_only,
}


def big_building(edition: Edition) -> BigBuilding | None:
    """The edition's big building, or ``None`` when it has none."""
    return pick(POLICIES, edition.buildings.policy, "buildings")(edition.buildings)


def buildings_cost(edition: Edition, houses: int, hotel: bool, cost: int) -> int:
    """What the buildings on one deed cost: each small one at ``cost``, a big one at its worth
    in small ones."""
    big = big_building(edition)
    return cost * (houses + (big.worth_small if hotel and big else 0))


def together_with_group(
    deed: Deed, ds: DeedState, members: Sequence[tuple[Deed, DeedState]]
) -> list[tuple[Deed, DeedState]]:
    """Every big building of the group goes together. Refuses a sale while a deed of the group
    has none (break this one instead)."""
    sold = [(d, m) for d, m in members if m.hotel]
    if len(sold) < len(members):
        raise RuleViolation(
            "hotels_sold_together", N_("The big buildings of a group are sold all together: break this one instead.")
        )
    return sold


def one_by_one(deed: Deed, ds: DeedState, members: Sequence[tuple[Deed, DeedState]]) -> list[tuple[Deed, DeedState]]:
    """The big building goes on its own."""
    return [(deed, ds)]


def one_by_one_evenly(
    deed: Deed, ds: DeedState, members: Sequence[tuple[Deed, DeedState]]
) -> list[tuple[Deed, DeedState]]:
    """The big building goes on its own, only where the group stays even once it is gone: no
    other deed of the group may keep more than one small building (break it instead)."""
    if any(m.hotel or m.houses > 1 for d, m in members if d.key != deed.key):
        raise RuleViolation(
            "uneven_selling",
            N_("Selling this big building whole would leave the group uneven: break it into small ones instead."),
        )
    return [(deed, ds)]


BIG_SALES = {
    "together_with_group": together_with_group,
    "one_by_one": one_by_one,
    "one_by_one_evenly": one_by_one_evenly,
}


def sold_with(
    edition: Edition, deed: Deed, ds: DeedState, members: Sequence[tuple[Deed, DeedState]]
) -> list[tuple[Deed, DeedState]]:
    """The deeds whose big buildings are sold whole with the one on ``deed``; ``members`` are
    the deeds of its group that take buildings."""
    return pick(BIG_SALES, edition.buildings.big_sale, "big_sale")(deed, ds, members)
