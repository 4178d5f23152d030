"""Actions: the API's ``{"type": ...}`` payloads turned into core rules, run in one transaction.

Each action is declared once in ``ACTIONS`` with what it reads: an action that does not
declare the board gets a state whose deeds are ``NotLoaded``, so a rule that reads them anyway
fails loudly instead of seeing an empty board.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from ..core import commands, dice, endings, pending, play_off, rules, turns
from ..core.counterfeits import chance, notes, serials
from ..core.errors import N_, BadInput, BancoError, Forbidden, RuleViolation, Unauthorized
from ..core.ledger import BANK
from ..core.state import BANKER as NEEDS_BANKER
from ..core.state import FINISHED, GameState, Outcome
from ..store import Entry, Game, Request, db, now_utc
from ..store.statements import Prepared
from . import clock, journal
from .games import random_id
from .seats import Caller, identify
from .serials import secret_of
from .tx import lock_game, savepoint, writing
from .writer import Waiting

MAX_KEY = 100


@dataclass(frozen=True)
class Action:
    """One action type: the adapter that calls the rule, and whether the rule reads the deeds.
    ``asks_bank``: money the acting player asks from the bank, held for the banker when the
    game plays with a strict bank."""

    run: Callable[[GameState, Caller, dict, Game], Outcome]
    reads_deeds: bool = True
    asks_bank: bool = False


def _acting_player(caller: Caller, payload: dict) -> str:
    requested = payload.get("player")
    if caller.is_banker:
        pid = requested if requested is not None else caller.player_id
        if pid is None:
            raise BadInput("player_required", N_("Choose the player the banker is acting for."))
        return pid
    if requested is not None and requested != caller.player_id:
        raise Forbidden("not_your_account", N_("You can only act for yourself."))
    assert caller.player_id is not None  # a caller who is not the banker is a player
    return caller.player_id


def _banker_only(caller: Caller) -> None:
    if not caller.is_banker:
        raise Forbidden("banker_only", N_("Only the banker can do this."))


def _approver(caller: Caller, payload: dict) -> str:
    """Who says yes or no to money waiting: the banker as the bank (unless acting for a named
    player), else the acting player."""
    if caller.is_banker and payload.get("player") is None:
        return NEEDS_BANKER
    return _acting_player(caller, payload)


def _do_start(state, caller, payload, game):
    _banker_only(caller)
    return commands.start(state)


def _do_transfer(state, caller, payload, game):
    if "from" in payload:
        payer = payload["from"]
        if not caller.is_banker and payer not in (caller.player_id, BANK):
            raise Forbidden("not_your_account", N_("You can only pay with your own money."))
        if payer == BANK and not caller.is_banker:
            # A player asks the bank for money for themselves only: never paid to them in place of
            # another payee they named.
            me = _acting_player(caller, payload)
            if payload.get("to", me) != me:
                raise Forbidden("not_your_account", N_("You can only act for yourself."))
            return commands.transfer(state, BANK, me, payload.get("amount"), payload.get("reason"))
    else:
        payer = _acting_player(caller, payload)
    if "to" not in payload:
        raise BadInput("missing_field", N_("Say who receives the money."))
    return commands.transfer(state, payer, payload["to"], payload.get("amount"), payload.get("reason"))


def _do_collect(state, caller, payload, game):
    return commands.transfer(state, BANK, _acting_player(caller, payload), payload.get("amount"), payload.get("reason"))


def _do_pay_fixed(state, caller, payload, game):
    return commands.pay_fixed(state, _acting_player(caller, payload), payload.get("payment"))


def _do_pass_go(state, caller, payload, game):
    return commands.pass_go(state, _acting_player(caller, payload), payload.get("dice"))


def _do_end(state, caller, payload, game):
    _banker_only(caller)
    return commands.end(state)


def _do_play_off(state, caller, payload, game):
    """The banker starts the play-off of a tie for first place; the entry keeps the clock's
    limit of before, which undo gives back."""
    _banker_only(caller)
    outcome = play_off.play_off_start(state)
    return replace(outcome, params={**outcome.params, "clock_limit": game.time_limit_seconds})


def _do_pot_collect(state, caller, payload, game):
    return commands.pot_collect(state, _acting_player(caller, payload), payload.get("pot"))


def _do_request(state, caller, payload, game):
    return pending.request_payment(
        state,
        random_id(),
        _acting_player(caller, payload),
        payload.get("from"),
        payload.get("amount"),
        payload.get("reason"),
        now_utc(),
        state.setting("request_seconds") or None,
    )


def _do_approve(state, caller, payload, game):
    return pending.approve(state, payload.get("pending"), _approver(caller, payload), now_utc())


def _do_decline(state, caller, payload, game):
    return pending.decline(state, payload.get("pending"), _approver(caller, payload), now_utc())


def _deed_action(rule):
    """An action on one deed by the acting player: ``buy``, ``build``, ``mortgage``..."""
    return lambda state, caller, payload, game: rule(state, _acting_player(caller, payload), payload.get("deed"))


def _player_action(rule):
    """An action of the acting player alone: the jail's."""
    return lambda state, caller, payload, game: rule(state, _acting_player(caller, payload))


