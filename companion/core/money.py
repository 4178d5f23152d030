"""Amounts of money: whole units only, and one place that rounds."""

from __future__ import annotations

import re

from .errors import N_, BadInput, Money


def percent_up(amount: int, percent: int) -> int:
    """``percent`` % of ``amount``, rounded up to a whole unit (10% of 75 is 8).

    Integer arithmetic only, so no float can round the other way.
    """
    return -((-amount * percent) // 100)


def whole_units(raw: object) -> int:
    """``raw`` as a JSON integer; refuses anything else with ``BadInput`` (``invalid_amount``):
    booleans, numbers with a fraction or a decimal point (even ``100.0``), text (even
    ``"100"``: the API's amounts are numbers)."""
    if isinstance(raw, bool) or raw is None:
        raise BadInput("invalid_amount", N_("Enter an amount in whole units."))
    if isinstance(raw, float):
        raise BadInput("invalid_amount", N_("Amounts are whole units: no decimals."))
    if isinstance(raw, str):
        if re.match(r"^\s*-?\d+[.,]\d+\s*$", raw):
            raise BadInput("invalid_amount", N_("Amounts are whole units: no decimals."))
        raise BadInput("invalid_amount", N_("Enter an amount in whole units."))
    if not isinstance(raw, int):
        raise BadInput("invalid_amount", N_("Enter an amount in whole units."))
    return raw


def parse_amount(raw: object, max_amount: int) -> int:
    """Reads an amount sent by a program or converted from a form by the web layer.

    Accepts a positive whole number given as a JSON integer. Refuses with ``BadInput``:
    booleans, numbers with a fraction or a decimal point (even ``100.0``), text (even
    ``"100"``: the API's amounts are numbers), negative or zero amounts, and amounts above
    ``max_amount`` (the edition's ceiling for one payment).
    """
    raw = whole_units(raw)
    if raw <= 0:
        raise BadInput("invalid_amount", N_("The amount must be more than zero."))
    if raw > max_amount:
        raise BadInput("amount_too_large", N_("One payment can be at most %(max)s."), max=Money(max_amount))
    return raw
