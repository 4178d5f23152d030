"""Bankruptcy: a player who cannot pay hands everything over and leaves the game."""
from __future__ import annotations

from ..commands import require_player, require_running
from ..errors import N_, BadInput
from ..ledger import BANK, move
from .. import pending
from ..state import Change, GameState, Outcome
from .common import bank_changes, deed_changes, player_changes, sale_value


def bankrupt(state: GameState, player_id: str, creditor: str) -> Outcome:
    """``player_id`` goes bankrupt to ``creditor`` (``"bank"`` or a player id) and is out.

    To the bank: the cash goes to the bank, every deed goes back unmortgaged and unbuilt to be
    auctioned one by one (``result["to_auction"]``), buildings return to the bank's supply and
    get-out-of-jail cards go back to the decks. To a player: the buildings are sold to the bank
    at the edition's share, then the cash, the deeds (mortgaged ones stay so, and the creditor
    owes the transfer fee at once or lifts them) and the cards go to the creditor. Either way
    the player's pending trades and requests for money (rent requests among them) are dropped; if they hold the high bid, the
    auction's close runs it again without them.

    Refuses: a game not running, an unknown or already bankrupt player, an unknown or
    bankrupt creditor, and a player going bankrupt to themselves.
    """
    require_running(state)
    debtor = require_player(state, player_id)
    to_bank = creditor == BANK
    if not to_bank:
        if creditor == debtor.id:
            raise BadInput("same_account", N_("A player cannot go bankrupt to themselves."))
        creditor_player = require_player(state, creditor)
    fee_percent = state.edition.rules.mortgaged_transfer_fee_percent
    owned = [(d, state.deeds[d.key]) for d in state.edition.deeds
             if d.key in state.deeds and state.deeds[d.key].owner == debtor.id]
    changes, small, big, proceeds = [], 0, 0, 0
    for deed, ds in owned:
        built = ds.houses + (state.edition.buildings.max_small + 1 if ds.hotel else 0)
        proceeds += built * sale_value(state, deed)
        small, big = small + ds.houses, big + int(ds.hotel)
        if to_bank:
            changes += deed_changes(ds, owner=None, mortgaged=False, houses=0, hotel=False, fee_due=False)
        else:
            changes += deed_changes(ds, owner=creditor, houses=0, hotel=False,
                                    fee_due=ds.fee_due or (ds.mortgaged and fee_percent > 0))
    changes += bank_changes(state, small=small, big=big)
    changes += player_changes(debtor, bankrupt=True, jail_cards=0)
    postings = ()
    if to_bank:
        if debtor.cash:
            postings = move(debtor.id, BANK, debtor.cash)
    else:
        changes += player_changes(creditor_player, jail_cards=creditor_player.jail_cards + debtor.jail_cards)
        if proceeds:
            postings += move(BANK, debtor.id, proceeds)
        if debtor.cash + proceeds:
            postings += move(debtor.id, creditor, debtor.cash + proceeds)
    changes += [Change("trade", t.id, "state", t.to_dict(), None) for t in state.trades.values()
                if debtor.id in (t.proposer, t.recipient)]
    changes += pending.drop_for(state, debtor.id)
    deeds = [d.key for d, _ in owned]
    handed = debtor.cash if to_bank else debtor.cash + proceeds
    fees_due = [d.key for d, ds in owned if not to_bank and (ds.fee_due or (ds.mortgaged and fee_percent > 0))]
    return Outcome("bankrupt", postings, tuple(changes),
                   params={"player": debtor.id, "creditor": creditor, "cash": handed,
                           "deeds": deeds},
                   result={"to_auction": deeds if to_bank else [], "fees_due": fees_due})
