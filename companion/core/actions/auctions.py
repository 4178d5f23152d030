"""The auctions' actions: a deed's auction, the bank's last building, bids and the close."""

from __future__ import annotations

from .. import rules
from ..counterfeits import notes
from ..errors import BadInput
from ..state import GameState, Outcome
from .action import (
    AMOUNT,
    FLAG,
    INVALID_BUILDING,
    PLAYER,
    TEXT,
    TEXTS,
    UNKNOWN_DEED,
    UNKNOWN_PLAYER,
    Action,
    Asked,
    Field,
)

INVALID_DEEDS = (BadInput, "invalid_deeds")


def _auction_start(state: GameState, asked: Asked) -> Outcome:
    """A player who opens a deed's auction is the one who landed on it and declined to buy it
    (where the edition says so, they do not bid); the banker names that player as ``player``,
    or opens it for everyone."""
    decliner = asked.get("player") if asked.by.is_banker else asked.player()
    return rules.auction_start(state, asked.get("deed"), asked.now, state.setting("auction_seconds"), decliner)


def _building_auction_start(state: GameState, asked: Asked) -> Outcome:
    asked.banker_only()
    return rules.building_auction_start(
        state, asked.get("building"), asked.get("deeds"), asked.now, state.setting("auction_seconds")
    )


def _break_shared(state: GameState, asked: Asked) -> Outcome:
    asked.banker_only()
    return rules.break_shared(state, asked.get("deeds"))


def _bid(state: GameState, asked: Asked) -> Outcome:
    outcome = rules.bid(state, asked.player(), asked.get("amount"), asked.now, asked.get("deed"))
    if notes.active(state):
        notes.require_notes(state, asked.get("amount"))  # the winner pays it in notes
    return outcome


def _auction_close(state: GameState, asked: Asked) -> Outcome:
    """The banker closes an auction at any time and alone names who buys among the equally
    rich; a player closes only an auction whose countdown ran out and whose buyer nobody has
    to choose (``rules.auction_close`` says which)."""
    return rules.auction_close(
        state,
        asked.now,
        asked.get("award_to"),
        by=None if asked.by.is_banker else asked.by.player_id,
        rerun=asked.get("rerun") is True,
    )


ACTIONS = (
    Action(
        "auction_start",
        _auction_start,
        (
            Field(
                "player",
                TEXT,
                "The player who declined the deed (where the edition says so, they do not bid).",
                refusal=UNKNOWN_PLAYER,
            ),
            Field("deed", TEXT, "A deed nobody owns.", refusal=UNKNOWN_DEED),
        ),
        about="Opens an auction of a deed nobody owns.",
    ),
    Action(
        "building_auction_start",
        _building_auction_start,
        (
            Field(
                "building",
                TEXT,
                "The building the bank has one left of.",
                choices=("small", "big"),
                refusal=INVALID_BUILDING,
            ),
            Field("deeds", TEXTS, "The deeds that want the building.", refusal=INVALID_DEEDS),
        ),
        about="Banker: auctions the bank's last building among the deeds that want it.",
    ),
    Action(
        "break_shared",
        _break_shared,
        (Field("deeds", TEXTS, "The deeds whose big buildings break at the same moment.", refusal=INVALID_DEEDS),),
        about="Banker: breaks big buildings at once when the bank lacks the small ones.",
    ),
    Action(
        "bid",
        _bid,
        (
            PLAYER,
            Field("amount", AMOUNT, "The bid, above the high bid."),
            Field("deed", TEXT, "In a building auction: the deed the building goes on."),
        ),
        about="A bid in the open auction.",
    ),
    Action(
        "auction_close",
        _auction_close,
        (
            Field("award_to", TEXT, "The richest player to award, on a tie.", refusal=UNKNOWN_PLAYER),
            Field("rerun", FLAG, "Banker: run the auction again without a winner who cannot pay."),
        ),
        about="Awards the deed to the high bidder, who pays.",
    ),
)
