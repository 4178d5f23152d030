"""The one place that changes games: load the state, ask the core, persist the outcome, in one
transaction. Pages and the API call these functions and nothing else commits.

- ``tx``: transactions, locking, finding a game's row
- ``catalog``: the editions offered, and the content each game is pinned to
- ``games``: opening a table, joining it
- ``seats``: tokens, claiming a seat, rejoin codes, who is calling
- ``actions``: the action types, ``prepare``, ``run_batch`` and ``preview``
- ``steps``: the work an action names that no rule does (undo, take back, the clock)
- ``door``: the one door of the actions (the API's and the pages'), through the one ``writer``
- ``faults``: a database that cannot save (a full disk, a read-only file), refused in words (503)
- ``journal``: entries, persistence through the core's interpreter, undo, verification
- ``clock``: the game clock
- ``reads``: the read model the API and pages show
- ``deeds``: what a deed's pages read of the rules (lifting, the rent line now, trades)
- ``results``: the score (live and final) and every player's worth through the game
- ``squares``: what the board's computed squares offer a player's phone now
- ``board``: the board's squares in board order, for "Where did I land?"
- ``health``: whether the server can serve: its database answers, its tables are current
"""

from .actions import ACTIONS, prepare, preview, run_batch
from .board import Space, board_is_placed
from .board import space as board_space
from .board import spaces as board_spaces
from .catalog import edition_of, editions
from .clock import view as clock_view
from .custom_editions import (
    EditionRefused,
    check_edition,
    edition_file,
    import_edition,
    import_edition_text,
    is_imported,
)
from .deeds import auction_clock, deed_trades_closed, laps_left, lift_cost, rent_line, tradable
from .door import Door, Reply
from .faults import StorageUnavailable, cannot_save, is_storage_fault
from .gamefiles import export_game, import_game, read_game_file
from .games import (
    EDITION_CLOCK,
    ID_ALPHABET,
    clean_name,
    create_game,
    game_by_join_code,
    join,
    normalise_join_code,
    random_id,
)
from .health import Readiness, readiness
from .importing import BusyImporting, carry_on
from .journal import (
    BANKER,
    entries_since,
    entry_at,
    journal_balances,
    journal_page,
    parts_since,
    recent_entries,
    recent_lines,
    state_of,
    take_back_offer,
    taken_back,
    undo_offer,
    undo_target,
    verify_all,
    verify_game,
)
from .printed import moved_since_printing
from .printed import record as record_printing
from .reads import (
    DICE_KINDS,
    can_see_cash,
    checkable_view,
    counterfeits_view,
    current_version,
    debts_to,
    dice_kinds,
    game_state,
    liquidation,
    pending_view,
    rent_requests,
    time_up_view,
    turn_view,
    waiting,
)
from .repository import database_key
from .results import chart_span, score, worth_points
from .seats import (
    HANDOFF_MINUTES,
    REJOIN_MINUTES,
    Caller,
    authenticate,
    claim_seat,
    issue_bank_handoff,
    issue_rejoin,
    redeem_bank_handoff,
    redeem_rejoin,
)
from .squares import offers as square_offers
from .tournaments import (
    create_tournament,
    draw_round,
    get_tournament,
    is_director,
    is_referee,
    issue_referee_token,
    referee_view,
    register,
    tournament_view,
    withdraw,
)
from .tx import WRITE_INTENT, find_game, get_game, keep_games, reading, rollback, writing

# The web layer reads the core only through here, but for the few words and refusals
# tests/test_architecture.py names (WEB_READS_OF_CORE), each with its reason.
__all__ = [
    "ACTIONS",
    "BANKER",
    "DICE_KINDS",
    "EDITION_CLOCK",
    "HANDOFF_MINUTES",
    "ID_ALPHABET",
    "REJOIN_MINUTES",
    "WRITE_INTENT",
    "BusyImporting",
    "Caller",
    "Door",
    "EditionRefused",
    "Readiness",
    "Reply",
    "Space",
    "StorageUnavailable",
    "auction_clock",
    "authenticate",
    "board_is_placed",
    "board_space",
    "board_spaces",
    "can_see_cash",
    "cannot_save",
    "carry_on",
    "chart_span",
    "check_edition",
    "checkable_view",
    "claim_seat",
    "clean_name",
    "clock_view",
    "counterfeits_view",
    "create_game",
    "create_tournament",
    "current_version",
    "database_key",
    "debts_to",
    "deed_trades_closed",
    "dice_kinds",
    "draw_round",
    "edition_file",
    "edition_of",
    "editions",
    "entries_since",
    "entry_at",
    "export_game",
    "find_game",
    "game_by_join_code",
    "game_state",
    "get_game",
    "get_tournament",
    "import_edition",
    "import_edition_text",
    "import_game",
    "is_director",
    "is_imported",
    "is_referee",
    "is_storage_fault",
    "issue_bank_handoff",
    "issue_referee_token",
    "issue_rejoin",
    "join",
    "journal_balances",
    "journal_page",
    "keep_games",
    "laps_left",
    "lift_cost",
    "liquidation",
    "moved_since_printing",
    "normalise_join_code",
    "parts_since",
    "pending_view",
    "prepare",
    "preview",
    "random_id",
    "read_game_file",
    "readiness",
    "reading",
    "recent_entries",
    "recent_lines",
    "record_printing",
    "redeem_bank_handoff",
    "redeem_rejoin",
    "referee_view",
    "register",
    "rent_line",
    "rent_requests",
    "rollback",
    "run_batch",
    "score",
    "square_offers",
    "state_of",
    "take_back_offer",
    "taken_back",
    "time_up_view",
    "tournament_view",
    "tradable",
    "turn_view",
    "undo_offer",
    "undo_target",
    "verify_all",
    "verify_game",
    "waiting",
    "withdraw",
    "worth_points",
    "writing",
]
