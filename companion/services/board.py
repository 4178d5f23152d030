"""The board as a phone lists it for "Where did I land?": every square the edition's data knows,
in board order. A square's place comes from the edition file (a deed's ``position``, a tax's or
a computed square's, the ``corners``); a square whose place the rulebook does not print comes
after the placed ones, in the file's order. Reads only: what a square offers is previewed by
the same rules as the move (``deeds``, ``squares``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.editions.edition import CardSquare, Deed, Edition, FixedPayment, Square

# The kinds of square, each with the move that applies there.
DEED, TAX, SQUARE, CARD, TRAIN = "deed", "tax", "square", "card", "train"
START, JAIL, FREE_PARKING, GO_TO_JAIL = "start", "jail", "free_parking", "go_to_jail"
CORNERS = (START, JAIL, FREE_PARKING, GO_TO_JAIL)


@dataclass(frozen=True)
class Space:
    """One square of the board: its ``kind``, the ``key`` that finds it again (a deed's, a
    payment's, a square's, or the kind itself for a corner and the train), its ``position``
    (``None`` where the edition does not place it) and what the edition says of it."""

    kind: str
    key: str
    position: int | None
    deed: Deed | None = None
    payment: FixedPayment | None = None
    square: Square | None = None
    card: CardSquare | None = None


def spaces(edition: Edition) -> list[Space]:
    """Every square of ``edition``'s board: placed ones by position, then the others in the
    order of the file (deeds, taxes, computed squares, the train, the corners)."""
    found = [Space(DEED, d.key, d.position, deed=d) for d in edition.deeds]
    found += [Space(TAX, p.key, p.position, payment=p) for p in edition.fixed_payments if p.square]
    found += [Space(SQUARE, q.key, q.position, square=q) for q in edition.squares]
    for deck in edition.card_squares:
        found += [Space(CARD, f"{deck.key}-{at}", at, card=deck) for at in deck.positions]
        found += [] if deck.positions else [Space(CARD, deck.key, None, card=deck)]
    if edition.train is not None:
        found.append(Space(TRAIN, TRAIN, None))
    # Free Parking only where the board places it: nothing happens there but a house rule's pot.
    corners = [kind for kind in CORNERS if kind != FREE_PARKING or edition.corners.free_parking is not None]
    found += [Space(kind, kind, getattr(edition.corners, kind)) for kind in corners]
    placed_first = sorted((s for s in found if s.position is not None), key=lambda s: s.position or 0)
    return placed_first + [s for s in found if s.position is None]


def space(edition: Edition, kind: str, key: str) -> Space | None:
    """The square of this kind and key on ``edition``'s board, or ``None``."""
    return next((s for s in spaces(edition) if s.kind == kind and s.key == key), None)


def board_is_placed(edition: Edition) -> bool:
    """Whether every square the board lists has its place from the edition's data."""
    return all(s.position is not None for s in spaces(edition))
