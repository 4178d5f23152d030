"""Bankruptcy: a player who cannot pay hands everything over and leaves the game."""

from __future__ import annotations

from dataclasses import dataclass

from .. import pending
from ..errors import N_, BadInput
from ..guards import require_player, require_running
from ..ledger import BANK, Posting, move
from ..money import parse_amount
from ..policies.bankruptcy import handover
from ..policies.mortgage import handed_over_lap, terms
from ..state import FINISHED, Change, GameState, Outcome, document_change
from ..turns import mortgaged_this_turn, passed_on_leaving
from .buildings import buildings_value
from .common import bank_changes, deed_changes, has_buildings, player_changes
from .deeds import sale_price
from .expropriation import dropped_for


@dataclass(frozen=True)
class Liquidation:
    """What a player could still raise from the bank before going bankrupt, part by part:
    selling every building back, then mortgaging every deed that can be (or, where the
    edition buys deeds back, selling it to the bank when that pays more)."""

    buildings: int = 0
    mortgages: int = 0
    deed_sales: int = 0

    @property
    def total(self) -> int:
        return self.buildings + self.mortgages + self.deed_sales


def liquidation_value(state: GameState, player_id: str) -> Liquidation:
    """What ``player_id`` could raise now by selling their buildings to the bank and mortgaging
    their deeds (or selling them back, where the edition's ``deed_sale`` allows), by the
    edition's numbers: each building at the bank's price (``buildings_value``, what a
    bankruptcy's sale pays too), each deed not yet mortgaged at its printed mortgage value
    (none where the edition has no mortgages, as in Che Impresa!) or its sale price.

    Buildings come first because a deed cannot be mortgaged or sold while its group has any;
    once they are sold, every deed may be. Reads the board; never refuses (an unknown player
    has nothing to raise)."""
    can_mortgage = terms(state.edition) is not None
    buildings = mortgages = deed_sales = 0
    for deed in state.edition.deeds:
        ds = state.deeds.get(deed.key)
        if ds is None or ds.owner != player_id:
            continue
        if has_buildings(ds):
            buildings += buildings_value(state, deed, ds)
        if ds.mortgaged:
            continue
        mortgage = deed.mortgage if can_mortgage else 0
        sale = sale_price(state.edition, deed) if state.edition.deed_sale is not None else 0
        if sale > mortgage:
            deed_sales += sale
        else:
            mortgages += mortgage
    return Liquidation(buildings, mortgages, deed_sales)


