"""Applies an ``Outcome`` to a ``GameState`` in memory, the way the service layer persists it:
each Change sets its field to ``after``, each posting moves a player's cash. The bank's cash is
not kept: it is minus what the players hold."""
from __future__ import annotations

from .ledger import BANK
from .state import AuctionState, Change, DeedState, GameState, Outcome, RentRequestState, TradeState


def apply_outcome(state: GameState, outcome: Outcome) -> None:
    """Changes ``state`` as ``outcome`` says; refuses (``ValueError``) an unknown change target."""
    for change in outcome.changes:
        apply_change(state, change)
    for posting in outcome.postings:
        if posting.account != BANK:
            state.players[posting.account].cash += posting.amount


def apply_change(state: GameState, change: Change) -> None:
    """Sets the one field ``change`` names to its ``after`` value."""
    after = change.after
    if change.target == "game":
        setattr(state, change.field, after)
    elif change.target == "player":
        setattr(state.players[change.ref], change.field, after)
    elif change.target == "deed":
        deed = state.deeds.setdefault(change.ref, DeedState(change.ref))
        setattr(deed, change.field, after)
    elif change.target == "auction":
        state.auction = None if after is None else AuctionState.from_dict(after)
    elif change.target == "trade":
        _set_or_drop(state.trades, change.ref, after, TradeState)
    elif change.target == "rent_request":
        _set_or_drop(state.rent_requests, change.ref, after, RentRequestState)
    else:
        raise ValueError(f"unknown change target {change.target!r}")


def _set_or_drop(items: dict, key: str, value, kind) -> None:
    if value is None:
        items.pop(key, None)
    else:
        items[key] = kind.from_dict(value)
