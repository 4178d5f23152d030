"""The expropriation's actions (Monopoly Città): the attempt, its dice, and what is left owed."""

from __future__ import annotations

from .. import rules
from ..errors import BadInput
from ..state import GameState, Outcome
from .action import PLAYER, TEXT, UNKNOWN_DEED, Action, Asked, Field


def _expropriation_start(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_start(state, asked.new_id(), asked.player(), asked.get("deed"), asked.get("via", "rent"))


def _expropriation_roll(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_roll(state, asked.player(), asked.get("face"))


def _expropriation_settle(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_settle(state, asked.player())


ACTIONS = (
    Action(
        "expropriation_start",
        _expropriation_start,
        (
            PLAYER,
            Field("deed", TEXT, "The deed to expropriate.", refusal=UNKNOWN_DEED),
            Field(
                "via",
                TEXT,
                '"rent" (default: just paid on the deed) or a square that allows one.',
                refusal=(BadInput, "invalid_via"),
            ),
        ),
        about="Tries to expropriate a deed from its owner.",
    ),
    Action(
        "expropriation_roll",
        _expropriation_roll,
        (
            PLAYER,
            Field(
                "face",
                TEXT,
                "The face the box's die shows; left out, the server rolls a virtual die.",
                refusal=(BadInput, "invalid_face"),
            ),
        ),
        about="One roll of the expropriation's dice.",
    ),
    Action(
        "expropriation_settle",
        _expropriation_settle,
        (PLAYER,),
        about="Pays what the expropriation left owed.",
    ),
)
