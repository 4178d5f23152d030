"""Amounts of money: whole units only, and one place that rounds."""
from __future__ import annotations

import re

from .errors import N_, BadInput

_DIGITS = re.compile(r"^\s*\d{1,15}\s*$")


def percent_up(amount: int, percent: int) -> int:
    """``percent`` % of ``amount``, rounded up to a whole unit (10% of 75 is 8).

    Integer arithmetic only, so no float can round the other way.
    """
    return -((-amount * percent) // 100)


def parse_amount(raw, max_amount: int) -> int:
    """Reads an amount typed by a person or sent by a program.

    Accepts a positive whole number (an int, or a string of digits). Refuses with
    ``BadInput``: booleans, fractions, negative or zero amounts, text, and amounts above
    ``max_amount`` (the edition's ceiling for one payment).
    """
    if isinstance(raw, bool) or raw is None:
        raise BadInput("invalid_amount", N_("Enter an amount in whole units."))
    if isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")) or not raw.is_integer():
            raise BadInput("invalid_amount", N_("Amounts are whole units: no decimals."))
        raw = int(raw)
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith("-"):
            raise BadInput("invalid_amount", N_("The amount must be more than zero."))
        if not _DIGITS.match(text):
            if re.match(r"^\s*\d+[.,]\d+\s*$", text):
                raise BadInput("invalid_amount", N_("Amounts are whole units: no decimals."))
            raise BadInput("invalid_amount", N_("Enter an amount in whole units."))
        raw = int(text)
    if not isinstance(raw, int):
        raise BadInput("invalid_amount", N_("Enter an amount in whole units."))
    if raw <= 0:
        raise BadInput("invalid_amount", N_("The amount must be more than zero."))
    if raw > max_amount:
        raise BadInput("amount_too_large", N_("One payment can be at most %(max)s."), max=max_amount)
    return raw
