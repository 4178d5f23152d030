"""What a journal entry changed, named in a few words a page understands: its *parts*.

A live page marks each of its regions with the parts it shows (``data-parts="cash feed"``);
an event names the parts of the versions it announces, and the page fetches only the regions
that show one of them (``docs/live.md``). Parts are names, never values: the same words go to
every page of the game, the public table screen among them. The one thing they say of whom is
whose cash moved, which the feed line of the same entry tells every page anyway.

An entry's parts come from what it did: ``feed`` always (every entry is a line of the feed, and
the newest entry decides what undo and take back offer), ``cash`` for any posting and
``cash:<account>`` for each account it moved (``cash_of``: a region that shows only its
reader's own cash, and what is computed from it, lists that one), one part per
changed field or document (``GAME_FIELDS``, ``DOCUMENTS``), and for the few kinds that change
something outside the state (a player joining, the clock) the parts ``KINDS`` adds: an action's
are declared with it (``core.actions``). Anything
not declared here (a new field, a new document, a new kind) gets every part: a region fetched
for nothing costs a little, a region left stale is a bug. The tests fail until it is declared.
"""

from __future__ import annotations

from collections.abc import Iterable

from .actions import ACTIONS

FEED = "feed"
CASH = "cash"
PLAYERS = "players"
DEEDS = "deeds"
AUCTION = "auction"
TRADES = "trades"
REQUESTS = "requests"
TURN = "turn"
DICE = "dice"
STATUS = "status"
CLOCK = "clock"
EXPROPRIATION = "expropriation"
NOTES = "notes"
CHECKS = "checks"
CHANCE = "chance"
BANK = "bank"

ALL = frozenset(
    {
        FEED,
        CASH,
        PLAYERS,
        DEEDS,
        AUCTION,
        TRADES,
        REQUESTS,
        TURN,
        DICE,
        STATUS,
        CLOCK,
        EXPROPRIATION,
        NOTES,
        CHECKS,
        CHANCE,
        BANK,
    }
)

# ``Change("game", None, field, ...)``: the parts each game field shows in.
GAME_FIELDS: dict[str, frozenset[str]] = {
    "status": frozenset({STATUS, CLOCK}),
    "bank_small": frozenset({DEEDS}),
    "bank_big": frozenset({DEEDS}),
    "auctions_held": frozenset({AUCTION}),
    "turn_player": frozenset({TURN}),
    "turn_round": frozenset({TURN}),
    "turn_seq": frozenset({TURN}),
    # The rent of this turn opens an expropriation on the deed's page. Not ``turn``: that part
    # says the turn passed on (whose it is, its round, its count), which news writes.
    "last_rent": frozenset({DEEDS, EXPROPRIATION}),
    "turn_start_mortgaged": frozenset({TURN}),
    "auction_queue": frozenset({AUCTION}),
    "play_offs": frozenset({STATUS, CLOCK}),
    "rolls": frozenset({DICE}),
    "last_roll": frozenset({DICE}),
}

# ``Change(target, ...)`` of a player's or a deed's field, or of a document.
TARGETS: dict[str, frozenset[str]] = {
    "player": frozenset({PLAYERS}),
    "deed": frozenset({DEEDS}),
}
DOCUMENTS: dict[str, frozenset[str]] = {
    "auction": frozenset({AUCTION}),
    "trade": frozenset({TRADES}),
    "pending": frozenset({REQUESTS}),
    "expropriation": frozenset({EXPROPRIATION}),
    "notes": frozenset({NOTES}),
    "checkable": frozenset({CHECKS}),
    "chance": frozenset({CHANCE}),
}

# Every kind of entry that no action declares, with what it changes besides its postings and
# changes (the game's row: its players, who holds the bank); each action declares its own
# (``core.actions``), and the entries that follow from one (a bank's request, an auction won) have
# nothing else.
_NOTHING_ELSE: frozenset[str] = frozenset()
_ENTRIES: dict[str, frozenset[str]] = {
    "created": frozenset({STATUS, PLAYERS}),
    "join": frozenset({PLAYERS}),
    "claim": frozenset({PLAYERS}),
    "rejoin": frozenset({PLAYERS}),
    "bank_handoff": frozenset({BANK}),
    **dict.fromkeys(
        (
            "bank_request",
            "pending_declined",
            "pending_withdrawn",
            "pending_expired",
            "auction_queue_done",
            "auction_won",
            "auction_unsold",
            "auction_rerun",
            "trade_withdraw",
            "replay",
        ),
        _NOTHING_ELSE,
    ),
}
KINDS: dict[str, frozenset[str]] = {**_ENTRIES, **{name: action.parts for name, action in ACTIONS.items()}}


def of_change(target: str, field: str) -> frozenset[str]:
    """The parts one change shows in; every part for a target or game field not declared."""
    if target == "game":
        return GAME_FIELDS.get(field, ALL)
    return TARGETS.get(target) or DOCUMENTS.get(target) or ALL


def cash_of(account: str) -> str:
    """The part of one account's cash (a player's id, the bank, a pot): ``cash:<account>``."""
    return f"{CASH}:{account}"


def is_part(name: str) -> bool:
    """Whether ``name`` is a part an entry can have: one of ``ALL``, or one account's cash."""
    account = name[len(CASH) + 1 :] if name.startswith(CASH + ":") else None
    return name in ALL or bool(account and account.replace("_", "").isalnum() and account.isascii())


def of_entry(kind: str, accounts: Iterable[str], changes: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The parts an entry of ``kind`` changed: ``accounts`` those its postings moved (none for
    an entry without postings), ``changes`` as ``(target, field)`` pairs. An undeclared kind
    has every part."""
    parts = {FEED} | KINDS.get(kind, ALL)
    for account in accounts:
        parts |= {CASH, cash_of(account)}
    for target, field in changes:
        parts |= of_change(target, field)
    return frozenset(parts)
