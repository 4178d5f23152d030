"""The server's dice on the pages: each face in words, the roll in the feed, and what the
Dice card and the forms that ask for a dice total need (the last roll, the kinds of dice the
edition has, the total to offer the player who rolled it)."""

from __future__ import annotations

from .. import services
from ..core.errors import N_
from .speaking import gettext as _

# The faces that are not numbers: the Speedy die's two pictures, and the words of the
# expropriation dice (as Che Impresa! prints them, in capitals).
FACES = {
    "bus": N_("Bus"),
    "mr_monopoly": N_("Mr. Monopoly"),
    "si": N_("YES"),
    "no": N_("NO"),
    "vita": N_("CASTIGLIONE LIFE"),
    "doppio": N_("DOUBLE"),
    "meta": N_("HALF"),
    "ritira": N_("ROLL AGAIN"),
}
# A normal die's pips on a 3 × 3 grid (t/m/b: top, middle, bottom; l/c/r: left, centre, right).
PIPS = {
    1: ("mc",),
    2: ("tl", "br"),
    3: ("tl", "mc", "br"),
    4: ("tl", "tr", "bl", "br"),
    5: ("tl", "tr", "mc", "bl", "br"),
    6: ("tl", "tr", "ml", "mr", "bl", "br"),
}


def face_label(face) -> str:
    """One face in the reader's language: a number as itself, a picture or a word by name (a
    face this page does not know, in capitals as the die would print it)."""
    if isinstance(face, int) and not isinstance(face, bool):
        return str(face)
    text = str(face)
    return _(FACES[text]) if text in FACES else text.upper()


def faces_text(faces) -> str:
    """``3 + 4`` or ``3 + 4 + Bus``."""
    return " + ".join(face_label(f) for f in faces)


def dice_view(state, edition, player_id: str | None) -> dict:
    """What the Dice card and the dice fields show to ``player_id`` (``None``: nobody's
    seat): the last roll, the kinds offered, the total of that player's own last roll (offered
    as the dice of the next amount that needs them), each player's laps (the Speedy die joins
    after the first), and who most likely rolls next (for the table's picker)."""
    last = state.last_roll
    return {
        "last": last,
        "kinds": services.dice_kinds(edition),
        "my_total": roll_total_for(state, player_id),
        "laps": {p.id: getattr(p, "laps", 0) for p in state.players.values()},
        "next_roller": next_roller(state, player_id),
    }


def next_roller(state, fallback: str | None = None) -> str | None:
    """Who rolls next, as far as the bank can tell: the player whose turn it is where the
    edition counts turns; else the same player again after doubles, or the next one in seat
    order still playing; else ``fallback``."""
    active = [p.id for p in state.players.values() if not p.bankrupt]
    turn = getattr(state, "turn_player", None)
    if turn in active:
        return turn
    last = state.last_roll
    if last and last.get("player") in active:
        if last.get("doubles"):
            return last["player"]
        return active[(active.index(last["player"]) + 1) % len(active)]
    return fallback if fallback in active else (active[0] if active else None)


def roll_total_for(state, player_id: str | None) -> int | None:
    """The total of ``player_id``'s roll when the game's last roll is theirs and has one."""
    last = state.last_roll
    if last is None or player_id is None or last.get("player") != player_id:
        return None
    return last.get("total")


def init_app(app) -> None:
    app.jinja_env.globals["dice_face"] = face_label
    app.jinja_env.globals["dice_pips"] = PIPS
