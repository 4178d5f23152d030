"""The dice the server rolls: two six-sided dice, the same with the Speedy die (the
championship), and the two expropriation dice (Che Impresa!).

Each kind is a function ``(state, rng) -> faces`` in ``DICE``. A roll is drawn from the game's
own ``seed`` and its count of rolls so far: roll number ``n`` of a game uses
``random.Random(f"{seed}:roll:{n}")``, so the same seed plays the same dice, in order, and a
roll undone and rolled again falls the same way (undo is no second chance). The faces are kept
in the journal entry and in ``GameState.last_roll``, where a page finds the total to offer as
the dice of the next amount that needs them (GO by the dice, a utility's rent).

Which kinds an edition has is read from its data, never from its id: the Speedy die where the
largest dice total is above 12 (``dice.max_total``: 15 with it), the expropriation dice where
the edition lists their faces (``Edition.expropriation``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .editions.edition import Edition, Expropriation
from .errors import N_, BadInput, RuleViolation
from .guards import require_player, require_running
from .state import Change, GameState, Outcome

TWO_DICE, SPEED, EXPROPRIATION = "2d6", "speed", "expropriation"
BUS, MR_MONOPOLY = "bus", "mr_monopoly"
# The Speedy die as it is made (the championship rulebook): 1, 2, 3, Mr. Monopoly twice, the
# Bus once. Bus and Mr. Monopoly move the pawn in their own way and add nothing to the total.
SPEEDY_FACES: tuple[Any, ...] = (1, 2, 3, MR_MONOPOLY, MR_MONOPOLY, BUS)
TWO_DICE_TOP = 12


def _d6(rng: random.Random) -> int:
    return rng.randint(1, 6)


def _two_dice(state: GameState, rng: random.Random) -> list[int | str]:
    return [_d6(rng), _d6(rng)]


def _speed(state: GameState, rng: random.Random) -> list[int | str]:
    return [_d6(rng), _d6(rng), rng.choice(SPEEDY_FACES)]


def _expropriation(state: GameState, rng: random.Random) -> list[int | str]:
    """``[buyer's face, owner's face]``: the yellow die and the red die, one entry per face as
    the game's settings or else the edition list them (a face printed twice comes up twice as
    often)."""
    return [rng.choice(special_faces(state, "buyer")), rng.choice(special_faces(state, "owner"))]


def special_faces(state: GameState, die: str) -> tuple[str, ...]:
    """The faces of the buyer's (``"buyer"``) or the owner's (``"owner"``) expropriation die,
    one entry per face: the game's own (set from the group's box) or else the edition's."""
    terms = state.edition.expropriation
    assert terms is not None  # only an edition with expropriation dice rolls them
    return tuple(state.setting(f"{die}_die") or (terms.buyer_die if die == "buyer" else terms.owner_die))


DICE: dict[str, Callable[[GameState, random.Random], list[int | str]]] = {
    TWO_DICE: _two_dice,
    SPEED: _speed,
    EXPROPRIATION: _expropriation,
}


def has_speed_die(edition: Edition) -> bool:
    """Whether the edition plays with the Speedy die: its largest dice total is above two
    dice's 12."""
    return edition.dice.max_total > TWO_DICE_TOP


def expropriation_dice(edition: Edition) -> Expropriation | None:
    """The edition's expropriation dice (``buyer_die``, ``owner_die``), or ``None``."""
    return edition.expropriation


def kinds(edition: Edition) -> tuple[str, ...]:
    """The kinds of dice this edition has, in the order the pages offer them."""
    return tuple(
        kind
        for kind, offered in (
            (TWO_DICE, True),
            (SPEED, has_speed_die(edition)),
            (EXPROPRIATION, expropriation_dice(edition) is not None),
        )
        if offered
    )


def total(kind: str, faces: list[int | str]) -> int | None:
    """The total the faces move a pawn (and pay a dice amount): the two dice's sum, plus the
    Speedy die's 1, 2 or 3 (its Bus and Mr. Monopoly add 0); ``None`` for the expropriation
    dice, which have words, not numbers."""
    if kind == EXPROPRIATION:
        return None
    first, second, *rest = faces
    assert isinstance(first, int) and isinstance(second, int)  # the numbered dice
    speedy = rest[0] if rest and isinstance(rest[0], int) else 0
    return first + second + speedy


def doubles(kind: str, faces: list[int | str]) -> bool:
    """Whether the two numbered dice show the same number (the Speedy die never counts)."""
    return kind != EXPROPRIATION and faces[0] == faces[1]


def rng_for(seed: object, number: int) -> random.Random:
    """The generator of roll number ``number`` (0 for the first) of a game with ``seed``: the
    same pair always draws the same faces, whatever ran before."""
    return random.Random(f"{seed}:roll:{number}")


def clean_kind(state: GameState, kind: object) -> str:
    """The kind of dice asked for (``"2d6"`` when none is named); refuses an unknown kind (400,
    naming the kinds) and one the edition does not have (409)."""
    if kind is None:
        return TWO_DICE
    if not isinstance(kind, str) or kind not in DICE:
        raise BadInput("unknown_dice", N_("Unknown dice: choose %(kinds)s."), kinds=", ".join(DICE))
    if kind == SPEED and not has_speed_die(state.edition):
        raise RuleViolation("no_speed_die", N_("This edition has no Speedy die."))
    if kind == EXPROPRIATION and expropriation_dice(state.edition) is None:
        raise RuleViolation("no_expropriation_dice", N_("This edition has no expropriation dice."))
    return kind


def roll(state: GameState, player_id: str, kind: object = TWO_DICE, rng: random.Random | None = None) -> Outcome:
    """The player rolls ``kind`` of dice: the faces, their total (``None`` for words) and
    whether the two numbered dice match. The roll counts in ``GameState.rolls`` and becomes
    ``GameState.last_roll``; undo restores both.

    ``rng`` is the generator to draw from; by default the game's own for this roll
    (``rng_for(state.seed, state.rolls)``), which needs the game's seed.

    Refuses: a game not running, an unknown or bankrupt player, an unknown kind of dice, and a
    kind the edition does not have.
    """
    require_running(state)
    player = require_player(state, player_id)
    kind = clean_kind(state, kind)
    if rng is None:
        if state.seed is None:
            raise ValueError("a game without a seed rolls with a generator passed in")
        rng = rng_for(state.seed, state.rolls)
    faces = DICE[kind](state, rng)
    result = {"faces": faces, "total": total(kind, faces), "doubles": doubles(kind, faces)}
    last = {"player": player.id, "dice": kind, **result, "faces": list(faces)}
    changes = (
        Change("game", None, "rolls", state.rolls, state.rolls + 1),
        Change("game", None, "last_roll", state.last_roll, last),
    )
    return Outcome(
        "roll",
        changes=changes,
        params={"player": player.id, "dice": kind, **result, "faces": list(faces)},
        result=result,
    )
