"""The money's actions: the game's start and end, payments between players and with the bank,
the Free Parking pot, and money waiting for a yes."""

from __future__ import annotations

from dataclasses import replace

from .. import commands, pending, play_off
from ..errors import N_, BadInput, Forbidden, NotFound
from ..ledger import BANK
from ..state import GameState, Outcome
from .action import AMOUNT, CLOCK_PART, DICE_TOTAL, PLAYER, REASON_TEXT, TEXT, UNKNOWN_PLAYER, Action, Asked, Field

AMOUNT_FIELD = Field("amount", AMOUNT, "Whole units of the edition's currency.")
REASON = Field("reason", REASON_TEXT, "What the money is for.", refusal=(BadInput, "invalid_reason"))


def _start(state: GameState, asked: Asked) -> Outcome:
    asked.banker_only()
    return commands.start(state)


def _transfer(state: GameState, asked: Asked) -> Outcome:
    """The acting player pays ``to``; the banker may name the payer as ``from``, and a player
    may ask the bank (``from: bank``) for money for themselves only. Refuses a player paying
    with another's money (403) and a payment without a payee (400)."""
    by = asked.by
    if "from" in asked.fields:
        payer = asked.get("from")
        if not by.is_banker and payer not in (by.player_id, BANK):
            raise Forbidden("not_your_account", N_("You can only pay with your own money."))
        if payer == BANK and not by.is_banker:
            # A player asks the bank for money for themselves only: never paid to them in place of
            # another payee they named.
            me = asked.player()
            if asked.get("to", me) != me:
                raise Forbidden("not_your_account", N_("You can only act for yourself."))
            return commands.transfer(state, BANK, me, asked.get("amount"), asked.get("reason"))
    else:
        payer = asked.player()
    if "to" not in asked.fields:
        raise BadInput("missing_field", N_("Say who receives the money."))
    return commands.transfer(state, payer, asked.get("to"), asked.get("amount"), asked.get("reason"))


def _collect(state: GameState, asked: Asked) -> Outcome:
    return commands.transfer(state, BANK, asked.player(), asked.get("amount"), asked.get("reason"))


def _pay_fixed(state: GameState, asked: Asked) -> Outcome:
    return commands.pay_fixed(state, asked.player(), asked.get("payment"))


def _pass_go(state: GameState, asked: Asked) -> Outcome:
    return commands.pass_go(state, asked.player(), asked.get("dice"))


def _end(state: GameState, asked: Asked) -> Outcome:
    asked.banker_only()
    return commands.end(state)


def _play_off(state: GameState, asked: Asked) -> Outcome:
    """The banker starts the play-off of a tie for first place; the entry keeps the clock's
    limit of before, which undo gives back."""
    asked.banker_only()
    outcome = play_off.play_off_start(state)
    return replace(outcome, params={**outcome.params, "clock_limit": asked.clock_limit})


def _pot_collect(state: GameState, asked: Asked) -> Outcome:
    return commands.pot_collect(state, asked.player(), asked.get("pot"))


def _request(state: GameState, asked: Asked) -> Outcome:
    return pending.request_payment(
        state,
        asked.new_id(),
        asked.player(),
        asked.get("from"),
        asked.get("amount"),
        asked.get("reason"),
        asked.now,
        state.setting("request_seconds") or None,
    )


def _approve(state: GameState, asked: Asked) -> Outcome:
    return pending.approve(state, asked.get("pending"), asked.approver(), asked.now)


def _decline(state: GameState, asked: Asked) -> Outcome:
    return pending.decline(state, asked.get("pending"), asked.approver(), asked.now)


PENDING = Field(
    "pending",
    TEXT,
    "The id of the money waiting (the banker approves money asked from the bank by leaving out `player`).",
    refusal=(NotFound, "unknown_pending"),
)

ACTIONS = (
    Action(
        "start",
        _start,
        parts=frozenset({CLOCK_PART}),
        about="Banker: pays the starting cash, deals and charges deeds where the edition does.",
    ),
    Action(
        "transfer",
        _transfer,
        (
            PLAYER,
            Field("to", TEXT, 'A player id, "bank" or a pot of the game ("free_parking").', refusal=UNKNOWN_PLAYER),
            Field(
                "from",
                TEXT,
                'A player id or "bank" (a player other than oneself: banker only).',
                refusal=UNKNOWN_PLAYER,
            ),
            AMOUNT_FIELD,
            REASON,
        ),
        reads_deeds=False,
        asks_bank=True,
        about="Pays from the actor (or from `from`) to `to`.",
    ),
    Action(
        "collect",
        _collect,
        (PLAYER, AMOUNT_FIELD, REASON),
        reads_deeds=False,
        asks_bank=True,
        about="The bank pays the acting player.",
    ),
    Action(
        "pay_fixed",
        _pay_fixed,
        (
            PLAYER,
            Field("payment", TEXT, "The edition's payment key (a tax, a fine).", refusal=(NotFound, "unknown_payment")),
        ),
        reads_deeds=False,
        about="Pays one of the edition's fixed payments.",
    ),
    # A lap can forfeit overdue mortgaged deeds: it reads the board.
    Action(
        "pass_go",
        _pass_go,
        (PLAYER, Field("dice", DICE_TOTAL, "The dice total, where the edition pays by the dice.")),
        asks_bank=True,
        about="Pays the edition's salary for passing GO.",
    ),
    Action(
        "end",
        _end,
        reads_deeds=False,
        parts=frozenset({CLOCK_PART}),
        about="Banker: ends the game.",
    ),
    # The count decides who is tied for first: it reads the board.
    Action(
        "play_off",
        _play_off,
        parts=frozenset({CLOCK_PART}),
        about="Banker: starts the play-off of a tie for first place.",
    ),
    Action(
        "pot_collect",
        _pot_collect,
        (PLAYER, Field("pot", TEXT, 'The pot to empty ("free_parking").', refusal=(NotFound, "unknown_pot"))),
        reads_deeds=False,
        about="Pays the whole pot to the acting player.",
    ),
    Action(
        "request",
        _request,
        (PLAYER, Field("from", TEXT, "The player asked to pay.", refusal=UNKNOWN_PLAYER), AMOUNT_FIELD, REASON),
        reads_deeds=False,
        about="Asks another player for money: nothing moves until they approve.",
    ),
    Action(
        "approve",
        _approve,
        (PLAYER, PENDING),
        reads_deeds=False,
        about="By whoever the money waiting needs (the payer, or the banker): the money moves now.",
    ),
    Action(
        "decline",
        _decline,
        (PLAYER, PENDING),
        reads_deeds=False,
        about="By whoever the money waiting needs, or withdrawn by the one who asked.",
    ),
)
