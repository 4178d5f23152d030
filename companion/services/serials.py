"""The secret behind a game's printed serials (``core.counterfeits.serials``).

It is drawn the first time the game's money is printed and kept in the game row's ``extra``
under ``SECRET_KEY_NAME``: not a field of the core's ``GameState``, so neither the read model,
the journal nor the API ever carries it. Until the money is printed a game has no secret and
no serial matches it."""

from __future__ import annotations

import secrets

from ..core.counterfeits import serials
from ..core.errors import N_, NotFound
from ..store import Game
from .journal import state_of
from .tx import lock_game, writing

SECRET_KEY_NAME = "serial_secret"


def secret_of(game: Game) -> str | None:
    """The game's serial secret, or ``None`` before its money was first printed."""
    return (game.extra or {}).get(SECRET_KEY_NAME)


def printed_items(game_id: str) -> tuple[Game, list[dict]]:
    """The game's print run for the printables: each note's face or a card, with its serial
    (and nothing about which are fake). Draws the game's secret on the first printing.
    Refuses an edition without counterfeits (404)."""
    with writing():
        game = lock_game(game_id)
        state = state_of(game, deeds=False)
        if state.edition.counterfeits is None:
            raise NotFound("no_printed_money", N_("This edition has no money to check: there is nothing to print."))
        secret = secret_of(game)
        if secret is None:
            secret = secrets.token_hex(32)
            game.extra = {**(game.extra or {}), SECRET_KEY_NAME: secret}
        items = [
            {"kind": item.kind, "face": item.face, "serial": item.serial} for item in serials.print_run(state, secret)
        ]
    return game, items


def game_of_serial(game: Game, typed) -> bool:
    """Whether ``typed`` is the serial of one of this game's printed items."""
    if secret_of(game) is None:
        return False
    return serials.find(state_of(game, deeds=False), secret_of(game), typed) is not None
