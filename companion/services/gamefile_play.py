"""A game file played again through the engine (docs/gamefile.md, "Read by the rules").

Each entry of the file is read against the game as the entries before it left it: its values by
the rules' types and ranges (``core.gamefile_rules``), its changes through the core's one
interpreter (``core.gamefile.replay_file``), the board it leaves; and, where the entry says
enough to make it again, made again by the engine as the game made it, from the same state:
the action's own rule run by its declaration (``core.actions``) with the entry's params as its
payload, its actor as the caller and its time as the clock, then what the table adds to every
action (the end when every deed is owned, the notes that move); an approval by the money
waiting it names; an undo by the entry it must reverse (the newest one nobody reversed); a
take back by the player's own newest entry. What the engine makes must be what the file holds,
postings, changes and params alike.

What cannot be made again is read strictly instead, value by value (``core.gamefile_rules``):
an entry whose rule draws a fresh id (a request, an auction, a trade: the id is new each time
it runs) or reads the moment it ran to the microsecond (a bid's countdown, a check window), and
the entries no action makes (the table's own: a request lapsing, a queued auction opening, the
clock). The journal keeps what an action did, not the payload that asked for it: the params are
what the rule wrote, and for the kinds made again they are its payload too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import commands, endings, gamefile_rules, pending
from ..core import take_back as taking_back
from ..core.actions import ACTIONS, Asked
from ..core.counterfeits import notes
from ..core.errors import N_, BadInput, BancoError
from ..core.frozen import thaw
from ..core.gamefile import FileEntry, canonical, refused, replay_file
from ..core.ledger import LedgerError
from ..core.state import BANKER, PAYER, GameState, Outcome

# The entries the engine makes again, by kind: an action's rule that reads no fresh id and no
# exact moment, its payload the entry's params (tests/api/test_game_file_rules.py plays each).
RERUN = frozenset(
    {
        "start",
        "end",
        "transfer",
        "pay_fixed",
        "pass_go",
        "pot_collect",
        "buy",
        "pay_rent",
        "build",
        "sell_building",
        "mortgage",
        "unmortgage",
        "pay_mortgage_fee",
        "sell_to_bank",
        "roll",
        "go_to_jail",
        "pay_jail_fine",
        "use_jail_card",
        "leave_jail_on_doubles",
        "draw_jail_card",
        "leave_jail_after_failed_roll",
        "square",
        "train",
        "trade_accept",
    }
)
# The entries not made again that may hand a deed to another owner: every other one that is
# not made again leaves each deed's owner as it was.
HANDS_DEEDS_OVER = frozenset({"auction_won", "bankrupt", "expropriation_roll", "expropriation_settle"})
# The entries that change nothing of the game's state and move no money (the clock is the
# game's row, not its state).
QUIET = frozenset({"created", "clock_pause", "clock_resume"})
# The param that names the acting player where the rule calls it otherwise than ``player``.
ACTING = {"pay_fixed": "from", "pass_go": "to"}
# The time an entry was written is a little after its rule read the clock: a window the rules
# close (a take back's, a request's) is read that much earlier, never later.
SLACK = dt.timedelta(seconds=1)

NOT_THE_RULES = N_("Entry %(version)s of the game file is not what the rules make of it (at %(field)s).")
REFUSED = N_("Entry %(version)s of the game file breaks the rules: %(reason)s")
UNPLAYABLE = N_("Entry %(version)s of the game file cannot be played by the rules.")
NOTES = N_("Entry %(version)s of the game file leaves notes that do not add up to %(name)s's cash.")


class _NotAgain(Exception):
    """The rule drew a fresh id: this entry cannot be made again, only read value by value."""


@dataclass(frozen=True)
class _Who:
    """The caller an entry's actor was: the banker, or one seat."""

    is_banker: bool
    player_id: str | None


@dataclass
class Played:
    """What the check remembers of the journal so far: each entry by version, the undoable ones
    nobody has reversed yet (newest last), and each actor's newest entry."""

    entries: dict[int, FileEntry] = field(default_factory=dict)
    undoable: list[int] = field(default_factory=list)
    reversed: set[int] = field(default_factory=set)
    newest_of: dict[str, int] = field(default_factory=dict)

    def add(self, entry: FileEntry) -> None:
        self.entries[entry.version] = entry
        if entry.reverses is not None:
            self.reversed.add(entry.reverses)
        if entry.undoable:
            self.undoable.append(entry.version)
        self.newest_of[entry.actor] = entry.version

    def undo_target(self) -> FileEntry | None:
        """The entry an undo now reverses: the newest undoable one nobody reversed."""
        while self.undoable and self.undoable[-1] in self.reversed:
            self.undoable.pop()
        return self.entries[self.undoable[-1]] if self.undoable else None


