"""A game as a file (``"format": "banco-game"``, ``"format_version": 1``; docs/gamefile.md): the
parts of it the rules read, and the check every file passes on its way in.

A file holds the whole journal, each entry chained to the one before by a digest, and the
state the game was in when it was written. Nothing in it is taken on trust: each entry is read
strictly, its digest, version, balance and the values its changes start from are checked, and
it is replayed through the core's one interpreter (``changes.apply_outcome``) from the game as
it was opened. The state the journal leaves must be the state the file holds. The first entry
that does not check out is named; the check changes nothing anywhere.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .changes import apply_outcome, read
from .errors import N_, BadInput, BancoError
from .frozen import thaw
from .ledger import LedgerError, Posting
from .parts import KINDS
from .state import DOCUMENT_FIELDS, Change, DeedState, GameState, Outcome, PlayerState

FORMAT = "banco-game"
FORMAT_VERSION = 1
BANKER = "banker"  # the actor of the banker's entries (``services.journal.BANKER``)
_ENTRY_FIELDS = ("version", "kind", "actor", "at", "params", "changes", "postings", "undoable", "reverses")
_DOCUMENTS = {spec.attr: spec for spec in DOCUMENT_FIELDS.values()}
_GAME_FIELDS = [f.name for f in fields(GameState) if f.name not in ("edition", "players", "deeds")]


def refused(message: str, **params: Any) -> BadInput:
    """The one refusal of a game file: 400 ``invalid_game_file``, saying what is wrong."""
    return BadInput("invalid_game_file", message, **params)


def canonical(value: Any) -> str:
    """``value`` as JSON with sorted keys and no spaces: the text a digest is taken of."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_digest(previous: str, entry: Mapping[str, Any]) -> str:
    """The digest of one entry of the file (every field but ``digest`` itself), chained to the
    digest of the entry before it (``""`` for the first): changing any entry changes its digest
    and every one after it."""
    body = {k: v for k, v in entry.items() if k != "digest"}
    return hashlib.sha256((previous + canonical(body)).encode("utf-8")).hexdigest()


def state_document(state: GameState) -> dict[str, Any]:
    """``state`` as plain JSON values: every field of the game (documents as their
    ``to_dict()``), each player's fields by id in seat order, each deed's by key."""
    out: dict[str, Any] = {}
    for name in _GAME_FIELDS:
        value = getattr(state, name)
        spec = _DOCUMENTS.get(name)
        if spec is not None and value is not None:
            value = {k: v.to_dict() for k, v in value.items()} if spec.many else value.to_dict()
        out[name] = thaw(value)
    out["players"] = {
        p.id: {f.name: thaw(getattr(p, f.name)) for f in fields(PlayerState)} for p in state.players.values()
    }
    out["deeds"] = {d.key: {f.name: thaw(getattr(d, f.name)) for f in fields(DeedState)} for d in state.deeds.values()}
    return out


def remap(value: Any, ids: Mapping[str, str]) -> Any:
    """``value`` (plain JSON) with every text that is one of ``ids``' keys, as a value or as an
    object's key, replaced by its new id: a player's id wherever the journal names it."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, dict):
        return {ids.get(k, k): remap(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [remap(v, ids) for v in value]
    return value


@dataclass(frozen=True)
class FileEntry:
    """One entry of the file's journal as read: what the journal's row holds."""

    version: int
    kind: str
    actor: str
    at: dt.datetime
    params: dict[str, Any]
    changes: tuple[Change, ...]
    postings: tuple[Posting, ...]
    undoable: bool
    reverses: int | None


def read_journal(raw: object, actors: set[str]) -> list[FileEntry]:
    """The file's journal, entry by entry: each an object of exactly the entry's fields, of
    their kinds, at the next version, with its digest, of a kind of entry this Banco knows, by
    the banker or a seat of the game, whose postings balance and which reverses an earlier
    entry no other one reverses. Refuses (``invalid_game_file``) the first entry that is not."""
    if not isinstance(raw, list) or not raw:
        raise refused(N_("The game file has no journal."))
    entries: list[FileEntry] = []
    previous = ""
    reversed_ones: set[int] = set()
    for position, item in enumerate(raw, start=1):
        if not isinstance(item, dict) or set(item) != {*_ENTRY_FIELDS, "digest"}:
            raise refused(N_("Entry %(version)s of the game file is not a journal entry."), version=position)
        version = item["version"]
        if not _whole(version) or version < position:
            raise refused(N_("Entry %(version)s of the game file is not a journal entry."), version=position)
        if version > position:
            raise refused(N_("Version %(version)s is missing from the game file's journal."), version=position)
        if item["digest"] != entry_digest(previous, item):
            raise refused(N_("Entry %(version)s of the game file has been changed."), version=version)
        previous = item["digest"]
        entry = _entry(item)
        if entry is None:
            raise refused(N_("Entry %(version)s of the game file is not a journal entry."), version=version)
        if entry.kind not in KINDS:
            raise refused(
                N_("Entry %(version)s of the game file is of a kind this Banco does not know."), version=version
            )
        if entry.actor != BANKER and entry.actor not in actors:
            raise refused(
                N_("Entry %(version)s of the game file is by someone who is not at the table."), version=version
            )
        total = sum(p.amount for p in entry.postings)
        if total:
            raise refused(
                N_("Entry %(version)s of the game file does not balance: its postings add up to %(total)s."),
                version=version,
                total=total,
            )
        if entry.reverses is not None:
            if not 1 <= entry.reverses < version or entry.reverses in reversed_ones:
                raise refused(N_("Entry %(version)s of the game file reverses an entry it cannot."), version=version)
            reversed_ones.add(entry.reverses)
        entries.append(entry)
    return entries


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry(item: dict[str, Any]) -> FileEntry | None:
    """The entry ``item`` holds, or ``None`` when a field is not of its kind."""
    kind, actor, at, params = item["kind"], item["actor"], item["at"], item["params"]
    undoable, reverses = item["undoable"], item["reverses"]
    if not (isinstance(kind, str) and isinstance(actor, str) and isinstance(params, dict)):
        return None
    if not (isinstance(undoable, bool) and (reverses is None or _whole(reverses))):
        return None
    moment = parse_moment(at)
    if moment is None:
        return None
    changes, postings = _changes(item["changes"]), _postings(item["postings"])
    if changes is None or postings is None:
        return None
    return FileEntry(item["version"], kind, actor, moment, params, changes, postings, undoable, reverses)


def _changes(raw: object) -> tuple[Change, ...] | None:
    """An entry's changes, each ``[target, ref, name, before, after]``; ``None`` when one is not."""
    if not isinstance(raw, list):
        return None
    changes = []
    for change in raw:
        if not (isinstance(change, list) and len(change) == 5):
            return None
        target, ref, name = change[:3]
        if not (isinstance(target, str) and (ref is None or isinstance(ref, str)) and isinstance(name, str)):
            return None
        changes.append(Change(*change))
    return tuple(changes)


