"""The expropriation's actions (Monopoly Città): the attempt, its dice, and what is left owed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import rules
from ..errors import N_, BadInput
from ..state import GameState, Outcome
from .action import OTHERS, PLAYER, TEXT, UNKNOWN_DEED, Action, Asked, Field, Offer
from .lines import Line, Say, Tell, equals, has, line

if TYPE_CHECKING:
    from ..editions.edition import Edition


def _expropriation_start(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_start(state, asked.new_id(), asked.player(), asked.get("deed"), asked.get("via", "rent"))


def _expropriation_roll(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_roll(state, asked.player(), asked.get("face"))


def _expropriation_settle(state: GameState, asked: Asked) -> Outcome:
    return rules.expropriation_settle(state, asked.player())


# The refusals of an attempt worth saying on the deed page: they tell the player how the attempt
# works (after the rent, once a turn, on unbuilt land), where the others (not your turn, one
# already under way) are said elsewhere on the page.
SAID_ON_THE_DEED = ("rent_first", "expropriation_once_per_turn", "expropriation_built")


def _attempt(edition: Edition) -> tuple[dict[str, object], ...]:
    """An attempt after the rent, where the edition has expropriations."""
    return ({},) if edition.expropriation is not None else ()


def _via_squares(edition: Edition) -> tuple[dict[str, object], ...]:
    """An attempt from each square that allows one, where the edition has expropriations."""
    return tuple({"via": q.key} for q in edition.squares if q.expropriation) if edition.expropriation else ()


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
        offers=(
            Offer(
                OTHERS,
                (Say(N_("Try to expropriate")),),
                each=_attempt,
                closed=Say(N_("Try to expropriate")),
                why=SAID_ON_THE_DEED,
                landing=True,
            ),
            Offer(OTHERS, (Say(N_("Try to expropriate (%(square)s)"), {"square": "square via"}),), each=_via_squares),
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
