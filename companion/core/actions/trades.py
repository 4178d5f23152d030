"""The trades' actions: an offer, and the answer of the player it was offered to."""

from __future__ import annotations

from .. import rules
from ..errors import NotFound
from ..state import GameState, Outcome
from .action import PLAYER, TEXT, TRADE_SIDE, UNKNOWN_PLAYER, Action, Asked, Field

TRADE = Field("trade", TEXT, "The id of the trade offered.", refusal=(NotFound, "unknown_trade"))


def _trade_propose(state: GameState, asked: Asked) -> Outcome:
    return rules.trade_propose(
        state, asked.new_id(), asked.player(), asked.get("to"), asked.get("give"), asked.get("get")
    )


def _trade_accept(state: GameState, asked: Asked) -> Outcome:
    return rules.trade_accept(state, asked.get("trade"), asked.player())


def _trade_reject(state: GameState, asked: Asked) -> Outcome:
    return rules.trade_reject(state, asked.get("trade"), asked.player())


ACTIONS = (
    Action(
        "trade_propose",
        _trade_propose,
        (
            PLAYER,
            Field("to", TEXT, "The player offered the trade.", refusal=UNKNOWN_PLAYER),
            Field("give", TRADE_SIDE, "What the acting player gives."),
            Field("get", TRADE_SIDE, "What the acting player gets."),
        ),
        about='Offers a trade: result {"trade": "<id>"}.',
    ),
    Action(
        "trade_accept", _trade_accept, (PLAYER, TRADE), about="Only the player the trade was offered to: it is done."
    ),
    Action(
        "trade_reject", _trade_reject, (PLAYER, TRADE), about="Only the player the trade was offered to: it is off."
    ),
)
