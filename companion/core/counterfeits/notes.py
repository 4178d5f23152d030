"""Electronic notes with fakes among them (Niente è come sembra) and the decoder check.

Only where the edition has ``counterfeits`` does any of this run. Money stays in the ledger:
a player's ``cash`` is always the sum of the faces of their notes (``NotesState.hands``), so
every rule, the journal and ``verify`` work as before; this module only says *which* notes
moved with each outcome's postings (``follow``), and holds payments open to a check.

**Notes from the bank.** The bank hands out notes drawn one by one: the n-th note it hands out
in a game is fake when ``random.Random(f"{seed}:note:{n}").random() < share`` (``share`` is the
game's ``fake_note_share``, else the edition's), so the same seed deals the same fakes. An
amount is paid out largest note first (the start: the edition's ``starting_notes``). The bank
takes back every note it is paid (its notes are not tracked). Nobody sees which notes are fake:
the read model shows a player only how many notes of each face they hold.

**Which notes a payment hands over.** The payer hands the largest notes that still let them
make the exact amount (of each face, the notes held longest first). When their notes cannot
make it exactly, the bank changes one note first: the smallest note bigger than what the
largest-first count leaves missing, into the next smaller faces (500 into 5×100, 100 into 2×50,
50 into 20+20+10, 20 into 2×10), drawn as new notes; then again, until the amount can be made.
The payee takes exactly the notes handed over; when an outcome pays several players at once,
each receiver takes the handed notes that make up their share (largest first) and the bank adds
the rest. Amounts must be multiples of the smallest note.

**The check window.** A payment by one player (to another player or to the bank; bank payouts
and one's own money never) is open to a check for ``check_seconds`` (the game's setting, else
the edition's): the result of the action names it (``{"payment", "check_until"}``). Any player
outside it with a green chip and not in jail may check it once (the receiver too, where
``receiver_checks``); the first check closes it. One of the notes handed over is examined,
chosen at random from the game's seed and the payment's id. A fake note goes to the checker,
and the payer pays its face again, from their other notes, to whoever holds the fake now (the
payee, unless they passed it on; the bank for a payment to the bank): the journal moves the
face from the payer to the checker. A payer without that much left owes it: the face moves
from the holder to the checker and a request of the payer for the holder waits on the payer's
wallet (paid, or not, as any request). Payments past their window are dropped from the state
by the next entry that moves notes (no entry of their own).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from ..changes import check_postings
from ..errors import N_, Forbidden, Money, NotFound, RuleViolation
from ..guards import require_player, require_running
from ..ledger import BANK, Posting, move
from ..rules.common import is_past, stamp
from ..state import (
    PAYER,
    Change,
    CheckableState,
    GameState,
    NotesState,
    Outcome,
    PendingState,
    PlayerState,
    document_change,
)
from .chance import check_card
from .chips import require_chip, spent_chip
from .terms import check_seconds, fake_share, receiver_checks

# The smaller faces the bank changes a note into.
CHANGE_INTO = {500: (100, 100, 100, 100, 100), 100: (50, 50), 50: (20, 20, 10), 20: (10, 10)}


def active(state: GameState) -> bool:
    return state.edition.counterfeits is not None


class _Bank:
    """The bank's side of one outcome: draws new notes from the seed, counting them."""

    def __init__(self, state: GameState, drawn: int) -> None:
        self.seed, self.share, self.drawn = state.seed, fake_share(state), drawn
        self.faces = state.edition.banknotes  # largest first

    def note(self, face: int) -> dict[str, Any]:
        n = self.drawn
        self.drawn += 1
        rng = random.Random(f"{self.seed}:note:{n}") if self.seed is not None else random.SystemRandom()
        return {"id": f"n{n}", "face": face, "fake": rng.random() < self.share}

    def pay(self, amount: int, split: Mapping[int, int] | None = None) -> list[dict[str, Any]]:
        """New notes making ``amount``: ``split`` (face -> count) where it makes exactly that
        amount, else largest first."""
        if split and sum(face * count for face, count in split.items()) == amount:
            return [self.note(face) for face in sorted(split, reverse=True) for _ in range(split[face])]
        notes = []
        for face in self.faces:
            while amount >= face:
                notes.append(self.note(face))
                amount -= face
        if amount:
            raise ValueError("an amount the notes cannot make")  # refused earlier by require_notes
        return notes


def require_notes(state: GameState, amount: int) -> None:
    """Refuses an amount the notes cannot make (not a multiple of the smallest note)."""
    smallest = min(state.edition.banknotes)
    if amount % smallest:
        raise RuleViolation(
            "not_in_notes",
            N_("Money moves in notes here: the amount must be a multiple of %(note)s."),
            note=Money(smallest),
        )