def _do_build(state, caller, payload, game):
    return rules.build(state, _acting_player(caller, payload), payload.get("deed"), payload.get("building"))


def _do_sell_building(state, caller, payload, game):
    return rules.sell_building(
        state, _acting_player(caller, payload), payload.get("deed"), break_hotel=payload.get("break_hotel") is True
    )


def _do_pay_rent(state, caller, payload, game):
    return rules.pay_rent(state, _acting_player(caller, payload), payload.get("deed"), payload.get("dice"))


def _do_rent_request(state, caller, payload, game):
    return rules.rent_request(
        state,
        random_id(),
        _acting_player(caller, payload),
        payload.get("payer"),
        payload.get("deed"),
        now_utc(),
        payload.get("dice"),
    )


def _do_rent_confirm(state, caller, payload, game):
    return rules.rent_confirm(state, payload.get("request"), _acting_player(caller, payload), now_utc())


def _do_rent_lapse(state, caller, payload, game):
    by = None if caller.is_banker else caller.player_id
    return rules.rent_lapse(state, payload.get("request"), by, now_utc())


def _do_auction_start(state, caller, payload, game):
    """A player who opens a deed's auction is the one who landed on it and declined to buy it
    (where the edition says so, they do not bid); the banker names that player as ``player``,
    or opens it for everyone."""
    if caller.is_banker:
        decliner = payload.get("player")
    else:
        decliner = _acting_player(caller, payload)
    return rules.auction_start(state, payload.get("deed"), now_utc(), state.setting("auction_seconds"), decliner)


def _do_building_auction_start(state, caller, payload, game):
    _banker_only(caller)
    return rules.building_auction_start(
        state, payload.get("building"), payload.get("deeds"), now_utc(), state.setting("auction_seconds")
    )


def _do_break_shared(state, caller, payload, game):
    _banker_only(caller)
    return rules.break_shared(state, payload.get("deeds"))


def _do_bid(state, caller, payload, game):
    outcome = rules.bid(state, _acting_player(caller, payload), payload.get("amount"), now_utc(), payload.get("deed"))
    if notes.active(state):
        notes.require_notes(state, payload["amount"])  # the winner pays it in notes
    return outcome


def _do_auction_close(state, caller, payload, game):
    """The banker closes an auction at any time and alone names who buys among the equally
    rich; a player closes only an auction whose countdown ran out and whose buyer nobody has
    to choose (``rules.auction_close`` says which)."""
    return rules.auction_close(
        state,
        now_utc(),
        payload.get("award_to"),
        by=None if caller.is_banker else caller.player_id,
        rerun=payload.get("rerun") is True,
    )


def _do_trade_propose(state, caller, payload, game):
    return rules.trade_propose(
        state, random_id(), _acting_player(caller, payload), payload.get("to"), payload.get("give"), payload.get("get")
    )


def _do_trade_accept(state, caller, payload, game):
    return rules.trade_accept(state, payload.get("trade"), _acting_player(caller, payload))


def _do_trade_reject(state, caller, payload, game):
    return rules.trade_reject(state, payload.get("trade"), _acting_player(caller, payload))


def _do_roll(state, caller, payload, game):
    # A game stored before every game had a seed rolls from the system's randomness: its
    # faces are kept in the journal all the same.
    rng = None if state.seed is not None else secrets.SystemRandom()
    return dice.roll(state, _acting_player(caller, payload), payload.get("dice"), rng)


def _do_bankrupt(state, caller, payload, game):
    return rules.bankrupt(state, _acting_player(caller, payload), payload.get("creditor"), payload.get("amount"))


def _do_end_turn(state, caller, payload, game):
    """A player ends their own turn; the banker ends anyone's, or names who plays now."""
    if caller.is_banker and payload.get("player") is None:
        return turns.end_turn(state, None, payload.get("to"))
    return turns.end_turn(state, _acting_player(caller, payload), payload.get("to"))


def _do_square(state, caller, payload, game):
    return rules.land_on_square(
        state, _acting_player(caller, payload), payload.get("square"), payload.get("dice"), payload.get("deed")
    )


def _do_build_lot(state, caller, payload, game):
    return rules.build_lot(
        state, _acting_player(caller, payload), payload.get("group"), payload.get("counts"), payload.get("place")
    )


