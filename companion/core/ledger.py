"""The double-entry journal: every movement of money is an entry whose postings sum to zero.

Accounts are ``"bank"`` or a player's id. The bank's balance is simply minus everything the
players hold, so the sum of all balances is zero by construction: money is never created or
lost, only moved.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

BANK = "bank"


class LedgerError(Exception):
    """An entry that would create or destroy money; raised, never asserted (``-O`` keeps it)."""


@dataclass(frozen=True)
class Posting:
    account: str
    amount: int  # positive: money into the account


def balanced(postings: Iterable[Posting]) -> tuple[Posting, ...]:
    """Returns the postings as a tuple; refuses a set that does not sum to zero or holds a
    zero, fractional or boolean amount."""
    postings = tuple(postings)
    for p in postings:
        if isinstance(p.amount, bool) or not isinstance(p.amount, int) or p.amount == 0:
            raise LedgerError(f"posting {p!r} must be a non-zero whole number")
    if sum(p.amount for p in postings) != 0:
        raise LedgerError(f"postings {postings!r} do not balance")
    return postings


def move(payer: str, payee: str, amount: int) -> tuple[Posting, Posting]:
    """The two postings of ``amount`` going from ``payer`` to ``payee``."""
    if payer == payee:
        raise LedgerError("an account cannot pay itself")
    pair = (Posting(payer, -amount), Posting(payee, amount))
    balanced(pair)
    return pair


def reverse(postings: Iterable[Posting]) -> tuple[Posting, ...]:
    """The compensating postings that undo ``postings``."""
    return balanced(Posting(p.account, -p.amount) for p in postings)


def balances(postings: Iterable[Posting]) -> dict[str, int]:
    """Every account's balance as the journal gives it."""
    out: dict[str, int] = defaultdict(int)
    for p in postings:
        out[p.account] += p.amount
    return dict(out)