def play_file(start: GameState, entries: Sequence[FileEntry]) -> GameState:
    """The state the journal leaves, each entry read by the rules from ``start`` (the game as it
    was opened). Refuses (``invalid_game_file``, naming the entry and what is wrong) the first
    entry whose values the rules do not write, whose changes do not follow from the game then,
    which leaves a board no rule leaves, or which the engine, made to play it again, refuses or
    makes otherwise. Reads each entry once, so its time grows with the file alone."""
    played = Played()
    state = start
    for entry in entries:
        gamefile_rules.check_entry(state, entry)
        after = replay_file(state, [entry])
        gamefile_rules.check_board(after, entry)
        _check_notes(after, entry)
        _check_again(state, entry, played)
        played.add(entry)
        state = after
    return state


def _check_notes(state: GameState, entry: FileEntry) -> None:
    """Where the edition has fake money, each player's notes add up to their cash."""
    short = notes.conserved(state)
    if short:
        raise refused(NOTES, version=entry.version, name=state.players[short[0]].name)


def _check_again(state: GameState, entry: FileEntry, played: Played) -> None:
    """Refuses an entry the engine, playing it again from ``state``, refuses or makes otherwise;
    one it cannot make again passes (its values were read already)."""
    try:
        outcome = _again(state, entry, played)
    except _NotAgain:
        outcome = None
    except BadInput as error:
        if error.code == "invalid_game_file":
            raise
        raise _broken(state, entry, error) from None
    except BancoError as error:
        raise _broken(state, entry, error) from None
    except (LedgerError, LookupError, TypeError, ValueError, AttributeError):
        # A rule met what no game of it holds (a value the declarations do not read).
        raise refused(UNPLAYABLE, version=entry.version) from None
    if outcome is None:
        _check_unmade(entry)
        return
    where = difference(entry, outcome)
    if where is not None:
        raise refused(NOT_THE_RULES, version=entry.version, field=where)


def _check_unmade(entry: FileEntry) -> None:
    """An entry the engine does not make again: a quiet one changes nothing and moves no money,
    and only the kinds that hand deeds over change a deed's owner."""
    if entry.kind in QUIET and (entry.changes or entry.postings):
        raise refused(NOT_THE_RULES, version=entry.version, field="changes" if entry.changes else "postings")
    if entry.kind in HANDS_DEEDS_OVER:
        return
    for index, change in enumerate(entry.changes):
        if change.target == "deed" and change.field == "owner":
            raise refused(NOT_THE_RULES, version=entry.version, field=f"changes[{index}]")


def _broken(state: GameState, entry: FileEntry, error: BancoError) -> BadInput:
    error.currency = error.currency or state.edition.currency_symbol  # its amounts are this game's money
    return refused(REFUSED, version=entry.version, reason=error)


def _again(state: GameState, entry: FileEntry, played: Played) -> Outcome | None:
    """The outcome the engine makes of ``entry`` from ``state``, or ``None`` for a kind it
    cannot make again. An entry that reverses another is an undo or a take back, of the one
    entry it may reverse."""
    if entry.kind == "undo" or entry.reverses is not None:
        return _reversal(state, entry, played)
    request = entry.params.get("request")
    if request is not None and entry.kind in RERUN:
        # A rent request confirmed (the championship's): an approval of the request it names.
        if not isinstance(request, str) or request not in state.pending:
            raise _mismatch(entry, "params.request")
        return _confirmed(state, entry, request)
    waiting = entry.params.get("pending")
    if isinstance(waiting, str) and any(c.target == "pending" and c.ref == waiting for c in entry.changes):
        held = state.pending.get(waiting)
        if held is not None and held.kind == entry.kind and entry.kind not in ("request", "bank_request"):
            return _approval(state, entry, waiting)
        return None
    if entry.kind not in RERUN or (entry.kind == "roll" and state.seed is None):
        return None  # a game from before every game had a seed rolled the system's dice
    return _action(state, entry)


def _reversal(state: GameState, entry: FileEntry, played: Played) -> Outcome:
    """An undo of the newest undoable entry nobody reversed, by the banker; a take back of the
    player's own newest entry (``core.take_back`` refuses any but the game's newest)."""
    if entry.kind == "undo":
        target = played.undo_target()
        if target is None or entry.reverses != target.version or entry.actor != BANKER:
            raise _mismatch(entry, "reverses")
        return commands.undo(state, target.kind, target.version, target.postings, target.changes, target.params)
    player = entry.params.get("player")
    if entry.kind != "take_back" or not isinstance(player, str) or entry.actor not in (BANKER, player):
        raise _mismatch(entry, "reverses")
    newest = played.newest_of.get(player)
    if newest is None or entry.reverses != newest:
        raise _mismatch(entry, "reverses")
    mine = played.entries[newest]
    taken = taking_back.MyEntry(
        mine.kind, mine.version, mine.at, mine.postings, mine.changes, dict(mine.params), newest in played.reversed
    )
    return taking_back.take_back(state, player, taken, entry.version - 1, entry.at - SLACK)


