"""Tiebreak: what separates players worth the same in the final count. Each policy gives a
player a key; the higher key goes first and equal keys share the place."""

from __future__ import annotations

from ..state import GameState, PlayerState
from . import pick


def shared(state: GameState, player: PlayerState) -> tuple[int, ...]:
    """Nothing separates them."""
    return ()


def unmortgaged_deeds_value(state: GameState, player: PlayerState) -> tuple[int]:
    """The total printed price of their unmortgaged deeds (the 2015 championship)."""
    return (
        sum(
            d.price
            for d in state.edition.deeds
            if (ds := state.deeds.get(d.key)) is not None and ds.owner == player.id and not ds.mortgaged
        ),
    )


POLICIES = {"shared": shared, "unmortgaged_deeds_value": unmortgaged_deeds_value}


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
