"""The trades' actions: an offer, and the answer of the player it was offered to."""

from __future__ import annotations

from .. import rules
from ..errors import N_, NotFound
from ..state import GameState, Outcome
from .action import PLAYER, TEXT, TRADE_SIDE, UNKNOWN_PLAYER, Action, Asked, Field
from .lines import Line, Say, Tell, line

# A trade in words: who offers it to whom, and its two sides.
SIDES = {"from": "who from", "to": "who to", "give": "trade give", "get": "trade get"}
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
        line=line(N_("%(from)s offered %(to)s a trade: %(give)s for %(get)s."), **SIDES),
        told=(
            Tell(
                Say(
                    N_("%(name)s offers you a trade: %(give)s for %(get)s."),
                    {"name": "who from", "give": "trade give", "get": "trade get"},
                ),
                to="to",
            ),
        ),
        about='Offers a trade: result {"trade": "<id>"}.',
    ),
    Action(
        "trade_accept",
        _trade_accept,
        (PLAYER, TRADE),
        line=line(N_("%(to)s accepted %(from)s's trade: %(give)s for %(get)s."), **SIDES),
        told=(Tell(Say(N_("%(name)s accepted your trade."), {"name": "who to"}), to="from"),),
        about="Only the player the trade was offered to: it is done.",
    ),
    Action(
        "trade_reject",
        _trade_reject,
        (PLAYER, TRADE),
        line=line(N_("%(to)s refused %(from)s's trade."), **{"from": "who from", "to": "who to"}),
        told=(Tell(Say(N_("%(name)s refused your trade."), {"name": "who to"}), to="from"),),
        about="Only the player the trade was offered to: it is off.",
    ),
)

# The entries that follow from these actions (or from the table), in words.
ENTRIES: dict[str, Line] = {
    "trade_withdraw": line(
        N_("%(from)s withdrew the trade offered to %(to)s."), **{"from": "who from", "to": "who to"}
    ),
}
