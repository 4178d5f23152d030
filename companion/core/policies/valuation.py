"""The final count: what each player still in the game is worth, and their places."""
from __future__ import annotations

from dataclasses import dataclass

from ..money import percent_up
from ..state import GameState, PlayerState
from . import pick
from .buildings import big_building
from .tiebreak import tiebreak_key


def buildings_cost(state: GameState, houses: int, hotel: bool, cost: int) -> int:
    """What the buildings on one deed cost: each small one at ``cost``, a big one at its worth
    in small ones."""
    big = big_building(state.edition)
    return cost * (houses + (big.worth_small if hotel and big else 0))


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
        built = buildings_cost(state, ds.houses, ds.hotel, deed.building_cost or 0)
        buildings += percent_up(built, rule.building_percent)
    return {"cash": player.cash, "deeds": deeds, "buildings": buildings}


POLICIES = {"cash_deeds_buildings": cash_deeds_buildings}


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