def bankrupt(state: GameState, player_id: str, creditor: str, amount: object = None) -> Outcome:
    """``player_id`` goes bankrupt to ``creditor`` (``"bank"`` or a player id), owing
    ``amount`` (needed only when the edition's bankruptcy policy pays the creditor a share of
    the debt), and is out.

    The edition's bankruptcy policy says who receives everything: the creditor, or the bank
    (which then pays a creditor player its share of the debt). To the bank: the cash goes to
    the bank, every deed goes back unmortgaged and unbuilt to be auctioned one by one
    (``result["to_auction"]``), buildings return to the bank's supply and get-out-of-jail cards
    go back to the decks; those deeds wait in the game's auction queue, auctioned one after
    another. To a player: the buildings are sold to the bank at the edition's
    share, then the cash, the deeds (mortgaged ones stay so, and the creditor owes the transfer
    fee at once or lifts them) and the cards go to the creditor; where the edition says so
    (``turn_start_state``) a deed mortgaged in the debtor's own turn passes unmortgaged and its
    mortgage money goes back to the bank. Either way the player's
    pending trades and requests for money (rent requests among them) are dropped; if they hold
    the high bid, the auction's close runs it again without them.

    When only one player is left, that player has won and the game ends with it
    (``result["winner"]``). A player going bankrupt in their own turn, where the bank keeps
    the turns, hands it to the next player.

    Refuses: a game not running, an unknown or already bankrupt player, an unknown or bankrupt
    creditor, a player going bankrupt to themselves, an amount that is not a whole number from
    1 to the edition's ceiling, and a missing amount when the policy needs it.
    """
    require_running(state)
    debtor = require_player(state, player_id)
    if creditor != BANK:
        if creditor == debtor.id:
            raise BadInput("same_account", N_("A player cannot go bankrupt to themselves."))
        require_player(state, creditor)
    debt = None if amount is None else parse_amount(amount, state.edition.max_amount)
    estate = handover(state.edition, creditor, debt)
    to_bank = estate.heir == BANK
    heir = None if to_bank else state.players[estate.heir]
    fee_percent = state.edition.mortgage.transfer_fee_percent
    owned = [
        (d, state.deeds[d.key])
        for d in state.edition.deeds
        if d.key in state.deeds and state.deeds[d.key].owner == debtor.id
    ]
    changes, small, big, proceeds = [], 0, 0, 0
    # A creditor player gets the deeds as they were when the turn began: one mortgaged in it
    # passes unmortgaged, and its mortgage money goes back to the bank (FAQ 32).
    undone = (
        mortgaged_this_turn(state, debtor.id) if not to_bank and state.edition.bankruptcy.turn_start_state else set()
    )
    for deed, ds in owned:
        proceeds += buildings_value(state, deed, ds)
        small, big = small + ds.houses, big + int(ds.hotel)
        if to_bank:
            changes += deed_changes(
                ds, owner=None, mortgaged=False, houses=0, hotel=False, fee_due=False, mortgage_lap=None
            )
        elif deed.key in undone:
            assert heir is not None  # a creditor player (nothing is undone for the bank)
            changes += deed_changes(
                ds, owner=heir.id, houses=0, hotel=False, mortgaged=False, fee_due=False, mortgage_lap=None
            )
        else:
            assert heir is not None  # a creditor player
            changes += deed_changes(
                ds,
                owner=heir.id,
                houses=0,
                hotel=False,
                fee_due=ds.fee_due or (ds.mortgaged and fee_percent > 0),
                mortgage_lap=handed_over_lap(ds, debtor, heir),
            )
    changes += bank_changes(state, small=small, big=big)
    out_order = 1 + sum(1 for p in state.players.values() if p.bankrupt)
    changes += player_changes(debtor, bankrupt=True, jail_cards=0, out_order=out_order)
    postings: tuple[Posting, ...] = ()
    if to_bank:
        if debtor.cash:
            postings = move(debtor.id, BANK, debtor.cash)
        if estate.bank_pays:
            postings += move(BANK, creditor, estate.bank_pays)
    else:
        assert heir is not None  # a creditor player
        changes += player_changes(heir, jail_cards=heir.jail_cards + debtor.jail_cards)
        if proceeds:
            postings += move(BANK, debtor.id, proceeds)
        taken_back = min(debtor.cash + proceeds, sum(d.mortgage for d, _ in owned if d.key in undone))
        if taken_back:
            postings += move(debtor.id, BANK, taken_back)
        if debtor.cash + proceeds - taken_back:
            postings += move(debtor.id, heir.id, debtor.cash + proceeds - taken_back)
    changes += [
        Change("trade", t.id, "state", t.to_dict(), None)
        for t in state.trades.values()
        if debtor.id in (t.proposer, t.recipient)
    ]
    changes += pending.drop_for(state, debtor.id)
    changes += dropped_for(state, debtor.id)
    deeds = [d.key for d, _ in owned]
    handed = debtor.cash if to_bank else debtor.cash + proceeds - taken_back
    fees_due = [
        d.key
        for d, ds in owned
        if not to_bank and d.key not in undone and (ds.fee_due or (ds.mortgaged and fee_percent > 0))
    ]
    params = {"player": debtor.id, "creditor": creditor, "cash": handed, "deeds": deeds}
    if debt is not None:
        params.update(debt=debt, creditor_paid=estate.bank_pays)
    result = {"to_auction": deeds if to_bank else [], "fees_due": fees_due, "creditor_paid": estate.bank_pays}
    left = [p for p in state.active_players() if p.id != debtor.id]
    if len(left) > 1:
        changes += passed_on_leaving(state, debtor.id)
        if to_bank and deeds:
            # Auctioned one after another, each as soon as no other auction is open.
            changes.append(
                Change("game", None, "auction_queue", state.auction_queue, list(state.auction_queue) + deeds)
            )
    if len(left) == 1:
        # The last player standing has won: the game ends by itself, with nothing left to auction.
        dropped = {c.ref for c in changes if c.target == "pending"}
        changes += [Change("game", None, "status", state.status, FINISHED)]
        changes += [document_change("pending", p.id, p, None) for p in state.pending.values() if p.id not in dropped]
        params["winner"] = result["winner"] = left[0].id
        result["to_auction"] = []
    return Outcome("bankrupt", postings, tuple(changes), params=params, result=result)
