"""What every rule refuses before it looks further: a game that is not running, a player who
is not in it, a payment larger than the payer's cash, a reason that is not short text. The
bank's commands, the deeds' rules, the turns and the variants all start here."""

from __future__ import annotations

from .editions.edition import Edition
from .errors import N_, BadInput, BancoError, Money, NotFound, RuleViolation
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
            cash=Money(player.cash),
            missing=Money(amount - player.cash),
            amount=Money(amount),
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


def plays_size(edition: Edition, players: int, house_sizes: bool) -> bool:
    """Whether a table of ``players`` may play: any size but one the rulebook gives no starting
    values for (the edition's ``house_sizes``: Motopolis' 7, seed 002 lines 11 and 18-23),
    which plays only as a house rule (the ``house_sizes`` setting), at the file's own values."""
    return house_sizes or players not in edition.house_sizes


def require_rulebook_size(
    edition: Edition, players: int, house_sizes: bool, error: type[BancoError] = RuleViolation
) -> None:
    """Refuses (``error``, 409 unless told) a table of a size the rulebook gives no values for,
    unless the game plays that house rule (``plays_size``)."""
    if not plays_size(edition, players, house_sizes):
        raise error(
            "house_size_not_chosen",
            N_(
                "The rulebook gives no starting cash for %(n)s players: %(n)s play only as a house rule, "
                "ticked when the table is opened (the edition file's own values then)."
            ),
            n=players,
        )
