"""The expropriation's actions (Monopoly Città): the attempt, its dice, and what is left owed."""

from __future__ import annotations

from .. import rules
from ..errors import N_, BadInput
from ..state import GameState, Outcome
from .action import PLAYER, TEXT, UNKNOWN_DEED, Action, Asked, Field
from .lines import Line, Say, Tell, equals, has, line


def _expropriation_start(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_start(state, asked.new_id(), asked.player(), asked.get("deed"), asked.get("via", "rent"))


def _expropriation_roll(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_roll(state, asked.player(), asked.get("face"))


def _expropriation_settle(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_settle(state, asked.player())


# How an expropriation ends at once; otherwise someone rolls again or owes.
ENDINGS = ("penalty", "taken", "card")

# A roll and the settling that follows it are worded alike: the entry's params say which happened.
_ROLL_LINE = Line(
    (
        Say(N_("%(name)s paid what the expropriation left owed."), {"name": "who player"}, when=has("settle")),
        Say(N_("%(name)s: %(die)s %(face)s."), {"name": "who player", "die": "die die", "face": "face face"}),
    ),
    (
        Say(
            N_("Expropriation failed: %(buyer)s pays %(owner)s a penalty of %(amount)s."),
            {"buyer": "who buyer", "owner": "who owner", "amount": "money amount"},
            when=equals("ends", "penalty"),
        ),
        Say(
            N_("Expropriation done: %(buyer)s takes %(deeds)s for %(amount)s."),
            {"buyer": "who buyer", "deeds": "deeds deeds", "amount": "money amount"},
            when=equals("ends", "taken"),
        ),
        Say(
            N_("%(buyer)s draws a Vita di Castiglione card; nothing is paid."),
            {"buyer": "who buyer"},
            when=equals("ends", "card"),
        ),
        Say(
            N_("%(buyer)s owes %(amount)s and must raise the cash."),
            {"buyer": "who buyer", "amount": "money owed"},
            when=lambda p, e: p.get("ends") not in ENDINGS and bool(p.get("owed")),
        ),
        Say(
            N_("Now %(owner)s rolls the red die."),
            {"owner": "who owner"},
            when=lambda p, e: p.get("ends") not in ENDINGS and not p.get("owed") and p.get("next") == "owner",
        ),
        Say(
            N_("%(buyer)s rolls the yellow die again."),
            {"buyer": "who buyer"},
            when=lambda p, e: p.get("ends") not in ENDINGS and not p.get("owed") and p.get("next") != "owner",
        ),
    ),
)


ACTIONS = (
    Action(
        "expropriation_start",
        _expropriation_start,
        (
            PLAYER,
            Field("deed", TEXT, "The deed to expropriate.", refusal=UNKNOWN_DEED),
            Field(
                "via",
                TEXT,
                '"rent" (default: just paid on the deed) or a square that allows one.',
                refusal=(BadInput, "invalid_via"),
            ),
        ),
        line=line(
            N_("%(name)s tries to expropriate %(what)s from %(owner)s."),
            name="who player",
            what="expropriated deed",
            owner="who owner",
        ),
        told=(
            Tell(
                Say(
                    N_("%(name)s tries to expropriate %(deed)s from you."),
                    {"name": "who player", "deed": "named_deed deed"},
                ),
                to="owner",
            ),
        ),
        about="Tries to expropriate a deed from its owner.",
    ),
    Action(
        "expropriation_roll",
        _expropriation_roll,
        (
            PLAYER,
            Field(
                "face",
                TEXT,
                "The face the box's die shows; left out, the server rolls a virtual die.",
                refusal=(BadInput, "invalid_face"),
            ),
        ),
        line=_ROLL_LINE,
        about="One roll of the expropriation's dice.",
    ),
    Action(
        "expropriation_settle",
        _expropriation_settle,
        (PLAYER,),
        line=_ROLL_LINE,
        about="Pays what the expropriation left owed.",
    ),
)
