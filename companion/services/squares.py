"""What the board's computed squares offer a player's phone now, as each square's policy says
a phone can know it before the landing: the amount of a one-tap square, the free deeds a square
buys with their prices, nothing for a square the dice decide (the page asks for the total)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.editions.edition import Deed, Square
from ..core.errors import BancoError
from ..core.policies.squares import policy
from ..core.state import GameState
from ..store import Game
from .actions import preview
from .seats import Caller


@dataclass(frozen=True)
class Offer:
    """``amount``: what landing would move now, for a square known without the dice, unless
    ``refused`` says why it cannot be landed on now (nothing owed, already sitting out).
    ``deeds``: for a square that buys a free deed, each deed the player could buy there with
    its price (``None`` for the other squares)."""

    square: Square
    amount: int | None = None
    refused: BancoError | None = None
    deeds: tuple[tuple[Deed, int], ...] | None = None


def offers(game: Game, caller: Caller, board: GameState) -> list[Offer]:
    """Each of the edition's computed squares, previewed for ``caller`` on ``board`` by the same
    rules as the landing; refuses nothing (a refusal is the offer's ``refused``)."""
    return [_offer(game, caller, board, square) for square in board.edition.squares]


def _offer(game: Game, caller: Caller, board: GameState, square: Square) -> Offer:
    found = policy(square)
    payload = {"type": "square", "square": square.key}
    if found.buys_deed:
        deeds = []
        for deed in board.edition.deeds:
            try:
                outcome = preview(game, caller, {**payload, "deed": deed.key}, board)
            except BancoError:
                continue  # owned, or more than the player has
            deeds.append((deed, outcome.params["amount"]))
        return Offer(square, deeds=tuple(deeds))
    if found.dice:
        return Offer(square)
    try:
        return Offer(square, amount=preview(game, caller, payload, board).params["amount"])
    except BancoError as error:
        return Offer(square, refused=error)
