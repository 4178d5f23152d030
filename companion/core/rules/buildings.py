"""Buildings: bought from the bank one at a time, evenly, and sold back at the edition's share."""
from __future__ import annotations

from ..commands import require_cash, require_player, require_running
from ..editions import Deed
from ..errors import N_, RuleViolation
from ..ledger import BANK, move
from ..state import Change, DeedState, GameState, Outcome, PlayerState
from .common import (bank_changes, deed_changes, group_members, group_of, has_buildings, level,
                     require_deed, require_fee_settled, require_owner, sale_value)

SMALL, BIG = "small", "big"


def next_building(state: GameState, player: PlayerState, deed: Deed, ds: DeedState) -> str:
    """Which building (``"small"`` or ``"big"``) the player may put next on this deed, ignoring
    the bank's supply.

    Refuses: a deed that is not the player's, one that takes no buildings, a group the player
    does not wholly own, a group with a mortgaged deed, a deed already at its big building, and
    a deed with more buildings than another of its group (building goes evenly).
    """
    require_owner(player, deed, ds)
    if group_of(state, deed).kind != "street" or deed.building_cost is None:
        raise RuleViolation("not_buildable", N_("Nothing can be built on %(deed)s."), deed=deed.name)
    members = [m for _, m in group_members(state, deed.group)]
    if any(m.owner != player.id for m in members):
        raise RuleViolation("group_incomplete", N_("Building on %(deed)s needs its whole group."),
                            deed=deed.name)
    if any(m.mortgaged for m in members):
        raise RuleViolation("group_mortgaged",
                            N_("A deed of %(deed)s's group is mortgaged: lift it before building."),
                            deed=deed.name)
    if ds.hotel:
        raise RuleViolation("fully_built", N_("%(deed)s is already fully built."), deed=deed.name)
    if level(state, ds) > min(level(state, m) for m in members):
        raise RuleViolation("uneven_building",
                            N_("Build evenly: first build on the deeds of the group with fewer buildings."))
    return BIG if ds.houses == state.edition.buildings.max_small else SMALL


def building_changes(state: GameState, ds: DeedState, building: str) -> list[Change]:
    """One building going up on the deed, and the bank's supply taking it (a big one gives the
    bank back the small ones it replaces)."""
    if building == SMALL:
        return deed_changes(ds, houses=ds.houses + 1) + bank_changes(state, small=-1)
    return (deed_changes(ds, houses=0, hotel=True)
            + bank_changes(state, small=ds.houses, big=-1))


def require_supply(state: GameState, building: str) -> None:
    """Refuses a building the bank has run out of."""
    if building == SMALL and state.bank_small == 0:
        raise RuleViolation("bank_out_of_small", N_("The bank has no small buildings left."))
    if building == BIG and state.bank_big == 0:
        raise RuleViolation("bank_out_of_big", N_("The bank has no big buildings left."))


def build(state: GameState, player_id: str, deed_key: str) -> Outcome:
    """One building up on a deed, bought from the bank at the deed's building price: a small
    one, or the big one once the deed has the most small ones allowed (they go back to the bank).

    Refuses: a game not running, an unknown or bankrupt player, an unknown deed, everything
    ``next_building`` refuses, a building of a kind the bank is auctioning in a shortage, a
    building the bank has run out of, a player who owes a fee on a mortgaged deed, and a player
    without the cash.
    """
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    building = next_building(state, player, deed, ds)
    if state.auction is not None and state.auction.lot == building:
        raise RuleViolation("building_auction_open",
                            N_("The bank's last buildings of this kind are being auctioned."))
    require_supply(state, building)
    require_fee_settled(state, player)
    require_cash(player, deed.building_cost)
    return Outcome("build", move(player.id, BANK, deed.building_cost),
                   tuple(building_changes(state, ds, building)),
                   params={"player": player.id, "deed": deed.key, "building": building,
                           "amount": deed.building_cost},
                   result={"deed": deed.key, "building": building, "amount": deed.building_cost})


def sell_building(state: GameState, player_id: str, deed_key: str, break_hotel: bool = False) -> Outcome:
    """One building down, sold to the bank at the edition's share of its price (rounded up).

    A small building goes from a deed with the most buildings of its group (selling goes
    evenly). A big building is broken into the most small ones allowed (``break_hotel``: the
    bank pays for the big one and hands over the small ones, if it has them) or sold whole with
    the small ones it replaced: on its own when the edition's ``hotel_sale`` is ``deed``, or
    together with every other big building of the group when it is ``group``.

    Refuses: a game not running, an unknown or bankrupt player, an unknown deed, a deed that is
    not the player's, a deed without buildings, uneven selling, breaking while the bank lacks
    the small buildings or is auctioning them in a shortage (builders come first), and, under
    ``group``, a whole sale while a deed of the group has no big building.
    """
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    require_owner(player, deed, ds)
    if not has_buildings(ds):
        raise RuleViolation("no_buildings", N_("%(deed)s has no buildings."), deed=deed.name)
    max_small = state.edition.buildings.max_small
    unit = sale_value(state, deed)
    members = group_members(state, deed.group)
    params = {"player": player.id, "deed": deed.key}
    if ds.hotel and break_hotel:
        if state.auction is not None and state.auction.lot == SMALL:
            raise RuleViolation("building_auction_open",
                                N_("The bank's last buildings of this kind are being auctioned."))
        if state.bank_small is not None and state.bank_small < max_small:
            raise RuleViolation("bank_short_of_small",
                                N_("The bank has %(left)s small buildings: breaking a big one "
                                   "needs %(needed)s."), left=state.bank_small, needed=max_small)
        changes = (deed_changes(ds, hotel=False, houses=max_small)
                   + bank_changes(state, small=-max_small, big=1))
        return _sold(player, unit, changes, dict(params, building="big", broken=True))
    if ds.hotel:
        sold = [(deed, ds)]
        if state.edition.rules.hotel_sale == "group":
            sold = [(d, m) for d, m in members if m.hotel]
            if len(sold) < len(members):
                raise RuleViolation("hotels_sold_together",
                                    N_("The big buildings of a group are sold all together: "
                                       "break this one instead."))
        changes = [c for _, m in sold for c in deed_changes(m, hotel=False)]
        changes += bank_changes(state, big=len(sold))
        amount = sum(sale_value(state, d) * (max_small + 1) for d, _ in sold)
        return _sold(player, amount, changes,
                     dict(params, building="big", deeds=[d.key for d, _ in sold], broken=False))
    if level(state, ds) < max(level(state, m) for _, m in members):
        raise RuleViolation("uneven_selling",
                            N_("Sell evenly: first sell from the deeds of the group with more buildings."))
    changes = deed_changes(ds, houses=ds.houses - 1) + bank_changes(state, small=1)
    return _sold(player, unit, changes, dict(params, building="small"))


def _sold(player: PlayerState, amount: int, changes: list[Change], params: dict) -> Outcome:
    postings = move(BANK, player.id, amount) if amount else ()
    return Outcome("sell_building", postings, tuple(changes), params=dict(params, amount=amount),
                   result={"amount": amount})