def _postings(raw: object) -> tuple[Posting, ...] | None:
    """An entry's postings, each ``[account, amount]`` with a whole amount other than 0; ``None``
    when one is not."""
    if not isinstance(raw, list):
        return None
    postings = []
    for posting in raw:
        if not (isinstance(posting, list) and len(posting) == 2):
            return None
        account, amount = posting
        if not (isinstance(account, str) and _whole(amount) and amount):
            return None
        postings.append(Posting(account, amount))
    return tuple(postings)


def parse_moment(text: object) -> dt.datetime | None:
    """A time of the file (ISO 8601 in UTC, ``Z`` at the end) as the journal keeps it: naive UTC."""
    if not isinstance(text, str) or not text.endswith("Z"):
        return None
    try:
        moment = dt.datetime.fromisoformat(text[:-1])
    except ValueError:
        return None
    return moment if moment.tzinfo is None else None


def moment_text(moment: dt.datetime) -> str:
    """A time of the journal (naive UTC) as the file writes it."""
    return moment.isoformat() + "Z"


def replay_file(start: GameState, entries: Sequence[FileEntry]) -> GameState:
    """The state the journal leaves, replayed from ``start`` (the game as it was opened) through
    the core's interpreter. Refuses (``invalid_game_file``) the first entry whose changes do not
    start from the values the game held then, or which the interpreter refuses (money going
    below zero, an account or a field the game does not have)."""
    state = start
    for entry in entries:
        state = _replayed(state, entry)
    return state


def _replayed(state: GameState, entry: FileEntry) -> GameState:
    try:
        for change in entry.changes:
            if thaw(read(state, change)) != change.before:
                raise refused(
                    N_("Entry %(version)s of the game file does not follow from the one before it."),
                    version=entry.version,
                )
        return apply_outcome(state, Outcome("replay", entry.postings, entry.changes))
    except BadInput as error:
        if error.code == "invalid_game_file":
            raise
        raise _unplayable(entry, error, state) from None
    except BancoError as error:
        raise _unplayable(entry, error, state) from None
    except (LedgerError, ValueError, TypeError, KeyError, AttributeError, IndexError):
        raise refused(
            N_("Entry %(version)s of the game file changes something this game does not have."), version=entry.version
        ) from None


def _unplayable(entry: FileEntry, error: BancoError, state: GameState) -> BadInput:
    error.currency = error.currency or state.edition.currency_symbol  # its amounts are this game's money
    return refused(
        N_("Entry %(version)s of the game file cannot be replayed: %(reason)s"), version=entry.version, reason=error
    )


def first_difference(held: Any, replayed: Any, path: str = "") -> str | None:
    """Where two plain JSON values first differ, as a path (``players.abc.cash``), looked for in
    the order of ``replayed`` (the players in seat order); ``None`` when they are the same."""
    if isinstance(held, dict) and isinstance(replayed, dict):
        for key in [*replayed, *(k for k in held if k not in replayed)]:  # in the game's own order
            where = f"{path}.{key}" if path else str(key)
            if key not in held or key not in replayed:
                return where
            found = first_difference(held[key], replayed[key], where)
            if found is not None:
                return found
        return None
    if isinstance(held, list) and isinstance(replayed, list) and len(held) == len(replayed):
        for index, (a, b) in enumerate(zip(held, replayed, strict=True)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found is not None:
                return found
        return None
    return None if canonical(held) == canonical(replayed) else (path or "(the whole state)")
