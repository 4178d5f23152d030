"""The terms of a game's fake money: the edition's (``terms``, read only in a game that has
it), and the game's settings over them: the share of fake notes the bank hands out, how long
a payment or an Imprevisti card played stays open to a check (``check_seconds``), and whether
its receiver may check it too (``receiver_checks``). The notes and the Imprevisti deck both
read them."""

from __future__ import annotations

from ..editions.edition import Counterfeits
from ..state import GameState


def terms(state: GameState) -> Counterfeits:
    """The edition's fake money, read only in a game that has it (``active``)."""
    counterfeits = state.edition.counterfeits
    assert counterfeits is not None, "a rule of the fake money in a game without it"
    return counterfeits


def fake_share(state: GameState) -> float:
    chosen = state.setting("fake_note_share")
    return terms(state).fake_note_share if chosen is None else chosen


def check_seconds(state: GameState) -> int:
    chosen = state.setting("check_seconds")
    return terms(state).check_seconds if chosen is None else chosen


def receiver_checks(state: GameState) -> bool:
    chosen = state.setting("receiver_checks")
    return terms(state).receiver_checks if chosen is None else chosen
