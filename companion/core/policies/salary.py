"""The salary at GO: a fixed amount, or a multiple of the dice total of that move."""

from __future__ import annotations

from ..editions.edition import Edition
from ..errors import N_, BadInput
from . import pick


def fixed(edition: Edition, dice: object) -> int:
    """The edition's ``amount``, whatever the dice."""
    assert edition.salary.amount is not None  # the schema requires it with this policy
    return edition.salary.amount


def dice_times(edition: Edition, dice: object) -> int:
    """``dice_multiplier`` times the dice total. Refuses (``BadInput``) a missing dice total or
    one outside 2 to the edition's largest."""
    top = edition.dice.max_total
    if isinstance(dice, bool) or not isinstance(dice, int) or not 2 <= dice <= top:
        raise BadInput("invalid_dice", N_("Enter the dice total, from 2 to %(max)s."), max=top)
    assert edition.salary.dice_multiplier is not None  # the schema requires it with this policy
    return edition.salary.dice_multiplier * dice


POLICIES = {"fixed": fixed, "dice_times": dice_times}


def salary(edition: Edition, dice: object = None) -> int:
    """What GO pays now, by the edition's salary policy."""
    return pick(POLICIES, edition.salary.policy, "salary")(edition, dice)
