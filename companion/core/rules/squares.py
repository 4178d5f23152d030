"""The board's squares whose amount the bank computes (a tax by what one owns, a prize by the
dice, a deed bought at a premium, a toll then a prize on the dice, jail unless the dice say
otherwise, a turn to sit out): one tap on the phone, the amount worked out here."""

from __future__ import annotations

from ..commands import fines_account
from ..errors import N_, NotFound, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import BANK, move
from ..policies.squares import landing
from ..state import GameState, Outcome
from .common import acquired, player_changes, require_deed


def land_on_square(
    state: GameState, player_id: str, square_key: object, dice: object = None, deed_key: object = None
) -> Outcome:
    """The player lands on one of the edition's computed squares and pays or collects what its
    policy gives: a tax to the bank (or the Free Parking pot), a prize from the bank, or a deed
    nobody owns bought at the square's premium; then what goes back the other way (a prize
    after paying, a fee after collecting), and what the square does to the player (jail, turns
    to sit out).

    Refuses: an unknown square, a game not running, an unknown or bankrupt player, an unknown
    deed, a deed being auctioned, whatever the square's policy refuses (a missing dice total, a
    deed someone owns, nothing owed, a player already in jail or sitting out), and a player
    without the cash.
    """
    square = state.edition.square(square_key) if isinstance(square_key, str) else None
    if square is None:
        raise NotFound("unknown_square", N_("This edition has no such square."))
    require_running(state)
    player = require_player(state, player_id)
    deed = None
    if deed_key is not None:
        deed, _ds = require_deed(state, deed_key)
        if state.auction is not None and state.auction.deed == deed.key:
            raise RuleViolation("deed_in_auction", N_("%(deed)s is being auctioned."), deed=deed.name)
    found = landing(state, square, player, dice, deed)
    params = {"player": player.id, "square": square.key, "amount": found.amount, **found.parts}
    result = {"amount": found.amount}
    if found.back:
        params["back"] = result["back"] = found.back
    changes = tuple(player_changes(player, **found.player))
    if found.back:
        # Money both ways (fuel then a prize, a value then its registration) settles with the
        # bank as one net payment; what is paid first is paid in full.
        if found.to_bank:
            require_cash(player, found.amount)
        net = found.amount - found.back if found.to_bank else found.back - found.amount
        postings = move(player.id, BANK, net) if net > 0 else move(BANK, player.id, -net) if net else ()
        return Outcome("square", postings, changes, params={**params, "to": BANK}, result=result)
    if not found.to_bank:
        return Outcome("square", move(BANK, player.id, found.amount), changes, params=params, result=result)
    require_cash(player, found.amount)
    if "deed" in found.parts:
        bought = acquired(state, require_deed(state, found.parts["deed"])[1], player.id)
        return Outcome(
            "square",
            move(player.id, BANK, found.amount),
            tuple(bought),
            params=params,
            result={"amount": found.amount, "deed": found.parts["deed"]},
        )
    to = fines_account(state) if found.tax else BANK
    postings = move(player.id, to, found.amount) if found.amount else ()
    return Outcome("square", postings, changes, params={**params, "to": to}, result=result)
