"""The turn's actions: the dice, the squares, jail, and the end of a turn."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from .. import dice, rules, turns
from ..errors import N_, BadInput, NotFound
from ..policies.squares import policy
from ..state import GameState, Outcome
from .action import (
    DICE_TOTAL,
    NOBODYS,
    PLAYER,
    TEXT,
    UNKNOWN_DEED,
    UNKNOWN_PLAYER,
    Action,
    Asked,
    Field,
    Handler,
    Offer,
)
from .lines import Line, Say, has, line


def _player_action(rule: Callable[[GameState, str], Outcome]) -> Handler:
    """An action of the acting player alone: the jail's."""
    return lambda state, asked: rule(state, asked.player())


def _roll(state: GameState, asked: Asked) -> Outcome:
    # A game stored before every game had a seed rolls from the system's randomness: its
    # faces are kept in the journal all the same.
    rng = None if state.seed is not None else secrets.SystemRandom()
    return dice.roll(state, asked.player(), asked.get("dice"), rng)


def _end_turn(state: GameState, asked: Asked) -> Outcome:
    """A player ends their own turn; the banker ends anyone's, or names who plays now."""
    if asked.by.is_banker and asked.get("player") is None:
        return turns.end_turn(state, None, asked.get("to"), asked.time_up)
    return turns.end_turn(state, asked.player(), asked.get("to"), asked.time_up)


def _square(state: GameState, asked: Asked) -> Outcome:
    return rules.land_on_square(state, asked.player(), asked.get("square"), asked.get("dice"), asked.get("deed"))


def _train(state: GameState, asked: Asked) -> Outcome:
    return rules.take_train(state, asked.player(), asked.get("after"))


def _jail(name: str, rule: Callable[[GameState, str], Outcome], about: str, said: Line) -> Action:
    return Action(name, _player_action(rule), (PLAYER,), reads_deeds=False, line=said, about=about)


