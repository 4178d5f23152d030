"""Buildings: bought from the bank one at a time, evenly, and sold back at the edition's share.

The shape of the big building (how many small ones it needs and gives back, what it is worth,
or that there is none) is the edition's building policy (``policies.buildings``).
"""

from __future__ import annotations

from typing import Any

from ..editions.edition import Deed
from ..errors import N_, BadInput, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import BANK, Posting, move
from ..policies.buildings import big_building, sold_with
from ..state import Change, DeedState, GameState, Outcome, PlayerState
from .common import (
    bank_changes,
    building_members,
    deed_changes,
    even_members,
    group_of,
    has_buildings,
    level,
    require_deed,
    require_fee_settled,
    require_owner,
    sale_value,
)
from .jail import require_free

SMALL, BIG = "small", "big"


def next_buildings(state: GameState, player: PlayerState, deed: Deed, ds: DeedState) -> tuple[str, ...]:
    """The buildings (``"small"``, ``"big"``) the player may put next on this deed, ignoring
    the bank's supply, the usual one first: a small one while the deed takes more, the big one
    once this deed and every other of its group hold the small ones it needs.

    Refuses: a deed that is not the player's, a player in a jail that keeps them from building,
    one that takes no buildings, a group the player does not wholly own, a group with a
    mortgaged deed (where the edition's mortgage reaches the deed alone, a mortgaged deed
    itself: the others build evenly among themselves, Motopolis seed 002 line 73), a deed
    already fully built, a deed with more buildings than another of its group (building goes
    evenly), and a big building on a deed holding more small ones than it takes back. The big
    building is offered only once every deed of the group, a mortgaged one too, holds the
    small ones it needs.
    """
    require_owner(player, deed, ds)
    require_free(state, player, "builds")
    group = _whole_group(state, player, deed)
    members = _built_evenly_with(state, deed, ds, group)
    if ds.hotel:
        raise RuleViolation("fully_built", N_("%(deed)s is already fully built."), deed=deed.name)
    if level(state, ds) > min(level(state, m) for m in members):
        raise RuleViolation(
            "uneven_building", N_("Build evenly: first build on the deeds of the group with fewer buildings.")
        )
    options = _with_big(state, deed, ds, group, [SMALL] if ds.houses < state.edition.buildings.max_small else [])
    if not options:
        raise RuleViolation("fully_built", N_("%(deed)s is already fully built."), deed=deed.name)
    return tuple(options)


def _whole_group(state: GameState, player: PlayerState, deed: Deed) -> list[DeedState]:
    """The deeds of ``deed``'s group that take buildings. Refuses a deed that takes none and a
    group the player does not wholly own."""
    if group_of(state, deed).kind != "street" or not deed.buildable or deed.building_cost is None:
        raise RuleViolation("not_buildable", N_("Nothing can be built on %(deed)s."), deed=deed.name)
    group = [m for _, m in building_members(state, deed.group)]
    if any(m.owner != player.id for m in group):
        raise RuleViolation("group_incomplete", N_("Building on %(deed)s needs its whole group."), deed=deed.name)
    return group


def _built_evenly_with(state: GameState, deed: Deed, ds: DeedState, group: list[DeedState]) -> list[DeedState]:
    """The deeds ``ds`` is built evenly with: its whole group, or, where the edition's mortgage
    reaches the deed alone, the group's deeds not mortgaged. Refuses a group with a mortgaged
    deed, or there a mortgaged deed itself."""
    if state.edition.mortgage.reach == "deed":
        if ds.mortgaged:
            raise RuleViolation(
                "deed_mortgaged_no_building",
                N_("%(deed)s is mortgaged: lift it before building on it."),
                deed=deed.name,
            )
        return [m for _, m in even_members(state, deed.group)]
    if any(m.mortgaged for m in group):
        raise RuleViolation(
            "group_mortgaged", N_("A deed of %(deed)s's group is mortgaged: lift it before building."), deed=deed.name
        )
    return group


def _with_big(state: GameState, deed: Deed, ds: DeedState, group: list[DeedState], options: list[str]) -> list[str]:
    """``options`` with the big building where it may go up on ``ds`` now. Refuses a deed that
    holds more small ones than the big building takes back, when nothing else may go up."""
    big = big_building(state.edition)
    # The big building needs its small ones on every deed of the group, a mortgaged one too
    # (Motopolis line 66: "per ognuno dei territori ... dello stesso colore").
    if big is None or not all(m.hotel or m.houses >= big.needs_small for m in group):
        return options
    if ds.houses == big.needs_small:
        return options + [BIG]
    if not options:
        raise RuleViolation(
            "too_many_small",
            N_("The big building takes back %(n)s small ones: sell the others on %(deed)s first."),
            n=big.needs_small,
            deed=deed.name,
        )
    return options


