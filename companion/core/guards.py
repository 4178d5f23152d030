"""What every rule refuses before it looks further: a game that is not running, a player who
is not in it, a payment larger than the payer's cash, a reason that is not short text. The
bank's commands, the deeds' rules, the turns and the variants all start here."""

from __future__ import annotations

from .errors import N_, BadInput, NotFound, RuleViolation
from .state import FINISHED, SETUP, GameState, PlayerState

MAX_REASON = 80


def require_running(state: GameState) -> None:
    """Refuses any move of money unless the game is running."""
    if state.status == SETUP:
        raise RuleViolation("game_not_started", N_("The game has not started yet."))
    if state.status == FINISHED:
        raise RuleViolation("game_finished", N_("The game is over."))


def require_player(state: GameState, player_id: object) -> PlayerState:
    """The player with this id; refuses an unknown id or one who is out of the game."""
    player = state.player(player_id) if isinstance(player_id, str) else None
    if player is None:
        raise NotFound("unknown_player", N_("There is no such player in this game."))
    if player.bankrupt:
        raise RuleViolation("player_bankrupt", N_("%(name)s is out of the game."), name=player.name)
    return player


def require_cash(player: PlayerState, amount: int) -> None:
    """Refuses a payment larger than the payer's cash, saying how much is missing."""
    if player.cash < amount:
        raise RuleViolation(
            "insufficient_cash",
            N_("%(name)s has %(cash)s: %(missing)s missing to pay %(amount)s."),
            name=player.name,
            cash=player.cash,
            missing=amount - player.cash,
            amount=amount,
        )


def clean_reason(reason: object) -> str:
    """A free-text reason, trimmed; refuses non-text, control characters and text longer than
    80 characters."""
    if reason is None:
        return ""
    if not isinstance(reason, str):
        raise BadInput("invalid_reason", N_("The reason must be text."))
    reason = " ".join(reason.split())
    if not reason.isprintable():
        raise BadInput("invalid_reason", N_("The reason cannot hold control characters."))
    if len(reason) > MAX_REASON:
        raise BadInput("invalid_reason", N_("The reason can be at most %(max)s characters."), max=MAX_REASON)
    return reason
