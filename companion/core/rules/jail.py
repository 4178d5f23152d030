"""Jail as the money sees it: going in, and leaving by the fine, a card or doubles."""

from __future__ import annotations

from ..commands import fines_account
from ..errors import N_, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import move
from ..policies.jail import failed_roll_fine
from ..policies.jail import fine as jail_fine
from ..state import GameState, Outcome, PlayerState
from .common import player_changes


def _require_in_jail(player: PlayerState) -> None:
    if not player.in_jail:
        raise RuleViolation("not_in_jail", N_("%(name)s is not in jail."), name=player.name)


def waits_for_next_turn(state: GameState, player: PlayerState) -> bool:
    """Whether ``player`` is in jail and may not leave yet: the edition's jail lets players out
    only from their next turn on (``jail.from_next_turn``: Motopolis' Attesa ricambi; Che
    Impresa!, seed 000 lines 172-176, "rimarrà in prigione un solo turno [...] quando il
    giocatore tornerà ad essere di mano dovrà uscire") and no turn of theirs has begun since."""
    jail = state.edition.jail
    return player.in_jail and jail.from_next_turn and state.edition.turns.counted and player.jail_turns == 0


def _require_can_leave(state: GameState, player: PlayerState) -> None:
    """Refuses a player not in jail and one who may leave only from their next turn, which has
    not begun (``waits_for_next_turn``): neither the fine, nor a card, nor a roll for doubles
    lets them out in the turn they went in."""
    _require_in_jail(player)
    if waits_for_next_turn(state, player):
        raise RuleViolation(
            "jail_next_turn",
            N_(
                "Jail rule: %(name)s stays in jail for the rest of this turn and may pay or roll to "
                "leave only when their turn comes again."
            ),
            name=player.name,
        )


def go_to_jail(state: GameState, player_id: str) -> Outcome:
    """The player goes to jail. Refuses: a game not running, an unknown or bankrupt player, and
    a player already in jail. Where the edition's jail counts turns, they count from now."""
    require_running(state)
    player = require_player(state, player_id)
    if player.in_jail:
        raise RuleViolation("already_in_jail", N_("%(name)s is already in jail."), name=player.name)
    return Outcome(
        "go_to_jail", changes=tuple(player_changes(player, in_jail=True, jail_turns=0)), params={"player": player.id}
    )


def pay_jail_fine(state: GameState, player_id: str) -> Outcome:
    """The player pays the fine the edition's jail policy sets (to the bank, or the Free Parking
    pot) and leaves jail.

    Refuses: a game not running, an unknown or bankrupt player, a player not in jail, one who
    may leave only from their next turn, and a player without the cash.
    """
    require_running(state)
    player = require_player(state, player_id)
    _require_can_leave(state, player)
    fine = jail_fine(state.edition, player)
    require_cash(player, fine)
    return Outcome(
        "pay_jail_fine",
        move(player.id, fines_account(state), fine) if fine else (),
        tuple(player_changes(player, in_jail=False, jail_turns=0)),
        params={"player": player.id, "amount": fine},
        result={"amount": fine},
    )


def leave_jail_after_failed_roll(state: GameState, player_id: str) -> Outcome:
    """The player rolled without doubles and, as the edition's jail policy says, pays its fine
    for a failed roll (to the bank, or the Free Parking pot) and leaves.

    Refuses: an edition where a failed roll keeps the player in jail, a game not running, an
    unknown or bankrupt player, a player not in jail, and a player without the cash.
    """
    require_running(state)
    player = require_player(state, player_id)
    fine = failed_roll_fine(state.edition, player)
    if fine is None:
        raise RuleViolation("failed_roll_stays", N_("In this edition a roll without doubles keeps the player in jail."))
    _require_can_leave(state, player)
    require_cash(player, fine)
    return Outcome(
        "leave_jail_after_failed_roll",
        move(player.id, fines_account(state), fine) if fine else (),
        tuple(player_changes(player, in_jail=False, jail_turns=0)),
        params={"player": player.id, "amount": fine},
        result={"amount": fine},
    )


def require_free(state: GameState, player: PlayerState, what: str) -> None:
    """Refuses a player in jail where the edition's jail keeps them from ``what``
    (``"rent"``: collecting rent; ``"bids"``: bidding in auctions; ``"builds"``: building)."""
    if not player.in_jail:
        return
    if what == "builds" and not state.edition.jail.builds:
        raise RuleViolation("builder_in_jail", N_("%(name)s is in jail and cannot build."), name=player.name)
    if what == "rent" and not state.edition.jail.collects_rent:
        raise RuleViolation("owner_in_jail", N_("%(name)s is in jail and collects no rent."), name=player.name)
    if what == "bids" and not state.edition.jail.bids:
        raise RuleViolation("bidder_in_jail", N_("%(name)s is in jail and cannot bid."), name=player.name)


def use_jail_card(state: GameState, player_id: str) -> Outcome:
    """The player hands back a get-out-of-jail card and leaves jail.

    Refuses: a game not running, an unknown or bankrupt player, a player not in jail, one who
    may leave only from their next turn, and a player without a card.
    """
    require_running(state)
    player = require_player(state, player_id)
    _require_can_leave(state, player)
    if player.jail_cards == 0:
        raise RuleViolation("no_jail_card", N_("%(name)s has no get-out-of-jail card."), name=player.name)
    return Outcome(
        "use_jail_card",
        changes=tuple(player_changes(player, in_jail=False, jail_cards=player.jail_cards - 1, jail_turns=0)),
        params={"player": player.id},
    )


def leave_jail_on_doubles(state: GameState, player_id: str) -> Outcome:
    """The player rolled doubles and leaves jail for free.

    Refuses: a game not running, an unknown or bankrupt player, a player not in jail, and one
    who may leave only from their next turn.
    """
    require_running(state)
    player = require_player(state, player_id)
    _require_can_leave(state, player)
    return Outcome(
        "leave_jail_on_doubles",
        changes=tuple(player_changes(player, in_jail=False, jail_turns=0)),
        params={"player": player.id},
    )


def draw_jail_card(state: GameState, player_id: str) -> Outcome:
    """The player draws a get-out-of-jail card and keeps it.

    Refuses: a game not running, an unknown or bankrupt player, and a draw when the players
    already hold every card the edition's decks have (``jail.cards_total``).
    """
    require_running(state)
    player = require_player(state, player_id)
    held = sum(p.jail_cards for p in state.players.values())
    if held >= state.edition.jail.cards_total:
        raise RuleViolation("no_jail_cards_left", N_("Every get-out-of-jail card is already held."))
    return Outcome(
        "draw_jail_card",
        changes=tuple(player_changes(player, jail_cards=player.jail_cards + 1)),
        params={"player": player.id},
    )
