"""Tiebreak: what separates players worth the same in the final count. Each policy gives a
player a key; the higher key goes first and equal keys share the place."""

from __future__ import annotations

from ..money import percent_up
from ..state import GameState, PlayerState
from . import pick
from .buildings import buildings_cost


def shared(state: GameState, player: PlayerState) -> tuple[int, ...]:
    """Nothing separates them."""
    return ()


def unmortgaged_deeds_value(state: GameState, player: PlayerState) -> tuple[int]:
    """The total printed price of their unmortgaged deeds, buildings left out."""
    return (
        sum(
            d.price
            for d in state.edition.deeds
            if (ds := state.deeds.get(d.key)) is not None and ds.owner == player.id and not ds.mortgaged
        ),
    )


def unmortgaged_property_value(state: GameState, player: PlayerState) -> tuple[int]:
    """The total value of their unmortgaged deeds as the final count takes each one: its price
    and the buildings on it, at the edition's ``valuation`` percentages (the 2015 championship,
    seed 001 lines 124-131: the score sheet's "valore di ogni proprietà" is ticked in a column
    by the buildings on it and whether it is mortgaged, and a tie goes to "il valore di
    proprietà non ipotecato più alto")."""
    rule = state.edition.valuation
    total = 0
    for deed in state.edition.deeds:
        ds = state.deeds.get(deed.key)
        if ds is None or ds.owner != player.id or ds.mortgaged:
            continue
        built = buildings_cost(state.edition, ds.houses, ds.hotel, deed.building_cost or 0)
        total += percent_up(deed.price, rule.deed_percent) + percent_up(built, rule.building_percent)
    return (total,)


POLICIES = {
    "shared": shared,
    "unmortgaged_deeds_value": unmortgaged_deeds_value,
    "unmortgaged_property_value": unmortgaged_property_value,
}


def tiebreak_key(state: GameState, player: PlayerState) -> tuple[int, ...]:
    return pick(POLICIES, state.edition.tiebreak.policy, "tiebreak")(state, player)


# --- players still tied for first after the tiebreak ----------------------------------------


def shared_place(state: GameState, tied: list[str]) -> list[str]:
    """They share the first place: nobody plays on."""
    return []


def play_off(state: GameState, tied: list[str]) -> list[str]:
    """The game goes on ``end.play_off_minutes`` more among them alone (Petropolis: 10)."""
    return list(tied)


TIES = {"shared": shared_place, "play_off": play_off}


def play_off_players(state: GameState, tied: list[str]) -> list[str]:
    """Who plays on after a final count that leaves ``tied`` (two or more players) sharing the
    first place, by the edition's ``end.tie`` (empty: nobody, they share it)."""
    if len(tied) < 2:
        return []
    return pick(TIES, state.edition.end.tie, "tie")(state, tied)
