"""The money's actions: the game's start and end, payments between players and with the bank,
the Free Parking pot, and money waiting for a yes."""

from __future__ import annotations

from dataclasses import replace

from .. import commands, pending, play_off
from ..errors import N_, BadInput, Forbidden, NotFound, Np_
from ..ledger import BANK
from ..settings import FREE_PARKING
from ..state import GameState, Outcome
from .action import (
    AMOUNT,
    CLOCK_AT_THE_END,
    CLOCK_FROM_ZERO,
    CLOCK_PART,
    DICE_TOTAL,
    PLAY_OFF_CLOCK,
    PLAYER,
    REASON_TEXT,
    TEXT,
    UNKNOWN_PLAYER,
    Action,
    Asked,
    Field,
)
from .lines import Line, Say, Tell, equals, has, line

AMOUNT_FIELD = Field("amount", AMOUNT, "Whole units of the edition's currency.")
REASON = Field("reason", REASON_TEXT, "What the money is for.", refusal=(BadInput, "invalid_reason"))


def _start(state: GameState, asked: Asked) -> Outcome:
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
    return commands.end(state)


def _play_off(state: GameState, asked: Asked) -> Outcome:
    """The banker starts the play-off of a tie for first place; the entry keeps the clock's
    limit of before, which undo gives back."""
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
        banker_only=True,
        clock=CLOCK_FROM_ZERO,
        parts=frozenset({CLOCK_PART}),
        line=Line(
            (Say(N_("The game started: %(cash)s to each player."), {"cash": "money cash"}),),
            (Say(N_("Dealt, each paid at its price:"), when=has("dealt"), tail="hands dealt"),),
        ),
        quiet=True,
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
        line=Line(
            (
                Say(
                    N_("The bank paid %(to)s %(amount)s: %(reason)s."),
                    {"to": "who to", "amount": "money amount", "reason": "text reason"},
                    when=lambda p, e: p.get("from") == BANK and bool(p.get("reason")),
                ),
                Say(
                    N_("The bank paid %(to)s %(amount)s."),
                    {"to": "who to", "amount": "money amount"},
                    when=equals("from", BANK),
                ),
                Say(
                    N_("%(payer)s paid %(to)s %(amount)s: %(reason)s."),
                    {"payer": "who from", "to": "who to", "amount": "money amount", "reason": "text reason"},
                    when=has("reason"),
                ),
                Say(
                    N_("%(payer)s paid %(to)s %(amount)s."),
                    {"payer": "who from", "to": "who to", "amount": "money amount"},
                ),
            )
        ),
        received=Say(
            N_("%(amount)s from %(name)s."),
            {"amount": "net @net", "name": "who from"},
            when=lambda p, e: p.get("from") is not None,
            tail="bracketed reason",
        ),
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
        line=Line(
            (
                Say(
                    N_("%(payer)s paid %(what)s into the Free Parking pot: %(amount)s."),
                    {"payer": "who from", "amount": "money amount", "what": "payment payment"},
                    when=equals("to", FREE_PARKING),
                ),
                Say(
                    N_("%(payer)s paid %(what)s: %(amount)s."),
                    {"payer": "who from", "amount": "money amount", "what": "payment payment"},
                ),
            )
        ),
        about="Pays one of the edition's fixed payments.",
    ),
    # A lap can forfeit overdue mortgaged deeds: it reads the board.
    Action(
        "pass_go",
        _pass_go,
        (PLAYER, Field("dice", DICE_TOTAL, "The dice total, where the edition pays by the dice.")),
        asks_bank=True,
        line=Line(
            (Say(N_("%(name)s passed GO and collected %(amount)s."), {"name": "who to", "amount": "money amount"}),),
            (
                Say(
                    N_("%(deeds)s went back to the bank: the mortgage was not lifted in time."),
                    {"deeds": "deeds forfeited"},
                    when=has("forfeited"),
                ),
            ),
        ),
        received=Say(N_("%(amount)s: GO."), {"amount": "net @net"}),
        about="Pays the edition's salary for passing GO.",
    ),
    Action(
        "end",
        _end,
        banker_only=True,
        reads_deeds=False,
        parts=frozenset({CLOCK_PART}),
        line=line(N_("The banker ended the game.")),
        about="Banker: ends the game.",
    ),
    # The count decides who is tied for first: it reads the board.
    Action(
        "play_off",
        _play_off,
        banker_only=True,
        clock=PLAY_OFF_CLOCK,
        clock_undone=CLOCK_AT_THE_END,
        parts=frozenset({CLOCK_PART}),
        line=line(
            N_("A tie for first place: %(names)s play %(minutes)s more minutes among themselves."),
            names="names players",
            minutes="text minutes",
        ),
        about="Banker: starts the play-off of a tie for first place.",
    ),
    Action(
        "pot_collect",
        _pot_collect,
        (PLAYER, Field("pot", TEXT, 'The pot to empty ("free_parking").', refusal=(NotFound, "unknown_pot"))),
        reads_deeds=False,
        line=line(N_("%(name)s collected the Free Parking pot: %(amount)s."), name="who player", amount="money amount"),
        about="Pays the whole pot to the acting player.",
    ),
    Action(
        "request",
        _request,
        (PLAYER, Field("from", TEXT, "The player asked to pay.", refusal=UNKNOWN_PLAYER), AMOUNT_FIELD, REASON),
        reads_deeds=False,
        line=Line(
            (
                Say(
                    N_("%(asker)s asked %(payer)s for %(amount)s: %(reason)s."),
                    {"asker": "who to", "payer": "who from", "amount": "money amount", "reason": "text reason"},
                    when=has("reason"),
                ),
                Say(
                    N_("%(asker)s asked %(payer)s for %(amount)s."),
                    {"asker": "who to", "payer": "who from", "amount": "money amount"},
                ),
            )
        ),
        told=(
            Tell(
                Say(
                    N_("%(name)s asks you for %(amount)s."),
                    {"name": "who to", "amount": "money amount"},
                    tail="bracketed reason",
                ),
                to="from",
            ),
        ),
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

# What an entry that follows from these actions tells the player it concerns.
TOLD: dict[str, tuple[Tell, ...]] = {
    "pending_declined": (
        Tell(
            Say(
                N_("The banker declined your %(amount)s from the bank."),
                {"amount": "money amount"},
                when=equals("from", BANK),
            ),
            to="to",
        ),
        Tell(
            Say(N_("%(name)s declined to pay you %(amount)s."), {"name": "who from", "amount": "money amount"}), to="to"
        ),
    ),
}

# The entries that follow from these actions (or from the table), in words.
ENTRIES: dict[str, Line] = {
    "bank_request": line(
        N_("%(name)s asked the bank for %(amount)s: waiting for the banker."), name="who to", amount="money amount"
    ),
    "pending_declined": Line(
        (
            Say(
                N_("The banker turned down %(name)s's request for %(amount)s."),
                {"name": "who to", "amount": "money amount"},
                when=equals("from", BANK),
            ),
            Say(
                N_("The banker cancelled the request for %(payer)s to pay %(to)s %(amount)s."),
                {"payer": "who from", "to": "who to", "amount": "money amount"},
                when=equals("by", "banker"),
            ),
            Say(
                N_("%(payer)s declined to pay %(to)s %(amount)s."),
                {"payer": "who from", "to": "who to", "amount": "money amount"},
            ),
        )
    ),
    "pending_withdrawn": line(
        N_("%(name)s withdrew the request for %(amount)s."), name="who asked_by", amount="money amount"
    ),
    "pending_expired": Line(
        (
            Say.counted(
                Np_("%(num)d request lapsed unpaid.", "%(num)d requests lapsed unpaid."),
                count="count",
                when=lambda p, e: p.get("count", 1) > 1,
            ),
            Say(
                N_("The request for %(payer)s to pay %(amount)s lapsed unpaid."),
                {"payer": "who from", "amount": "money amount"},
            ),
        )
    ),
}
