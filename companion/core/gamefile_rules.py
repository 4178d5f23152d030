"""A game file read by the rules (docs/gamefile.md): every value an entry writes has its type
and its range, as the game's own rules would have written it.

The digests say a file was not changed after it was written; they cannot say that who wrote it
followed the rules. Here each entry is read as the rules read a game: its postings (whole
amounts, the bank paying no more at once than the edition's ceiling allows), each change's new
value (a building count within the edition's limits, an owner that is a seat or the bank, a
status from the closed list, a document of exactly its fields and kinds), its params as the feed
and the notices word them, and the board the entry leaves (no building on a mortgaged or
unowned deed, the bank's buildings and the deeds' adding up to the supply). The first value
that is not one is named, with its entry; nothing here changes anything.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from .actions import ACTIONS, LINES, TOLD
from .actions.lines import Say
from .errors import N_
from .gamefile import FileEntry, refused
from .ledger import BANK
from .parts import KINDS
from .policies.buildings import big_building
from .settings import building_supply
from .state import BANKER, DOCUMENT_FIELDS, FINISHED, RUNNING, SETUP, Change, DeedState, GameState, PlayerState

MAX_COUNT = 2**31 - 1  # a count the database's integer columns hold (a lap, a turn, a roll)
MAX_TEXT = 200  # a reason is 80 characters; an id, a square's key or a minute count far less
MAX_ITEMS = 100_000  # a list a rule writes: a game's deeds, notes in hand (the body limit bounds them too)
_DEPTH = 4  # how deep a plain value (a roll's faces, an owed amount) may nest
STATUSES = (SETUP, RUNNING, FINISHED)

# The value at ``field`` is one the rules do not write.
VALUE = N_("Entry %(version)s of the game file holds a value the rules do not allow at %(field)s.")
# The board the entry leaves breaks a rule (a building on a mortgaged deed...).
BOARD = N_("Entry %(version)s of the game file leaves %(field)s as the rules do not allow.")


@dataclass(frozen=True)
class Table:
    """What a value of this game may name: its seats, its pots, its edition's deeds and money."""

    state: GameState

    @property
    def ceiling(self) -> int:
        return self.state.edition.max_amount

    def seat(self, value: object) -> bool:
        return isinstance(value, str) and value in self.state.players

    def account(self, value: object) -> bool:
        return isinstance(value, str) and (value == BANK or value in self.state.players or value in self.state.pots)

    def deed(self, value: object) -> bool:
        return isinstance(value, str) and self.state.edition.deed(value) is not None


Test = Callable[[object, Table], bool]


def whole(low: int, high: int) -> Test:
    return lambda value, table: _whole(value) and low <= value <= high  # type: ignore[operator]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def optional(test: Test) -> Test:
    return lambda value, table: value is None or test(value, table)


def one_of(*choices: object) -> Test:
    return lambda value, table: isinstance(value, str) and value in choices


def listed(test: Test) -> Test:
    return lambda value, table: (
        isinstance(value, list) and len(value) <= MAX_ITEMS and all(test(item, table) for item in value)
    )


def keyed(test: Test) -> Test:
    """An object of seats to values (a hand of notes, of cards)."""
    return lambda value, table: (
        isinstance(value, dict) and all(table.seat(k) and test(v, table) for k, v in value.items())
    )


def shaped(spec: Mapping[str, Test]) -> Test:
    """An object of exactly ``spec``'s keys, each value passing its test."""
    return lambda value, table: (
        isinstance(value, dict) and value.keys() == spec.keys() and all(spec[k](v, table) for k, v in value.items())
    )


def flag(value: object, table: Table) -> bool:
    return isinstance(value, bool)


def text(value: object, table: Table) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT


def money(value: object, table: Table) -> bool:
    return _whole(value) and 0 <= value <= table.ceiling  # type: ignore[operator]


def moment(value: object, table: Table) -> bool:
    """A time as the documents keep it (ISO 8601)."""
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        dt.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def plain(value: object, table: Table, depth: int = _DEPTH) -> bool:
    """A small JSON value: text, a finite number, a flag, null, or lists and objects of them."""
    if value is None or isinstance(value, bool) or _whole(value):
        return not _whole(value) or abs(value) <= 2**53  # type: ignore[arg-type]
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    if depth == 0:
        return False
    if isinstance(value, list):
        return len(value) <= MAX_ITEMS and all(plain(v, table, depth - 1) for v in value)
    if isinstance(value, dict):
        return len(value) <= MAX_ITEMS and all(
            isinstance(k, str) and plain(v, table, depth - 1) for k, v in value.items()
        )
    return False


