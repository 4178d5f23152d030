"""Trades between two players: cash, deeds and get-out-of-jail cards both ways."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import N_, BadInput, Forbidden, Money, NotFound, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import Posting, move
from ..policies.mortgage import handed_over_lap
from ..state import Change, GameState, Outcome, PlayerState, TradeState
from ..turns import require_trade_in_turn
from .common import (
    acquired,
    clean_id,
    deed_state,
    group_has_buildings,
    has_buildings,
    player_changes,
    require_deed,
    require_fee_settled,
    transfer_fee,
)

SIDE_KEYS = ("cash", "deeds", "jail_cards")


def _clean_side(state: GameState, side: object) -> dict[str, Any]:
    """One side of a trade as ``{"cash", "deeds", "jail_cards"}``; missing parts are nothing."""
    if side is None:
        side = {}
    if not isinstance(side, dict) or set(side) - set(SIDE_KEYS):
        raise BadInput("invalid_trade", N_("A trade side holds only cash, deeds and jail cards."))
    counts = {}
    for name in ("cash", "jail_cards"):
        value = side.get(name) or 0
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise BadInput("invalid_trade", N_("Cash and cards in a trade are whole numbers."))
        counts[name] = value
    if counts["cash"] > state.edition.max_amount:
        raise BadInput(
            "amount_too_large", N_("One payment can be at most %(max)s."), max=Money(state.edition.max_amount)
        )
    deeds = side.get("deeds") or []
    if not isinstance(deeds, list) or len(set(map(str, deeds))) != len(deeds):
        raise BadInput("invalid_trade", N_("Name each deed in a trade once."))
    for key in deeds:
        require_deed(state, key)
    return {"cash": counts["cash"], "deeds": list(deeds), "jail_cards": counts["jail_cards"]}


def _empty(side: dict[str, Any]) -> bool:
    return not (side["cash"] or side["deeds"] or side["jail_cards"])


def _require_can_give(state: GameState, giver: PlayerState, side: Mapping[str, Any]) -> None:
    """Refuses a side its giver cannot hand over now, and a giver who may not trade now (sitting
    out a turn where the square that did it says no trades)."""
    if giver.no_trades:
        raise RuleViolation(
            "no_trades_now", N_("%(name)s sits out a turn and cannot trade until it has passed."), name=giver.name
        )
    require_cash(giver, side["cash"])
    for key in side["deeds"]:
        require_tradable(state, giver, key)
    if side["jail_cards"] > giver.jail_cards:
        raise RuleViolation(
            "not_enough_jail_cards",
            N_("%(name)s has %(cards)s get-out-of-jail cards."),
            name=giver.name,
            cards=giver.jail_cards,
        )


def require_tradable(state: GameState, giver: PlayerState, deed_key: str) -> None:
    """Refuses a deed ``giver`` cannot hand over in a trade now: an unknown deed, one not
    theirs, one whose group has buildings (or that has buildings itself, where the edition's
    ``trades.unbuilt`` is ``deed``), a mortgaged one where the edition keeps those out of
    trades, and one whose mortgage fee is unpaid."""
    deed, ds = require_deed(state, deed_key)
    if ds.owner != giver.id:
        raise RuleViolation("not_owner", N_("%(deed)s does not belong to %(name)s."), deed=deed.name, name=giver.name)
    if state.edition.trades.unbuilt == "deed":
        # Motopolis, seed 002 line 70: "Un terreno sul quale sono state edificate Stazioni [...]
        # non può essere venduto o scambiato": the land itself, whatever its groupmates hold.
        if has_buildings(ds):
            raise RuleViolation(
                "deed_has_buildings", N_("Sell the buildings on %(deed)s before trading it."), deed=deed.name
            )
    elif group_has_buildings(state, deed.group):
        raise RuleViolation(
            "group_has_buildings", N_("Sell the buildings of %(deed)s's group before trading it."), deed=deed.name
        )
    if ds.mortgaged and not state.edition.mortgage.tradable:
        raise RuleViolation(
            "mortgaged_not_tradable",
            N_("%(deed)s is mortgaged: lift the mortgage before it can go to another player."),
            deed=deed.name,
        )
    if ds.fee_due:
        raise RuleViolation(
            "mortgage_fee_due",
            N_("%(name)s must first pay the fee on the mortgaged %(deed)s or lift its mortgage."),
            name=giver.name,
            deed=deed.name,
        )


def _require_card_price(state: GameState, cards_side: dict[str, Any], other_side: dict[str, Any]) -> None:
    """Refuses selling get-out-of-jail cards above the edition's price cap. The cap can only be
    read from a trade of cards against cash alone: with deeds in it, no price is the cards'."""
    cap = state.edition.jail.card_max_price
    if (
        cap is None
        or not cards_side["jail_cards"]
        or cards_side["deeds"]
        or other_side["deeds"]
        or other_side["jail_cards"]
    ):
        return
    if other_side["cash"] - cards_side["cash"] > cap * cards_side["jail_cards"]:
        raise RuleViolation(
            "jail_card_too_dear", N_("A get-out-of-jail card sells for at most %(max)s."), max=Money(cap)
        )


