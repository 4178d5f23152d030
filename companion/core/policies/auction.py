"""Auctions: where a deed's auction opens, and how it ends without a paying winner."""

from __future__ import annotations

from collections.abc import Iterable

from ..editions.edition import Deed, Edition
from ..errors import N_, BadInput, BancoError, RuleViolation
from ..state import AuctionState, GameState, PlayerState
from . import pick


def fixed_opening(edition: Edition, deed: Deed) -> int:
    """The edition's ``opening_bid``, for every deed."""
    assert edition.auction.opening_bid is not None  # the schema requires it with this policy
    return edition.auction.opening_bid


def printed_price(edition: Edition, deed: Deed) -> int:
    """The deed's printed price (Petropolis)."""
    return deed.price


POLICIES = {"fixed_opening": fixed_opening, "printed_price": printed_price}


def opening_bid(edition: Edition, deed: Deed) -> int:
    return pick(POLICIES, edition.auction.policy, "auction")(edition, deed)


def decliner_barred(edition: Edition, auction: AuctionState, player_id: str) -> bool:
    """Whether ``player_id`` is the player who declined to buy the deed, where the edition keeps
    them out of its auction (``decliner_bids`` false: Petropolis auctions among the others)."""
    return not edition.auction.decliner_bids and auction.decliner is not None and auction.decliner == player_id


def building_opening_bid(edition: Edition, deeds: Iterable[Deed]) -> int:
    """Where a building shortage auction opens: the edition's ``buildings.shortage_opening_bid``
    (Motopolis: 50), or else the lowest building price among the ``deeds`` concerned."""
    fixed = edition.buildings.shortage_opening_bid
    if fixed is not None:
        return fixed
    return min(cost for d in deeds if (cost := d.building_cost) is not None)  # buildable deeds all have one


def deed_stays_with_bank(state: GameState, auction: AuctionState, award_to: str | None) -> PlayerState | None:
    """Nobody gets the deed."""
    return None


def richest_buys_at_opening_bid(state: GameState, auction: AuctionState, award_to: str | None) -> PlayerState | None:
    """The richest player still in the auction who can pay the opening bid buys at it
    (``award_to`` names which when several are equally rich). Refuses a tie without
    ``award_to`` and an ``award_to`` who is not among the richest."""
    eligible = [
        p
        for p in state.active_players()
        if p.id not in auction.excluded
        and p.cash >= auction.opening_bid
        and not decliner_barred(state.edition, auction, p.id)
    ]
    if not eligible:
        return None
    top = max(p.cash for p in eligible)
    richest = [p for p in eligible if p.cash == top]
    if award_to is not None:
        chosen = next((p for p in richest if p.id == award_to), None)
        if chosen is None:
            raise BadInput("not_richest", N_("The deed goes to the richest player."))
        return chosen
    if len(richest) > 1:
        raise RuleViolation(
            "richest_tie",
            N_("%(names)s are equally rich: the banker names who gets the deed."),
            names=", ".join(p.name for p in richest),
        )
    return richest[0]


NO_BIDS = {"deed_stays_with_bank": deed_stays_with_bank, "richest_buys_at_opening_bid": richest_buys_at_opening_bid}


def buyer_without_bids(state: GameState, auction: AuctionState, award_to: str | None) -> PlayerState | None:
    """Who gets a deed nobody bid for, by the edition's ``no_bids`` policy (``None``: nobody)."""
    return pick(NO_BIDS, state.edition.auction.no_bids, "no_bids")(state, auction, award_to)


def winner_raises_cash(refusal: BancoError) -> bool:
    """A winner short of cash is waited for; one who cannot take the lot for another reason
    is not."""
    return refusal.code == "insufficient_cash"


def rerun_without_winner(refusal: BancoError) -> bool:
    """The auction runs again without the winner, whatever stops them."""
    return False


WINNER_CANNOT_PAY = {"winner_raises_cash": winner_raises_cash, "rerun_without_winner": rerun_without_winner}


def waits_for_winner(edition: Edition, refusal: BancoError) -> bool:
    """Whether closing waits for a winner who cannot take the lot for ``refusal`` (else the
    auction runs again without them)."""
    return pick(WINNER_CANNOT_PAY, edition.auction.winner_cannot_pay, "winner_cannot_pay")(refusal)