seat: Test = lambda value, table: table.seat(value)  # noqa: E731 - a test like the others
account: Test = lambda value, table: table.account(value)  # noqa: E731
deed: Test = lambda value, table: table.deed(value)  # noqa: E731
count = whole(0, MAX_COUNT)
deeds = listed(deed)

# --- the values a change may write ------------------------------------------------------------

PLAYER_FIELDS: dict[str, Test] = {
    "in_jail": flag,
    "bankrupt": flag,
    "jail_cards": count,
    "laps": count,
    "out_order": optional(whole(1, MAX_COUNT)),
    "chips": optional(count),
    "built_turn": optional(count),
    "expropriation_turn": optional(count),
    "skip_turns": count,
    "no_trades": flag,
    "jail_turns": count,
}


def _houses(value: object, table: Table) -> bool:
    return _whole(value) and 0 <= value <= table.state.edition.buildings.max_small  # type: ignore[operator]


DEED_FIELDS: dict[str, Test] = {
    "owner": optional(seat),
    "mortgaged": flag,
    "houses": _houses,
    "hotel": flag,
    "fee_due": flag,
    "mortgage_lap": optional(count),
    "taken_turn": optional(count),
}


def _supply(which: int) -> Test:
    """The bank's small (0) or big (1) buildings: none below zero, none above the game's supply,
    and none at all counted where the supply is unlimited."""

    def test(value: object, table: Table) -> bool:
        edition = table.state.edition.buildings
        most = building_supply(table.state.settings, edition.supply_small, edition.supply_big)[which]
        return value is None if most is None else _whole(value) and 0 <= value <= most  # type: ignore[operator]

    return test


ROLL = shaped(
    {
        "player": seat,
        "dice": text,
        "faces": listed(lambda v, t: _whole(v) or text(v, t)),
        "total": optional(count),
        "doubles": flag,
    }
)
GAME_FIELDS: dict[str, Test] = {
    "status": one_of(*STATUSES),
    "bank_small": _supply(0),
    "bank_big": _supply(1),
    "auctions_held": count,
    "turn_player": optional(seat),
    "turn_round": count,
    "turn_seq": count,
    "last_rent": optional(shaped({"payer": seat, "deed": deed, "turn": count})),
    "turn_start_mortgaged": optional(deeds),
    "auction_queue": deeds,
    "play_offs": listed(listed(seat)),
    "rolls": count,
    "last_roll": optional(ROLL),
}

SIDE = shaped({"cash": money, "deeds": deeds, "jail_cards": count})
# A note in hand, or handed over (a Chance card played is one of face 0).
NOTE = shaped({"id": text, "face": whole(0, 10**12), "fake": flag})
CARD = shaped({"id": text, "fake": flag})
DOCUMENTS: dict[str, Mapping[str, Test]] = {
    "auction": {
        "id": text,
        "lot": one_of("deed", "small", "big"),
        "deed": optional(deed),
        "deeds": deeds,
        "opening_bid": money,
        "min_raise": money,
        "countdown_seconds": whole(0, 10**6),
        "ends_at": moment,
        "high_bid": optional(money),
        "high_bidder": optional(seat),
        "high_deed": optional(deed),
        "excluded": listed(seat),
        "decliner": optional(seat),
    },
    "trade": {"id": text, "proposer": seat, "recipient": seat, "give": SIDE, "get": SIDE},
    "pending": {
        "id": text,
        "payer": account,
        "payee": account,
        "amount": money,
        "needs": one_of("payer", BANKER),
        "asked_by": lambda v, t: v == BANKER or t.seat(v),
        "kind": lambda v, t: isinstance(v, str) and v in KINDS,
        "params": lambda v, t: isinstance(v, dict) and plain(v, t),
        "at": moment,
        "expires_at": optional(moment),
    },
    "expropriation": {
        "id": text,
        "buyer": seat,
        "owner": seat,
        "deed": deed,
        "deeds": deeds,
        "whole_lot": flag,
        "value": money,
        "penalty": money,
        "via": text,
        "stage": one_of("buyer", "owner", "settle"),
        "rolls": listed(lambda v, t: isinstance(v, dict) and plain(v, t)),
        "owed": optional(lambda v, t: isinstance(v, dict) and plain(v, t)),
    },
    "notes": {"drawn": count, "hands": keyed(listed(NOTE))},
    "checkable": {
        "id": text,
        "payer": account,
        "payee": account,
        "parties": listed(seat),
        "amount": money,
        "notes": listed(NOTE),
        "kind": text,
        "at": moment,
        "check_until": moment,
        "card": optional(text),
        "checked": optional(lambda v, t: isinstance(v, dict) and plain(v, t)),
    },
    "chance": {"pile": listed(CARD), "board": listed(CARD), "hands": keyed(listed(CARD))},
}


