"""Squares whose amount the bank computes: what landing there moves, by the square's policy.

Each policy returns a ``Landing``: who pays whom how much, and for ``buy_free_deed`` the deed
bought. The square rule (``rules.squares``) checks the player, the cash and the deed.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..editions import Square
from ..errors import N_, BadInput, RuleViolation
from ..money import percent_up
from ..state import GameState, PlayerState
from . import pick


@dataclass(frozen=True)
class Landing:
    """``to_bank``: the player pays ``amount``; otherwise the bank pays it to the player."""

    amount: int
    to_bank: bool
    parts: dict


def pay_per_holding(state: GameState, square: Square, player: PlayerState, dice, deed) -> Landing:
    """``per_deed`` for each deed the player owns and ``per_small`` for each small building on
    them (Che Impresa!'s IMU). Refuses a player who owes nothing."""
    owned = [ds for ds in state.deeds.values() if ds.owner == player.id]
    small = sum(ds.houses for ds in owned)
    amount = square.per_deed * len(owned) + square.per_small * small
    if amount == 0:
        raise RuleViolation("nothing_owed", N_("%(name)s owns nothing here: nothing to pay."), name=player.name)
    return Landing(amount, True, {"deeds": len(owned), "small": small})


def collect_dice_times(state: GameState, square: Square, player: PlayerState, dice, deed) -> Landing:
    """``multiplier`` times the dice total, from the bank (Che Impresa!'s Banca). Refuses a
    missing or impossible dice total."""
    top = state.edition.dice.max_total
    if isinstance(dice, bool) or not isinstance(dice, int) or not 2 <= dice <= top:
        raise BadInput("invalid_dice", N_("Enter the dice total, from 2 to %(max)s."), max=top)
    return Landing(square.multiplier * dice, False, {"dice": dice})


def buy_free_deed(state: GameState, square: Square, player: PlayerState, dice, deed) -> Landing:
    """A deed nobody owns at ``percent`` of its price, rounded up (Che Impresa!'s Agenzia
    immobiliare: 150%). Refuses a missing deed and one that somebody owns."""
    if deed is None:
        raise BadInput("deed_required", N_("Choose the deed to buy."))
    ds = state.deeds.get(deed.key)
    if ds is not None and ds.owner is not None:
        raise RuleViolation("deed_owned", N_("%(deed)s already belongs to %(owner)s."),
                            deed=deed.name, owner=state.players[ds.owner].name)
    return Landing(percent_up(deed.price, square.percent), True, {"deed": deed.key, "percent": square.percent})


POLICIES = {"pay_per_holding": pay_per_holding, "collect_dice_times": collect_dice_times,
            "buy_free_deed": buy_free_deed}


def landing(state: GameState, square: Square, player: PlayerState, dice=None, deed=None) -> Landing:
    return pick(POLICIES, square.policy, "squares")(state, square, player, dice, deed)
