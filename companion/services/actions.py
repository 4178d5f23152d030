"""Actions: the API's ``{"type": ...}`` payloads turned into core rules, run in one transaction.

Each action is declared once beside its rules (``core.actions``): the payload it reads, read
strictly, and whether it reads the board. An action that does not gets a state whose deeds are
``NotLoaded``, so a rule that reads them anyway fails loudly instead of seeing an empty board.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from ..core import endings, pending, rules
from ..core.actions import ACTIONS as DECLARED
from ..core.actions import Action, Asked
from ..core.counterfeits import notes
from ..core.editions.edition import Edition
from ..core.errors import N_, BadInput, BancoError, Forbidden, RuleViolation, Unauthorized
from ..core.ledger import BANK
from ..core.rules.common import is_past
from ..core.state import RUNNING, GameState, Outcome
from ..store import Game, Request, db, now_utc
from ..store.statements import Prepared
from . import clock, journal, steps
from .faults import is_storage_fault
from .games import random_id
from .seats import Caller, identify
from .serials import secret_of
from .tx import lock_game, savepoint, writing
from .writer import Waiting

MAX_KEY = 100


# The actions a rule runs, as declared beside their rules (the others name the services' step
# that carries them out: the journal's undo and take back, the clock's pause: ``steps``).
ACTIONS: dict[str, Action] = {name: action for name, action in DECLARED.items() if action.handler is not None}


def _asked(action: Action, caller: Caller, payload: dict[str, Any], game: Game) -> Asked:
    """The action as its handler reads it: the payload read by its declaration (which refuses
    an unknown field or a value of the wrong kind), and what the table gives every action."""
    return Asked(
        caller,
        action.read(payload),
        now_utc(),
        random_id,
        secret=secret_of(game),
        clock_limit=game.time_limit_seconds,
        time_up=clock.is_up(game),
    )


def fingerprint(payload: dict) -> str:
    """The request without its key, as a hash: the same key may only come back with it."""
    body = {k: v for k, v in payload.items() if k != "key"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def prepare(game_id, caller: Caller | None, payload, token: str | None = None) -> _Action:
    """``act``'s work, checked as far as it can be without the game: ready for ``run_batch``.
    Refuses a payload that is not an object, an unknown type, and a key that is not printable
    text of at most 100 characters."""
    if not isinstance(payload, dict):
        raise BadInput("invalid_json", N_("Send a JSON object."))
    kind = payload.get("type")
    if not isinstance(kind, str) or kind not in DECLARED:
        raise BadInput("unknown_action", N_("Unknown action."))
    DECLARED[kind].read(payload)  # refused here, before the batch, when a field is unknown or wrong
    key = payload.get("key")
    if key is not None and (not isinstance(key, str) or not key or len(key) > MAX_KEY or not key.isprintable()):
        raise BadInput("invalid_key", N_("The request key must be printable text of at most 100 characters."))
    return _Action(game_id, caller, payload, token, kind, key, fingerprint(payload) if key is not None else None)


def unsigned(game_id) -> _Action:
    """An action sent with neither a seat nor a token, its body unread: its batch refuses it
    once its game is found, so an unknown game is 404 before the missing token is 401."""
    return _Action(game_id, None, {}, None, None, None, None)


class _Action(Waiting):
    """One action waiting for its batch (``companion.services.door``); ``actor`` once its caller
    is known; ``overdue`` for the table's own close of an auction whose countdown ran out
    (``overdue_close``)."""

    __slots__ = ("actor", "caller", "digest", "game_id", "key", "kind", "overdue", "payload", "token")

    def __init__(self, game_id, caller, payload, token, kind, key, digest) -> None:
        super().__init__()
        self.game_id, self.caller, self.payload, self.token = game_id, caller, payload, token
        self.kind, self.key, self.digest = kind, key, digest
        self.actor = caller.actor if caller is not None else None
        self.overdue = False


# The table itself closing an auction: recorded as the banker's, as the table's own actions are.
TABLE_CLOSE = {"type": "auction_close"}
# How far back the journal is read for the entry that last touched the auction.
AUCTION_LOOKBACK = 30


def overdue_close(game_id: str) -> _Action:
    """The table's own close of the game's auction once its countdown has run out
    (``services.closer``): run by the writer like any action, and refused there, changing
    nothing, unless ``require_overdue`` holds at that moment, under the game's lock."""
    work = _Action(game_id, Caller(game_id, True, None), TABLE_CLOSE, None, "auction_close", None, None)
    work.overdue = True
    return work