def check_entry(state: GameState, entry: FileEntry) -> None:
    """Refuses (``invalid_game_file``, naming the entry and the field) an entry, read against
    the game as it stood before it, that writes a value the rules do not: a posting of the
    bank beyond the edition's ceiling, a change's new value of the wrong kind or out of its
    range (or naming a seat, a deed or an account the game does not have), a document that
    is not exactly its fields, and params the feed and the notices cannot word."""
    table = Table(state)
    _check_postings(table, entry)
    for change in entry.changes:
        where = _wrong_change(table, change)
        if where is not None:
            raise refused(VALUE, version=entry.version, field=where)
    where = wrong_params(table, entry.kind, entry.params, _money_ceiling(table, entry))
    if where is not None:
        raise refused(VALUE, version=entry.version, field=f"params.{where}")


def _check_postings(table: Table, entry: FileEntry) -> None:
    """The bank pays at most the edition's ceiling to each account at once (the starting cash,
    a salary, a mortgage), so no balance can grow past what a game's money holds; what the
    players and pots pay is held by their balances (the interpreter refuses one below zero)."""
    for index, posting in enumerate(entry.postings):
        if not table.account(posting.account) or abs(posting.amount) > 2**53:
            raise refused(VALUE, version=entry.version, field=f"postings[{index}]")
        # An undo or a take back gives back what its entry moved, whatever it was (it is made again).
        if posting.account == BANK and -posting.amount > table.ceiling and entry.reverses is None:
            raise refused(VALUE, version=entry.version, field=f"postings[{index}]")


def _money_ceiling(table: Table, entry: FileEntry) -> int:
    """The most an amount in the entry's words may be: the edition's ceiling, or the most the
    entry moves (a pot emptied, a bankrupt's cash handed over)."""
    return max([table.ceiling, *(abs(p.amount) for p in entry.postings)])


def _wrong_change(table: Table, change: Change) -> str | None:
    """Where ``change`` writes a value the rules do not (``deeds.<key>.houses``), or ``None``."""
    state = table.state
    if change.target == "player":
        player = state.players.get(change.ref) if isinstance(change.ref, str) else None
        where = f"players.{player.name if player else change.ref}.{change.field}"
        return None if _passes(PLAYER_FIELDS, change.field, change.after, table) else where
    if change.target == "deed":
        where = f"deeds.{change.ref}.{change.field}"
        return None if _passes(DEED_FIELDS, change.field, change.after, table) else where
    if change.target == "game":
        return None if _passes(GAME_FIELDS, change.field, change.after, table) else change.field
    return _wrong_document(table, change)


def _wrong_document(table: Table, change: Change) -> str | None:
    """Where a document's change is not one: a document of one (the auction) has no id, one of
    many (a trade) is changed by its own id; the new document is exactly its fields."""
    spec = DOCUMENTS.get(change.target)
    many = DOCUMENT_FIELDS[change.target].many if change.target in DOCUMENT_FIELDS else False
    where = change.target if change.ref is None else f"{change.target}.{change.ref}"
    if spec is None or change.field != "state":
        return where
    if not text(change.ref, table) if many else change.ref is not None:
        return where
    document = change.after
    if document is None:
        return None
    if not isinstance(document, dict) or document.keys() != spec.keys():
        return where
    if many and document["id"] != change.ref:
        return f"{where}.id"
    wrong = next((k for k, test in spec.items() if not test(document[k], table)), None)
    if wrong is None and change.target == "pending":
        bad = wrong_params(table, document["kind"], document["params"], table.ceiling)
        wrong = None if bad is None else f"params.{bad}"
    return None if wrong is None else f"{where}.{wrong}"


