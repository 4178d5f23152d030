"""Buying a deed from the bank, mortgaging it and lifting the mortgage, selling it back to the
bank where the edition lets owners do so."""

from __future__ import annotations

from ..editions.edition import Deed, DeedSale, Edition
from ..errors import N_, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import BANK, move
from ..money import percent_up
from ..policies import mortgage as policy
from ..state import GameState, Outcome
from .common import (
    acquired,
    deed_changes,
    has_buildings,
    mortgage_blocked_by_buildings,
    require_deed,
    require_fee_settled,
    require_owner,
    transfer_fee,
)


def lift_cost(edition: Edition, deed: Deed) -> int:
    """What lifting the mortgage on ``deed`` costs: its value plus the edition's interest,
    rounded up to a whole unit. Refuses an edition without mortgages."""
    return policy.lift_cost(edition, deed)


def buy(state: GameState, player_id: str, deed_key: str) -> Outcome:
    """The player buys a deed nobody owns from the bank at its printed price.

    Refuses: a game not running, an unknown or bankrupt player, an unknown deed, a deed that
    someone owns or that is being auctioned, a player who owes a fee on a mortgaged deed they
    received, and a player without the cash.
    """
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    if ds.owner is not None:
        raise RuleViolation(
            "deed_owned",
            N_("%(deed)s already belongs to %(owner)s."),
            deed=deed.name,
            owner=state.players[ds.owner].name,
        )
    if state.auction is not None and state.auction.deed == deed.key:
        raise RuleViolation("deed_in_auction", N_("%(deed)s is being auctioned."), deed=deed.name)
    require_fee_settled(state, player)
    require_cash(player, deed.price)
    return Outcome(
        "buy",
        move(player.id, BANK, deed.price),
        tuple(acquired(state, ds, player.id)),
        params={"player": player.id, "deed": deed.key, "amount": deed.price},
        result={"deed": deed.key, "amount": deed.price},
    )


def mortgage(state: GameState, player_id: str, deed_key: str) -> Outcome:
    """The bank pays the owner the deed's printed mortgage value and the deed turns face down.
    Under a mortgage with a lap deadline the deed remembers the owner's lap count.

    Refuses: an edition without mortgages, a game not running, an unknown or bankrupt player,
    an unknown deed, a deed that is not the player's, one already mortgaged, one without a
    mortgage value, and a deed whose group still has buildings (they must be sold first), or
    whose own buildings stand where the edition's mortgage reaches the deed alone.
    """
    policy.require_terms(state.edition)
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    require_owner(player, deed, ds)
    if ds.mortgaged:
        raise RuleViolation("already_mortgaged", N_("%(deed)s is already mortgaged."), deed=deed.name)
    if deed.mortgage == 0:
        raise RuleViolation("no_mortgage_value", N_("%(deed)s cannot be mortgaged."), deed=deed.name)
    if mortgage_blocked_by_buildings(state, deed, ds):
        if state.edition.mortgage.reach == "deed":
            raise RuleViolation(
                "deed_has_buildings", N_("Sell the buildings on %(deed)s before mortgaging it."), deed=deed.name
            )
        raise RuleViolation(
            "group_has_buildings", N_("Sell the buildings of %(deed)s's group before mortgaging it."), deed=deed.name
        )
    return Outcome(
        "mortgage",
        move(BANK, player.id, deed.mortgage),
        tuple(deed_changes(ds, mortgaged=True, mortgage_lap=policy.mortgaged_at(state.edition, player))),
        params={"player": player.id, "deed": deed.key, "amount": deed.mortgage},
        result={"deed": deed.key, "amount": deed.mortgage},
    )


def unmortgage(state: GameState, player_id: str, deed_key: str) -> Outcome:
    """The owner lifts the mortgage: its value plus the edition's interest, rounded up.

    Lifting also settles the fee owed on a deed received mortgaged (the rules let the receiver
    lift at once instead of paying the fee). Refuses: a game not running, an unknown or
    bankrupt player, an unknown deed, a deed that is not the player's, one not mortgaged, and a
    player without the cash.
    """
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    require_owner(player, deed, ds)
    if not ds.mortgaged:
        raise RuleViolation("not_mortgaged", N_("%(deed)s is not mortgaged."), deed=deed.name)
    amount = lift_cost(state.edition, deed)
    require_cash(player, amount)
    return Outcome(
        "unmortgage",
        move(player.id, BANK, amount),
        tuple(deed_changes(ds, mortgaged=False, fee_due=False, mortgage_lap=None)),
        params={"player": player.id, "deed": deed.key, "amount": amount},
        result={"deed": deed.key, "amount": amount},
    )


def pay_mortgage_fee(state: GameState, player_id: str, deed_key: str) -> Outcome:
    """The receiver of a mortgaged deed pays the edition's transfer fee and keeps it mortgaged
    (lifting it later costs the usual value plus interest).

    Refuses: a game not running, an unknown or bankrupt player, an unknown deed, a deed that is
    not the player's, one that owes no fee, and a player without the cash (who then lifts
    nothing and goes bankrupt to the bank, as the rules say).
    """
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    require_owner(player, deed, ds)
    if not ds.fee_due:
        raise RuleViolation("no_fee_due", N_("No fee is due on %(deed)s."), deed=deed.name)
    amount = transfer_fee(state, deed)
    require_cash(player, amount)
    postings = move(player.id, BANK, amount) if amount else ()
    return Outcome(
        "pay_mortgage_fee",
        postings,
        tuple(deed_changes(ds, fee_due=False)),
        params={"player": player.id, "deed": deed.key, "amount": amount},
        result={"deed": deed.key, "amount": amount},
    )


def _require_deed_sale(edition: Edition) -> DeedSale:
    if edition.deed_sale is None:
        raise RuleViolation("no_deed_sale", N_("In this edition deeds cannot be sold to the bank."))
    return edition.deed_sale


def sale_price(edition: Edition, deed: Deed) -> int:
    """What the bank pays the owner for ``deed``: the edition's ``deed_sale.percent`` of its
    price, rounded up. Refuses an edition where deeds are not sold to the bank."""
    return percent_up(deed.price, _require_deed_sale(edition).percent)


def sell_to_bank(state: GameState, player_id: str, deed_key: str) -> Outcome:
    """The owner sells a deed back to the bank at the edition's share of its price (Niente è
    come sembra: the purchase price); the deed is free again, to be bought or auctioned. A
    player in jail may sell too.

    Refuses: an edition where deeds are not sold to the bank, a game not running, an unknown or
    bankrupt player, an unknown deed, a deed that is not the player's, a deed with buildings on
    it (they are sold to the bank first, at half), and a mortgaged deed (lifted first).
    """
    _require_deed_sale(state.edition)
    require_running(state)
    player = require_player(state, player_id)
    deed, ds = require_deed(state, deed_key)
    require_owner(player, deed, ds)
    price = sale_price(state.edition, deed)
    if has_buildings(ds):
        raise RuleViolation(
            "deed_sale_buildings_first",
            N_("Sell the buildings on %(deed)s to the bank first: then the deed."),
            deed=deed.name,
        )
    if ds.mortgaged:
        raise RuleViolation(
            "deed_sale_mortgaged",
            N_("%(deed)s is mortgaged: lift the mortgage before selling it to the bank."),
            deed=deed.name,
        )
    return Outcome(
        "sell_to_bank",
        move(BANK, player.id, price),
        tuple(deed_changes(ds, owner=None, fee_due=False, mortgage_lap=None, taken_turn=None)),
        params={"player": player.id, "deed": deed.key, "amount": price},
        result={"deed": deed.key, "amount": price},
    )
