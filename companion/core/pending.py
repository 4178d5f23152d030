"""Money that waits for a yes: proposed, then approved, declined, withdrawn or expired.

Nothing moves until approval; the proposal is a document in the state (``state.pending``)
and each step is a journal entry, so every step shows in the feed and can be undone. Payment
requests between players, money asked from a strict bank, and the championship's rent
requests are all this one mechanism; a rulebook that needs another use (a check window,
an expropriation) proposes with its own ``kind`` and ``params``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .errors import N_, BadInput, Forbidden, NotFound, RuleViolation
from .guards import clean_reason, require_cash, require_player, require_running
from .ledger import BANK, move
from .money import parse_amount
from .rules.common import clean_id, is_past, stamp
from .state import BANKER, PAYER, Change, GameState, Outcome, PendingState, document_change


def propose(
    state: GameState,
    pending_id: str,
    *,
    payer: str,
    payee: str,
    amount: int,
    needs: str,
    asked_by: str,
    kind: str,
    params: dict[str, Any],
    now: datetime,
    expires_seconds: int | None = None,
    proposal: str = "request",
    proposal_params: dict[str, Any] | None = None,
) -> Outcome:
    """The outcome that puts ``amount`` from ``payer`` to ``payee`` on hold until whoever it
    ``needs`` approves; the approval writes an entry of ``kind`` with ``params``.

    Refuses: a bad or repeated id, a ``needs`` that is neither the payer nor the banker, and a
    payer that is the payee. The callers check the accounts and the amount first.
    """
    pending_id = clean_id(pending_id, "invalid_pending_id")
    if pending_id in state.pending:
        raise RuleViolation("pending_exists", N_("This request already exists."))
    if needs not in (PAYER, BANKER) or payer == payee:
        raise ValueError("a pending payment needs the payer or the banker, between two accounts")
    pending = PendingState(
        pending_id,
        payer,
        payee,
        amount,
        needs,
        asked_by,
        kind,
        dict(params),
        stamp(now),
        stamp(now, expires_seconds) if expires_seconds else None,
    )
    return Outcome(
        proposal,
        changes=(document_change("pending", pending_id, None, pending),),
        params={**(proposal_params or params), "pending": pending_id, "needs": needs},
        result={"pending": pending_id},
    )


def require_pending(state: GameState, pending_id: object) -> PendingState:
    """The pending payment with this id; refuses an unknown one (404)."""
    pending = state.pending.get(pending_id) if isinstance(pending_id, str) else None
    if pending is None:
        raise NotFound("unknown_pending", N_("There is no such request waiting."))
    return pending


def is_expired(pending: PendingState, now: datetime) -> bool:
    return is_past(now, pending.expires_at)


def approve(state: GameState, pending_id: object, approver: str, now: datetime) -> Outcome:
    """Whoever the payment needs says yes: the money moves now, as an entry of the kind the
    proposal named.

    ``approver`` is the acting player's id, or ``"banker"``. Refuses: a game not running, an
    unknown request, anyone but the one it needs (the payer, or the banker), a request past
    its expiry, a payer or payee out of the game, and a payer without the cash (who can raise
    it and approve again).
    """
    require_running(state)
    pending = require_pending(state, pending_id)
    needed = pending.payer if pending.needs == PAYER else BANKER
    if approver != needed:
        if pending.needs == BANKER:
            raise Forbidden("banker_only", N_("Only the banker can approve this."))
        raise Forbidden("not_your_request", N_("Only %(name)s can pay this request."), name=_name(state, pending.payer))
    if is_expired(pending, now):
        raise RuleViolation("pending_expired", N_("This request has lapsed."))
    for account in (pending.payer, pending.payee):
        if account != BANK and account in state.players:
            require_player(state, account)
    if pending.payer in state.players:
        require_cash(state.players[pending.payer], pending.amount)
    return Outcome(
        pending.kind,
        move(pending.payer, pending.payee, pending.amount),
        (document_change("pending", pending.id, pending, None),),
        params={**pending.params, "pending": pending.id},
        result={"amount": pending.amount, "to": pending.payee},
    )


def decline(state: GameState, pending_id: object, by: str, now: datetime) -> Outcome:
    """Closes a request unpaid: declined by whoever it needs (or the banker, the table's
    referee), withdrawn by whoever asked, or cleared by anyone once it has lapsed.

    ``by`` is the acting player's id, or ``"banker"``. Refuses: a game not running, an
    unknown request, and anyone else before it lapses.
    """
    require_running(state)
    pending = require_pending(state, pending_id)
    needed = pending.payer if pending.needs == PAYER else BANKER
    if by in (needed, BANKER):
        kind = "pending_declined"
    elif by == pending.asked_by:
        kind = "pending_withdrawn"
    elif is_expired(pending, now):
        kind = "pending_expired"
    else:
        raise Forbidden("not_your_request", N_("Only the payer or whoever asked can close this request."))
    return Outcome(
        kind,
        changes=(document_change("pending", pending.id, pending, None),),
        params={**_closed_params(pending), "by": by},
    )


def expire_due(state: GameState, now: datetime) -> Outcome | None:
    """Clears every request that has lapsed, as one entry; ``None`` when none has."""
    lapsed = [p for p in state.pending.values() if is_expired(p, now)]
    if not lapsed:
        return None
    return Outcome(
        "pending_expired",
        changes=tuple(document_change("pending", p.id, p, None) for p in lapsed),
        params={**_closed_params(lapsed[0]), "count": len(lapsed)},
    )


def drop_for(state: GameState, account: str) -> list[Change]:
    """The changes that drop every request to or from ``account`` (a player leaving)."""
    return [document_change("pending", p.id, p, None) for p in state.pending.values() if account in (p.payer, p.payee)]


def hold(state: GameState, outcome: Outcome, pending_id: str, asked_by: str, now: datetime) -> Outcome:
    """Money a player asks from the bank (``outcome`` pays them from it), held for the banker.

    Only the money waits: the rest of the outcome (a lap counted at GO) happens now, its result
    beside the pending id (the deed a train stops on), and the banker's yes later pays exactly
    the amount asked. Refuses (``ValueError``, a programming
    error) an outcome that is not one payment from the bank to one account.
    """
    postings = outcome.postings
    if len(postings) != 2 or not any(p.account == BANK and p.amount < 0 for p in postings):
        raise ValueError(f"{outcome.kind} cannot wait for the banker")
    payee = next(p for p in postings if p.amount > 0)
    held = propose(
        state,
        pending_id,
        payer=BANK,
        payee=payee.account,
        amount=payee.amount,
        needs=BANKER,
        asked_by=asked_by,
        kind=outcome.kind,
        params=outcome.params,
        now=now,
        proposal="bank_request",
        proposal_params={**outcome.params, "original": outcome.kind},
    )
    return Outcome(
        held.kind,
        changes=(*outcome.changes, *held.changes),
        params=held.params,
        result={**outcome.result, **held.result},
    )


def request_payment(
    state: GameState,
    pending_id: str,
    asker_id: str,
    payer_id: object,
    amount: object,
    reason: object,
    now: datetime,
    expires_seconds: int | None = None,
) -> Outcome:
    """A player asks another for money ("rent for Piazza Dante"): it waits at the top of the
    payer's wallet until they pay or decline it, or the asker withdraws it.

    Refuses: a game not running, a missing, unknown or bankrupt payer or asker, asking
    oneself, an amount that is not a whole number from 1 to the edition's ceiling, and a
    reason that is not short text. The payer's cash is checked when they pay, not now.
    """
    require_running(state)
    asker = require_player(state, asker_id)
    if payer_id is None:
        raise BadInput("missing_field", N_("Say who should pay."))
    payer = require_player(state, payer_id)
    if payer.id == asker.id:
        raise BadInput("same_account", N_("Payer and payee must be different."))
    amount = parse_amount(amount, state.edition.max_amount)
    params = {"from": payer.id, "to": asker.id, "amount": amount, "reason": clean_reason(reason)}
    return propose(
        state,
        pending_id,
        payer=payer.id,
        payee=asker.id,
        amount=amount,
        needs=PAYER,
        asked_by=asker.id,
        kind="transfer",
        params=params,
        now=now,
        expires_seconds=expires_seconds,
        proposal="request",
    )


def _closed_params(pending: PendingState) -> dict[str, Any]:
    return {
        "from": pending.payer,
        "to": pending.payee,
        "amount": pending.amount,
        "pending": pending.id,
        "what": pending.kind,
        "asked_by": pending.asked_by,
        **{k: v for k, v in pending.params.items() if k in ("deed", "reason")},
    }


def _name(state: GameState, account: str) -> str:
    player = state.players.get(account)
    return player.name if player else account
