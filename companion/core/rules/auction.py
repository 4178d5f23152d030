"""Auctions: of a deed nobody bought, and of the bank's last buildings in a shortage."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from ..errors import N_, BadInput, BancoError, Forbidden, Money, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import BANK, move
from ..money import parse_amount
from ..policies.auction import building_opening_bid, buyer_without_bids, decliner_barred, opening_bid, waits_for_winner
from ..state import AuctionState, Change, GameState, Outcome, PlayerState
from .buildings import BIG, SMALL, building_changes, next_buildings, require_supply
from .common import acquired, clean_countdown, is_past, require_deed, require_fee_settled, stamp
from .jail import require_free


def _opened(state: GameState, auction: AuctionState, kind: str, params: dict[str, Any]) -> Outcome:
    before = state.auction.to_dict() if state.auction else None
    changes = (
        Change("auction", None, "state", before, auction.to_dict()),
        Change("game", None, "auctions_held", state.auctions_held, state.auctions_held + 1),
    )
    return Outcome(kind, changes=changes, params=dict(params, auction=auction.id), result={"auction": auction.id})


def _require_no_auction(state: GameState) -> None:
    if state.auction is not None:
        raise RuleViolation("auction_open", N_("Another auction is open: close it first."))


def auction_start(
    state: GameState, deed_key: str, now: datetime, countdown_seconds: int, decliner: str | None = None
) -> Outcome:
    """Opens an auction of a deed nobody owns at the opening bid the edition's auction policy
    gives (a fixed bid, or the deed's printed price); the countdown
    (``countdown_seconds``, a table setting) starts now and restarts at each bid.
    ``decliner`` is the player who landed on it and declined to buy it (``None``: nobody, a
    deed the banker auctions): where the edition says so (``auction.decliner_bids`` false) they
    do not bid, and the feed says so (``params["decliner"]``).

    Refuses: a game not running, an auction already open, an unknown deed, a deed someone owns,
    an unknown or bankrupt decliner, and a countdown that is not 1 to 3600 seconds.
    """
    require_running(state)
    _require_no_auction(state)
    deed, ds = require_deed(state, deed_key)
    if ds.owner is not None:
        raise RuleViolation(
            "deed_owned",
            N_("%(deed)s already belongs to %(owner)s."),
            deed=deed.name,
            owner=state.players[ds.owner].name,
        )
    if decliner is not None:
        decliner = require_player(state, decliner).id
    countdown = clean_countdown(countdown_seconds)
    opening = opening_bid(state.edition, deed)
    auction = AuctionState(
        str(state.auctions_held + 1),
        "deed",
        deed.key,
        [],
        opening,
        state.edition.auction.min_raise,
        countdown,
        stamp(now, countdown),
        decliner=decliner,
    )
    params = {"deed": deed.key, "opening_bid": opening}
    if decliner is not None and decliner_barred(state.edition, auction, decliner):
        params["decliner"] = decliner
    return _opened(state, auction, "auction_start", params)


def queued_auction(state: GameState, now: datetime, countdown_seconds: int) -> Outcome | None:
    """The next auction of the deeds a bankruptcy gave back to the bank, once no auction is
    open: the first queued deed still nobody's is auctioned, and leaves the queue (with any
    bought meanwhile). ``None`` when there is nothing to start."""
    if state.status != "running" or state.auction is not None or not state.auction_queue:
        return None
    queue = list(state.auction_queue)
    while queue:
        key = queue.pop(0)
        if _free(state, key):
            opened = auction_start(state, key, now, countdown_seconds)
            change = Change("game", None, "auction_queue", state.auction_queue, queue)
            return Outcome(
                opened.kind,
                opened.postings,
                opened.changes + (change,),
                params={**opened.params, "queued": sum(1 for k in queue if _free(state, k))},
                result=opened.result,
            )
    return Outcome("auction_queue_done", changes=(Change("game", None, "auction_queue", state.auction_queue, []),))


def _free(state: GameState, key: str) -> bool:
    ds = state.deeds.get(key)
    return ds is None or ds.owner is None


def building_auction_start(
    state: GameState, building: str, deed_keys: object, now: datetime, countdown_seconds: int
) -> Outcome:
    """Opens a shortage auction of one of the bank's last small or big buildings, when two or
    more players want more than the bank has: it opens where the edition says (a fixed bid, or
    the lowest building price among the deeds concerned), and the winner puts it on the deed
    named with their bid.

    Refuses: an edition without shortage auctions, a game not running, an auction already open,
    a building that is neither ``small`` nor ``big``, a bank with an unlimited supply or none
    left, no deeds or a repeated deed, an unknown deed, a deed that could not take that
    building now (``next_buildings``), deeds of fewer than two players, and a bad countdown.
    """
    if not state.edition.buildings.shortage_auction:
        raise RuleViolation("no_building_auctions", N_("This edition does not auction buildings."))
    require_running(state)
    _require_no_auction(state)
    if building not in (SMALL, BIG):
        raise BadInput("invalid_building", N_("The building is small or big."))
    if (state.bank_small if building == SMALL else state.bank_big) is None:
        raise RuleViolation("no_shortage", N_("The bank's buildings are unlimited: build instead."))
    require_supply(state, building)
    if not isinstance(deed_keys, (list, tuple)) or not deed_keys or len(set(map(str, deed_keys))) != len(deed_keys):
        raise BadInput("invalid_deeds", N_("Name each deed concerned once."))
    deeds, owners = [], set()
    for key in deed_keys:
        deed, ds = require_deed(state, key)
        owner = state.players[ds.owner] if ds.owner else None
        if owner is None or owner.bankrupt or building not in next_buildings(state, owner, deed, ds):
            raise RuleViolation("cannot_build_here", N_("%(deed)s cannot take this building now."), deed=deed.name)
        deeds.append(deed)
        owners.add(owner.id)
    if len(owners) < 2:
        raise RuleViolation("no_competition", N_("A shortage auction needs at least two players who want to build."))
    countdown = clean_countdown(countdown_seconds)
    opening = building_opening_bid(state.edition, deeds)
    auction = AuctionState(
        str(state.auctions_held + 1),
        building,
        None,
        [d.key for d in deeds],
        opening,
        state.edition.auction.min_raise,
        countdown,
        stamp(now, countdown),
    )
    return _opened(
        state, auction, "building_auction_start", {"building": building, "deeds": auction.deeds, "opening_bid": opening}
    )


def bid(state: GameState, player_id: str, amount: object, now: datetime, deed_key: str | None = None) -> Outcome:
    """A bid in the open auction; the countdown restarts. In a building auction ``deed_key``
    names the bidder's deed, among those concerned, that would take the building.

    Refuses: a game not running, no open auction, an unknown or bankrupt player, a player
    excluded after winning and not paying, a bid after the countdown ran out, a bad amount, a
    bid below the opening bid or below the high bid plus the minimum raise, a bid above the
    bidder's cash, the high bidder raising their own bid, a player who owes a fee on a
    mortgaged deed, and in a building auction a missing deed, a deed not concerned, and a deed
    that could not take the building.
    """
    require_running(state)
    auction = state.auction
    if auction is None:
        raise RuleViolation("no_auction", N_("No auction is open."))
    player = require_player(state, player_id)
    require_free(state, player, "bids")
    if player.id in auction.excluded:
        raise RuleViolation(
            "excluded_from_auction",
            N_("%(name)s won this auction without paying and cannot bid again."),
            name=player.name,
        )
    if decliner_barred(state.edition, auction, player.id):
        raise RuleViolation(
            "decliner_does_not_bid",
            N_("%(name)s declined to buy this deed: the auction is among the other players."),
            name=player.name,
        )
    if is_past(now, auction.ends_at):
        raise RuleViolation("auction_time_up", N_("Time is up: the banker closes the auction."))
    amount = parse_amount(amount, state.edition.max_amount)
    minimum = auction.opening_bid if auction.high_bid is None else auction.high_bid + auction.min_raise
    if amount < minimum:
        raise RuleViolation("bid_too_low", N_("The bid must be at least %(min)s."), min=Money(minimum))
    if amount > player.cash and not state.edition.auction.bids_above_cash:
        raise RuleViolation(
            "bid_above_cash", N_("%(name)s has only %(cash)s."), name=player.name, cash=Money(player.cash)
        )
    if auction.high_bidder == player.id:
        raise RuleViolation("already_high_bidder", N_("%(name)s already holds the high bid."), name=player.name)
    require_fee_settled(state, player)
    if auction.lot == "deed":
        deed_key = None
    else:
        if deed_key not in auction.deeds:
            raise BadInput("deed_not_in_auction", N_("Name one of the deeds this auction is for."))
        deed, ds = require_deed(state, deed_key)
        if auction.lot not in next_buildings(state, player, deed, ds):
            raise RuleViolation("cannot_build_here", N_("%(deed)s cannot take this building now."), deed=deed.name)
    after = replace(
        auction,
        high_bid=amount,
        high_bidder=player.id,
        high_deed=deed_key,
        ends_at=stamp(now, auction.countdown_seconds),
        excluded=list(auction.excluded),
    )
    return Outcome(
        "bid",
        changes=(Change("auction", None, "state", auction.to_dict(), after.to_dict()),),
        params={"auction": auction.id, "player": player.id, "amount": amount, "deed": deed_key},
        result={"auction": auction.id, "high_bid": amount, "ends_at": after.ends_at},
    )


def auction_close(
    state: GameState, now: datetime, award_to: str | None = None, by: str | None = None, rerun: bool = False
) -> Outcome:
    """Closes the open auction: the banker (``by`` ``None``) at any time, a player (``by``
    their id) only once the countdown has run out, and only where nobody has to choose.

    The high bidder pays and gets the deed, or the building on the deed they named. A high
    bidder who cannot (out of cash, out of the game, or whose deed can no longer take the
    building) is excluded and the auction runs again from the opening bid, unless the edition's
    ``winner_cannot_pay`` policy waits for them (``winner_raises_cash``: closing is refused
    until they have the cash; one out of the game is always excluded). With no bids the
    edition's ``no_bids`` policy decides: the deed stays with the bank, or the richest player
    still in the auction buys it at the opening bid (``award_to`` names which when several are
    equally rich: the banker's choice alone). A building nobody bid for stays with the bank.

    Where the edition lets players bid above their cash (``bids_above_cash``), a winner short
    of cash is given the time to raise it by selling or mortgaging: closing waits for them,
    and the banker may instead run the auction again without them (``rerun``).

    Refuses: a game not running, no open auction, a player closing before the countdown ran
    out, a player naming ``award_to`` or asking for a rerun, a winner still raising cash, a player closing an auction whose buyer the banker must
    choose among the equally rich (403), a winner still raising cash, a tie for the richest
    without ``award_to``, and an ``award_to`` who is not among the richest.
    """
    require_running(state)
    auction = state.auction
    if auction is None:
        raise RuleViolation("no_auction", N_("No auction is open."))
    if by is not None:
        if not is_past(now, auction.ends_at):
            raise Forbidden("auction_running", N_("The auction is still running: only the banker can close it now."))
        if award_to is not None:
            raise Forbidden("banker_decides", N_("Only the banker names who buys the deed."))
        if rerun:
            raise Forbidden("banker_only", N_("Only the banker can do this."))
    if auction.high_bidder is not None:
        winner = state.players[auction.high_bidder]
        refusal = _cannot_take(state, auction, winner)
        if refusal is None:
            assert auction.high_bid is not None  # set with the high bidder
            return _award(state, auction, winner, auction.high_bid)
        if rerun:
            return _rerun(state, auction, winner, now)
        if refusal.code == "insufficient_cash" and state.edition.auction.bids_above_cash:
            assert auction.high_bid is not None  # set with the high bidder
            raise RuleViolation(
                "winner_raising_cash",
                N_(
                    "%(name)s won at %(amount)s with %(cash)s in hand: they sell or mortgage to "
                    "raise the rest, then the auction closes; or the banker runs it again "
                    "without them."
                ),
                name=winner.name,
                amount=Money(auction.high_bid),
                cash=Money(winner.cash),
            )
        if waits_for_winner(state.edition, refusal):
            raise refusal
        return _rerun(state, auction, winner, now)
    if auction.lot == "deed":
        try:
            buyer = buyer_without_bids(state, auction, award_to)
        except RuleViolation as refusal:
            if by is not None and refusal.code == "richest_tie":
                raise Forbidden(
                    "banker_decides",
                    N_(
                        "%(names)s are equally rich: only the banker can close this auction and name who buys the deed."
                    ),
                    **refusal.params,
                ) from None
            raise
        if buyer is not None:
            return _award(state, auction, buyer, auction.opening_bid)
    return Outcome(
        "auction_unsold",
        changes=(Change("auction", None, "state", auction.to_dict(), None),),
        params={"auction": auction.id, "deed": auction.deed, "building": _building(auction)},
    )


def _building(auction: AuctionState) -> str | None:
    return None if auction.lot == "deed" else auction.lot


def _cannot_take(state: GameState, auction: AuctionState, winner: PlayerState) -> BancoError | None:
    """Why the winner cannot take the lot now, or ``None``."""
    try:
        winner = require_player(state, winner.id)
        if auction.lot != "deed":
            deed, ds = require_deed(state, auction.high_deed)
            if auction.lot not in next_buildings(state, winner, deed, ds):
                raise RuleViolation("cannot_build_here", N_("%(deed)s cannot take this building now."), deed=deed.name)
            require_supply(state, auction.lot)
        assert auction.high_bid is not None  # the winner is the high bidder
        require_cash(winner, auction.high_bid)
    except BancoError as refusal:
        return refusal
    return None


def _award(state: GameState, auction: AuctionState, winner: PlayerState, price: int) -> Outcome:
    changes = [Change("auction", None, "state", auction.to_dict(), None)]
    if auction.lot == "deed":
        _, ds = require_deed(state, auction.deed)
        changes += acquired(state, ds, winner.id)
        deed_key = auction.deed
    else:
        _, ds = require_deed(state, auction.high_deed)
        changes += building_changes(state, ds, auction.lot)
        deed_key = auction.high_deed
    return Outcome(
        "auction_won",
        move(winner.id, BANK, price),
        tuple(changes),
        params={
            "auction": auction.id,
            "player": winner.id,
            "deed": deed_key,
            "building": _building(auction),
            "amount": price,
        },
        result={"winner": winner.id, "amount": price, "deed": deed_key},
    )


def _rerun(state: GameState, auction: AuctionState, winner: PlayerState, now: datetime) -> Outcome:
    again = replace(
        auction,
        id=str(state.auctions_held + 1),
        high_bid=None,
        high_bidder=None,
        high_deed=None,
        ends_at=stamp(now, auction.countdown_seconds),
        excluded=[*auction.excluded, winner.id],
    )
    outcome = _opened(
        state, again, "auction_rerun", {"excluded": winner.id, "deed": auction.deed, "building": _building(auction)}
    )
    return replace(outcome, result={"auction": again.id, "excluded": winner.id})
