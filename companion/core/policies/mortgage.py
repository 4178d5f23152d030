"""Mortgages: with interest, with a deadline in laps of the owner, or none at all.

A mortgage policy reads the edition's numbers into ``MortgageTerms`` (or ``None`` when deeds
cannot be mortgaged); the deed rules and GO apply the terms, whatever the policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..editions.edition import Deed, Edition, Mortgage
from ..errors import N_, RuleViolation
from ..money import percent_up
from ..state import Change, DeedState, GameState, PlayerState
from . import pick


@dataclass(frozen=True)
class MortgageTerms:
    """``interest_percent``: added to the value when lifting, rounded up. ``laps``: the owner
    must lift it before completing that many laps after mortgaging, or the deed goes back to
    the bank (``None``: no deadline)."""

    interest_percent: int
    laps: int | None = None


def interest(m: Mortgage) -> MortgageTerms:
    """Lift at the value plus ``interest_percent`` (10% on the classic board, 20% in Petropolis)."""
    return MortgageTerms(m.interest_percent)


def lap_deadline(m: Mortgage) -> MortgageTerms:
    """Lift within ``laps`` laps of the owner (Motopolis: 3, no interest)."""
    return MortgageTerms(m.interest_percent, m.laps)


def none(m: Mortgage) -> None:
    """Deeds cannot be mortgaged."""
    return None


POLICIES = {"interest": interest, "lap_deadline": lap_deadline, "none": none}


def terms(edition: Edition) -> MortgageTerms | None:
    return pick(POLICIES, edition.mortgage.policy, "mortgage")(edition.mortgage)


def require_terms(edition: Edition) -> MortgageTerms:
    """The edition's mortgage terms; refuses an edition without mortgages."""
    found = terms(edition)
    if found is None:
        raise RuleViolation("no_mortgages", N_("In this edition deeds cannot be mortgaged."))
    return found


def lift_cost(edition: Edition, deed: Deed) -> int:
    """What lifting the mortgage on ``deed`` costs: its value plus the interest, rounded up to
    a whole unit. Refuses an edition without mortgages."""
    return deed.mortgage + percent_up(deed.mortgage, require_terms(edition).interest_percent)


def mortgaged_at(edition: Edition, owner: PlayerState) -> int | None:
    """The lap count a deed mortgaged now by ``owner`` remembers (``None`` without a deadline)."""
    found = terms(edition)
    return owner.laps if found is not None and found.laps is not None else None


def overdue(state: GameState, owner: PlayerState, laps: int) -> list[DeedState]:
    """The owner's mortgaged deeds whose deadline has passed once they have completed ``laps``
    laps: they go back to the bank. Reads the board only when the edition has a deadline."""
    found = terms(state.edition)
    if found is None or found.laps is None:
        return []
    return [
        ds
        for ds in state.deeds.values()
        if ds.owner == owner.id
        and ds.mortgaged
        and ds.mortgage_lap is not None
        and laps >= ds.mortgage_lap + found.laps
    ]


def laps_left(state: GameState, ds: DeedState) -> int | None:
    """The laps the owner of the mortgaged ``ds`` has left to lift it: the deed goes back to
    the bank at the pass of GO that completes the last of them (``None`` for a deed without a
    deadline)."""
    found = terms(state.edition)
    owner = state.players.get(ds.owner) if ds.owner else None
    if found is None or found.laps is None or not ds.mortgaged or ds.mortgage_lap is None or owner is None:
        return None
    return max(0, ds.mortgage_lap + found.laps - owner.laps)


def forfeit_changes(ds: DeedState) -> list[Change]:
    """An overdue mortgaged deed going back to the bank, unmortgaged."""
    after = {"owner": None, "mortgaged": False, "fee_due": False, "mortgage_lap": None}
    return [
        Change("deed", ds.key, name, getattr(ds, name), value)
        for name, value in after.items()
        if getattr(ds, name) != value
    ]


def handed_over_lap(ds: DeedState, giver: PlayerState, receiver: PlayerState) -> int | None:
    """A mortgaged deed changing hands keeps the laps it has left: its lap mark in the
    receiver's count."""
    if ds.mortgage_lap is None:
        return None
    return receiver.laps - (giver.laps - ds.mortgage_lap)
