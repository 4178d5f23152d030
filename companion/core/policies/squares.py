"""Squares whose amount the bank computes: what landing there moves, by the square's policy.

Each policy returns a ``Landing``: who pays whom how much, and for ``buy_free_deed`` the deed
bought; money going back the other way after (a prize, a fee), and what it does to the player
(jail, turns to sit out). The square rule (``rules.squares``) checks the player, the cash and
the deed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..editions.edition import Deed, Square
from ..errors import N_, BadInput, RuleViolation
from ..money import percent_up
from ..state import GameState, PlayerState
from . import pick


@dataclass(frozen=True)
class Landing:
    """``to_bank``: the player pays ``amount``; otherwise the bank pays it to the player.
    ``back``: what then goes the other way (a prize after paying, a fee after collecting).
    ``player``: fields of the player the square sets (``in_jail``, ``skip_turns``...).
    ``tax``: a payment to the bank is a tax (it goes to the Free Parking pot where the game
    has one); false for a purchase (fuel, a registration)."""

    amount: int
    to_bank: bool
    parts: dict[str, Any]
    back: int = 0
    player: dict[str, Any] = field(default_factory=dict)
    tax: bool = True


def _dice_total(state: GameState, dice: object) -> int:
    """A dice total from 2 to the edition's largest; refuses anything else."""
    top = state.edition.dice.max_total
    if isinstance(dice, bool) or not isinstance(dice, int) or not 2 <= dice <= top:
        raise BadInput("invalid_dice", N_("Enter the dice total, from 2 to %(max)s."), max=top)
    return dice


def pay_per_holding(state: GameState, square: Square, player: PlayerState, dice: object, deed: Deed | None) -> Landing:
    """``per_deed`` for each deed the player owns and ``per_small`` for each small building on
    them (Che Impresa!'s IMU). Refuses a player who owes nothing."""
    owned = [ds for ds in state.deeds.values() if ds.owner == player.id]
    small = sum(ds.houses for ds in owned)
    assert square.per_deed is not None and square.per_small is not None  # the schema requires them here
    amount = square.per_deed * len(owned) + square.per_small * small
    if amount == 0:
        raise RuleViolation("nothing_owed", N_("%(name)s owns nothing here: nothing to pay."), name=player.name)
    return Landing(amount, True, {"deeds": len(owned), "small": small})


def collect_dice_times(
    state: GameState, square: Square, player: PlayerState, dice: object, deed: Deed | None
) -> Landing:
    """``multiplier`` times the dice total, from the bank (Che Impresa!'s Banca). Refuses a
    missing or impossible dice total."""
    total = _dice_total(state, dice)
    assert square.multiplier is not None  # the schema requires it with this policy
    return Landing(square.multiplier * total, False, {"dice": total})


def buy_free_deed(state: GameState, square: Square, player: PlayerState, dice: object, deed: Deed | None) -> Landing:
    """A deed nobody owns at ``percent`` of its price, rounded up (Che Impresa!'s Agenzia
    immobiliare: 150%). Refuses a missing deed and one that somebody owns."""
    if deed is None:
        raise BadInput("deed_required", N_("Choose the deed to buy."))
    ds = state.deeds.get(deed.key)
    if ds is not None and ds.owner is not None:
        raise RuleViolation(
            "deed_owned",
            N_("%(deed)s already belongs to %(owner)s."),
            deed=deed.name,
            owner=state.players[ds.owner].name,
        )
    assert square.percent is not None  # the schema requires it with this policy
    return Landing(percent_up(deed.price, square.percent), True, {"deed": deed.key, "percent": square.percent})


def pay_then_prize_on_dice(
    state: GameState, square: Square, player: PlayerState, dice: object, deed: Deed | None
) -> Landing:
    """Pay ``amount``, roll at once: a total among ``totals`` receives ``prize`` from the bank
    (Motopolis' Benzinaio: 20, then 5 on 6, 7 or 8). Refuses a missing or impossible dice
    total."""
    total = _dice_total(state, dice)
    won = total in square.totals
    assert square.amount is not None and square.prize is not None  # the schema requires them here
    return Landing(square.amount, True, {"dice": total, "won": won}, back=square.prize if won else 0, tax=False)


def collect_then_pay(state: GameState, square: Square, player: PlayerState, dice: object, deed: Deed | None) -> Landing:
    """Receive ``collect`` from the bank, then pay ``amount`` back (Motopolis' A.S.I.: 100,
    then 50 for the registration)."""
    assert square.collect is not None and square.amount is not None  # the schema requires them here
    return Landing(square.collect, False, {}, back=square.amount, tax=False)


def jail_unless_dice(state: GameState, square: Square, player: PlayerState, dice: object, deed: Deed | None) -> Landing:
    """Roll at once: a total among ``totals`` goes free, any other sends the player to jail
    (Motopolis' Posto di blocco, to Attesa ricambi without passing GO). Refuses a missing or
    impossible dice total and a player already in jail."""
    total = _dice_total(state, dice)
    if player.in_jail:
        raise RuleViolation("already_in_jail", N_("%(name)s is already in jail."), name=player.name)
    caught = total not in square.totals
    return Landing(
        0, True, {"dice": total, "jailed": caught}, player={"in_jail": True, "jail_turns": 0} if caught else {}
    )


def sit_out(state: GameState, square: Square, player: PlayerState, dice: object, deed: Deed | None) -> Landing:
    """The player misses their next ``turns`` turns and, with ``trades`` false, cannot trade
    until they have passed (Motopolis' Sosta bisognino). Refuses a player already sitting out."""
    if player.skip_turns:
        raise RuleViolation("already_sitting_out", N_("%(name)s already sits out the next turn."), name=player.name)
    return Landing(
        0,
        True,
        {"turns": square.turns, "trades": square.trades},
        player={"skip_turns": square.turns, "no_trades": not square.trades},
    )


@dataclass(frozen=True)
class SquarePolicy:
    """A square's policy: ``land`` works out the landing; the rest says what a phone can know
    before it. ``dice``: the landing needs the dice total of a roll made there (the page asks
    for it; nothing is known before). ``buys_deed``: the landing buys a free deed the player
    chooses (each offered with its price). Neither: the landing's amount is known at once."""

    land: Callable[..., Landing]
    dice: bool = False
    buys_deed: bool = False


POLICIES = {
    "pay_per_holding": SquarePolicy(pay_per_holding),
    "collect_dice_times": SquarePolicy(collect_dice_times, dice=True),
    "buy_free_deed": SquarePolicy(buy_free_deed, buys_deed=True),
    "pay_then_prize_on_dice": SquarePolicy(pay_then_prize_on_dice, dice=True),
    "collect_then_pay": SquarePolicy(collect_then_pay),
    "jail_unless_dice": SquarePolicy(jail_unless_dice, dice=True),
    "sit_out": SquarePolicy(sit_out),
}


def policy(square: Square) -> SquarePolicy:
    """The square's policy: how it lands, and what a phone can know before."""
    return pick(POLICIES, square.policy, "squares")


def landing(
    state: GameState, square: Square, player: PlayerState, dice: object = None, deed: Deed | None = None
) -> Landing:
    return policy(square).land(state, square, player, dice, deed)