def require_overdue(game: Game, state: GameState, now) -> None:
    """Refuses the table's own close of an auction unless the game runs, its auction's
    countdown has run out, and the auction was not reopened by the banker's undo (the last
    entry that touched it is no undo: a reopened auction is the banker's to close, or runs
    again from the next bid)."""
    auction = state.auction
    if state.status != RUNNING or auction is None or not is_past(now, auction.ends_at):
        raise RuleViolation("auction_not_over", N_("The auction's countdown has not run out."))
    for entry in journal.recent_entries(game, AUCTION_LOOKBACK):
        if any(change[0] == "auction" for change in entry.changes or ()):
            if entry.kind == "undo":
                raise RuleViolation("auction_reopened", N_("The banker reopened this auction: the banker closes it."))
            return


def table_may_close(state: GameState, outcome: Outcome) -> None:
    """Refuses the table's own close where it would make a player buy who did not bid (an
    edition where the richest buys at the opening bid when nobody bids): that is the
    banker's to close, as it was before the table closed auctions itself."""
    auction = state.auction
    if auction is not None and auction.high_bidder is None and outcome.kind != "auction_unsold":
        raise RuleViolation("banker_closes", N_("Nobody bid: the banker closes this auction."))


class _Repeated(Exception):
    """The action's key was stored by an earlier action: its first answer is the answer."""


def run_batch(batch: list[_Action]) -> None:
    """Runs a batch of actions in one write transaction, each in its own savepoint, and sets
    each one's ``answer`` (``{"version", "result"}``) or ``error`` (a refusal, which changed
    nothing); an error of the commit itself is raised, and then nothing of the batch holds, as
    is a database that cannot save (``faults``), whichever action met it.

    The games are locked in the order of their ids (PostgreSQL: ``FOR UPDATE`` on each game's
    row as its first action comes), the order every batch of every process follows, so two
    batches never wait for each other in a circle; the actions of one game keep the order in
    which they arrived.

    A batch is first run whole with no savepoint (two statements an action fewer): when
    every action stands, as at a table nearly always, that is the commit. When one is refused
    or fails, that transaction is rolled back unseen, and the batch runs again with a
    savepoint for each action, so the refusal undoes only its own part (and a repeated key
    finds its first answer)."""
    ordered = sorted(batch, key=lambda w: w.game_id if isinstance(w.game_id, str) else "")
    if _all_standing(ordered):
        return
    locked: dict[str, Game] = {}  # games whose lock an action that stood took: held to the commit
    with writing():
        for work in ordered:
            try:
                work.answer = _answer(work, locked)
            except Exception as error:  # a refusal, or a fault of this action alone: the others still commit
                if is_storage_fault(error):
                    # Not this action's alone: SQLite may have rolled the whole transaction
                    # back, and what ran after it would be committed statement by statement.
                    raise
                work.error = error


class _NotAllStanding(Exception):
    """An action of a batch run whole was refused or failed: the whole transaction goes."""


def _all_standing(ordered: list[_Action]) -> bool:
    """Runs the actions in one transaction without savepoints and commits it when every one
    stands; otherwise rolls it all back, sets no answer, and says False. A failure of the
    commit itself is raised."""
    locked: dict[str, Game] = {}
    try:
        with writing():
            for work in ordered:
                try:
                    game = _locked_game(work, locked)
                    locked[game.id] = game
                    work.answer = _run(work, game)
                except Exception as error:
                    if is_storage_fault(error):
                        raise  # the whole batch fails: no action of it can be saved
                    raise _NotAllStanding() from None
    except _NotAllStanding:
        for work in ordered:
            work.answer = None
        return False
    return True


def _locked_game(work: _Action, locked: dict[str, Game]) -> Game:
    """The action's game: the one this batch has locked already, or newly locked."""
    return (locked.get(work.game_id) if isinstance(work.game_id, str) else None) or lock_game(work.game_id)


