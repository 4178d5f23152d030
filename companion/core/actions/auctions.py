"""The auctions' actions: a deed's auction, the bank's last building, bids and the close."""

from __future__ import annotations

from .. import rules
from ..counterfeits import notes
from ..errors import N_, BadInput, Np_
from ..state import GameState, Outcome
from .action import (
    AMOUNT,
    BIDS,
    FLAG,
    INVALID_BUILDING,
    NOBODYS,
    OPENS_BIDDING,
    PLAYER,
    TEXT,
    TEXTS,
    UNKNOWN_DEED,
    UNKNOWN_PLAYER,
    Action,
    Asked,
    Field,
    Offer,
)
from .lines import BIDDER, MINUS, OUTBID, Line, Say, Tell, has, line

INVALID_DEEDS = (BadInput, "invalid_deeds")


def _auction_start(state: GameState, asked: Asked) -> Outcome:
    """A player who opens a deed's auction is the one who landed on it and declined to buy it
    (where the edition says so, they do not bid); the banker names that player as ``player``,
    or opens it for everyone."""
    decliner = asked.get("player") if asked.by.is_banker else asked.player()
    return rules.auction_start(state, asked.get("deed"), asked.now, state.setting("auction_seconds"), decliner)


def _building_auction_start(state: GameState, asked: Asked) -> Outcome:
    return rules.building_auction_start(
        state, asked.get("building"), asked.get("deeds"), asked.now, state.setting("auction_seconds")
    )


def _break_shared(state: GameState, asked: Asked) -> Outcome:
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


# A deed's auction and the last building's open alike: the entry's params say which.
_OPENING_LINE = Line(
    (
        Say(
            N_("The bank's last %(building)s is up for auction, opening at %(amount)s."),
            {"building": "building building", "amount": "money opening_bid"},
            when=has("building"),
        ),
        Say(
            N_("%(deed)s is up for auction, opening at %(amount)s."),
            {"deed": "deed deed", "amount": "money opening_bid"},
        ),
    ),
    (
        Say.counted(
            Np_(
                "%(num)d more deed of the bankrupt player to auction after this one.",
                "%(num)d more deeds of the bankrupt player to auction after this one.",
            ),
            count="queued",
            when=lambda p, e: not p.get("building") and bool(p.get("queued")),
        ),
        Say(
            N_("%(name)s declined to buy it and does not bid."),
            {"name": "who decliner"},
            when=lambda p, e: not p.get("building") and bool(p.get("decliner")),
        ),
    ),
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
        line=_OPENING_LINE,
        offers=(
            Offer(
                NOBODYS,
                (
                    Say(N_("Auction it"), when=lambda p, e: e.auction.decliner_bids),
                    Say(N_("Decline: auction it among the others")),
                ),
                landing=True,
            ),
        ),
        bidding=OPENS_BIDDING,
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
        banker_only=True,
        line=_OPENING_LINE,
        bidding=OPENS_BIDDING,
        about="Banker: auctions the bank's last building among the deeds that want it.",
    ),
    Action(
        "break_shared",
        _break_shared,
        (Field("deeds", TEXTS, "The deeds whose big buildings break at the same moment.", refusal=INVALID_DEEDS),),
        banker_only=True,
        line=line(
            N_(
                "Big buildings broken at once on %(deeds)s: %(each)s small ones each from the bank, and half "
                "the price of each missing one (%(amount)s in all)."
            ),
            deeds="deeds deeds",
            each="text each",
            amount="money amount",
        ),
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
        line=line(N_("%(name)s bid %(amount)s."), name="who player", amount="money amount"),
        told=(
            Tell(
                Say(N_("%(name)s outbid you: %(amount)s."), {"name": "who player", "amount": "money amount"}), to=OUTBID
            ),
        ),
        quiet=True,
        bidding=BIDS,
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

# An auction's outcome concerns every bidder, whoever closed it.
TOLD: dict[str, tuple[Tell, ...]] = {
    "auction_won": (
        Tell(
            Say(N_("You won %(what)s for %(amount)s."), {"what": "won_here deed", "amount": "money amount"}),
            to="player",
            tone=MINUS,
            even_mine=True,
        ),
        Tell(
            Say(
                N_("%(name)s won %(what)s for %(amount)s."),
                {"name": "who player", "what": "won_here deed", "amount": "money amount"},
            ),
            to=BIDDER,
            even_mine=True,
        ),
    ),
}

# How the entries that follow from these actions follow an auction's bidders (as ``bidding``).
BIDDING: dict[str, str] = {"auction_rerun": OPENS_BIDDING}

# The entries that follow from these actions (or from the table), in words.
ENTRIES: dict[str, Line] = {
    "auction_queue_done": line(N_("Every deed of the bankrupt player has been auctioned or sold.")),
    "auction_won": line(
        N_("%(name)s won %(what)s at auction for %(amount)s."),
        name="who player",
        what="won deed",
        amount="money amount",
    ),
    "auction_unsold": line(N_("Nobody bid: the bank keeps %(what)s."), what="unsold deed"),
    "auction_rerun": line(N_("%(name)s cannot pay: the auction starts again without them."), name="who excluded"),
}
