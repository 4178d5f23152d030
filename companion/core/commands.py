"""The bank's own commands: start, transfer, GO salary, fixed payments, end, undo.

Each takes a ``GameState`` and returns an ``Outcome``, or raises a named refusal. None of
them touches storage; the service layer applies what they return in one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import endings
from .changes import read
from .counterfeits.chips import chips_back, starting_chips
from .errors import N_, BadInput, NotFound, RuleViolation
from .guards import clean_reason, require_cash, require_player, require_rulebook_size, require_running
from .ledger import BANK, Posting, balanced, move, reverse
from .money import parse_amount
from .policies import mortgage
from .policies.salary import salary
from .policies.start import dealt
from .settings import FREE_PARKING
from .state import FINISHED, RUNNING, SETUP, Change, GameState, Outcome
from .turns import first_turn_changes


def start(state: GameState) -> Outcome:
    """Pays every player the edition's starting cash from the bank and starts the game; the
    deeds the edition's start policy deals go to their players, paid to the bank at their
    printed price. Where the edition counts turns, the first seat plays first (the banker
    may hand the first turn to whoever the dice choose).

    Refuses a game already started or finished, a table with fewer or more players than the
    edition takes, and one of a size the rulebook gives no values for unless the game plays
    that house rule.
    """
    if state.status != SETUP:
        raise RuleViolation("already_started", N_("The game has already started."))
    players = state.active_players()
    edition = state.edition
    if len(players) < edition.min_players:
        raise RuleViolation("too_few_players", N_("This game needs at least %(min)s players."), min=edition.min_players)
    if len(players) > edition.max_players:
        raise RuleViolation("too_many_players", N_("This game takes at most %(max)s players."), max=edition.max_players)
    require_rulebook_size(edition, len(players), state.setting("house_sizes"))
    cash = edition.starting_cash_for(len(players))
    postings: list[Posting] = []
    changes = [Change("game", None, "status", SETUP, RUNNING)]
    for p in players:
        postings += move(BANK, p.id, cash)
    deals = dealt(edition, [p.id for p in players], state.seed)
    for player_id, deed_key in deals:
        changes.append(Change("deed", deed_key, "owner", None, player_id))
        deed = edition.deed(deed_key)
        assert deed is not None  # dealt from the edition's own deeds
        postings += move(player_id, BANK, deed.price)
    changes += first_turn_changes(state, players[0].id)
    changes += starting_chips(state)
    params: dict[str, Any] = {"cash": cash, "players": len(players)}
    if deals:
        params["dealt"] = [list(pair) for pair in deals]
    return Outcome("start", balanced(postings), tuple(changes), params=params)


def fines_account(state: GameState) -> str:
    """Where taxes and fines go: the Free Parking pot when the game plays that house rule,
    else the bank."""
    return FREE_PARKING if FREE_PARKING in state.pots else BANK


def transfer(state: GameState, payer: str, payee: str, amount: object, reason: object = None) -> Outcome:
    """Moves ``amount`` from ``payer`` (a player id or ``"bank"``) to ``payee`` (a player id,
    ``"bank"`` or a pot of the game, such as ``"free_parking"``).

    Refuses: a game not running, an unknown or bankrupt player, a pot the game does not have,
    paying oneself, a bad amount, a reason that is not short text, and a player paying more
    cash than they hold.
    """
    require_running(state)
    amount = parse_amount(amount, state.edition.max_amount)
    reason = clean_reason(reason)
    if payer == payee:
        raise BadInput("same_account", N_("Payer and payee must be different."))
    if payer != BANK:
        require_cash(require_player(state, payer), amount)
    if payee != BANK and not (isinstance(payee, str) and payee in state.pots):
        require_player(state, payee)
    return Outcome(
        "transfer", move(payer, payee, amount), params={"from": payer, "to": payee, "amount": amount, "reason": reason}
    )


def pay_fixed(state: GameState, payer: str, payment_key: object) -> Outcome:
    """Pays one of the edition's printed amounts (a tax, the jail fine) to the bank.

    Refuses an unknown payment key, and everything ``transfer`` refuses.
    """
    payment = state.edition.fixed_payment(payment_key) if isinstance(payment_key, str) else None
    if payment is None:
        raise NotFound("unknown_payment", N_("This edition has no such payment."))
    to = fines_account(state)
    outcome = transfer(state, payer, to, payment.amount)
    return Outcome(
        "pay_fixed",
        outcome.postings,
        params={"from": payer, "to": to, "amount": payment.amount, "payment": payment.key},
    )


def pot_collect(state: GameState, player_id: str, pot: object) -> Outcome:
    """The player takes everything in a pot (landing on Free Parking).

    Refuses: a game not running, an unknown or bankrupt player, a pot the game does not have,
    and an empty pot.
    """
    require_running(state)
    player = require_player(state, player_id)
    if not isinstance(pot, str) or pot not in state.pots:
        raise NotFound("unknown_pot", N_("This game has no such pot."))
    amount = state.pots[pot]
    if amount == 0:
        raise RuleViolation("pot_empty", N_("The pot is empty."))
    return Outcome(
        "pot_collect",
        move(pot, player.id, amount),
        params={"player": player.id, "pot": pot, "amount": amount},
        result={"amount": amount},
    )


def pass_go(state: GameState, player_id: str, dice: object = None) -> Outcome:
    """Pays the GO salary the edition's salary policy gives (a flat amount, or the dice total
    times a multiplier) and counts a lap for the player. Under a mortgage with a lap deadline,
    the player's mortgaged deeds whose deadline has now passed go back to the bank
    (``result["forfeited"]``).

    Refuses a game not running, an unknown or bankrupt player, a player in jail where the
    edition's jail pays no salary there, when the salary goes by the dice a missing or
    impossible dice total, and an edition that pays nothing at GO.
    """
    require_running(state)
    player = require_player(state, player_id)
    if player.in_jail and not state.edition.jail.salary:
        raise RuleViolation("no_salary_in_jail", N_("%(name)s is in jail: no GO salary there."), name=player.name)
    amount = salary(state.edition, dice)
    if amount == 0:
        raise RuleViolation("no_salary", N_("This edition pays nothing at GO."))
    laps = player.laps + 1
    changes = [Change("player", player.id, "laps", player.laps, laps)]
    changes += chips_back(state, player)
    forfeited = mortgage.overdue(state, player, laps)
    for ds in forfeited:
        changes += mortgage.forfeit_changes(ds)
    params = {"to": player.id, "amount": amount, "dice": dice}
    if forfeited:
        params["forfeited"] = [ds.key for ds in forfeited]
    return Outcome(
        "pass_go",
        move(BANK, player.id, amount),
        tuple(changes),
        params=params,
        result={"laps": laps, "forfeited": [ds.key for ds in forfeited]},
    )


def end(state: GameState) -> Outcome:
    """Ends the game; money still waiting for a yes is dropped with it (undoing the end brings
    it back). Refuses a game that is already over."""
    if state.status == FINISHED:
        raise RuleViolation("game_finished", N_("The game is over."))
    return Outcome("end", changes=tuple(endings.game_over(state)))


def undo(
    state: GameState,
    kind: str,
    version: int,
    postings: Iterable[Posting],
    changes: Iterable[Change],
    params: Mapping[str, Any] | None = None,
) -> Outcome:
    """The compensating change for one earlier entry: its postings and changes reversed. The
    entry's ``params`` (without its result) are kept as ``undone_params``, so the feed can say
    what was undone in the same words as the entry itself.

    Refuses when the game is over (except to undo what ended it, which reopens it: the end,
    or the bankruptcy that left one player), and
    when the state no longer matches what that entry left (a later change depends on it), so
    undo can never leave a broken state behind. Undo goes newest first, so the cash the
    entry moved is still where it put it.
    """
    changes = tuple(changes)  # read twice
    ended_it = any(c.target == "game" and c.field == "status" and c.after == FINISHED for c in changes)
    if state.status == FINISHED and not ended_it:
        raise RuleViolation("game_finished", N_("The game is over."))
    reversed_changes = tuple(c.inverse() for c in reversed(changes))
    for c in reversed_changes:
        if read(state, c) != c.before:
            raise RuleViolation("undo_conflict", N_("This change cannot be undone: later changes depend on it."))
    reversed_postings = reverse(postings) if postings else ()
    undone: dict[str, Any] = {"undone": kind, "undone_version": version}
    if params is not None:
        undone["undone_params"] = {k: v for k, v in params.items() if k != "result"}
    return Outcome("undo", reversed_postings, reversed_changes, params=undone, undoable=False)