ACTIONS = (
    Action(
        "roll",
        _roll,
        (
            PLAYER,
            Field(
                "dice",
                TEXT,
                'Which dice the server rolls (default "2d6"); "speed" and "expropriation" where the edition has '
                'them (the game\'s dice_kinds). The result is {"faces", "total", "doubles"}.',
                choices=tuple(dice.DICE),
                refusal=(BadInput, "unknown_dice"),
            ),
        ),
        reads_deeds=False,
        line=Line(
            (
                Say(
                    N_("%(name)s rolled the expropriation dice: yellow die %(buyer)s, red die %(owner)s."),
                    {"name": "who player", "buyer": "first_face faces", "owner": "second_face faces"},
                    when=lambda p, e: p.get("dice") == "expropriation" and len(p.get("faces") or []) == 2,
                ),
                Say(
                    N_("%(name)s rolled %(faces)s = %(total)s: doubles."),
                    {"name": "who player", "faces": "faces faces", "total": "text total"},
                    when=has("doubles"),
                ),
                Say(
                    N_("%(name)s rolled %(faces)s = %(total)s."),
                    {"name": "who player", "faces": "faces faces", "total": "text total"},
                ),
            )
        ),
        about="Rolls the dice on the server, kept in the journal, repeatable with the game's seed.",
    ),
    _jail(
        "go_to_jail",
        rules.go_to_jail,
        "The acting player goes to jail.",
        line(N_("%(name)s went to jail."), name="who player"),
    ),
    _jail(
        "pay_jail_fine",
        rules.pay_jail_fine,
        "Pays the fine and leaves jail.",
        line(N_("%(name)s paid %(amount)s and left jail."), name="who player", amount="money amount"),
    ),
    _jail(
        "use_jail_card",
        rules.use_jail_card,
        "Uses a get-out-of-jail card.",
        line(N_("%(name)s used a get-out-of-jail card."), name="who player"),
    ),
    _jail(
        "leave_jail_on_doubles",
        rules.leave_jail_on_doubles,
        "Rolled doubles: leaves jail.",
        line(N_("%(name)s rolled doubles and left jail."), name="who player"),
    ),
    _jail(
        "draw_jail_card",
        rules.draw_jail_card,
        "Draws a get-out-of-jail card.",
        line(N_("%(name)s drew a get-out-of-jail card."), name="who player"),
    ),
    _jail(
        "leave_jail_after_failed_roll",
        rules.leave_jail_after_failed_roll,
        "Rolled no doubles on the last try: pays and leaves jail.",
        line(
            N_("%(name)s rolled no doubles, paid %(amount)s and left jail."), name="who player", amount="money amount"
        ),
    ),
    # The next turn remembers the player's mortgaged deeds: it reads the board.
    Action(
        "end_turn",
        _end_turn,
        (PLAYER, Field("to", TEXT, "Banker: the player who plays now.", refusal=UNKNOWN_PLAYER)),
        line=Line(
            (
                Say(N_("The last round is over: the game ends."), when=has("rounds_over")),
                Say(
                    N_("Time is up and %(name)s's turn is over: the game ends."),
                    {"name": "who from"},
                    when=has("time_up"),
                ),
                Say(N_("Now it is %(name)s's turn (round %(round)s)."), {"name": "who to", "round": "text round"}),
            ),
            (
                Say(
                    N_("Sitting out this turn: %(names)s."),
                    {"names": "names skipped"},
                    when=lambda p, e: p.get("to") is not None and bool(p.get("skipped")),
                ),
                Say(
                    N_("%(name)s has waited the turns in %(jail)s and is out for free."),
                    {"name": "who released", "jail": "jail released"},
                    when=lambda p, e: p.get("to") is not None and bool(p.get("released")),
                ),
            ),
        ),
        about="Passes the turn; once the time is up, where the active player finishes the turn and the table "
        "marks its turns, ends the game instead.",
    ),
    Action(
        "square",
        _square,
        (
            PLAYER,
            Field(
                "square",
                TEXT,
                "The key of one of the edition's squares (its amount is computed).",
                refusal=(NotFound, "unknown_square"),
            ),
            Field("dice", DICE_TOTAL, "A square that goes by the dice (a prize, a checkpoint): the dice total."),
            Field("deed", TEXT, "A square that sells a deed: the deed bought there.", refusal=UNKNOWN_DEED),
        ),
        asks_bank=True,
        # Each square's policy words its landing (``web/squares.py``, beside its page partial).
        line=Line((), worded_by="landing"),
        # A square that buys a free deed, offered on each free deed.
        offers=(
            Offer(
                NOBODYS,
                (Say(N_("Buy at %(square)s for %(amount)s"), {"square": "square square", "amount": "money amount"}),),
                each=lambda edition: tuple({"square": q.key} for q in edition.squares if policy(q).buys_deed),
            ),
        ),
        about="The acting player stops on one of the edition's squares.",
    ),
    # Passing Start on the way pays the GO salary and counts a lap: it reads the board, as
    # pass_go does, and asks the bank for money.
    Action(
        "train",
        _train,
        (
            PLAYER,
            Field(
                "after",
                TEXT,
                "The deed just before the player's train square on the board (left out or null: no deed "
                "stands between Start and it). The result names the deed the player stops on "
                '("stops_on"), to buy or auction, and whether Start was passed ("passed_go", "salary").',
                refusal=UNKNOWN_DEED,
            ),
        ),
        asks_bank=True,
        line=Line(
            (
                Say(
                    N_("%(name)s took the train to %(deed)s, passing Start: %(amount)s."),
                    {"name": "who player", "deed": "deed deed", "amount": "money salary"},
                    when=has("salary"),
                ),
                Say(N_("%(name)s took the train to %(deed)s."), {"name": "who player", "deed": "deed deed"}),
            ),
            (
                Say(
                    N_("%(deeds)s went back to the bank: the mortgage was not lifted in time."),
                    {"deeds": "deeds forfeited"},
                    when=has("forfeited"),
                ),
            ),
        ),
        received=Say(N_("%(amount)s: GO."), {"amount": "net @net"}),
        about="The acting player stopped on a train square (where the edition has them) moves on to the next "
        "deed the bank still holds, collecting the GO salary if that passes Start.",
    ),
)
