"""Bankruptcy: a player who cannot pay hands everything over and leaves the game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .. import pending
from ..editions.edition import Deed
from ..errors import N_, BadInput, BancoError, Money, NotFound, RuleViolation
from ..guards import require_player, require_running
from ..ledger import BANK, Posting, move
from ..money import parse_amount, percent_up
from ..policies.bankruptcy import Handover, handover
from ..policies.mortgage import handed_over_lap, terms
from ..state import FINISHED, PAYER, Change, DeedState, GameState, Outcome, PlayerState, document_change
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
        debt = _rent_debt(state, debtor, deed, dice)
    elif request is not None:
        debt = _request_debt(state, debtor, request, now)
    elif payment is not None:
        debt = _payment_debt(state, payment)
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


def _rent_debt(state: GameState, debtor: str, deed: object, dice: object) -> Debt:
    """The rent ``debtor`` owes on ``deed``, by the rules. Refuses what ``rent_owed`` refuses."""
    to, owed = rent_owed(state, debtor, require_deed(state, deed)[0].key, dice)
    return Debt("rent", to, owed, str(deed))


def _request_debt(state: GameState, debtor: str, request: object, now: datetime | None) -> Debt:
    """The request for money ``request`` waiting on ``debtor``. Refuses one that is not (404
    ``unknown_request``) and one that has lapsed."""
    asked = state.pending.get(request) if isinstance(request, str) else None
    if asked is None or asked.payer != debtor or asked.needs != PAYER:
        raise NotFound(
            "unknown_request", N_("There is no such request waiting on %(name)s."), name=state.players[debtor].name
        )
    if now is not None and pending.is_expired(asked, now):
        raise RuleViolation("request_lapsed", N_("This request has lapsed: nothing is owed on it."))
    return Debt("request", asked.payee, asked.amount, asked.id)


def _payment_debt(state: GameState, payment: object) -> Debt:
    """The edition's fixed payment ``payment`` (a tax, a fine), owed to the bank. Refuses one the
    edition does not have."""
    fixed = state.edition.fixed_payment(payment) if isinstance(payment, str) else None
    if fixed is None:
        raise NotFound("unknown_payment", N_("This edition has no such payment."))
    return Debt("payment", BANK, fixed.amount, fixed.key)


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
    to = _creditor(state, debtor, named, creditor)
    _require_cannot_pay(state, debtor, named)
    estate = handover(state.edition, to, named.amount if named is not None else None)
    heir = None if estate.heir == BANK else state.players[estate.heir]
    owned = _owned(state, debtor.id)
    undone = mortgaged_this_turn(state, debtor.id) if _turn_start_state(state, heir) else set()
    changes = [c for _, ds in owned for c in _handed_deed(state, debtor, heir, ds, undone)]
    changes += _buildings_back(state, owned)
    changes += player_changes(debtor, bankrupt=True, jail_cards=0, out_order=_out_order(state))
    if heir is None:
        postings, cash = _cash_to_bank(debtor, to, estate), debtor.cash
    else:
        changes += player_changes(heir, jail_cards=heir.jail_cards + debtor.jail_cards)
        postings, cash = _cash_to_heir(state, debtor, heir, owned, undone)
    changes += _dropped_with(state, debtor.id)
    deeds = [d.key for d, _ in owned]
    to_auction = deeds if heir is None else []
    params = _params(debtor, to, estate, cash, deeds, named)
    result = {
        "to_auction": to_auction,
        "fees_due": _fees_due(state, heir, owned, undone),
        "creditor_paid": estate.bank_pays,
    }
    left = [p for p in state.active_players() if p.id != debtor.id]
    if len(left) > 1:
        changes += _play_goes_on(state, debtor.id, to_auction)
    if len(left) == 1:
        changes += _game_won(state, changes)
        params["winner"] = result["winner"] = left[0].id
        result["to_auction"] = []
    return Outcome("bankrupt", postings, tuple(changes), params=params, result=result)


def _creditor(state: GameState, debtor: PlayerState, named: Debt | None, creditor: object) -> str:
    """Whom ``debtor`` goes bankrupt to: the named debt's creditor, else ``creditor`` as sent.
    Refuses no creditor, the debtor themselves, and an unknown or bankrupt player."""
    to = named.creditor if named is not None else creditor
    if not isinstance(to, str):
        raise BadInput("creditor_required", N_("Say to whom the amount is owed: a player or the bank."))
    if to != BANK:
        if to == debtor.id:
            raise BadInput("same_account", N_("A player cannot go bankrupt to themselves."))
        require_player(state, to)
    return to


def _require_cannot_pay(state: GameState, debtor: PlayerState, named: Debt | None) -> None:
    """Refuses a bankruptcy the debtor could avoid: no debt named by a player who could still pay
    something (400 ``debt_required``), or a debt no larger than all they could pay (409
    ``can_still_pay``)."""
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


def _owned(state: GameState, player_id: str) -> list[tuple[Deed, DeedState]]:
    """The deeds ``player_id`` owns, in the edition's order."""
    return [
        (d, state.deeds[d.key])
        for d in state.edition.deeds
        if d.key in state.deeds and state.deeds[d.key].owner == player_id
    ]


def _turn_start_state(state: GameState, heir: PlayerState | None) -> bool:
    """Whether the heir gets the deeds as they were when the turn began: a creditor player, where
    the edition says so, has one mortgaged in the debtor's turn unmortgaged, and its mortgage
    money goes back to the bank (FAQ 32). Never for the bank."""
    return heir is not None and state.edition.bankruptcy.turn_start_state


