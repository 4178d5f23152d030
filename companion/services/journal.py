"""The journal: every change to a game is an entry (its postings, its changes, how the feed
says it), applied to the state by the core's one interpreter and stored here. Undo, reading
the journal and checking it against the balances live here too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, insert, literal_column, select, update
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.attributes import set_committed_value

from ..core import commands
from ..core import parts as entry_parts
from ..core import take_back as taking_back
from ..core.changes import advance
from ..core.errors import N_, BadInput, BancoError, RuleViolation
from ..core.ledger import BANK
from ..core.ledger import Posting as CorePosting
from ..core.state import Change, GameState, Outcome
from ..store import Entry, Game, GameRecord, Posting, db, now_utc
from ..store.statements import Prepared
from .repository import GAMES
from .tx import announce, in_snapshot

BANKER = "banker"
MAX_VERSION = 2**31 - 1  # the largest version the journal's column holds on every database
SINCE_LIMIT = 2**63 - 1  # the largest ``since`` taken: what a signed 64-bit integer holds


def state_of(game: GameRecord, deeds: bool = True) -> GameState:
    """The core's view of ``game`` (without the board when ``deeds`` is false), from the
    process's repository of states (``repository.GAMES``): inside a read snapshot (``tx.reading``:
    the pages) every request of the process shares one state per version; a session that keeps
    its games (``tx.keep_games``: the server's writer) gets the state its last entry left."""
    return GAMES.load(game, deeds, shared=in_snapshot())


def _parts_of(outcome: Outcome) -> frozenset[str]:
    """What ``outcome`` changes, in the words of the live pages' regions (``core.parts``)."""
    return entry_parts.of_entry(
        outcome.kind, {p.account for p in outcome.postings if p.amount}, ((c.target, c.field) for c in outcome.changes)
    )


def new_entry(game: Game, outcome: Outcome, actor: str) -> Entry:
    """A journal entry for ``outcome`` at the game's next version; stores no state."""
    game.version += 1
    announce(game, _parts_of(outcome))
    entry = Entry(
        game_id=game.id,
        version=game.version,
        kind=outcome.kind,
        actor=actor,
        params=outcome.params,
        undoable=outcome.undoable,
        changes=[[c.target, c.ref, c.field, c.before, c.after] for c in outcome.changes],
    )
    if outcome.result:
        entry.params = {**entry.params, "result": outcome.result}
    db.session.add(entry)
    return entry


# The most versions a page catching up is told the parts of; further behind, it fetches itself whole.
CATCH_UP_VERSIONS = 64


def parts_since(game_id: str, since: int, upto: int) -> frozenset[str] | None:
    """The parts (``core.parts``) changed by ``game_id``'s entries after version ``since`` up to
    ``upto``, read from the journal; ``None`` when that is more than ``CATCH_UP_VERSIONS``
    versions or the journal lacks one of them."""
    if upto - since > CATCH_UP_VERSIONS:
        return None
    if upto <= since:
        return frozenset()
    entries = db.session.execute(
        select(Entry.version, Entry.kind, Entry.changes).where(
            Entry.game_id == game_id, Entry.version > since, Entry.version <= upto
        )
    ).all()
    moved: dict[int, set[str]] = {}
    for version, account in db.session.execute(
        select(Entry.version, Posting.account)
        .join(Posting, Posting.entry_id == Entry.id)
        .where(Entry.game_id == game_id, Entry.version > since, Entry.version <= upto, Posting.amount != 0)
    ):
        moved.setdefault(version, set()).add(account)
    if len(entries) != upto - since:
        return None
    parts: set[str] = set()
    for version, kind, changes in entries:
        parts |= entry_parts.of_entry(kind, moved.get(version, ()), ((c[0], c[2]) for c in changes or ()))
    return frozenset(parts)


def record(game: Game, state: GameState, outcome: Outcome, actor: str, reverses: Entry | None = None) -> Recorded:
    """Applies ``outcome`` to ``state`` through the core's interpreter (which refuses, before
    anything is written, a posting to an unknown account or a balance going negative), then
    writes it with a few direct statements: the entry, its postings in one insert, the game's
    row (its version, and whatever of the game the outcome touched) and one update per player
    or deed it touched. ``reverses``: the entry this one undoes, marked as reversed by it.
    ``state`` is left as it was: the answer holds the state the entry leaves."""
    state, touched = advance(state, outcome)
    version = game.version + 1
    row: dict[str, Any] = {
        "game_id": game.id,
        "version": version,
        "kind": outcome.kind,
        "actor": actor,
        "params": {**outcome.params, "result": outcome.result} if outcome.result else outcome.params,
        "undoable": outcome.undoable,
        "at": now_utc(),
        "changes": [[c.target, c.ref, c.field, c.before, c.after] for c in outcome.changes],
        "reverses": reverses.id if reverses is not None else None,
    }
    connection = db.session.connection()  # the driver's own statements: no ORM, no execution context
    entry_id = _INSERT_ENTRY.insert(connection, row)
    if outcome.postings:
        _INSERT_POSTINGS.execute_many(
            connection,
            [
                {"entry_id": entry_id, "game_id": game.id, "account": p.account, "amount": p.amount}
                for p in outcome.postings
            ],
        )
    GAMES.save(connection, game, state, touched, version)
    announce(game, _parts_of(outcome))
    if reverses is not None:
        db.session.execute(update(_ENTRY).where(_ENTRY.c.id == reverses.id).values(reversed_by=entry_id))  # rare: undo
        set_committed_value(reverses, "reversed_by", entry_id)
    # The entry as the caller reads it (its answer); the row is written already.
    return Recorded(entry_id, version, outcome.kind, row["params"], state)


@dataclass(frozen=True, slots=True)
class Recorded:
    """An entry ``record`` has just written, as its caller reads it: a plain value, not a row
    of the session (a row costs the writer more to make, on every action); ``state``, the game's
    state it leaves."""

    id: int
    version: int
    kind: str
    params: dict
    state: GameState


_ENTRY = Entry.__table__
_INSERT_ENTRY = Prepared(insert(_ENTRY), key_column=_ENTRY.c.id)  # built once, compiled once
_INSERT_POSTINGS = Prepared(insert(Posting.__table__))


def undo_target(game: GameRecord) -> Entry | None:
    """The entry the next undo would reverse: the newest one not yet reversed."""
    return db.session.execute(
        select(Entry)
        .where(Entry.game_id == game.id, Entry.undoable.is_(True), Entry.reversed_by.is_(None))
        .order_by(Entry.version.desc())
        .limit(1)
    ).scalar_one_or_none()


def undo_offer(game: GameRecord, recent: list[Line]) -> Entry | Line | None:
    """What the next undo would reverse, read from ``recent`` (the game's newest lines at this
    version, ``recent_lines``, newest first) when it is among them, else from the journal."""
    if recent and recent[0].version == game.version:
        target = next((line for line in recent if line.undoable and line.reversed_by is None), None)
        if target is not None:
            return target
    return undo_target(game)


def undo(game: Game) -> Recorded:
    """Reverses the newest entry not yet reversed, as a new entry. Refuses when there is
    nothing to undo, and whatever ``commands.undo`` refuses."""
    target = undo_target(game)
    if target is None:
        raise RuleViolation("nothing_to_undo", N_("There is nothing left to undo."))
    state = state_of(game)
    outcome = commands.undo(
        state,
        target.kind,
        target.version,
        [CorePosting(p.account, p.amount) for p in target.postings],
        [Change(*c) for c in target.changes],
        target.params,
    )
    return record(game, state, outcome, BANKER, reverses=target)


def _my_newest(game: Game, player_id: str) -> taking_back.MyEntry | None:
    """The player's own newest entry (one they made themselves), as take-back reads it."""
    entry = db.session.execute(
        select(Entry).where(Entry.game_id == game.id, Entry.actor == player_id).order_by(Entry.version.desc()).limit(1)
    ).scalar_one_or_none()
    if entry is None:
        return None
    return taking_back.MyEntry(
        entry.kind,
        entry.version,
        entry.at,
        tuple(CorePosting(p.account, p.amount) for p in entry.postings),
        tuple(Change(*c) for c in entry.changes),
        dict(entry.params or {}),
        entry.reversed_by is not None,
    )


def take_back(game: Game, player_id: str, actor: str, now) -> Recorded:
    """The player reverses their own one-tap GO or tax, as a new entry linked to it like an
    undo. Refuses whatever ``core.take_back.take_back`` refuses."""
    mine = _my_newest(game, player_id)
    state = state_of(game)
    outcome = taking_back.take_back(state, player_id, mine, game.version, now)
    assert mine is not None  # take_back refuses a player without an entry of theirs
    target = entry_at(game, mine.version)
    return record(game, state, outcome, actor, reverses=target)


def taken_back(kind: str) -> bool:
    """Whether an entry of ``kind`` is one its player may take back for a while (a one-tap GO
    or tax): their wallet then offers it."""
    return kind in taking_back.TAKE_BACK_KINDS


def take_back_offer(game: Game, player_id: str, now=None, recent: list[Line] | None = None) -> dict | None:
    """What the player's wallet offers to take back ``now`` (by default the present): ``{"version",
    "kind", "params", "seconds"}`` of their one-tap GO or tax, or ``None`` when the rules would refuse it.
    ``recent``: the game's newest lines at this version (``recent_lines``), newest first: take
    back refuses any entry but the game's newest, so when that one is not the player's nothing
    more is read. Without them the journal is asked."""
    if recent and recent[0].version == game.version:
        newest = recent[0].kind if recent[0].actor == player_id else None
    else:
        newest = db.session.execute(
            select(Entry.kind)
            .where(Entry.game_id == game.id, Entry.actor == player_id)
            .order_by(Entry.version.desc())
            .limit(1)
        ).scalar_one_or_none()
    if newest not in taking_back.TAKE_BACK_KINDS:
        return None  # the common case, answered from one column, without the entry or the board
    mine = _my_newest(game, player_id)
    now = now or now_utc()
    try:
        taking_back.take_back(state_of(game), player_id, mine, game.version, now)
    except BancoError:
        return None
    assert mine is not None  # take_back refuses a player without an entry of theirs
    return {
        "version": mine.version,
        "kind": mine.kind,
        "params": mine.params,
        "seconds": taking_back.seconds_left(mine, now),
    }


def journal_page(game: GameRecord, since, size: int) -> tuple[list[Entry], bool]:
    """At most ``size`` entries of the journal after version ``since``, oldest first, and
    whether more follow them. Refuses what ``entries_since`` refuses."""
    entries = entries_since(game, since, limit=size + 1)
    return entries[:size], len(entries) > size


def entries_since(game: GameRecord, since=0, limit: int = 500) -> list[Entry]:
    """The journal after version ``since``, oldest first, at most ``limit`` entries; refuses a
    ``since`` that is not a whole number of zero or more, or one beyond 64 bits (no database
    holds it)."""
    if isinstance(since, str):
        # ASCII digits only: "²" is a digit to str.isdigit but not a number to int().
        if not (since.isascii() and since.isdigit()):
            raise BadInput("invalid_since", N_("since must be a whole number."))
        since = int(since) if len(since) <= 20 else SINCE_LIMIT + 1  # int() refuses 4,300 digits
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        raise BadInput("invalid_since", N_("since must be a whole number."))
    if since > SINCE_LIMIT:
        raise BadInput("invalid_since", N_("since must be a whole number from 0 to %(max)s."), max=SINCE_LIMIT)
    # No game reaches a version this high; past it the database's integers would overflow.
    since = min(since, MAX_VERSION)
    return list(
        db.session.execute(
            select(Entry).where(Entry.game_id == game.id, Entry.version > since).order_by(Entry.version).limit(limit)
        ).scalars()
    )


def entry_at(game: GameRecord, version: int) -> Entry:
    return db.session.execute(select(Entry).where(Entry.game_id == game.id, Entry.version == version)).scalar_one()


def recent_entries(game: Game, count: int = 30, postings: bool = False) -> list[Entry]:
    """The newest ``count`` entries, newest first (the feed); ``postings`` loads their postings
    in the same read (one query for all, not one an entry)."""
    query = select(Entry).where(Entry.game_id == game.id).order_by(Entry.version.desc()).limit(count)
    if postings:
        query = query.options(selectinload(Entry.postings))
    return list(db.session.execute(query).scalars())


@dataclass(frozen=True)
class Line:
    """A journal entry as the feed and the notices read it: plain values, not a mapped row (a
    page reads dozens at each update, and mapped rows cost several times as much to load)."""

    version: int
    kind: str
    actor: str
    params: dict
    at: object
    reversed_by: int | None
    undoable: bool
    reverses: bool  # it marks an older entry undone (an undo, a take back)
    postings: tuple[CorePosting, ...]


def recent_lines(game: GameRecord, count: int) -> list[Line]:
    """The newest ``count`` entries with their postings, newest first, in two statements.
    Refuses (``ValueError``) a ``count`` outside 1 to ``RECENT_MOST``."""
    entries, postings = _recent_statements(count)
    connection = db.session.connection()
    rows = entries.all(connection, {"game_id": game.id})
    moved: dict[int, list[CorePosting]] = {}
    if rows:
        ids = [row[0] for row in rows]
        ids += [ids[-1]] * (count - len(ids))  # the statement names ``count`` ids
        for entry_id, account, amount in postings.all(connection, {f"e{i}": v for i, v in enumerate(ids)}):
            moved.setdefault(entry_id, []).append(CorePosting(account, amount))
    return [
        Line(
            version,
            kind,
            actor,
            params or {},
            at,
            reversed_by,
            bool(undoable),
            reverses is not None,
            tuple(moved.get(entry_id, ())),
        )
        for entry_id, version, kind, actor, params, at, reversed_by, undoable, reverses in rows
    ]


# The feed and the notices read the same newest entries of a game at every version, each
# unchanged but for the one newest (and one an undo reverses): kept decoded (``Prepared``'s memo).
RECENT_MOST = 200
_RECENT_MEMO = 4096
_recent: dict[int, tuple[Prepared, Prepared]] = {}


def _recent_statements(count: int) -> tuple[Prepared, Prepared]:
    if not (isinstance(count, int) and 0 < count <= RECENT_MOST):
        raise ValueError(f"recent_lines reads 1 to {RECENT_MOST} entries, not {count!r}")
    made = _recent.get(count)
    if made is None:
        # The count written into the statement (SQLite's compiler adds an OFFSET of its own).
        newest = (
            select(
                Entry.id,
                Entry.version,
                Entry.kind,
                Entry.actor,
                Entry.params,
                Entry.at,
                Entry.reversed_by,
                Entry.undoable,
                Entry.reverses,
            )
            .where(Entry.game_id == bindparam("game_id"))
            .order_by(Entry.version.desc())
            .limit(literal_column(str(count)))
            .offset(literal_column("0"))
        )
        entries = Prepared(newest, memo=_RECENT_MEMO)
        postings = Prepared(
            select(Posting.entry_id, Posting.account, Posting.amount)
            .where(Posting.entry_id.in_([bindparam(f"e{i}") for i in range(count)]))
            .order_by(Posting.id)
        )
        made = _recent.setdefault(count, (entries, postings))
    return made


def journal_balances(game: Game) -> dict[str, int]:
    """Each account's balance summed from the journal (the check that cash matches it)."""
    rows = db.session.execute(
        select(Posting.account, func.sum(Posting.amount)).where(Posting.game_id == game.id).group_by(Posting.account)
    ).all()
    return {account: int(total) for account, total in rows}


@dataclass(frozen=True)
class Finding:
    game_id: str
    problem: str


def verify_game(game: Game) -> list[Finding]:
    """Everything wrong with one game's money and journal: an entry whose postings do not sum
    to zero, a player's cash or a pot that differs from its journal, an account in the journal
    the game does not have, and a gap or repeat in its versions."""
    found = []
    sums = db.session.execute(
        select(Posting.entry_id, func.sum(Posting.amount))
        .where(Posting.game_id == game.id)
        .group_by(Posting.entry_id)
        .having(func.sum(Posting.amount) != 0)
    ).all()
    for entry_id, total in sums:
        found.append(Finding(game.id, f"entry {entry_id} does not balance (sums to {int(total)})"))
    journal = journal_balances(game)
    state = state_of(game, deeds=False)
    held = {p.id: p.cash for p in state.players.values()} | dict(state.pots)
    for account, amount in held.items():
        if journal.get(account, 0) != amount:
            found.append(Finding(game.id, f"{account} holds {amount} but its journal says {journal.get(account, 0)}"))
    for account in journal:
        if account != BANK and account not in held:
            found.append(Finding(game.id, f"the journal names {account}, which this game does not have"))
    versions = list(
        db.session.execute(select(Entry.version).where(Entry.game_id == game.id).order_by(Entry.version)).scalars()
    )
    # Compared with the game's own version, so a journal missing its newest entries (or all of
    # them) is caught too, not only a gap in the middle.
    expected = range(1, game.version + 1)
    if versions != list(expected):
        missing = sorted(set(expected) - set(versions))
        beyond = sorted(set(versions) - set(expected))
        what = " and ".join(
            part
            for part in (
                missing and f"lacks versions {_listed(missing)}",
                beyond and f"has versions past it: {_listed(beyond)}",
            )
            if part
        )
        found.append(Finding(game.id, f"the game is at version {game.version} but its journal {what}"))
    return found


def _listed(numbers: list[int], most: int = 10) -> str:
    shown = ", ".join(map(str, numbers[:most]))
    return shown + (f" (and {len(numbers) - most} more)" if len(numbers) > most else "")


def verify_all() -> tuple[int, list[Finding]]:
    """Checks every game; returns how many were checked and what was found."""
    games = list(db.session.execute(select(Game).order_by(Game.created_at)).scalars())
    found = []
    for game in games:
        found += verify_game(game)
    return len(games), found