def _require_fees_payable(
    state: GameState, player: PlayerState, gives: Mapping[str, Any], gets: Mapping[str, Any]
) -> None:
    """Refuses a trade after which a player could not pay the fee on the mortgaged deeds they
    receive."""
    fees = sum(transfer_fee(state, require_deed(state, k)[0]) for k in gets["deeds"] if deed_state(state, k).mortgaged)
    after = player.cash - gives["cash"] + gets["cash"]
    if fees > after:
        raise RuleViolation(
            "cannot_pay_mortgage_fees",
            N_("%(name)s would not have the %(fees)s due on the mortgaged deeds received."),
            name=player.name,
            fees=Money(fees),
        )


def _require_trading_open(state: GameState, *sides: Mapping[str, Any]) -> None:
    """Refuses trading while buildings are auctioned, once only two players are left where
    the game plays the championship's preliminary rounds (FAQ 31), and a deed on either side
    while the bank still holds a deed where the edition trades deeds only once the bank has
    sold them all (Petropolis, seed 003 line 35; cards and cash alone, line 37, stay open)."""
    if state.auction is not None and state.auction.lot != "deed":
        raise RuleViolation("trading_paused", N_("No trades while buildings are being auctioned."))
    if state.setting("no_trades_two_left") and len(state.active_players()) <= 2:
        raise RuleViolation(
            "no_trades_two_left", N_("Only two players are left: in this round no more deals or trades.")
        )
    if any(side["deeds"] for side in sides):
        require_deeds_tradable(state)


def require_deeds_tradable(state: GameState) -> None:
    """Refuses trading deeds between players while the bank still holds a deed, where the
    edition trades them only once the bank has sold them all (Petropolis, seed 003 line 35:
    "Allorchè la Banca del Mondo avrà venduto tutte le concessioni"). A deed back with the bank
    (a bankruptcy to it) closes deed trades again until it is sold."""
    if state.edition.trades.deeds_tradable != "once_every_deed_sold":
        return
    unsold = sum(1 for deed in state.edition.deeds if deed_state(state, deed.key).owner is None)
    if unsold:
        raise RuleViolation(
            "deeds_not_all_sold",
            N_("Deeds change hands between players only once the bank has sold them all: %(n)s still with the bank."),
            n=unsold,
        )


def trade_propose(state: GameState, trade_id: str, from_id: str, to_id: str, give: object, get: object) -> Outcome:
    """``from_id`` offers ``to_id`` a trade: ``give`` for ``get``, each
    ``{"cash": int, "deeds": [keys], "jail_cards": int}``; nothing moves until it is accepted.

    Refuses: a game not running, a bad or repeated trade id, an unknown or bankrupt player, a
    player trading with themselves, a malformed side, a trade of nothing, a deed on both sides,
    a building auction in progress, only two players left where the game says no trades then,
    a deed traded while the bank still holds one where the edition says so (Petropolis), a
    proposer who owes a fee on a mortgaged deed, a side its giver cannot hand over (cash, a deed not theirs, a deed whose group has buildings, a
    mortgaged deed where the edition keeps those out of trades, a deed whose fee is unpaid,
    cards they lack), a player who may not trade while sitting out a turn, and a
    get-out-of-jail card sold above the cap.
    """
    require_running(state)
    trade_id = clean_id(trade_id, "invalid_trade_id")
    if trade_id in state.trades:
        raise RuleViolation("trade_exists", N_("This trade already exists."))
    proposer = require_player(state, from_id)
    recipient = require_player(state, to_id)
    if proposer.id == recipient.id:
        raise BadInput("same_player", N_("A trade needs two different players."))
    give, get = _clean_side(state, give), _clean_side(state, get)
    if _empty(give) and _empty(get):
        raise BadInput("empty_trade", N_("The trade is empty."))
    if set(give["deeds"]) & set(get["deeds"]):
        raise BadInput("invalid_trade", N_("A deed cannot be on both sides of a trade."))
    _require_trading_open(state, give, get)
    require_fee_settled(state, proposer)
    _require_can_give(state, proposer, give)
    _require_can_give(state, recipient, get)
    _require_card_price(state, give, get)
    _require_card_price(state, get, give)
    trade = TradeState(trade_id, proposer.id, recipient.id, give, get)
    return Outcome(
        "trade_propose",
        changes=(Change("trade", trade_id, "state", None, trade.to_dict()),),
        params={"trade": trade_id, "from": proposer.id, "to": recipient.id, "give": give, "get": get},
        result={"trade": trade_id},
    )


