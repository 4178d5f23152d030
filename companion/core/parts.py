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
something outside the state (a player joining, the clock) the parts ``KINDS`` adds. Anything
not declared here (a new field, a new document, a new kind) gets every part: a region fetched
for nothing costs a little, a region left stale is a bug. The tests fail until it is declared.
"""

from __future__ import annotations

from collections.abc import Iterable

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
    # The rent of this turn opens an expropriation on the deed's page.
    "last_rent": frozenset({TURN, DEEDS, EXPROPRIATION}),
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

# Every kind of entry, with what it changes besides its postings and changes (the game's row:
# its players, its clock, who holds the bank).
_NOTHING_ELSE: frozenset[str] = frozenset()
KINDS: dict[str, frozenset[str]] = {
    "created": frozenset({STATUS, PLAYERS}),
    "join": frozenset({PLAYERS}),
    "claim": frozenset({PLAYERS}),
    "rejoin": frozenset({PLAYERS}),
    "bank_handoff": frozenset({BANK}),
    "clock_pause": frozenset({CLOCK}),
    "clock_resume": frozenset({CLOCK}),
    "start": frozenset({CLOCK}),
    "end": frozenset({CLOCK}),
    "play_off": frozenset({CLOCK}),
    "undo": frozenset({CLOCK}),  # undoing an end or a play-off puts the clock back
    **dict.fromkeys(
        (
            "transfer",
            "pay_fixed",
            "pot_collect",
            "request",
            "bank_request",
            "pending_declined",
            "pending_withdrawn",
            "pending_expired",
            "pass_go",
            "roll",
            "buy",
            "pay_rent",
            "rent_request",
            "rent_lapse",
            "build",
            "sell_building",
            "mortgage",
            "unmortgage",
            "pay_mortgage_fee",
            "sell_to_bank",
            "auction_start",
            "building_auction_start",
            "break_shared",
            "check",
            "chance_draw",
            "chance_play",
            "auction_queue_done",
            "bid",
            "auction_won",
            "auction_unsold",
            "auction_rerun",
            "trade_propose",
            "trade_accept",
            "trade_reject",
            "trade_withdraw",
            "bankrupt",
            "go_to_jail",
            "pay_jail_fine",
            "use_jail_card",
            "leave_jail_on_doubles",
            "draw_jail_card",
            "leave_jail_after_failed_roll",
            "end_turn",
            "square",
            "build_lot",
            "expropriation_start",
            "expropriation_roll",
            "expropriation_settle",
            "take_back",
            "scan",
            "replay",
        ),
        _NOTHING_ELSE,
    ),
}


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
