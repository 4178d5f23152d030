"""The actions on the journal and the clock rather than on the state: the banker's undo, a
player taking back their own one-tap GO or tax (``core.take_back``), and the clock's pause.
The services run them (``run`` is ``None``): they read and write the journal itself."""

from __future__ import annotations

from .action import CLOCK_PART, PLAYER, Action

CLOCK = frozenset({CLOCK_PART})

ACTIONS = (
    # Undoing an end or a play-off puts the clock back.
    Action(
        "undo",
        None,
        parts=CLOCK,
        about="Banker: reverses the last change that is not yet reversed, by a new compensating change.",
    ),
    Action(
        "take_back",
        None,
        (PLAYER,),
        about="A player reverses their own one-tap GO (pass_go) or fixed payment (pay_fixed) while it is still "
        "the game's newest entry (409 too_late, changed_since, not_taken_back otherwise).",
    ),
    Action("clock_pause", None, parts=CLOCK, about="Banker: pauses the game's clock."),
    Action("clock_resume", None, parts=CLOCK, about="Banker: runs the game's clock again."),
)