def _do_expropriation_start(state, caller, payload, game):
    return rules.expropriation_start(
        state, random_id(), _acting_player(caller, payload), payload.get("deed"), payload.get("via", "rent")
    )


def _do_expropriation_roll(state, caller, payload, game):
    return rules.expropriation_roll(state, _acting_player(caller, payload), payload.get("face"))


def _do_scan(state, caller, payload, game):
    """A printed note or Imprevisti card scanned by a phone in the game (or typed): one chip."""
    return serials.scan(state, _acting_player(caller, payload), payload.get("serial"), secret_of(game))


def _do_check(state, caller, payload, game):
    """A decoder check of a payment or a Chance card played (Niente è come sembra)."""
    return notes.check(state, _acting_player(caller, payload), payload.get("payment"), now_utc(), random_id())


def _do_chance_draw(state, caller, payload, game):
    return chance.chance_draw(state, _acting_player(caller, payload), payload.get("card"), now_utc())


def _do_chance_play(state, caller, payload, game):
    return chance.chance_play(state, _acting_player(caller, payload), payload.get("card"), random_id(), now_utc())


ACTIONS: dict[str, Action] = {
    "start": Action(_do_start),  # deals deeds where the edition does
    "transfer": Action(_do_transfer, reads_deeds=False, asks_bank=True),
    "collect": Action(_do_collect, reads_deeds=False, asks_bank=True),
    "pay_fixed": Action(_do_pay_fixed, reads_deeds=False),
    "pass_go": Action(_do_pass_go, asks_bank=True),  # a lap can forfeit overdue mortgaged deeds
    "end": Action(_do_end, reads_deeds=False),
    "play_off": Action(_do_play_off),  # the count decides who is tied for first
    "pot_collect": Action(_do_pot_collect, reads_deeds=False),
    "request": Action(_do_request, reads_deeds=False),
    "approve": Action(_do_approve, reads_deeds=False),
    "decline": Action(_do_decline, reads_deeds=False),
    "buy": Action(_deed_action(rules.buy)),
    "pay_rent": Action(_do_pay_rent),
    "rent_request": Action(_do_rent_request),
    "rent_confirm": Action(_do_rent_confirm, reads_deeds=False),
    "rent_lapse": Action(_do_rent_lapse, reads_deeds=False),
    "build": Action(_do_build),
    "sell_building": Action(_do_sell_building),
    "mortgage": Action(_deed_action(rules.mortgage)),
    "unmortgage": Action(_deed_action(rules.unmortgage)),
    "pay_mortgage_fee": Action(_deed_action(rules.pay_mortgage_fee)),
    "sell_to_bank": Action(_deed_action(rules.sell_to_bank)),  # where the edition has deed_sale
    "auction_start": Action(_do_auction_start),
    "building_auction_start": Action(_do_building_auction_start),
    "break_shared": Action(_do_break_shared),
    "bid": Action(_do_bid),
    "auction_close": Action(_do_auction_close),
    "trade_propose": Action(_do_trade_propose),
    "trade_accept": Action(_do_trade_accept),
    "trade_reject": Action(_do_trade_reject),
    "bankrupt": Action(_do_bankrupt),
    "roll": Action(_do_roll, reads_deeds=False),
    "go_to_jail": Action(_player_action(rules.go_to_jail), reads_deeds=False),
    "pay_jail_fine": Action(_player_action(rules.pay_jail_fine), reads_deeds=False),
    "use_jail_card": Action(_player_action(rules.use_jail_card), reads_deeds=False),
    "leave_jail_on_doubles": Action(_player_action(rules.leave_jail_on_doubles), reads_deeds=False),
    "draw_jail_card": Action(_player_action(rules.draw_jail_card), reads_deeds=False),
    "leave_jail_after_failed_roll": Action(_player_action(rules.leave_jail_after_failed_roll), reads_deeds=False),
    "end_turn": Action(_do_end_turn),  # the next turn remembers the player's mortgaged deeds
    "square": Action(_do_square, asks_bank=True),
    "build_lot": Action(_do_build_lot),
    "expropriation_start": Action(_do_expropriation_start),
    "expropriation_roll": Action(_do_expropriation_roll),
    "expropriation_settle": Action(_player_action(rules.expropriation_settle)),
    "scan": Action(_do_scan, reads_deeds=False),  # a printed note's serial (Niente è come sembra)
    "check": Action(_do_check, reads_deeds=False),  # the electronic notes' decoder check
    "chance_draw": Action(_do_chance_draw, reads_deeds=False),
    "chance_play": Action(_do_chance_play, reads_deeds=False),
}
CLOCK_ACTIONS = ("clock_pause", "clock_resume")
# Actions on the journal itself rather than on the state: the banker's undo, and a player
# taking back their own one-tap GO or tax (``core.take_back``).
JOURNAL_ACTIONS = ("undo", "take_back")


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
    if not isinstance(kind, str) or (kind not in ACTIONS and kind not in JOURNAL_ACTIONS and kind not in CLOCK_ACTIONS):
        raise BadInput("unknown_action", N_("Unknown action."))
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
    is known."""

    __slots__ = ("actor", "caller", "digest", "game_id", "key", "kind", "payload", "token")

    def __init__(self, game_id, caller, payload, token, kind, key, digest) -> None:
        super().__init__()
        self.game_id, self.caller, self.payload, self.token = game_id, caller, payload, token
        self.kind, self.key, self.digest = kind, key, digest
        self.actor = caller.actor if caller is not None else None


class _Repeated(Exception):
    """The action's key was stored by an earlier action: its first answer is the answer."""


