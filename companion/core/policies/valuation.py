"""The final count: what each player still in the game is worth, and their places."""

from __future__ import annotations

from dataclasses import dataclass

from ..editions.edition import Deed
from ..money import percent_up
from ..state import DeedState, GameState, PlayerState
from . import pick
from .buildings import buildings_cost
from .rent import doubles
from .tiebreak import tiebreak_key


def cash_deeds_buildings(state: GameState, player: PlayerState) -> dict[str, int]:
    """Cash, plus each deed at ``deed_percent`` of its price (``mortgaged_deed_percent`` when
    mortgaged), plus its buildings at ``building_percent`` of their cost; each rounded up."""
    rule = state.edition.valuation
    deeds = buildings = 0
    for deed in state.edition.deeds:
        ds = state.deeds.get(deed.key)
        if ds is None or ds.owner != player.id:
            continue
        deeds += percent_up(deed.price, rule.mortgaged_deed_percent if ds.mortgaged else rule.deed_percent)
        built = buildings_cost(state.edition, ds.houses, ds.hotel, deed.building_cost or 0)
        buildings += percent_up(built, rule.building_percent)
    return {"cash": player.cash, "deeds": deeds, "buildings": buildings}


def cash_and_rents(state: GameState, player: PlayerState) -> dict[str, int]:
    """Cash, plus the rent of each deed the player owns and of each big building, as if the
    bank paid it once (Niente è come sembra: "collect the rents of deeds and hotels, add up").
    ``rents``: each deed at the rent it asks without its big building (the base rent, doubled
    where ``whole_group_doubles`` and the edition's rent policy double it on a whole group; with
    small buildings, the rent with them; a station by how many its owner holds). ``hotels``:
    each big building at the rent with it, counted instead of its deed's rent
    (``big_rent``: ``instead_of_deed_rent``, as a lander would pay) or besides its base rent
    (``besides_deed_rent``). A mortgaged deed counts nothing, a utility nothing (its rent needs
    dice)."""
    rule = state.edition.valuation
    rents = hotels = 0
    for deed in state.edition.deeds:
        ds = state.deeds.get(deed.key)
        if ds is None or ds.owner != player.id or ds.mortgaged:
            continue
        group = state.edition.group(deed.group)
        assert group is not None  # the edition's loader checks every deed's group
        kind = group.kind
        if kind == "station":
            rents += _station_rent(state, deed, ds)
        elif kind == "street" and ds.hotel:
            hotels += deed.rents[-1]
            rents += deed.rents[0] if rule.big_rent == "besides_deed_rent" else 0
        elif kind == "street":
            rents += deed.rents[ds.houses] if ds.houses else _base_rent(state, deed, ds)
    return {"cash": player.cash, "rents": rents, "hotels": hotels}


def _members(state: GameState, deed: Deed) -> list[DeedState]:
    return [state.deeds.get(d.key) or DeedState(d.key) for d in state.edition.deeds_in_group(deed.group)]


def _base_rent(state: GameState, deed: Deed, ds: DeedState) -> int:
    members = _members(state, deed)
    whole = all(m.owner == ds.owner for m in members)
    double = whole and state.edition.valuation.whole_group_doubles and doubles(state.edition, ds, members)
    return deed.rents[0] * (2 if double else 1)


def _station_rent(state: GameState, deed: Deed, ds: DeedState) -> int:
    counts_mortgaged = state.edition.rent.sets_count_mortgaged
    held = sum(1 for m in _members(state, deed) if m.owner == ds.owner and (counts_mortgaged or not m.mortgaged))
    rents = state.edition.station_rents
    return rents[min(held, len(rents)) - 1] if rents else 0


POLICIES = {"cash_deeds_buildings": cash_deeds_buildings, "cash_and_rents": cash_and_rents}


def breakdown(state: GameState, player: PlayerState) -> dict[str, int]:
    """What ``player`` is worth by the edition's valuation policy, part by part (cash, deeds,
    buildings...): the parts sum to their worth."""
    return pick(POLICIES, state.edition.valuation.policy, "valuation")(state, player)


def worth(state: GameState, player: PlayerState) -> int:
    """What ``player`` is worth by the edition's valuation policy."""
    return sum(breakdown(state, player).values())


@dataclass(frozen=True)
class Standing:
    player: str
    worth: int
    place: int  # 1 for the first; players the tiebreak cannot separate share a place


def standings(state: GameState) -> list[Standing]:
    """The players still in the game, best first: by worth, then by the edition's tiebreak."""
    keyed = [(worth(state, p), tiebreak_key(state, p), p.id) for p in state.active_players()]
    keyed.sort(key=lambda k: (k[0], k[1]), reverse=True)
    out = []
    for value, key, pid in keyed:
        place = 1 + sum(1 for v, k, _ in keyed if (v, k) > (value, key))
        out.append(Standing(pid, value, place))
    return out
