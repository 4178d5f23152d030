"""Bankruptcy: a player who cannot pay hands everything over and leaves the game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .. import pending
from ..errors import N_, BadInput, BancoError, Money, NotFound, RuleViolation
from ..guards import require_player, require_running
from ..ledger import BANK, Posting, move
from ..money import parse_amount, percent_up
from ..policies.bankruptcy import handover
from ..policies.mortgage import handed_over_lap, terms
from ..state import FINISHED, PAYER, Change, GameState, Outcome, document_change
from ..turns import mortgaged_this_turn, passed_on_leaving
from .buildings import buildings_value
from .common import bank_changes, deed_changes, group_of, has_buildings, player_changes, require_deed
from .deeds import sale_price
from .expropriation import dropped_for
from .rent import rent_owed


@dataclass(frozen=True)
class Liquidation:
    """What a player could still raise before going bankrupt, part by part: selling every
    building back, then mortgaging every deed that can be (or, where the edition buys deeds
    back, selling it to the bank when that pays more); where the edition does neither but
    counts the deeds all the same (``bankruptcy.free_deeds_percent``), the deeds at that share
    of their price (``free_deeds``: sold to other players). ``cash`` is what the player holds."""

    buildings: int = 0
    mortgages: int = 0
    deed_sales: int = 0
    free_deeds: int = 0
    cash: int = 0

    @property
    def total(self) -> int:
        """What could still be raised, cash aside."""
        return self.buildings + self.mortgages + self.deed_sales + self.free_deeds

    @property
    def payable(self) -> int:
        """The largest debt the player could still pay: cash and everything they could raise."""
        return self.cash + self.total


@dataclass(frozen=True)
class Debt:
    """What a player says they cannot pay: ``kind`` ``"rent"`` (on the deed ``ref``),
    ``"request"`` (the request ``ref`` waiting on them), ``"payment"`` (the edition's fixed
    payment ``ref``: a tax, a fine) or ``"amount"`` (an amount owed), its ``amount`` by the
    rules (as typed for an amount owed), and the ``creditor`` it is owed to."""

    kind: str
    creditor: str
    amount: int
    ref: str | None = None
    # A rent that goes by the dice: its amount waits for the total (``amount`` is 0 until then).
    by_dice: bool = False


def debts_to(state: GameState, player_id: str, creditor: str) -> list[Debt]:
    """The debts ``player_id`` could name going bankrupt to ``creditor`` now, for the form to
    offer: the rent on each deed whose rent would go to ``creditor`` (a utility's by the dice),
    the requests for money from ``creditor`` waiting on the player, and, to the bank, the
    edition's fixed payments. An amount owed is always possible besides. Never refuses."""
    debts: list[Debt] = []
    if player_id not in state.players:
        return debts
    for deed in state.edition.deeds:
        ds = state.deeds.get(deed.key)
        if ds is None or ds.owner in (None, player_id):
            continue
        by_dice = group_of(state, deed).kind == "utility"
        try:
            to, owed = rent_owed(state, player_id, deed.key, state.edition.dice.max_total if by_dice else None)
        except BancoError:
            continue
        if to == creditor:
            debts.append(Debt("rent", to, 0 if by_dice else owed, deed.key, by_dice))
    debts += [
        Debt("request", p.payee, p.amount, p.id)
        for p in state.pending.values()
        if p.payer == player_id and p.payee == creditor and p.needs == PAYER
    ]
    if creditor == BANK:
        debts += [Debt("payment", BANK, p.amount, p.key) for p in state.edition.fixed_payments]
    return debts


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
    free_percent = state.edition.bankruptcy.free_deeds_percent
    buildings = mortgages = deed_sales = free_deeds = 0
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
        elif mortgage:
            mortgages += mortgage
        elif free_percent:
            free_deeds += percent_up(deed.price, free_percent)
    player = state.players.get(player_id)
    return Liquidation(buildings, mortgages, deed_sales, free_deeds, player.cash if player else 0)


def _debt(
    state: GameState,
    debtor: str,
    creditor: object,
    deed: object,
    dice: object,
    request: object,
    payment: object,
    amount: object,
    now: datetime | None,
) -> Debt | None:
    """The debt a bankruptcy names (at most one of ``deed``, ``request``, ``payment`` and
    ``amount``), its amount by the rules and its creditor; ``None`` when none is named.
    Refuses: two debts named, an unknown deed, request or payment, a rent or a request not
    owed by ``debtor`` (or lapsed), a ``creditor`` other than the debt's, an amount owed
    without a creditor, and an amount that is not a whole number within the edition's
    ceiling."""
    named = [
        name
        for name, value in (("deed", deed), ("request", request), ("payment", payment), ("amount", amount))
        if value is not None
    ]
    if len(named) > 1:
        raise BadInput(
            "two_debts",
            N_("Name one debt: a rent, a request, a tax or an amount owed, not %(fields)s together."),
            fields=", ".join(named),
        )
    if not named:
        return None
    if deed is not None:
        to, owed = rent_owed(state, debtor, require_deed(state, deed)[0].key, dice)
        debt = Debt("rent", to, owed, str(deed))
    elif request is not None:
        asked = state.pending.get(request) if isinstance(request, str) else None
        if asked is None or asked.payer != debtor or asked.needs != PAYER:
            raise NotFound(
                "unknown_request", N_("There is no such request waiting on %(name)s."), name=state.players[debtor].name
            )
        if now is not None and pending.is_expired(asked, now):
            raise RuleViolation("request_lapsed", N_("This request has lapsed: nothing is owed on it."))
        debt = Debt("request", asked.payee, asked.amount, asked.id)
    elif payment is not None:
        fixed = state.edition.fixed_payment(payment) if isinstance(payment, str) else None
        if fixed is None:
            raise NotFound("unknown_payment", N_("This edition has no such payment."))
        debt = Debt("payment", BANK, fixed.amount, fixed.key)
    else:
        if creditor is None:
            raise BadInput("creditor_required", N_("Say to whom the amount is owed: a player or the bank."))
        debt = Debt("amount", str(creditor), parse_amount(amount, state.edition.max_amount))
    if creditor is not None and creditor != debt.creditor:
        raise RuleViolation(
            "wrong_creditor",
            N_("This debt is owed to %(owed)s, not to %(named)s."),
            owed=_account_name(state, debt.creditor),
            named=_account_name(state, str(creditor)),
        )
    return debt


def _account_name(state: GameState, account: str) -> str:
    player = state.players.get(account)
    return player.name if player is not None else account


def bankrupt(
    state: GameState,
    player_id: str,
    creditor: object = None,
    amount: object = None,
    *,
    deed: object = None,
    dice: object = None,
    request: object = None,
    payment: object = None,
    now: datetime | None = None,
) -> Outcome:
    """``player_id`` cannot pay a debt and goes bankrupt to its creditor, and is out.

    The debt is named (``_debt``): the rent on ``deed`` (with ``dice`` where it goes by them),
    a ``request`` waiting on the player, one of the edition's fixed payments (``payment``: a
    tax, a fine), or an ``amount`` owed to ``creditor`` (``"bank"`` or a player id); the debt
    names its own creditor, which ``creditor`` may repeat. Every rulebook declares a player
    bankrupt only for a debt above all they could pay (Che Impresa! lines 283-287, Motopolis
    line 74: cash, buildings sold back, deeds as the edition allows): a debt the player could
    still pay is refused, saying how much they could raise (``liquidation_value``). A
    bankruptcy naming no debt, as clients before this rule sent it, is accepted only from a
    player with nothing at all to pay with, whom any debt exceeds.

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
    creditor, a player going bankrupt to themselves, whatever ``_debt`` refuses, a debt the
    player could still pay (409 ``can_still_pay``), no debt named by a player who could still
    pay something (400 ``debt_required``), and no debt named where the bank pays the creditor
    a share of it.
    """
    require_running(state)
    debtor = require_player(state, player_id)
    named = _debt(state, debtor.id, creditor, deed, dice, request, payment, amount, now)
    creditor = named.creditor if named is not None else creditor
    if not isinstance(creditor, str):
        raise BadInput("creditor_required", N_("Say to whom the amount is owed: a player or the bank."))
    if creditor != BANK:
        if creditor == debtor.id:
            raise BadInput("same_account", N_("A player cannot go bankrupt to themselves."))
        require_player(state, creditor)
    means = liquidation_value(state, debtor.id)
    if named is None and means.payable:
        raise BadInput(
            "debt_required",
            N_(
                "Name the debt %(name)s cannot pay (a rent, a request, a tax or an amount owed): %(name)s could still pay %(amount)s."
            ),
            name=debtor.name,
            amount=Money(means.payable),
        )
    if named is not None and named.amount <= means.payable:
        raise RuleViolation(
            "can_still_pay",
            N_(
                "%(name)s can still pay %(amount)s (cash and what selling or mortgaging would raise), enough for the debt of %(debt)s: no bankruptcy."
            ),
            name=debtor.name,
            amount=Money(means.payable),
            debt=Money(named.amount),
        )
    debt = named.amount if named is not None else None
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
    params = {
        "player": debtor.id,
        "creditor": creditor,
        "heir": estate.heir,
        "cash": handed,
        "deeds": deeds,
        "deed_count": len(deeds),
    }
    if named is not None:
        params.update(debt=named.amount, debt_kind=named.kind, debt_ref=named.ref, creditor_paid=estate.bank_pays)
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
