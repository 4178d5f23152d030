"""Bankruptcy: who receives a bankrupt player's cash, deeds and cards, and what the bank pays
the creditor."""

from __future__ import annotations

from dataclasses import dataclass

from ..editions.edition import Edition
from ..errors import N_, BadInput
from ..ledger import BANK
from ..money import percent_up
from . import pick


@dataclass(frozen=True)
class Handover:
    """``heir``: who receives everything (the creditor, or ``"bank"``, which auctions the
    deeds); ``bank_pays``: what the bank then pays the creditor."""

    heir: str
    bank_pays: int = 0


def to_creditor(edition: Edition, creditor: str, debt: int | None) -> Handover:
    """Everything goes to whoever the debt is owed to (the classic rules)."""
    return Handover(creditor)


def bank_pays_creditor_share(edition: Edition, creditor: str, debt: int | None) -> Handover:
    """Everything goes to the bank, which pays a creditor player ``share_percent`` of the debt,
    rounded up (Motopolis: half; Che Impresa!: all of it). Refuses a creditor player without
    the debt."""
    if creditor == BANK:
        return Handover(BANK)
    if debt is None:
        raise BadInput("debt_required", N_("Say how much is owed: the bank pays the creditor a share of the debt."))
    assert edition.bankruptcy.share_percent is not None  # the schema requires it with this policy
    return Handover(BANK, percent_up(debt, edition.bankruptcy.share_percent))


POLICIES = {"to_creditor": to_creditor, "bank_pays_creditor_share": bank_pays_creditor_share}


def handover(edition: Edition, creditor: str, debt: int | None) -> Handover:
    """Where a bankrupt player's estate goes, by the edition's bankruptcy policy."""
    return pick(POLICIES, edition.bankruptcy.policy, "bankruptcy")(edition, creditor, debt)