def _require_trade(state: GameState, trade_id: object) -> TradeState:
    trade = state.trades.get(trade_id) if isinstance(trade_id, str) else None
    if trade is None:
        raise NotFound("unknown_trade", N_("There is no such trade."))
    return trade


def trade_accept(state: GameState, trade_id: str, player_id: str) -> Outcome:
    """The player the trade was offered to accepts it: cash, deeds and cards change hands.

    Mortgaged deeds stay mortgaged and their receiver owes the transfer fee at once (or lifts
    the mortgage) before spending on anything else; a lap deadline keeps the laps it had left. Refuses: a game not running, an unknown
    trade, anyone but the player it was offered to, a player out of the game, a building
    auction in progress, a deed traded while the bank still holds one where the edition says
    so, an acceptor who owes a fee, a side that can no longer be handed over,
    a player who could not pay the fees on the mortgaged deeds they receive, and, where the
    edition binds trades to the turn and the table marks its turns, a trade that does not
    involve the player whose turn it is (FAQ 26: proposing is discussing, which is free;
    accepting closes it).
    """
    require_running(state)
    trade = _require_trade(state, trade_id)
    if player_id != trade.recipient:
        raise Forbidden(
            "not_your_trade",
            N_("Only %(name)s can accept or refuse this trade."),
            name=state.players[trade.recipient].name,
        )
    recipient = require_player(state, player_id)
    proposer = require_player(state, trade.proposer)
    _require_trading_open(state, trade.give, trade.get)
    require_trade_in_turn(state, proposer.id, recipient.id)
    require_fee_settled(state, recipient)
    _require_can_give(state, proposer, trade.give)
    _require_can_give(state, recipient, trade.get)
    _require_fees_payable(state, proposer, trade.give, trade.get)
    _require_fees_payable(state, recipient, trade.get, trade.give)
    postings: tuple[Posting, ...] = ()
    if trade.give["cash"]:
        postings += move(proposer.id, recipient.id, trade.give["cash"])
    if trade.get["cash"]:
        postings += move(recipient.id, proposer.id, trade.get["cash"])
    fee_percent = state.edition.mortgage.transfer_fee_percent
    changes = [Change("trade", trade.id, "state", trade.to_dict(), None)]
    for side, giver, receiver in ((trade.give, proposer, recipient), (trade.get, recipient, proposer)):
        for key in side["deeds"]:
            ds = deed_state(state, key)
            changes += acquired(
                state,
                ds,
                receiver.id,
                fee_due=ds.mortgaged and fee_percent > 0,
                mortgage_lap=handed_over_lap(ds, giver, receiver),
            )
    cards = trade.get["jail_cards"] - trade.give["jail_cards"]
    changes += player_changes(proposer, jail_cards=proposer.jail_cards + cards)
    changes += player_changes(recipient, jail_cards=recipient.jail_cards - cards)
    fees_due = [k for k in trade.give["deeds"] + trade.get["deeds"] if deed_state(state, k).mortgaged and fee_percent]
    return Outcome(
        "trade_accept",
        postings,
        tuple(changes),
        params={"trade": trade.id, "from": proposer.id, "to": recipient.id, "give": trade.give, "get": trade.get},
        result={"trade": trade.id, "fees_due": fees_due},
    )


def trade_reject(state: GameState, trade_id: str, player_id: str) -> Outcome:
    """The player the trade was offered to refuses it, or its proposer withdraws it.

    Refuses: a game not running, an unknown trade, and anyone else.
    """
    require_running(state)
    trade = _require_trade(state, trade_id)
    if player_id not in (trade.recipient, trade.proposer):
        raise Forbidden(
            "not_your_trade",
            N_("Only %(name)s can accept or refuse this trade."),
            name=state.players[trade.recipient].name,
        )
    kind = "trade_reject" if player_id == trade.recipient else "trade_withdraw"
    return Outcome(
        kind,
        changes=(Change("trade", trade.id, "state", trade.to_dict(), None),),
        params={"trade": trade.id, "from": trade.proposer, "to": trade.recipient},
        result={"trade": trade.id},
    )
