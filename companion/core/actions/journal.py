"""The actions on the journal and the clock rather than on the state: the banker's undo, a
player taking back their own one-tap GO or tax (``core.take_back``), and the clock's pause.
No rule runs them (``run`` is ``None``): each names the services' ``step`` that carries it
out, on the journal itself or the game's clock."""

from __future__ import annotations

from ..errors import N_
from .action import (
    CLOCK_OF_THE_UNDONE,
    CLOCK_PART,
    PAUSE_CLOCK,
    PLAYER,
    RESUME_CLOCK,
    TAKE_BACK,
    UNDO,
    Action,
)
from .lines import Line, Say, line

CLOCK = frozenset({CLOCK_PART})

ACTIONS = (
    # Undoing an end or a play-off puts the clock back.
    Action(
        "undo",
        None,
        step=UNDO,
        banker_only=True,
        clock=CLOCK_OF_THE_UNDONE,
        parts=CLOCK,
        line=Line(
            (
                # An undo stored before undo kept what it undid names only its number.
                Say(
                    N_("The banker undid change no. %(version)s."),
                    {"version": "text undone_version"},
                    when=lambda p, e: "undone_params" not in p,
                ),
                Say(N_("Undid: %(what)s"), {"what": "undone undone"}),
            )
        ),
        about="Banker: reverses the last change that is not yet reversed, by a new compensating change.",
    ),
    Action(
        "take_back",
        None,
        (PLAYER,),
        step=TAKE_BACK,
        line=line(
            N_("%(name)s took back: %(what)s %(amount)s."),
            name="who player",
            what="taken_back undone",
            amount="taken_back_amount undone",
        ),
        about="A player reverses their own one-tap GO (pass_go) or fixed payment (pay_fixed) while it is still "
        "the game's newest entry (409 too_late, changed_since, not_taken_back otherwise).",
    ),
    Action(
        "clock_pause",
        None,
        step=PAUSE_CLOCK,
        banker_only=True,
        parts=CLOCK,
        line=line(N_("The clock is paused.")),
        about="Banker: pauses the game's clock.",
    ),
    Action(
        "clock_resume",
        None,
        step=RESUME_CLOCK,
        banker_only=True,
        parts=CLOCK,
        line=line(N_("The clock is running again.")),
        about="Banker: runs the game's clock again.",
    ),
)
