"""The one interpreter of an ``Outcome``: how its changes and postings become a new state.

Persistence applies an outcome here and stores what it touched; undo reads current values
here; the tests apply outcomes here. Nothing else interprets a ``Change``. A state is never
changed: applying an outcome makes the next one, sharing whatever the outcome left alone.

The applier is also where money is kept honest whatever rule produced the outcome: a posting
to an account that does not exist is refused, and so is an outcome that would leave a player
or a pot with a negative balance. A refusal happens before anything is changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .errors import N_, Money, NotFound, RuleViolation
from .frozen import FrozenDict, build, freeze
from .ledger import BANK, Posting, balanced
from .state import (
    DOCUMENT_FIELDS,
    GAME_SCALARS,
    Change,
    DeedState,
    Document,
    DocumentField,
    GameState,
    Outcome,
    PlayerState,
)


@dataclass
class Touched:
    """What an outcome changed, so persistence writes only that."""

    game: set[str] = field(default_factory=set)  # GameState scalar fields
    players: set[str] = field(default_factory=set)  # player ids (a field or the cash)
    deeds: set[str] = field(default_factory=set)  # deed keys
    documents: set[str] = field(default_factory=set)  # GameState document fields
    pots: bool = False


def _ref(change: Change) -> str:
    """The player or deed a change is to (only the game's own fields have none)."""
    if change.ref is None:
        raise ValueError(f"change to a {change.target} without its id")
    return change.ref


def read(state: GameState, change: Change) -> Any:
    """The value ``change``'s field holds now in ``state`` (a document as its ``to_dict()``)."""
    target = change.target
    if target == "game":
        _require_scalar(change.field)
        return getattr(state, change.field)
    if target == "player":
        return getattr(state.players[_ref(change)], change.field)
    if target == "deed":
        key = _ref(change)
        return getattr(state.deeds.get(key) or DeedState(key), change.field)
    spec = _document_field(target)
    holder = getattr(state, spec.attr)
    current = holder.get(change.ref) if spec.many else holder
    return current.to_dict() if current is not None else None


def balance(state: GameState, account: str) -> int:
    """An account's balance in ``state``: a player's cash or a pot's; refuses (``NotFound``)
    an account the game does not have. The bank has no balance here: it holds the rest."""
    if not isinstance(account, str):
        raise NotFound("unknown_account", N_("There is no such account in this game."))
    if account in state.players:
        return state.players[account].cash
    if account in state.pots:
        return state.pots[account]
    raise NotFound("unknown_account", N_("There is no such account in this game."))


def account_name(state: GameState, account: str) -> str:
    player = state.players.get(account)
    return player.name if player else account


def check_postings(state: GameState, postings: Iterable[Posting]) -> dict[str, int]:
    """The balances the postings would leave, account by account (the bank left out).

    Refuses: postings that do not balance (``LedgerError``), an account the game does not
    have (404), and a balance that would go below zero (409, saying how much is missing).
    """
    after: dict[str, int] = {}
    for posting in balanced(postings):
        if posting.account == BANK:
            continue
        start = after.get(posting.account, balance(state, posting.account))
        after[posting.account] = start + posting.amount
    for account, amount in after.items():
        if amount < 0:
            held = balance(state, account)
            if account in state.players:
                raise RuleViolation(
                    "insufficient_cash",
                    N_("%(name)s has %(cash)s: %(missing)s missing to pay %(amount)s."),
                    name=account_name(state, account),
                    cash=Money(held),
                    missing=Money(-amount),
                    amount=Money(held - amount),
                )
            raise RuleViolation("pot_too_small", N_("The pot holds only %(cash)s."), cash=Money(held))
    return after


def apply_outcome(state: GameState, outcome: Outcome) -> GameState:
    """The state ``outcome`` leaves ``state`` in; ``state`` itself never changes.

    Refuses, before anything is made: everything ``check_postings`` refuses, and a change to a
    field or target the state does not declare (a programming error, ``ValueError``).
    """
    return advance(state, outcome)[0]


def advance(state: GameState, outcome: Outcome) -> tuple[GameState, Touched]:
    """``apply_outcome``'s new state, with what it touched (what persistence writes).

    Copy on write: the new state shares with ``state`` every player, deed and document the
    outcome leaves alone, so an action costs a few small objects, not a copy of the game.
    Refuses what ``apply_outcome`` refuses."""
    balances = check_postings(state, outcome.postings) if outcome.postings else {}
    for change in outcome.changes:
        _validate(state, change)
    touched = Touched()
    game: dict[str, Any] = {}  # GameState fields to set
    players: dict[str, dict[str, Any]] = {}  # player id -> its fields to set
    deeds: dict[str, dict[str, Any]] = {}  # deed key -> its fields to set
    many: dict[str, dict[str | None, Document | None]] = {}  # documents by id: attr -> id -> new one
    for change in outcome.changes:
        target, after = change.target, change.after
        if target == "game":
            game[change.field] = freeze(after)
            touched.game.add(change.field)
        elif target == "player":
            ref = _ref(change)
            players.setdefault(ref, {})[change.field] = freeze(after)
            touched.players.add(ref)
        elif target == "deed":
            ref = _ref(change)
            deeds.setdefault(ref, {})[change.field] = freeze(after)
            touched.deeds.add(ref)
        else:
            _document_set(change, game, many, touched)
    pots = _cash_and_pots(state, balances, players, touched)
    game.update(_collections(state, players, deeds, pots, many))
    return _evolve(state, game), touched


def _document_set(
    change: Change, game: dict[str, Any], many: dict[str, dict[str | None, Document | None]], touched: Touched
) -> None:
    """A change to a document: read into its kind (``None`` drops it), set in ``game`` for a
    document the game holds one of, else by its id in ``many``."""
    spec = _document_field(change.target)
    document = None if change.after is None else spec.kind.from_dict(change.after)
    if spec.many:
        many.setdefault(spec.attr, {})[change.ref] = document
    else:
        game[spec.attr] = document
    touched.documents.add(spec.attr)


def _cash_and_pots(
    state: GameState, balances: dict[str, int], players: dict[str, dict[str, Any]], touched: Touched
) -> dict[str, int]:
    """The balances the postings leave: a player's as their cash (set in ``players``), the
    others returned, as the pots' new amounts."""
    pots = {}
    for account, amount in balances.items():
        if account in state.players:
            players.setdefault(account, {})["cash"] = amount
            touched.players.add(account)
        else:
            pots[account] = amount
            touched.pots = True
    return pots


def _collections(
    state: GameState,
    players: dict[str, dict[str, Any]],
    deeds: dict[str, dict[str, Any]],
    pots: dict[str, int],
    many: dict[str, dict[str | None, Document | None]],
) -> dict[str, Any]:
    """The game's players, deeds, pots and documents held by id that an outcome changed, each
    a new frozen mapping sharing every value it left alone."""
    game: dict[str, Any] = {}
    if players:
        game["players"] = FrozenDict(
            {pid: _evolve(p, players[pid]) if pid in players else p for pid, p in state.players.items()}
        )
    if deeds:
        board = dict(state.deeds)
        for key, values in deeds.items():
            board[key] = _evolve(board.get(key) or DeedState(key), values)
        game["deeds"] = FrozenDict(board)
    if pots:
        game["pots"] = FrozenDict({**state.pots, **pots})
    for attr, documents in many.items():
        game[attr] = _documents_after(getattr(state, attr), documents)
    return game


def _documents_after(held: Mapping[str | None, Document], documents: dict[str | None, Document | None]) -> FrozenDict:
    """The documents of one kind held by id, with ``documents`` set (``None`` dropping one)."""
    after = dict(held)
    for doc_id, document in documents.items():
        if document is None:
            after.pop(doc_id, None)
        else:
            after[doc_id] = document
    return FrozenDict(after)


_Frozen = TypeVar("_Frozen")


def _evolve(obj: _Frozen, values: dict[str, Any]) -> _Frozen:
    """A copy of the frozen dataclass ``obj`` with ``values`` (frozen already) in place of its
    own. Not ``dataclasses.replace``: that runs ``__init__`` over every field again, and an
    action changes two or three of a game's thirty."""
    return build(type(obj), {**obj.__dict__, **values}) if values else obj


def _validate(state: GameState, change: Change) -> None:
    if change.target == "game":
        _require_scalar(change.field)
    elif change.target == "player":
        if change.ref is None or change.ref not in state.players:
            raise ValueError(f"change to unknown player {change.ref!r}")
        _require_field(state.players[change.ref], change.field)
    elif change.target == "deed":
        if change.ref is None or state.edition.deed(change.ref) is None:
            raise ValueError(f"change to unknown deed {change.ref!r}")
        state.deeds.get(change.ref)  # a NotLoaded board raises here, before anything changed
        _require_field(DeedState(change.ref), change.field)
    else:
        _document_field(change.target)


def _require_scalar(name: str) -> None:
    if name not in GAME_SCALARS:
        raise ValueError(f"the game has no field {name!r} a change may set")


def _require_field(obj: PlayerState | DeedState, name: str) -> None:
    if name not in obj.__dataclass_fields__ or name in ("id", "key", "name", "cash"):
        raise ValueError(f"{type(obj).__name__} has no field {name!r} a change may set")


def _document_field(target: str) -> DocumentField:
    spec = DOCUMENT_FIELDS.get(target)
    if spec is None:
        raise ValueError(f"unknown change target {target!r}")
    return spec