def _passes(spec: Mapping[str, Test], name: str, value: object, table: Table) -> bool:
    test = spec.get(name)
    return test is not None and test(value, table)


# --- the params, as the feed and the notices word them ----------------------------------------


def _money_word(ceiling: int) -> Test:
    return lambda value, table: value is None or (_whole(value) and abs(value) <= ceiling)  # type: ignore[arg-type]


def _faces(least: int) -> Test:
    return lambda value, table: (
        isinstance(value, list)
        and least <= len(value) <= 10
        and all((_whole(v) and abs(v) <= 1000) or text(v, table) for v in value)
    )


def _payment(value: object, table: Table) -> bool:
    return value is None or (isinstance(value, str) and table.state.edition.fixed_payment(value) is not None)


def _who(value: object, table: Table) -> bool:
    return value is None or value == BANKER or table.account(value)


def _scalar(value: object, table: Table) -> bool:
    return value is None or isinstance(value, bool) or (plain(value, table, 0) and not isinstance(value, (list, dict)))


def _pairs(value: object, table: Table) -> bool:
    return isinstance(value, list) and all(
        isinstance(pair, list) and len(pair) == 2 and table.seat(pair[0]) and table.deed(pair[1]) for pair in value
    )


def _counts(value: object, table: Table) -> bool:
    return isinstance(value, dict) and all(table.deed(k) and _houses(v, table) for k, v in value.items())


# How each wording of ``core.actions.lines`` reads its param (``None`` where it reads none).
WORD_TESTS: dict[str, Test | None] = {
    "who": _who,
    "names": listed(_who),
    "money": None,  # by the entry's own ceiling: ``wrong_params``
    "text": _scalar,
    "deed": optional(deed),
    "named_deed": optional(deed),
    "won": optional(deed),
    "unsold": optional(deed),
    "won_here": optional(deed),
    "expropriated": optional(deed),
    "deeds": optional(deeds),
    "building": optional(one_of("small", "big")),
    "big_building": None,
    "smalls": None,
    "jail": None,
    "payment": _payment,
    "trade": optional(SIDE),
    "faces": optional(_faces(0)),
    "first_face": _faces(1),
    "second_face": _faces(2),
    "face": _scalar,
    "die": optional(one_of("buyer", "owner")),
    "counts": optional(_counts),
    "landing": None,  # the square's sentence: its player, amount and deed (``_ALWAYS``)
    "hands": optional(_pairs),
    "undone": None,  # the entry undone, worded by its own kind: ``wrong_params``
    "taken_back": None,
    "taken_back_amount": None,
    "net": None,  # given by the notice, not read from the params
    "bracketed": _scalar,
    "square": optional(_scalar),  # a computed square's key, as the deed page's buttons word it
}
# The params every entry may hold, whatever its kind, and how they are read.
_ALWAYS: dict[str, Test] = {
    "result": lambda v, t: isinstance(v, dict) and plain(v, t),
    "all_deeds_owned": flag,
    "player": _who,
    "deed": optional(deed),
}


def _says(kind: str) -> Iterable[Say]:
    line = LINES.get(kind)
    if line is not None:
        yield from (*line.says, *line.more)
    for tell in TOLD.get(kind, ()):
        yield tell.say
    action = ACTIONS.get(kind)
    if action is not None and action.received is not None:
        yield action.received


def _reads(kind: str) -> list[tuple[str, str]]:
    """(wording, param) for every param the feed and the notices read of an entry of ``kind``,
    and ("count", param) for a sentence that goes by a number."""
    read = []
    for say in _says(kind):
        for spec in (*say.words.values(), *([say.tail] if say.tail else [])):
            how, param = spec.split()
            read.append((how, param))
        if say.count is not None:
            read.append(("count", say.count))
    return read


READS: dict[str, list[tuple[str, str]]] = {kind: _reads(kind) for kind in KINDS}


