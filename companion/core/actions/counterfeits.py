"""The counterfeits' actions (Niente è come sembra): printed serials, the decoder's check, and
the Imprevisti cards."""

from __future__ import annotations

from ..counterfeits import chance, notes, serials
from ..errors import N_, NotFound
from ..state import GameState, Outcome
from .action import PLAYER, TEXT, Action, Asked, Field
from .lines import Line, Say, equals, has, line

UNKNOWN_CARD = (NotFound, "unknown_card")


def _scan(state: GameState, asked: Asked) -> Outcome:
    """A printed note or Imprevisti card scanned by a phone in the game (or typed): one chip."""
    return serials.scan(state, asked.player(), asked.get("serial"), asked.secret)


def _check(state: GameState, asked: Asked) -> Outcome:
    """A decoder check of a payment or a Chance card played."""
    return notes.check(state, asked.player(), asked.get("payment"), asked.now, asked.new_id())


def _chance_draw(state: GameState, asked: Asked) -> Outcome:
    return chance.chance_draw(state, asked.player(), asked.get("card"), asked.now)


def _chance_play(state: GameState, asked: Asked) -> Outcome:
    return chance.chance_play(state, asked.player(), asked.get("card"), asked.new_id(), asked.now)


ACTIONS = (
    Action(
        "scan",
        _scan,
        (
            PLAYER,
            Field(
                "serial",
                TEXT,
                "The serial of a printed note or Imprevisti card (its QR code, or typed).",
                refusal=(NotFound, "unknown_serial"),
            ),
        ),
        reads_deeds=False,
        line=Line(
            (
                Say(
                    N_("%(name)s checked a printed Imprevisti card: fake!"),
                    {"name": "who player"},
                    when=lambda p, e: p.get("item") == "card" and bool(p.get("fake")),
                ),
                Say(
                    N_("%(name)s checked a printed Imprevisti card: genuine."),
                    {"name": "who player"},
                    when=equals("item", "card"),
                ),
                Say(N_("%(name)s checked a printed note: fake!"), {"name": "who player"}, when=has("fake")),
                Say(N_("%(name)s checked a printed note: genuine."), {"name": "who player"}),
            )
        ),
        about='Spends one chip to check a printed note or card: answers {"fake": bool}.',
    ),
    Action(
        "check",
        _check,
        (
            PLAYER,
            Field(
                "payment",
                TEXT,
                "The id of a payment or Imprevisti card open to a check (the state's checkable).",
                refusal=(NotFound, "unknown_payment"),
            ),
        ),
        reads_deeds=False,
        line=Line(
            (
                Say(
                    N_(
                        "%(checker)s checked the Imprevisti card %(payer)s played: fake! The card is void and "
                        "%(checker)s receives %(amount)s from the bank."
                    ),
                    {"checker": "who by", "payer": "who from", "amount": "money amount"},
                    when=lambda p, e: bool(p.get("card")) and bool(p.get("fake")),
                ),
                Say(
                    N_("%(checker)s checked the Imprevisti card %(payer)s played: genuine."),
                    {"checker": "who by", "payer": "who from"},
                    when=has("card"),
                ),
                Say(
                    N_(
                        "%(checker)s checked a note of %(payer)s's payment: a fake %(face)s! %(checker)s keeps it and "
                        "%(payer)s pays %(face)s again."
                    ),
                    {"checker": "who by", "payer": "who from", "face": "money face"},
                    when=has("fake"),
                ),
                Say(
                    N_("%(checker)s checked a note of %(payer)s's payment: a genuine %(face)s."),
                    {"checker": "who by", "payer": "who from", "face": "money face"},
                ),
            ),
            (
                Say(
                    N_("%(payer)s cannot pay it now and owes it."),
                    {"payer": "who from"},
                    when=lambda p, e: not p.get("card") and bool(p.get("fake")) and bool(p.get("owed")),
                ),
            ),
        ),
        about='Spends one chip: result {"fake": bool, "face": int}.',
    ),
    Action(
        "chance_draw",
        _chance_draw,
        (PLAYER, Field("card", TEXT, "A face-up Imprevisti card (left out: the first).", refusal=UNKNOWN_CARD)),
        reads_deeds=False,
        line=line(N_("%(name)s took an Imprevisti card."), name="who player"),
        about="Takes an Imprevisti card.",
    ),
    Action(
        "chance_play",
        _chance_play,
        (PLAYER, Field("card", TEXT, "A card of the hand.", refusal=UNKNOWN_CARD)),
        reads_deeds=False,
        line=line(N_("%(name)s plays an Imprevisti card: read it from the box."), name="who player"),
        about="Plays an Imprevisti card of the hand.",
    ),
)
