"""The board's squares whose amount the bank computes (a tax by what one owns, a prize by the
dice, a deed bought at a premium, a toll then a prize on the dice, jail unless the dice say
otherwise, a turn to sit out): one tap on the phone, the amount worked out here; and the train
squares, which move the pawn on to the next free deed."""

from __future__ import annotations

from typing import Any

from ..commands import fines_account, pass_go
from ..errors import N_, NotFound, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import BANK, move
from ..policies.squares import landing
from ..state import GameState, Outcome
from .common import acquired, deed_state, player_changes, require_deed


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


def take_train(state: GameState, player_id: str, after: object = None) -> Outcome:
    """The player stopped on a train square and moves forward to the next deed the bank still
    holds, to buy or auction there (Niente è come sembra's Treno, seed 004 lines 95-98:
    "Avanzare alla prossima casella di proprietà libera"). The rulebook gives no board, so the
    player names where they stand: ``after``, the deed just before their square (``None``:
    none stands between Start and it). The way forward is the deeds' board order; going round
    past the last deed passes Start, which pays the GO salary where the edition says so (line
    98) as passing GO does (a lap, the decoder chips). ``result["stops_on"]`` is the deed.

    Refuses: an edition without train squares, a game not running, an unknown or bankrupt
    player, a player in jail (who does not move), an unknown deed, and a board where the bank
    holds no deed nobody is bidding on (the train goes nowhere).
    """
    train = state.edition.train
    if train is None:
        raise RuleViolation("no_train", N_("This edition has no train squares."))
    require_running(state)
    player = require_player(state, player_id)
    if player.in_jail:
        raise RuleViolation("in_jail_no_move", N_("%(name)s is in jail and does not move."), name=player.name)
    board = sorted(state.edition.deeds, key=lambda d: d.position)
    start = 0 if after is None else board.index(require_deed(state, after)[0]) + 1
    bidding = state.auction.deed if state.auction is not None else None
    ahead = [(i >= len(board), board[i % len(board)]) for i in range(start, start + len(board))]
    found = next(
        (
            (went_round, deed)
            for went_round, deed in ahead
            if deed_state(state, deed.key).owner is None and deed.key != bidding
        ),
        None,
    )
    if found is None:
        raise RuleViolation("no_free_deed", N_("The bank holds no free deed: the train goes nowhere."))
    passed_start, deed = found
    params: dict[str, Any] = {"player": player.id, "deed": deed.key, "after": after}
    result: dict[str, Any] = {"stops_on": deed.key, "passed_go": passed_start, "salary": 0}
    if not (passed_start and train.salary):
        return Outcome("train", params=params, result=result)
    go = pass_go(state, player.id)
    params["salary"] = result["salary"] = go.params["amount"]
    if go.result["forfeited"]:
        params["forfeited"] = result["forfeited"] = go.result["forfeited"]
    return Outcome("train", go.postings, go.changes, params=params, result=result)
