"""What every rule needs: finding deeds and groups, building levels, times, and Changes."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from ..editions.edition import Deed, Group
from ..errors import N_, BadInput, NotFound, RuleViolation
from ..money import percent_up
from ..state import Change, DeedState, GameState, PlayerState

_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_COUNTDOWN = 3600


def require_deed(state: GameState, deed_key: object) -> tuple[Deed, DeedState]:
    """The edition's deed and its state; refuses (``NotFound``) a key the edition lacks."""
    deed = state.edition.deed(deed_key) if isinstance(deed_key, str) else None
    if deed is None:
        raise NotFound("unknown_deed", N_("There is no such deed in this edition."))
    return deed, deed_state(state, deed.key)


def deed_state(state: GameState, key: str) -> DeedState:
    """The deed's state; a deed the state does not list yet belongs to the bank."""
    return state.deeds.get(key) or DeedState(key)


def group_of(state: GameState, deed: Deed) -> Group:
    group = state.edition.group(deed.group)
    assert group is not None  # the edition's loader checks every deed's group
    return group


def group_members(state: GameState, group_key: str) -> list[tuple[Deed, DeedState]]:
    return [(d, deed_state(state, d.key)) for d in state.edition.deeds_in_group(group_key)]


def building_members(state: GameState, group_key: str) -> list[tuple[Deed, DeedState]]:
    """The deeds of a group that take buildings: building and selling go evenly among them."""
    return [(d, ds) for d, ds in group_members(state, group_key) if d.buildable]


def even_members(state: GameState, group_key: str) -> list[tuple[Deed, DeedState]]:
    """The deeds of a group that building goes evenly among: every one that takes buildings,
    but a mortgaged one where a mortgage stops building on that deed alone (``mortgage.reach``
    ``deed``: it takes none until lifted, so it holds the others back in nothing)."""
    members = building_members(state, group_key)
    if state.edition.mortgage.reach == "deed":
        return [(d, ds) for d, ds in members if not ds.mortgaged]
    return members


def level(state: GameState, ds: DeedState) -> int:
    """Buildings on a deed counted in small ones: a big building is one step past the last."""
    return state.edition.buildings.max_small + 1 if ds.hotel else ds.houses


def has_buildings(ds: DeedState) -> bool:
    return ds.hotel or ds.houses > 0


def group_has_buildings(state: GameState, group_key: str) -> bool:
    return any(has_buildings(ds) for _, ds in group_members(state, group_key))


def mortgage_blocked_by_buildings(state: GameState, deed: Deed, ds: DeedState) -> bool:
    """Whether buildings keep this deed from being mortgaged: any on its group (the classic
    rule), or, where the edition says a mortgage reaches the deed alone, any on the deed itself
    (Motopolis, seed 002 line 73: "Un terreno può essere ipotecato soltanto se è privo di
    costruzioni")."""
    if state.edition.mortgage.reach == "deed":
        return has_buildings(ds)
    return group_has_buildings(state, deed.group)


def require_owner(player: PlayerState, deed: Deed, ds: DeedState) -> None:
    """Refuses a player acting on a deed that is not theirs."""
    if ds.owner != player.id:
        raise RuleViolation("not_owner", N_("%(deed)s does not belong to %(name)s."), deed=deed.name, name=player.name)


def require_fee_settled(state: GameState, player: PlayerState) -> None:
    """Refuses a player who received a mortgaged deed and has not yet paid its fee or lifted it:
    the rules want that settled at once, before they spend on anything else."""
    for ds in state.deeds.values():
        if ds.owner == player.id and ds.fee_due:
            deed, _ = require_deed(state, ds.key)
            raise RuleViolation(
                "mortgage_fee_due",
                N_("%(name)s must first pay the fee on the mortgaged %(deed)s or lift its mortgage."),
                name=player.name,
                deed=deed.name,
            )


def transfer_fee(state: GameState, deed: Deed) -> int:
    """What a player receiving this deed mortgaged pays at once, unless they lift it."""
    return percent_up(deed.mortgage, state.edition.mortgage.transfer_fee_percent)


def sale_value(state: GameState, deed: Deed) -> int:
    """What the bank pays back for one building of this deed."""
    return percent_up(deed.building_cost or 0, state.edition.buildings.sell_percent)


def clean_id(value: object, code: str) -> str:
    """A client-chosen id; refuses anything but 1 to 64 letters, digits, ``-`` or ``_``."""
    if not isinstance(value, str) or not _ID.match(value):
        raise BadInput(code, N_("An id is 1 to 64 letters, digits, '-' or '_'."))
    return value


def clean_countdown(seconds: object) -> int:
    """An auction countdown; refuses anything but whole seconds from 1 to an hour."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 < seconds <= MAX_COUNTDOWN:
        raise BadInput("invalid_countdown", N_("The countdown is from 1 to %(max)s seconds."), max=MAX_COUNTDOWN)
    return seconds


def clean_dice(state: GameState, dice: object) -> int:
    """A dice total entered by a player; refuses one outside 2 to the edition's largest
    (``dice.max_total``). With the Speedy die the lowest is 1: on a Bus a player moves by one
    numbered die only, and a utility's rent goes by that die."""
    top = state.edition.dice.max_total
    low = 1 if top > 12 else 2
    if isinstance(dice, bool) or not isinstance(dice, int) or not low <= dice <= top:
        raise BadInput("invalid_dice", N_("Enter the dice total, from %(min)s to %(max)s."), min=low, max=top)
    return dice


def stamp(now: datetime, seconds: int = 0) -> str:
    return (now + timedelta(seconds=seconds)).isoformat()


def is_past(now: datetime, when: str | None) -> bool:
    return when is not None and now >= datetime.fromisoformat(when)


def field_changes(target: str, ref: str | None, obj: object, **after: Any) -> list[Change]:
    """One Change per field of ``obj`` that ``after`` gives a different value."""
    return [
        Change(target, ref, name, getattr(obj, name), value)
        for name, value in after.items()
        if getattr(obj, name) != value
    ]


def deed_changes(ds: DeedState, **after: Any) -> list[Change]:
    return field_changes("deed", ds.key, ds, **after)


def acquired(state: GameState, ds: DeedState, owner: str | None, **after: Any) -> list[Change]:
    """A deed changing hands (with any other fields in ``after``). Where the edition counts
    turns, the deed remembers the turn it was taken in: some rulebooks let nobody build on a
    deed in the turn they got it (Che Impresa!)."""
    if owner is not None and state.edition.turns.counted:
        after["taken_turn"] = state.turn_seq
    return deed_changes(ds, owner=owner, **after)


def player_changes(player: PlayerState, **after: Any) -> list[Change]:
    return field_changes("player", player.id, player, **after)


def bank_changes(state: GameState, small: int = 0, big: int = 0) -> list[Change]:
    """The bank's building supply going up by ``small`` and ``big`` (unlimited stays so)."""
    changes = []
    if small and state.bank_small is not None:
        changes.append(Change("game", None, "bank_small", state.bank_small, state.bank_small + small))
    if big and state.bank_big is not None:
        changes.append(Change("game", None, "bank_big", state.bank_big, state.bank_big + big))
    return changes
