"""The one place that changes games: load the state, ask the core, persist the outcome, in one
transaction. Pages and the API call these functions and nothing else commits.

- ``tx``: transactions, locking, finding a game's row
- ``catalog``: the editions offered, and the content each game is pinned to
- ``games``: opening a table, joining it
- ``seats``: tokens, claiming a seat, rejoin codes, who is calling
- ``actions``: the action types, ``act`` and ``preview``
- ``journal``: entries, persistence through the core's interpreter, undo, verification
- ``clock``: the game clock
- ``reads``: the read model the API and pages show
- ``results``: the score (live and final) and every player's worth through the game
"""
from ..core.ledger import BANK
from ..core.policies.mortgage import laps_left as mortgage_laps_left
from ..core.rules import lift_cost, rent_line, require_tradable
from ..core.rules.common import is_past
from ..core.settings import FREE_PARKING
from ..core.take_back import TAKE_BACK_SECONDS
from ..core.turns import view as turn_view
from ..store import now_utc
from .actions import ACTIONS, CLOCK_ACTIONS, JOURNAL_ACTIONS, act, prepare, preview, run_batch
from .catalog import edition_of, editions
from .custom_editions import EditionRefused, check_edition, edition_file, import_edition, import_edition_text, is_imported
from .clock import view as clock_view
from .games import (EDITION_CLOCK, ID_ALPHABET, clean_name, create_game, game_by_join_code, join, normalise_join_code,
                    random_id)
from .journal import (BANKER, parts_since, recent_lines, take_back_offer, entries_since, entry_at, journal_balances, recent_entries, state_of, undo_target,
                      verify_all, verify_game)
from .printed import moved_since_printing
from .printed import record as record_printing
from .results import score, worth_points
from .reads import (DICE_KINDS, can_see_cash, liquidation, checkable_view, counterfeits_view, current_version, dice_kinds,
                    game_state, pending_view, waiting)
from .seats import (HANDOFF_MINUTES, REJOIN_MINUTES, Caller, authenticate, claim_seat, issue_bank_handoff,
                    issue_rejoin, redeem_bank_handoff, redeem_rejoin)
from .tx import WRITE_INTENT, database_key, find_game, get_game, keep_games, reading, rollback, writing
from .tournaments import (create_tournament, draw_round, get_tournament, is_director, is_referee, issue_referee_token,
                          referee_view, register, tournament_view, withdraw)

# The web layer reads the core only through here (and its refusals in core.errors).
__all__ = [
    "ACTIONS", "liquidation", "JOURNAL_ACTIONS", "TAKE_BACK_SECONDS", "take_back_offer", "BANK", "BANKER", "EDITION_CLOCK", "FREE_PARKING", "is_past", "lift_cost", "rent_line", "require_tradable", "CLOCK_ACTIONS", "Caller", "DICE_KINDS", "ID_ALPHABET", "HANDOFF_MINUTES", "REJOIN_MINUTES", "WRITE_INTENT", "act",
    "authenticate", "parts_since", "recent_lines", "can_see_cash", "claim_seat", "clean_name", "clock_view", "create_game", "current_version",
    "dice_kinds", "edition_of", "editions", "entries_since", "entry_at", "find_game", "game_by_join_code", "game_state",
    "get_game", "keep_games", "checkable_view", "counterfeits_view", "issue_bank_handoff", "issue_rejoin", "join", "journal_balances", "mortgage_laps_left", "normalise_join_code", "now_utc", "pending_view",
    "moved_since_printing", "prepare", "preview", "random_id", "run_batch", "record_printing", "reading", "recent_entries", "redeem_bank_handoff", "redeem_rejoin", "rollback", "score", "state_of", "undo_target", "database_key",
    "EditionRefused", "check_edition", "edition_file", "import_edition", "import_edition_text", "is_imported",
    "turn_view", "verify_all", "create_tournament", "draw_round", "get_tournament", "is_director", "is_referee", "issue_referee_token", "referee_view", "register", "tournament_view", "withdraw", "verify_game", "waiting", "worth_points", "writing",
]
