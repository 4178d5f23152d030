"""What the wallet says before a step that is hard to take back, and how to take back one
that is easy: the bankruptcy form (to whom, and what could still be raised first) and the few
seconds in which a player's own one-tap GO or tax can be taken back."""

from __future__ import annotations

from flask import request

from .. import services
from ..core.ledger import BANK
from .feed import take_back_parts
from .notices import LOOKBACK, recent_entries
from .regions import Lazy


def wallet_view(game, player) -> dict:
    """The wallet's danger zone and take-back for ``player``: ``take_back`` (``{"what",
    "amount", "seconds", "version"}`` or ``None``), ``raise_money`` (a ``Liquidation``, or ``None`` when
    the player cannot act), ``bankrupt_to`` (the creditor picked in the form's first step:
    ``"bank"``, a player still in the game, or ``None``) and ``debts`` (the debts to that
    creditor the form offers: ``rules.Debt``)."""
    if game.status != "running" or player.bankrupt:
        return {"take_back": None, "raise_money": None, "bankrupt_to": None, "debts": []}
    creditors = {BANK} | {p.id for p in game.players if p.id != player.id and not p.bankrupt}
    picked = request.args.get("bankrupt_to")
    picked = picked if picked in creditors else None
    return {
        "take_back": Lazy(lambda: _take_back(game, player)),
        "raise_money": Lazy(lambda: services.liquidation(game, player.id)),
        "bankrupt_to": picked,
        "debts": Lazy(lambda: services.debts_to(game, player.id, picked) if picked else []),
    }


def _take_back(game, player) -> dict | None:
    offer = services.take_back_offer(game, player.id, recent=recent_entries(game, LOOKBACK))
    if offer is not None:
        what, signed = take_back_parts(offer["kind"], offer["params"], services.edition_of(game))
        offer = {**offer, "what": what, "amount": signed}
    return offer
