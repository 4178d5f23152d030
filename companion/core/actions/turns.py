"""The turn's actions: the dice, the squares, jail, and the end of a turn."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from .. import dice, rules, turns
from ..errors import BadInput, NotFound
from ..state import GameState, Outcome
from .action import DICE_TOTAL, PLAYER, TEXT, UNKNOWN_DEED, UNKNOWN_PLAYER, Action, Asked, Field, Handler


def _player_action(rule: Callable[[GameState, str], Outcome]) -> Handler:
    """An action of the acting player alone: the jail's."""
    return lambda state, asked: rule(state, asked.player())


def _roll(state: GameState, asked: Asked) -> Outcome:
    # A game stored before every game had a seed rolls from the system's randomness: its
    # faces are kept in the journal all the same.
    rng = None if state.seed is not None else secrets.SystemRandom()
    return dice.roll(state, asked.player(), asked.get("dice"), rng)


def _end_turn(state: GameState, asked: Asked) -> Outcome:
    """A player ends their own turn; the banker ends anyone's, or names who plays now."""
    if asked.by.is_banker and asked.get("player") is None:
        return turns.end_turn(state, None, asked.get("to"))
    return turns.end_turn(state, asked.player(), asked.get("to"))


def _square(state: GameState, asked: Asked) -> Outcome:
    return rules.land_on_square(state, asked.player(), asked.get("square"), asked.get("dice"), asked.get("deed"))


def _jail(name: str, rule: Callable[[GameState, str], Outcome], about: str) -> Action:
    return Action(name, _player_action(rule), (PLAYER,), reads_deeds=False, about=about)


ACTIONS = (
    Action(
        "roll",
        _roll,
        (
            PLAYER,
            Field(
                "dice",
                TEXT,
                'Which dice the server rolls (default "2d6"); "speed" and "expropriation" where the edition has '
                'them (the game\'s dice_kinds). The result is {"faces", "total", "doubles"}.',
                choices=tuple(dice.DICE),
                refusal=(BadInput, "unknown_dice"),
            ),
        ),
        reads_deeds=False,
        about="Rolls the dice on the server, kept in the journal, repeatable with the game's seed.",
    ),
    _jail("go_to_jail", rules.go_to_jail, "The acting player goes to jail."),
    _jail("pay_jail_fine", rules.pay_jail_fine, "Pays the fine and leaves jail."),
    _jail("use_jail_card", rules.use_jail_card, "Uses a get-out-of-jail card."),
    _jail("leave_jail_on_doubles", rules.leave_jail_on_doubles, "Rolled doubles: leaves jail."),
    _jail("draw_jail_card", rules.draw_jail_card, "Draws a get-out-of-jail card."),
    _jail(
        "leave_jail_after_failed_roll",
        rules.leave_jail_after_failed_roll,
        "Rolled no doubles on the last try: pays and leaves jail.",
    ),
    # The next turn remembers the player's mortgaged deeds: it reads the board.
    Action(
        "end_turn",
        _end_turn,
        (PLAYER, Field("to", TEXT, "Banker: the player who plays now.", refusal=UNKNOWN_PLAYER)),
        about="Passes the turn.",
    ),
    Action(
        "square",
        _square,
        (
            PLAYER,
            Field(
                "square",
                TEXT,
                "The key of one of the edition's squares (its amount is computed).",
                refusal=(NotFound, "unknown_square"),
            ),
            Field("dice", DICE_TOTAL, "A square that goes by the dice (a prize, a checkpoint): the dice total."),
            Field("deed", TEXT, "A square that sells a deed: the deed bought there.", refusal=UNKNOWN_DEED),
        ),
        asks_bank=True,
        about="The acting player stops on one of the edition's squares.",
    ),
)