def _approval(state: GameState, entry: FileEntry, waiting: str) -> Outcome:
    """The money waiting ``waiting`` approved by the entry's actor, as the table does it: the
    banker approves for the payer by naming them (``Asked.approver``)."""
    held = state.pending[waiting]
    approver = held.payer if entry.actor == BANKER and held.needs == PAYER else entry.actor
    outcome = pending.approve(state, waiting, approver, entry.at - SLACK)
    return _as_the_table(state, entry, outcome, reads_deeds=False)


def _confirmed(state: GameState, entry: FileEntry, request: str) -> Outcome:
    """The rent request ``request`` confirmed by its payer (or the banker acting for them)."""
    payload = {"request": request, "player": state.pending[request].payer}
    return _run(state, entry, "rent_confirm", payload, entry.at - SLACK)


def _action(state: GameState, entry: FileEntry) -> Outcome:
    """The entry's own action run again: its declaration reads the params as its payload."""
    fields = ACTIONS[entry.kind].fields
    payload = {f.name: entry.params[f.name] for f in fields if f.name in entry.params}
    acting = ACTING.get(entry.kind)
    if acting is not None and acting in entry.params:
        payload["player"] = entry.params[acting]
    return _run(state, entry, entry.kind, payload, entry.at)


def _run(state: GameState, entry: FileEntry, name: str, payload: dict[str, Any], now: dt.datetime) -> Outcome:
    """The action ``name`` asked with ``payload`` by the entry's actor at ``now``, as the table
    runs it (its declaration reads the payload; a player acts for themselves)."""
    action = ACTIONS[name]
    assert action.run is not None  # made again: actions a rule runs
    if entry.actor != BANKER and payload.get("player") == entry.actor:
        del payload["player"]
    who = _Who(entry.actor == BANKER, None if entry.actor == BANKER else entry.actor)
    outcome = action.run(state, Asked(who, action.read(payload), now, _no_new_id))
    return _as_the_table(state, entry, outcome, action.reads_deeds)


def _as_the_table(state: GameState, entry: FileEntry, outcome: Outcome, reads_deeds: bool) -> Outcome:
    """What the table adds to every action (``services.actions``): the end of the game when it
    leaves every deed owned, and where the edition has fake money the notes that move (the
    payment's id, which the table drew, is the file's)."""
    if reads_deeds:
        outcome = endings.with_end(state, outcome)
    if notes.active(state):
        payment = entry.params.get("checkable")
        outcome = notes.follow(state, outcome, payment if isinstance(payment, str) else "-", _payment_moment(entry))
    return outcome


def _payment_moment(entry: FileEntry) -> dt.datetime:
    """The moment the table stamped the entry's payment with (its check window's start), or the
    entry's own time."""
    for change in entry.changes:
        if change.target == "checkable" and isinstance(change.after, dict) and change.before is None:
            stamped = change.after.get("at")
            if isinstance(stamped, str):
                try:
                    return dt.datetime.fromisoformat(stamped)
                except ValueError:
                    break
    return entry.at


def _no_new_id() -> str:
    raise _NotAgain()


def difference(entry: FileEntry, outcome: Outcome) -> str | None:
    """Where the entry differs from the outcome the engine made of it (``undoable``,
    ``postings``, ``changes[2]``, ``params.amount``), or ``None``."""
    if outcome.kind != entry.kind:
        return "kind"
    if outcome.undoable != entry.undoable:
        return "undoable"  # which entry the next undo reverses
    made = [[p.account, p.amount] for p in outcome.postings]
    if made != [[p.account, p.amount] for p in entry.postings]:
        return "postings"
    held = [[c.target, c.ref, c.field, c.before, c.after] for c in entry.changes]
    again = [thaw([c.target, c.ref, c.field, c.before, c.after]) for c in outcome.changes]
    if len(held) != len(again):
        return "changes"
    for index, (a, b) in enumerate(zip(held, again, strict=True)):
        if canonical(a) != canonical(b):
            return f"changes[{index}]"
    params: dict[str, Any] = {**outcome.params, "result": outcome.result} if outcome.result else dict(outcome.params)
    for name in sorted({*params, *entry.params}):
        if canonical(thaw(params.get(name))) != canonical(entry.params.get(name)):
            return f"params.{name}"
    return None


def _mismatch(entry: FileEntry, where: str) -> Exception:
    return refused(NOT_THE_RULES, version=entry.version, field=where)
