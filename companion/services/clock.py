"""The game clock: started with the game, paused and resumed by the banker, stopped at the end.
Kept on the game row (elapsed seconds plus when it last started), so it is right across
reloads and restarts of the server."""

from __future__ import annotations

import math

from ..core.errors import N_, RuleViolation
from ..core.state import RUNNING, Outcome
from ..store import Entry, Game, GameRecord, now_utc
from .journal import BANKER, new_entry


def reset(game: Game) -> None:
    game.clock_elapsed_seconds = 0.0
    game.clock_running_since = now_utc() if game.time_limit_seconds else None


def stop(game: Game) -> None:
    if game.clock_running_since is not None:
        game.clock_elapsed_seconds += (now_utc() - game.clock_running_since).total_seconds()
        game.clock_running_since = None


def play_off(game: Game, minutes: int) -> None:
    """The clock of a play-off (``core.play_off``): ``minutes`` more from where it stopped at the
    end of the game, running from now. A game without a clock gets one for the play-off."""
    stop(game)
    game.time_limit_seconds = math.ceil(game.clock_elapsed_seconds) + minutes * 60
    game.clock_running_since = now_utc()


def play_off_undone(game: Game, limit_before: int | None) -> None:
    """Undoing the start of a play-off takes the game back to its end: the clock stops, with the
    time limit it had."""
    stop(game)
    game.time_limit_seconds = limit_before


def pause(game: Game) -> Entry:
    """``clock_pause``. Refuses what ``_running_game`` refuses, and a paused clock."""
    _running_game(game)
    if game.clock_running_since is None:
        raise RuleViolation("clock_paused", N_("The clock is already paused."))
    stop(game)
    return new_entry(game, Outcome("clock_pause", undoable=False), BANKER)


def resume(game: Game) -> Entry:
    """``clock_resume``. Refuses what ``_running_game`` refuses, and a running clock."""
    _running_game(game)
    if game.clock_running_since is not None:
        raise RuleViolation("clock_running", N_("The clock is already running."))
    game.clock_running_since = now_utc()
    return new_entry(game, Outcome("clock_resume", undoable=False), BANKER)


def _running_game(game: Game) -> None:
    """Refuses a game without a time limit, and a game that is not running."""
    if not game.time_limit_seconds:
        raise RuleViolation("no_clock", N_("This game has no time limit."))
    if game.status != RUNNING:
        raise RuleViolation("game_not_running", N_("The clock runs only while the game is on."))


def elapsed(game: GameRecord) -> float:
    """The seconds the clock has run so far (only while the game runs does it go on)."""
    seconds = game.clock_elapsed_seconds or 0.0
    since = game.clock_running_since if game.status == RUNNING else None
    if since is not None:
        seconds += (now_utc() - since).total_seconds()
    return seconds


def is_up(game: GameRecord) -> bool:
    """Whether the game's time is up: it has a time limit and the clock has reached it."""
    limit = game.time_limit_seconds
    return limit is not None and limit > 0 and elapsed(game) >= limit


def view(game: GameRecord) -> dict | None:
    """The clock as the API shows it, or ``None`` for a game without a time limit.
    ``last_minutes`` is the game's setting (0: no warning); ``closing`` says the game is in
    them now (the clock running, not yet out)."""
    if not game.time_limit_seconds:
        return None
    running = game.status == RUNNING and game.clock_running_since is not None
    remaining = max(0, int(game.time_limit_seconds - elapsed(game)))
    last_minutes = ((game.extra or {}).get("settings") or {}).get("last_minutes") or 0
    return {
        "limit_seconds": game.time_limit_seconds,
        "remaining_seconds": remaining,
        "running": running,
        "last_minutes": last_minutes,
        "closing": game.status == RUNNING and bool(last_minutes) and 0 < remaining <= last_minutes * 60,
    }