def next_building(state: GameState, player: PlayerState, deed: Deed, ds: DeedState, building: str | None = None) -> str:
    """The building the player puts next on this deed: ``building`` when given, else the usual
    next one (``next_buildings``).

    Refuses everything ``next_buildings`` refuses, a ``building`` that is neither ``"small"``
    nor ``"big"``, and one the deed cannot take now.
    """
    if building is not None and building not in (SMALL, BIG):
        raise BadInput("invalid_building", N_("The building is small or big."))
    options = next_buildings(state, player, deed, ds)
    if building is None:
        return options[0]
    if building not in options:
        raise RuleViolation("cannot_build_here", N_("%(deed)s cannot take this building now."), deed=deed.name)
    return building


def building_changes(state: GameState, ds: DeedState, building: str) -> list[Change]:
    """One building going up on the deed, and the bank's supply taking it (a big one gives the
    bank back the small ones it replaces)."""
    if building == SMALL:
        return deed_changes(ds, houses=ds.houses + 1) + bank_changes(state, small=-1)
    return deed_changes(ds, houses=0, hotel=True) + bank_changes(state, small=ds.houses, big=-1)


def require_supply(state: GameState, building: str) -> None:
    """Refuses a building the bank has run out of."""
    if building == SMALL and state.bank_small == 0:
        raise RuleViolation("bank_out_of_small", N_("The bank has no small buildings left."))
    if building == BIG and state.bank_big == 0:
        raise RuleViolation("bank_out_of_big", N_("The bank has no big buildings left."))


def build(state: GameState, player_id: str, deed_key: str, building: str | None = None) -> Outcome:
    """One building up on a deed, bought from the bank at the deed's building price: the usual
    next one, or ``building`` (``"small"`` or ``"big"``) where the deed could take either. A big
    one gives the bank back the small ones it replaces.

    Refuses: an edition that builds a whole lot at once (``rules.lots``), a game not running,
    an unknown or bankrupt player, an unknown deed, everything ``next_building`` refuses, a building of a kind the bank is auctioning in a shortage, a
    building the bank has run out of, a player who owes a fee on a mortgaged deed, and a player
    without the cash.
    """
    if state.edition.buildings.placement != "one_at_a_time":
        raise RuleViolation(
            "build_by_lot", N_("In this edition a lot is built all at once: choose how many on each deed.")
        )
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    building = next_building(state, player, deed, ds, building)
    if state.auction is not None and state.auction.lot == building:
        raise RuleViolation("building_auction_open", N_("The bank's last buildings of this kind are being auctioned."))
    require_supply(state, building)
    require_fee_settled(state, player)
    cost = deed.building_cost
    assert cost is not None  # next_building refuses a deed that takes no buildings
    require_cash(player, cost)
    return Outcome(
        "build",
        move(player.id, BANK, cost),
        tuple(building_changes(state, ds, building)),
        params={"player": player.id, "deed": deed.key, "building": building, "amount": cost},
        result={"deed": deed.key, "building": building, "amount": cost},
    )


def buildings_value(state: GameState, deed: Deed, ds: DeedState) -> int:
    """What the bank pays for every building on the deed: each small one at the sale value, a
    big one at its worth in small ones."""
    big = big_building(state.edition)
    units = ds.houses + (big.worth_small if ds.hotel and big else 0)
    return units * sale_value(state, deed)


def sell_building(state: GameState, player_id: str, deed_key: str, break_hotel: bool = False) -> Outcome:
    """One building down, sold to the bank at the edition's share of its price (rounded up).

    A small building goes from a deed with the most buildings of its group (selling goes
    evenly). A big building is broken (``break_hotel``) into the small ones it replaced, the
    bank paying for the rest of its worth, if the bank has them; or it is sold whole at its
    worth, on its own or with the group's others as the edition's ``big_sale`` says. Where the
    bank lacks the small ones a break gives back, the edition's ``short_break`` refuses it or
    (FAQ 29) gives the ones the bank has and half the price of each missing one.

    Refuses: a game not running, an unknown or bankrupt player, an unknown deed, a deed that is
    not the player's, a deed without buildings, a break where the deed has no big building,
    uneven selling, breaking where the edition has no
    small buildings, breaking while the bank lacks the small buildings or is auctioning them in a shortage (builders come first), and a whole
    sale that ``big_sale`` refuses (all of the group's big buildings go together).
    """
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    require_owner(player, deed, ds)
    if not has_buildings(ds):
        raise RuleViolation("no_buildings", N_("%(deed)s has no buildings."), deed=deed.name)
    if break_hotel and not ds.hotel:
        raise RuleViolation("no_big_building", N_("%(deed)s has no big building to break."), deed=deed.name)
    params = {"player": player.id, "deed": deed.key}
    if ds.hotel and break_hotel:
        return _break_big(state, player, deed, ds, params)
    members = building_members(state, deed.group)
    if ds.hotel:
        sold = sold_with(state.edition, deed, ds, members)
        changes = [c for _, m in sold for c in deed_changes(m, hotel=False)]
        changes += bank_changes(state, big=len(sold))
        amount = sum(buildings_value(state, d, m) for d, m in sold)
        return _sold(
            player, amount, changes, dict(params, building="big", deeds=[d.key for d, _ in sold], broken=False)
        )
    if level(state, ds) < max(level(state, m) for _, m in members):
        raise RuleViolation(
            "uneven_selling", N_("Sell evenly: first sell from the deeds of the group with more buildings.")
        )
    changes = deed_changes(ds, houses=ds.houses - 1) + bank_changes(state, small=1)
    return _sold(player, sale_value(state, deed), changes, dict(params, building="small"))