def _exact(hand: list[dict[str, Any]], amount: int) -> list[dict[str, Any]] | None:
    """The notes of ``hand`` making exactly ``amount``, as many of the largest faces as still
    allow it; of each face, the notes held longest first. ``None`` when no set of them can."""
    faces = sorted({n["face"] for n in hand}, reverse=True)
    counts = [sum(1 for n in hand if n["face"] == f) for f in faces]
    suffix = [sum(f * c for f, c in zip(faces[i:], counts[i:])) for i in range(len(faces) + 1)]

    def search(i: int, left: int) -> list[int] | None:
        if left == 0:
            return [0] * (len(faces) - i)
        if i == len(faces) or suffix[i] < left:
            return None
        for take in range(min(counts[i], left // faces[i]), -1, -1):
            rest = search(i + 1, left - take * faces[i])
            if rest is not None:
                return [take, *rest]
        return None

    plan = search(0, amount)
    if plan is None:
        return None
    chosen = []
    for face, take in zip(faces, plan):
        chosen += [n for n in hand if n["face"] == face][:take]
    return chosen


def _largest_first(hand: list[dict[str, Any]], amount: int) -> tuple[list[dict[str, Any]], int]:
    taken, left = [], amount
    for note in sorted(hand, key=lambda n: -n["face"]):
        if note["face"] <= left:
            taken.append(note)
            left -= note["face"]
    return taken, left


def hand_over(hand: list[dict[str, Any]], amount: int, bank: _Bank) -> list[dict[str, Any]]:
    """Takes out of ``hand`` (changed in place) notes making exactly ``amount``, having the
    bank change notes first where needed; returns them."""
    while True:
        chosen = _exact(hand, amount)
        if chosen is not None:
            ids = {n["id"] for n in chosen}
            hand[:] = [n for n in hand if n["id"] not in ids]
            return chosen
        taken, left = _largest_first(hand, amount)
        ids = {n["id"] for n in taken}
        bigger = [n for n in hand if n["id"] not in ids and n["face"] > left and n["face"] in CHANGE_INTO]
        if not bigger:
            raise ValueError("notes that cannot make the amount")  # cash below the amount: refused earlier
        note = min(bigger, key=lambda n: n["face"])
        at = hand.index(note)
        hand[at : at + 1] = [bank.note(face) for face in CHANGE_INTO[note["face"]]]


def _take_from_pool(pool: list[dict[str, Any]], amount: int) -> list[dict[str, Any]]:
    """The notes of ``pool`` (changed in place) that a receiver of ``amount`` takes: exactly
    it where they can, else the largest that fit."""
    chosen = _exact(pool, amount)
    if chosen is None:
        chosen, _left = _largest_first(pool, amount)
    ids = {n["id"] for n in chosen}
    pool[:] = [n for n in pool if n["id"] not in ids]
    return chosen


def notes_of(state: GameState) -> NotesState:
    return state.notes if state.notes is not None else NotesState()


def follow(state: GameState, outcome: Outcome, payment_id: str, now: datetime) -> Outcome:
    """``outcome`` with the notes that move with its postings, and, when it is one player's
    payment, that payment open to a check (its id ``payment_id``; the result names it with
    ``check_until``). Payments whose window has passed are dropped in the same entry.

    Unchanged: an outcome in an edition without counterfeits, one without postings, and one
    that already says how its notes move (a check). Refuses an amount the notes cannot make."""
    if not active(state) or not outcome.postings or any(c.target == "notes" for c in outcome.changes):
        return outcome
    if payment_id in state.checkable:
        raise ValueError(f"payment id {payment_id!r} already used")
    check_postings(state, outcome.postings)  # a payer short of cash is refused as ever, before any note moves
    before = notes_of(state)
    bank = _Bank(state, before.drawn)
    hands = _hands_in_play(state, before, bank)
    net = _net(state, outcome.postings)
    payers, receivers = _sides(state, net)
    for pid in payers + receivers:
        require_notes(state, abs(net[pid]))
    handed = {pid: hand_over(hands.setdefault(pid, []), -net[pid], bank) for pid in payers}
    pool = [n for pid in payers for n in handed[pid]]
    _receive(state, outcome.kind, hands, pool, {pid: net[pid] for pid in receivers}, bank)
    changes = [document_change("notes", None, state.notes, NotesState(bank.drawn, dict(hands.items())))]
    changes += [document_change("checkable", c.id, c, None) for c in _expired(state, now)]
    result = dict(outcome.result)
    params = dict(outcome.params)
    payment = _open_to_check(state, outcome.kind, payment_id, now, net, receivers, handed)
    if payment is not None:
        changes.append(document_change("checkable", payment_id, None, payment))
        result.update(payment=payment_id, check_until=payment.check_until)
        params["checkable"] = payment_id
    return replace(outcome, changes=(*outcome.changes, *changes), result=result, params=params)


def _open_to_check(
    state: GameState,
    kind: str,
    payment_id: str,
    now: datetime,
    net: dict[str, int],
    receivers: list[str],
    handed: dict[str, list[dict[str, Any]]],
) -> CheckableState | None:
    """The payment open to a check for ``check_seconds`` when one player handed notes over, to one
    other player or to the bank; ``None`` for any other movement of money."""
    if len(handed) != 1 or len(receivers) > 1:
        return None
    [(payer, notes)] = handed.items()
    if not notes:
        return None
    payee = receivers[0] if receivers else BANK
    return CheckableState(
        payment_id,
        payer,
        payee,
        [payer, *receivers],
        -net[payer],
        notes,
        kind,
        stamp(now),
        stamp(now, check_seconds(state)),
    )


def _hands_copy(notes: NotesState) -> dict[str, list[dict[str, Any]]]:
    """Every player's notes, copied to be changed."""
    return {pid: [dict(n) for n in held] for pid, held in notes.hands.items()}


def _hands_in_play(state: GameState, before: NotesState, bank: _Bank) -> dict[str, list[dict[str, Any]]]:
    """Every player's notes, copied; a player with cash but no notes (a game already under way
    when its notes began) gets the bank's notes for the cash held, drawn in seat order."""
    hands = _hands_copy(before)
    for player in state.players.values():
        if player.id not in hands and player.cash:
            hands[player.id] = bank.pay(player.cash)
    return hands


def _net(state: GameState, postings: tuple[Posting, ...]) -> dict[str, int]:
    """What each player gains (above 0) or pays (below) with ``postings``; the bank and pots aside."""
    net: dict[str, int] = {}
    for posting in postings:
        if posting.account in state.players:
            net[posting.account] = net.get(posting.account, 0) + posting.amount
    return net


def _sides(state: GameState, net: dict[str, int]) -> tuple[list[str], list[str]]:
    """The players who pay and those who receive, each in seat order."""
    payers = [pid for pid in state.players if net.get(pid, 0) < 0]
    receivers = [pid for pid in state.players if net.get(pid, 0) > 0]
    return payers, receivers


def _receive(
    state: GameState,
    kind: str,
    hands: dict[str, list[dict[str, Any]]],
    pool: list[dict[str, Any]],
    shares: dict[str, int],
    bank: _Bank,
) -> None:
    """Each receiver, in seat order, takes from ``pool`` (the notes handed over) the notes that
    make up their share, and the bank adds the rest in new notes: at the start, as the
    edition's starting notes for the table's size."""
    split = state.edition.starting_notes_for(len(state.active_players())) if kind == "start" else None
    for pid, share in shares.items():
        got = _take_from_pool(pool, share)
        missing = share - sum(n["face"] for n in got)
        hands.setdefault(pid, []).extend(got + (bank.pay(missing, split) if missing else []))


def _expired(state: GameState, now: datetime) -> list[CheckableState]:
    # A Chance card played goes back under the pile when its play is dropped: ``counterfeits.chance`` does that.
    return [c for c in state.checkable.values() if c.card is None and is_past(now, c.check_until)]


def open_checks(state: GameState, now: datetime) -> list[CheckableState]:
    """The payments and cards still open to a check, oldest first."""
    return sorted(
        (c for c in state.checkable.values() if c.checked is None and not is_past(now, c.check_until)),
        key=lambda c: c.at,
    )


def may_check(state: GameState, checkable: CheckableState, player_id: str) -> bool:
    """Whether the player may check this payment at all (chips and jail aside): not the payer,
    and not a receiver unless the game lets receivers check."""
    if player_id == checkable.payer:
        return False
    return player_id not in checkable.parties or receiver_checks(state)


def require_checkable(state: GameState, payment_id: object) -> CheckableState:
    found = state.checkable.get(payment_id) if isinstance(payment_id, str) else None
    if found is None:
        raise NotFound("unknown_payment", N_("There is no such payment to check."))
    return found


def check(state: GameState, checker_id: str, payment_id: object, now: datetime, owed_id: str) -> Outcome:
    """The checker turns a chip red and examines one note of the payment (or the Chance card
    played): see the module's text. ``owed_id`` is the id of the request made when the payer
    cannot pay a fake note again.

    Refuses: a game not running or without counterfeits, an unknown checker or payment, a
    payment already checked or past its window, the payer, the receiver where receivers do
    not check, and a checker in jail or without a green chip."""
    require_running(state)
    if not active(state):
        raise RuleViolation("no_counterfeits", N_("In this edition there is no fake money to check."))
    checker = require_player(state, checker_id)
    payment = require_checkable(state, payment_id)
    _require_open_to(state, payment, checker, now)
    require_chip(state, checker)
    if payment.card is not None:
        return check_card(state, checker, payment)
    rng = random.Random(f"{state.seed}:check:{payment.id}") if state.seed is not None else random.SystemRandom()
    note = rng.choice(payment.notes)
    face = note["face"]
    checked = {"by": checker.id, "fake": note["fake"], "face": face}
    changes: list[Change] = [
        spent_chip(checker),
        document_change("checkable", payment.id, payment, replace(payment, checked=checked)),
    ]
    params: dict[str, Any] = {
        "by": checker.id,
        "from": payment.payer,
        "to": payment.payee,
        "payment": payment.id,
        "what": payment.kind,
        "fake": note["fake"],
        "face": face,
    }
    result = {"fake": note["fake"], "face": face}
    if not note["fake"]:
        return Outcome("check", changes=tuple(changes), params=params, result=result)
    postings, found = _fake_found(state, payment, checker, note, now, owed_id)
    changes += found
    if any(c.target == "pending" for c in found):
        params["owed"] = owed_id
    return Outcome("check", postings, tuple(changes), params=params, result=result)


def _require_open_to(state: GameState, payment: CheckableState, checker: PlayerState, now: datetime) -> None:
    """Refuses a payment already checked or past its window, the payer checking their own
    money, and a receiver where receivers do not check."""
    if payment.checked is not None:
        raise RuleViolation("already_checked", N_("This payment has already been checked."))
    if is_past(now, payment.check_until):
        raise RuleViolation("check_closed", N_("Too late: this payment can no longer be checked."))
    if checker.id == payment.payer:
        raise Forbidden("own_money", N_("You cannot check your own money."))
    if not may_check(state, payment, checker.id):
        raise Forbidden("receiver_cannot_check", N_("Only the players outside this payment can check it."))


def _fake_found(
    state: GameState,
    payment: CheckableState,
    checker: PlayerState,
    note: Mapping[str, Any],
    now: datetime,
    owed_id: str,
) -> tuple[tuple[Posting, ...], list[Change]]:
    """A fake note found: it goes from whoever holds it now (the bank for a payment to the bank)
    to the checker, and the payer pays its face again to that holder, from their other notes.
    A payer without that much (or out of the game) cannot: the holder loses the note, and a
    player still in owes its face (the request ``owed_id``). The money moved, and the changes:
    that request, then everyone's notes."""
    face = note["face"]
    before = notes_of(state)
    hands = _hands_copy(before)
    bank = _Bank(state, before.drawn)
    holder = next((pid for pid, notes in hands.items() if any(n["id"] == note["id"] for n in notes)), BANK)
    if holder != BANK:
        hands[holder] = [n for n in hands[holder] if n["id"] != note["id"]]
    hands.setdefault(checker.id, []).append(dict(note))
    payer = state.players[payment.payer]
    changes: list[Change] = []
    if not payer.bankrupt and payer.cash >= face:
        again = hand_over(hands.setdefault(payer.id, []), face, bank)
        if holder != BANK:
            hands[holder].extend(again)
        postings: tuple[Posting, ...] = move(payer.id, checker.id, face)
    else:
        # The payer cannot pay it again now: the holder loses the note and the payer owes it.
        postings = move(holder, checker.id, face) if holder != checker.id else ()
        if not payer.bankrupt:
            changes.append(
                document_change("pending", owed_id, None, _owed_again(payer, holder, checker, face, owed_id, now))
            )
    changes.append(document_change("notes", None, state.notes, NotesState(bank.drawn, hands)))
    return postings, changes


def _owed_again(
    payer: PlayerState, holder: str, checker: PlayerState, face: int, owed_id: str, now: datetime
) -> PendingState:
    """The request for a fake note's face that a payer could not pay again, from them to the
    note's holder, waiting on the payer (made by the holder, or by the checker for the bank)."""
    return PendingState(
        owed_id,
        payer.id,
        holder,
        face,
        PAYER,
        holder if holder != BANK else checker.id,
        "transfer",
        {"from": payer.id, "to": holder, "amount": face, "reason": "", "fake_note": True},
        stamp(now),
    )


def hand_counts(state: GameState, player_id: str) -> dict[int, int]:
    """How many notes of each face the player holds, largest first: what their wallet shows
    (never which are fake)."""
    counts: dict[int, int] = {}
    for note in sorted(notes_of(state).hands.get(player_id, []), key=lambda n: -n["face"]):
        counts[note["face"]] = counts.get(note["face"], 0) + 1
    return counts


def conserved(state: GameState) -> list[str]:
    """Every player whose notes do not add up to their cash (empty when all do)."""
    if not active(state) or state.notes is None:
        return []
    hands = state.notes.hands
    return [p.id for p in state.players.values() if sum(n["face"] for n in hands.get(p.id, [])) != p.cash]