def _answer(work: _Action, locked: dict[str, Game]) -> dict | None:
    """The action run in a savepoint of its own, or the first answer to its key."""
    try:
        with savepoint():
            # A lock taken inside a savepoint that is rolled back may go with it (PostgreSQL):
            # only an action that stood leaves its game in ``locked``.
            game = _locked_game(work, locked)
            answer = _run(work, game)
        locked[game.id] = game
        return answer
    except _Repeated:
        return _first_answer(work)
    except BancoError:
        # A repeat the rules now refuse (the money already moved) is still a repeat.
        first = _first_answer(work) if work.key is not None and work.actor is not None else None
        if first is None:
            raise
        return first


def _first_answer(work: _Action) -> dict | None:
    """The answer stored for the action's key, if any; refuses the key used for a different
    request (409)."""
    seen = db.session.execute(_STORED_ANSWER, {"game_id": work.game_id, "actor": work.actor, "key": work.key}).first()
    if seen is None:
        return None
    if seen.fingerprint is not None and seen.fingerprint != work.digest:
        raise RuleViolation("key_reused", N_("This request key was already used for a different request."))
    return seen.response


_REQUEST = Request.__table__
_STORED_ANSWER = select(_REQUEST.c.fingerprint, _REQUEST.c.response).where(
    _REQUEST.c.game_id == bindparam("game_id"),
    _REQUEST.c.actor == bindparam("actor"),
    _REQUEST.c.key == bindparam("key"),
)
_REMEMBER = Prepared(insert(_REQUEST))


def _run(work: _Action, game: Game) -> dict:
    """One action inside the batch's transaction, on its game's row, locked: refused unless
    its caller may ask it, carried out by its rule or by the services' step it names, the
    game's clock following as it declares, and its answer kept under its key."""
    caller = _seated(work, game)
    action = DECLARED[work.kind]
    done = _by_rule(action, work, game, caller) if action.step is None else _by_step(action, work, game, caller)
    steps.clock_after(action, game, done.entry)
    response = _answered(game, caller, done)
    if work.key is not None:
        _remember(work, game, caller, response)
    return response


def _seated(work: _Action, game: Game) -> Caller:
    """Who asks, once the game is known: the seat a page or the door found, or the token's.
    Refuses an action sent with neither (401), a token of another game (401) and a player out
    of the game, who only watches (403)."""
    caller = work.caller
    if caller is None:
        if work.kind is None:
            raise Unauthorized("missing_token", N_("Send your token as 'Authorization: Bearer <token>'."))
        caller = identify(game, work.token)
        work.actor = caller.actor
    if game.id != caller.game_id:
        raise Unauthorized("invalid_token", N_("This sign-in is not valid for this game."))
    if caller.player_id and not caller.is_banker:
        me = next(p for p in game.players if p.id == caller.player_id)
        if me.bankrupt:
            raise Forbidden("spectator", N_("You are out of the game and can only watch."))
    return caller


@dataclass(frozen=True, slots=True)
class _Done:
    """An action carried out: its entry, and whether it is money held for the banker (a
    strict bank's) rather than paid."""

    entry: steps.Written
    held: bool = False


def _by_step(action: Action, work: _Action, game: Game, caller: Caller) -> _Done:
    """An action no rule runs, carried out by the services' step it names (``services.steps``)."""
    return _Done(steps.carry_out(action, game, caller, action.read(work.payload)))


def _by_rule(action: Action, work: _Action, game: Game, caller: Caller) -> _Done:
    """An action its rule runs: the outcome, held for the banker where the game plays with a
    strict bank, with the end of the game and the fake notes that follow from it, written as
    its entry; then what the table does by itself once it lands."""
    state = journal.state_of(game, deeds=action.reads_deeds)
    if work.overdue:
        require_overdue(game, state, now_utc())
    outcome = _ruled(action, caller, work.payload, game, state)
    if work.overdue:
        table_may_close(state, outcome)
    held = _held_for_the_banker(action, caller, state, outcome)
    if held:
        outcome = pending.hold(state, outcome, random_id(), caller.actor, now_utc())  # held for a player only
    entry = journal.record(game, state, _followed(action, state, outcome), caller.actor)
    _table_follows(action, game, entry.state)
    return _Done(entry, held)