def _break_big(state: GameState, player: PlayerState, deed: Deed, ds: DeedState, params: dict[str, Any]) -> Outcome:
    """A big building broken into the small ones it replaced, the bank paying for the rest of
    its worth; where the bank lacks them and the edition's ``short_break`` allows it (FAQ 29),
    the ones the bank has and half the price of each missing one. Refuses an edition without
    small buildings, a shortage auction of small buildings open, and a bank short of them
    where ``short_break`` refuses."""
    big = big_building(state.edition)
    assert big is not None  # a deed holds a big building only where the edition has one
    if big.needs_small == 0:
        raise RuleViolation(
            "nothing_to_break", N_("This edition has no small buildings: a big building is sold whole, not broken.")
        )
    if state.auction is not None and state.auction.lot == SMALL:
        raise RuleViolation("building_auction_open", N_("The bank's last buildings of this kind are being auctioned."))
    given = big.needs_small
    if state.bank_small is not None and state.bank_small < big.needs_small:
        if state.edition.buildings.short_break != "missing_at_half":
            raise RuleViolation(
                "bank_short_of_small",
                N_("The bank has %(left)s small buildings: breaking a big one needs %(needed)s."),
                left=state.bank_small,
                needed=big.needs_small,
            )
        given = state.bank_small  # FAQ 29: the ones the bank has, half price for the others
    unit = sale_value(state, deed)
    changes = deed_changes(ds, hotel=False, houses=given) + bank_changes(state, small=-given, big=1)
    paid = unit * (big.worth_small - big.needs_small) + unit * (big.needs_small - given)
    extra = {"short": big.needs_small - given} if given < big.needs_small else {}
    return _sold(player, paid, changes, dict(params, building="big", broken=True, **extra))


def break_shared(state: GameState, deed_keys: object) -> Outcome:
    """Several players break a big building each at the same moment while the bank lacks the
    small ones for all (the championship's FAQ 29): the bank's small buildings are shared
    equally among the deeds, the ones that cannot be shared evenly stay with the bank, and each
    owner gets, besides what breaking pays, half the price of each small building missing.

    Refuses: an edition that refuses short breaks, a game not running, fewer than two deeds or
    a repeated one, an unknown deed, a deed without a big building, and a shortage auction of
    small buildings in progress.
    """
    if state.edition.buildings.short_break != "missing_at_half":
        raise RuleViolation(
            "short_break_refused", N_("In this edition a big building breaks only when the bank has the small ones.")
        )
    require_running(state)
    if not isinstance(deed_keys, list) or len(deed_keys) < 2 or len(set(map(str, deed_keys))) != len(deed_keys):
        raise BadInput("invalid_deeds", N_("Choose at least two different deeds with a big building."))
    if state.auction is not None and state.auction.lot == SMALL:
        raise RuleViolation("building_auction_open", N_("The bank's last buildings of this kind are being auctioned."))
    big = big_building(state.edition)
    chosen = []
    for key in deed_keys:
        deed, ds = require_deed(state, key)
        if not ds.hotel or big is None:
            raise RuleViolation("no_big_building", N_("%(deed)s has no big building to break."), deed=deed.name)
        chosen.append((deed, ds))
    assert big is not None  # else the first deed was refused
    left = state.bank_small if state.bank_small is not None else big.needs_small * len(chosen)
    each = min(big.needs_small, left // len(chosen))
    changes: list[Change] = []
    postings: tuple[Posting, ...] = ()
    paid = {}
    for deed, ds in chosen:
        unit = sale_value(state, deed)
        amount = unit * (big.worth_small - big.needs_small) + unit * (big.needs_small - each)
        changes += deed_changes(ds, hotel=False, houses=each)
        if amount:
            assert ds.owner is not None  # a deed with a big building has an owner
            postings += move(BANK, ds.owner, amount)
        paid[deed.key] = amount
    changes += bank_changes(state, small=-each * len(chosen), big=len(chosen))
    return Outcome(
        "break_shared",
        postings,
        tuple(changes),
        params={"deeds": [d.key for d, _ in chosen], "each": each, "paid": paid, "amount": sum(paid.values())},
        result={"each": each, "paid": paid},
    )


def _sold(player: PlayerState, amount: int, changes: list[Change], params: dict[str, Any]) -> Outcome:
    postings = move(BANK, player.id, amount) if amount else ()
    return Outcome(
        "sell_building", postings, tuple(changes), params=dict(params, amount=amount), result={"amount": amount}
    )