def _owes_fee(state: GameState, ds: DeedState) -> bool:
    """Whether the heir of ``ds`` owes the transfer fee on it: still owed, or mortgaged where the
    edition charges one."""
    return ds.fee_due or (ds.mortgaged and state.edition.mortgage.transfer_fee_percent > 0)


def _handed_deed(
    state: GameState, debtor: PlayerState, heir: PlayerState | None, ds: DeedState, undone: set[str]
) -> list[Change]:
    """A bankrupt player's deed passing on, unbuilt: back to the bank unmortgaged (``heir``
    ``None``), to a creditor player unmortgaged when it was mortgaged in the turn undone, else
    as it is, with the transfer fee owed on a mortgaged one."""
    if heir is None:
        return deed_changes(ds, owner=None, mortgaged=False, houses=0, hotel=False, fee_due=False, mortgage_lap=None)
    if ds.key in undone:
        return deed_changes(ds, owner=heir.id, houses=0, hotel=False, mortgaged=False, fee_due=False, mortgage_lap=None)
    return deed_changes(
        ds,
        owner=heir.id,
        houses=0,
        hotel=False,
        fee_due=_owes_fee(state, ds),
        mortgage_lap=handed_over_lap(ds, debtor, heir),
    )


def _buildings_back(state: GameState, owned: list[tuple[Deed, DeedState]]) -> list[Change]:
    """The buildings on a bankrupt player's deeds going back to the bank's supply."""
    return bank_changes(state, small=sum(ds.houses for _, ds in owned), big=sum(int(ds.hotel) for _, ds in owned))


def _fees_due(
    state: GameState, heir: PlayerState | None, owned: list[tuple[Deed, DeedState]], undone: set[str]
) -> list[str]:
    """The deeds whose transfer fee a creditor player owes on receiving them (none for the bank,
    nor on a deed mortgaged in the turn undone, which passes unmortgaged)."""
    if heir is None:
        return []
    return [d.key for d, ds in owned if d.key not in undone and _owes_fee(state, ds)]


def _out_order(state: GameState) -> int:
    """The place of the next player to go out: one after those already out."""
    return 1 + sum(1 for p in state.players.values() if p.bankrupt)


def _cash_to_bank(debtor: PlayerState, creditor: str, estate: Handover) -> tuple[Posting, ...]:
    """The money of an estate going to the bank: the debtor's cash to the bank, then the bank
    paying a creditor player its share of the debt."""
    postings: tuple[Posting, ...] = ()
    if debtor.cash:
        postings = move(debtor.id, BANK, debtor.cash)
    if estate.bank_pays:
        postings += move(BANK, creditor, estate.bank_pays)
    return postings


def _cash_to_heir(
    state: GameState, debtor: PlayerState, heir: PlayerState, owned: list[tuple[Deed, DeedState]], undone: set[str]
) -> tuple[tuple[Posting, ...], int]:
    """The money of an estate going to a creditor player, and how much reaches them: the
    buildings sold to the bank at the edition's share, the mortgage money of the deeds mortgaged
    in the turn undone back to the bank (as far as the money goes), the rest to the heir."""
    proceeds = sum(buildings_value(state, d, ds) for d, ds in owned)
    postings: tuple[Posting, ...] = ()
    if proceeds:
        postings += move(BANK, debtor.id, proceeds)
    taken_back = min(debtor.cash + proceeds, sum(d.mortgage for d, _ in owned if d.key in undone))
    if taken_back:
        postings += move(debtor.id, BANK, taken_back)
    handed = debtor.cash + proceeds - taken_back
    if handed:
        postings += move(debtor.id, heir.id, handed)
    return postings, handed


def _dropped_with(state: GameState, player_id: str) -> list[Change]:
    """What goes with a player leaving: their pending trades, their requests for money (rent
    requests among them) and their part in an expropriation."""
    changes = [
        Change("trade", t.id, "state", t.to_dict(), None)
        for t in state.trades.values()
        if player_id in (t.proposer, t.recipient)
    ]
    return changes + pending.drop_for(state, player_id) + dropped_for(state, player_id)


def _params(
    debtor: PlayerState, creditor: str, estate: Handover, cash: int, deeds: list[str], named: Debt | None
) -> dict[str, object]:
    """How the feed tells a bankruptcy: who, to whom, who received what, and the debt named."""
    params: dict[str, object] = {
        "player": debtor.id,
        "creditor": creditor,
        "heir": estate.heir,
        "cash": cash,
        "deeds": deeds,
        "deed_count": len(deeds),
    }
    if named is not None:
        params.update(debt=named.amount, debt_kind=named.kind, debt_ref=named.ref, creditor_paid=estate.bank_pays)
    return params


def _play_goes_on(state: GameState, player_id: str, to_auction: list[str]) -> list[Change]:
    """The game going on without ``player_id``: the turn passed on if it was theirs, and the
    deeds the bank received queued for auction."""
    changes = passed_on_leaving(state, player_id)
    if to_auction:
        # Auctioned one after another, each as soon as no other auction is open.
        changes.append(
            Change("game", None, "auction_queue", state.auction_queue, list(state.auction_queue) + to_auction)
        )
    return changes


def _game_won(state: GameState, changes: list[Change]) -> list[Change]:
    """The last player standing has won: the game ends by itself, with nothing left to auction
    and every request for money not already dropped by ``changes`` dropped."""
    dropped = {c.ref for c in changes if c.target == "pending"}
    return [Change("game", None, "status", state.status, FINISHED)] + [
        document_change("pending", p.id, p, None) for p in state.pending.values() if p.id not in dropped
    ]