def run_batch(batch: list[_Action]) -> None:
    """Runs a batch of actions in one write transaction, each in its own savepoint, and sets
    each one's ``answer`` (``{"version", "result"}``) or ``error`` (a refusal, which changed
    nothing); an error of the commit itself is raised, and then nothing of the batch holds.

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
                except Exception:
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
    """One action inside the batch's transaction, on its game's row, locked."""
    caller, payload, kind = work.caller, work.payload, work.kind
    if caller is None:
        if kind is None:
            raise Unauthorized("missing_token", N_("Send your token as 'Authorization: Bearer <token>'."))
        caller = identify(game, work.token)
        work.actor = caller.actor
    if game.id != caller.game_id:
        raise Unauthorized("invalid_token", N_("This sign-in is not valid for this game."))
    if caller.player_id and not caller.is_banker:
        me = next(p for p in game.players if p.id == caller.player_id)
        if me.bankrupt:
            raise Forbidden("spectator", N_("You are out of the game and can only watch."))
    held = False
    entry: Entry | journal.Recorded
    if kind == "undo":
        _banker_only(caller)
        entry = journal.undo(game)
        if entry.params.get("undone") == "play_off":
            undone = journal.entry_at(game, entry.params["undone_version"])
            clock.play_off_undone(game, undone.params.get("clock_limit"))
    elif kind == "take_back":
        entry = journal.take_back(game, _acting_player(caller, payload), caller.actor, now_utc())
    elif kind in CLOCK_ACTIONS:
        _banker_only(caller)
        entry = clock.pause_or_resume(game, kind)
    else:
        action = ACTIONS[kind]
        state = journal.state_of(game, deeds=action.reads_deeds)
        outcome = action.run(state, caller, payload, game)
        if (
            action.asks_bank
            and not caller.is_banker
            and state.setting("strict_bank")
            and any(p.account == BANK and p.amount < 0 for p in outcome.postings)
        ):
            outcome = pending.hold(state, outcome, random_id(), caller.player_id, now_utc())
            held = True
        if action.reads_deeds:
            # The action that leaves every deed owned ends the game where the edition says so.
            outcome = endings.with_end(state, outcome)
        # Where the edition has fake money: the notes that move, and a payment open to a check.
        outcome = notes.follow(state, outcome, random_id(), now_utc())
        entry = journal.record(game, state, outcome, caller.actor)
        state = entry.state
        # Lapsed requests are cleared after an action lands, so one that names a lapsed
        # request is refused as lapsed rather than as unknown.
        lapsed = pending.expire_due(state, now_utc())
        if lapsed is not None:
            state = journal.record(game, state, lapsed, journal.BANKER).state
        if state.auction_queue and state.auction is None:
            _next_queued_auction(game, state if action.reads_deeds else journal.state_of(game))
        if kind == "start":
            clock.reset(game)
        elif kind == "play_off":
            clock.play_off(game, outcome.params["minutes"])
        elif game.status == FINISHED:  # ended by the banker, or by the last player standing
            clock.stop(game)
    response: dict[str, Any] = {"version": game.version, "result": _result(game, caller, entry)}
    if held:
        response["result"]["held"] = True
    if work.key is not None:
        # Stored without a read before: a key already there is a repeat (the unique key refuses
        # it, and the savepoint takes this action back).
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
    return response


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
    return ACTIONS[kind].run(state or journal.state_of(game), caller, payload, game)


def _result(game: Game, caller: Caller, entry: Entry | journal.Recorded) -> dict:
    result = {"entry": entry.version, "type": entry.kind}
    result.update(entry.params.get("result", {}))
    if caller.player_id:
        me = next(p for p in game.players if p.id == caller.player_id)
        result["cash"] = me.cash
    return result