def wrong_params(table: Table, kind: str, params: Mapping[str, Any], ceiling: int, depth: int = 1) -> str | None:
    """The first param of an entry of ``kind`` the pages could not word (``amount`` holding
    text, a deed the edition does not have), or ``None``: read as the feed and the notices
    read it. An undo's or a take back's entry undone is read by its own kind."""
    if not plain(params, table):
        return "(all)"
    for name, test in _ALWAYS.items():
        if name in params and not test(params[name], table):
            return name
    for how, param in READS.get(kind, ()):
        if param.startswith("@") or param not in params:
            continue
        wrong = _wrong_word(table, how, params, param, ceiling, depth)
        if wrong is not None:
            return wrong
    if kind in LINES and LINES[kind].worded_by == "landing" and "amount" in params:
        return None if _money_word(ceiling)(params["amount"], table) else "amount"
    return None


def _wrong_word(table: Table, how: str, params: Mapping[str, Any], param: str, ceiling: int, depth: int) -> str | None:
    """Where the param ``param``, worded ``how``, cannot be worded, or ``None``."""
    value = params[param]
    if how in ("undone", "taken_back", "taken_back_amount"):
        return _wrong_undone(table, params, param, ceiling, depth)
    if how == "money":
        ok = _money_word(ceiling)(value, table)
    elif how == "count":
        ok = _whole(value) and 0 <= value <= MAX_COUNT
    else:
        word = WORD_TESTS.get(how)
        ok = word is None or word(value, table)
    return None if ok else param


def _wrong_undone(table: Table, params: Mapping[str, Any], param: str, ceiling: int, depth: int) -> str | None:
    """An undo's (a take back's) entry undone: a kind this Banco knows, and its params as that
    kind's own."""
    kind, undone = params.get(param), params.get("undone_params")
    if not isinstance(kind, str) or kind not in KINDS:
        return param
    if not isinstance(undone, dict) or depth == 0:
        return "undone_params"
    wrong = wrong_params(table, kind, undone, ceiling, depth - 1)
    return None if wrong is None else f"undone_params.{wrong}"


# --- the board an entry leaves ----------------------------------------------------------------


def check_board(state: GameState, entry: FileEntry) -> None:
    """Refuses (``invalid_game_file``) an entry that leaves a deed it changed as no rule leaves
    one: buildings, a mortgage or a fee on a deed nobody owns, buildings on a mortgaged deed or
    on one that takes none, a big building in an edition without one; or the bank's buildings
    and the deeds' not adding up to the game's supply."""
    touched = {c.ref for c in entry.changes if c.target == "deed" and isinstance(c.ref, str)}
    for key in sorted(touched):
        wrong = _wrong_deed(state, state.deeds.get(key) or DeedState(key))
        if wrong is not None:
            raise refused(BOARD, version=entry.version, field=f"deeds.{key}.{wrong}")
    if touched or any(c.target == "game" and c.field in ("bank_small", "bank_big") for c in entry.changes):
        wrong = _wrong_supply(state)
        if wrong is not None:
            raise refused(BOARD, version=entry.version, field=wrong)


def _wrong_deed(state: GameState, held: DeedState) -> str | None:
    built = held.houses > 0 or held.hotel
    if held.owner is None and (built or held.mortgaged or held.fee_due):
        return "owner"
    if held.mortgaged and built:
        return "mortgaged"
    if built:
        printed = state.edition.deed(held.key)
        group = state.edition.group(printed.group) if printed is not None else None
        if printed is None or not printed.buildable or group is None or group.kind != "street":
            return "houses"
    if held.hotel and big_building(state.edition) is None:
        return "hotel"
    return None


def _wrong_supply(state: GameState) -> str | None:
    """Where the game counts its buildings, the bank's and those on the deeds make the supply
    (a big building counted once, the small ones it took back already in the bank's)."""
    edition = state.edition.buildings
    small, big = building_supply(state.settings, edition.supply_small, edition.supply_big)
    on_board = [d for d in state.deeds.values() if d.houses or d.hotel]
    if (
        small is not None
        and state.bank_small is not None
        and state.bank_small + sum(d.houses for d in on_board) != small
    ):
        return "bank_small"
    if big is not None and state.bank_big is not None and state.bank_big + sum(d.hotel for d in on_board) != big:
        return "bank_big"
    return None


def declared_fields() -> dict[str, set[str]]:
    """The fields a change may write, by target, as the state declares them (the tests hold the
    tables above to them)."""
    return {
        "player": {f.name for f in fields(PlayerState)} - {"id", "name", "cash"},
        "deed": {f.name for f in fields(DeedState)} - {"key"},
    }