def _ruled(action: Action, caller: Caller, payload: dict, game: Game, state: GameState) -> Outcome:
    """What the action's rule makes of ``state``; refuses whom the action does not allow and
    what the rule refuses, its amounts in the game's currency."""
    with priced(state.edition):
        return action.run(state, _asked(action, caller, payload, game))


def _held_for_the_banker(action: Action, caller: Caller, state: GameState, outcome: Outcome) -> bool:
    """Whether ``outcome`` is money a player asks of the bank that waits for the banker: the
    game plays with a strict bank, and the bank would pay."""
    if not action.asks_bank or caller.is_banker or not state.setting("strict_bank"):
        return False
    return any(p.account == BANK and p.amount < 0 for p in outcome.postings)


def _followed(action: Action, state: GameState, outcome: Outcome) -> Outcome:
    """``outcome`` with what follows from it by itself: the end of the game where it leaves
    every deed owned and the edition says so (an action that reads the board), and, where the
    edition has fake money, the notes that move and a payment open to a check."""
    if action.reads_deeds:
        outcome = endings.with_end(state, outcome)
    return notes.follow(state, outcome, random_id(), now_utc())


def _table_follows(action: Action, game: Game, state: GameState) -> None:
    """What the table does by itself once an entry leaves ``state``, each its own entry: the
    requests that lapsed are cleared, and the next auction of a bankrupt player's deeds opens
    once no other is open."""
    # Lapsed requests are cleared after an action lands, so one that names a lapsed
    # request is refused as lapsed rather than as unknown.
    lapsed = pending.expire_due(state, now_utc())
    if lapsed is not None:
        state = journal.record(game, state, lapsed, journal.BANKER).state
    if state.auction_queue and state.auction is None:
        _next_queued_auction(game, state if action.reads_deeds else journal.state_of(game))


def _answered(game: Game, caller: Caller, done: _Done) -> dict:
    """The answer: the game's version now, and the entry's result (``held`` for money waiting
    for the banker)."""
    response: dict[str, Any] = {"version": game.version, "result": _result(game, caller, done.entry)}
    if done.held:
        response["result"]["held"] = True
    return response


def _remember(work: _Action, game: Game, caller: Caller, response: dict) -> None:
    """Keeps the answer under the action's key. Stored without a read before: a key already
    there is a repeat (the unique key refuses it, and the savepoint takes this action back)."""
    try:
        _REMEMBER.execute(
            db.session.connection(),
            {
                "game_id": game.id,
                "actor": caller.actor,
                "key": work.key,
                "fingerprint": work.digest,
                "response": response,
                "at": now_utc(),
            },
        )
    except IntegrityError:
        raise _Repeated() from None


def _next_queued_auction(game: Game, state: GameState) -> None:
    """The table starts the next auction of a bankrupt player's deeds by itself, as its own
    entry, once no other auction is open."""
    queued = rules.queued_auction(state, now_utc(), state.setting("auction_seconds"))
    if queued is not None:
        journal.record(game, state, queued, journal.BANKER)


def preview(game: Game, caller: Caller, payload: dict, state: GameState | None = None) -> Outcome:
    """What ``payload`` would do now, computed by the same rules and written nowhere: the pages
    show the amount and the payee before anyone confirms, and offer only what the rules allow.
    Rules never change the state they read, so a page previewing several actions passes one
    ``state`` for all. Refuses exactly as ``act`` would."""
    kind = payload.get("type")
    if kind not in ACTIONS:
        raise BadInput("unknown_action", N_("Unknown action."))
    return _ruled(ACTIONS[kind], caller, payload, game, state or journal.state_of(game))


@contextmanager
def priced(edition: Edition) -> Iterator[None]:
    """A refusal of the rules run on a game of ``edition`` words its amounts in that edition's
    currency (``core.errors.Money``): "Anna has € 1.500", never a bare number."""
    try:
        yield
    except BancoError as error:
        if error.currency is None:
            error.currency = edition.currency_symbol
        raise


def _result(game: Game, caller: Caller, entry: steps.Written) -> dict:
    result = {"entry": entry.version, "type": entry.kind}
    result.update(entry.params.get("result", {}))
    if caller.player_id:
        me = next(p for p in game.players if p.id == caller.player_id)
        result["cash"] = me.cash
    return result
