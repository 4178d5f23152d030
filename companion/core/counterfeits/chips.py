"""The decoder chips of a game with fake money (Niente è come sembra): each player starts with
the edition's green chips, turns one red to check a note or a Chance card, and turns them all
green again at GO. A player in jail cannot check.

The checks themselves (a payment held open, a note examined, a printed note scanned) use
``require_chip`` and ``spent_chip``: nobody checks without a green chip, and each check turns
exactly one red."""

from __future__ import annotations

from ..errors import N_, RuleViolation
from ..state import Change, GameState, PlayerState


def starting_chips(state: GameState) -> list[Change]:
    """Every player's green chips at the start, where the edition has counterfeits."""
    terms = state.edition.counterfeits
    if terms is None:
        return []
    return [Change("player", p.id, "chips", p.chips, terms.chips) for p in state.active_players()]


def chips_back(state: GameState, player: PlayerState) -> list[Change]:
    """At GO the player's chips all turn green again."""
    terms = state.edition.counterfeits
    if terms is None or player.chips == terms.chips:
        return []
    return [Change("player", player.id, "chips", player.chips, terms.chips)]


def require_chip(state: GameState, player: PlayerState) -> None:
    """Refuses a check by a player of a game without counterfeits, one in jail, and one
    without a green chip."""
    if state.edition.counterfeits is None:
        raise RuleViolation("no_counterfeits", N_("In this edition there is no fake money to check."))
    if player.in_jail:
        raise RuleViolation("decoder_in_jail", N_("%(name)s is in jail and cannot use the decoder."), name=player.name)
    if not player.chips:
        raise RuleViolation(
            "no_green_chip", N_("%(name)s has no green decoder chip left: GO turns them green."), name=player.name
        )


def spent_chip(player: PlayerState) -> Change:
    """One of the player's chips turns red."""
    assert player.chips is not None  # a player of the variant, with a green chip left
    return Change("player", player.id, "chips", player.chips, player.chips - 1)
