"""Printed money with serials (Niente è come sembra played on paper): the game's notes and
Imprevisti cards, each printed with a QR code holding an opaque serial; a phone in the game
scans one and the bank says whether it is fake, for one of the scanning player's chips.

A serial is the HMAC-SHA256 of the item (``"n:<index>"`` for the n-th note of the print run,
``"c:<index>"`` for an Imprevisti card) keyed by the game's own random secret, written as ten
characters of ``ALPHABET`` (50 bits): it cannot be guessed, an edited serial is no item, and
the serials of another game (another secret) match nothing here. Which items are fake is drawn
from the same secret and the game's seed: nothing printed tells. The secret is kept by the
service layer outside the state the API shows (``services.serials``).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import dataclass

from ..errors import N_, BadInput, NotFound
from ..guards import require_player, require_running
from ..state import GameState, Outcome
from .chips import require_chip, spent_chip

# Letters and digits without 0/O/1/I, as the deed codes: typeable, never misread.
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
SERIAL_LENGTH = 10
# The bank's stock printed beside the players' starting money: this many more starting sets
# (as printables.money's DEFAULT_BANK_SETS), at least this many of a note nobody starts with.
BANK_SETS = 2
NOTE, CARD = "note", "card"


@dataclass(frozen=True)
class Item:
    """One printed thing: a note (``face`` its value) or an Imprevisti card (``face`` None)."""

    kind: str
    index: int
    face: int | None
    serial: str
    fake: bool


def serial(secret: str, kind: str, index: int) -> str:
    """The serial of the ``index``-th item of ``kind`` under the game's ``secret``."""
    digest = hmac.new(secret.encode(), f"{kind[0]}:{index}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest[:8], "big")
    out = []
    for _ in range(SERIAL_LENGTH):
        number, digit = divmod(number, len(ALPHABET))
        out.append(ALPHABET[digit])
    return "".join(out)


def normalise(typed: object) -> str | None:
    """A serial as typed or scanned (case, spaces and dashes forgiven), or ``None`` when it
    cannot be one."""
    if not isinstance(typed, str) or len(typed) > 40:
        return None
    text = "".join(ch for ch in typed.upper() if ch not in " -\t")
    if len(text) != SERIAL_LENGTH or any(ch not in ALPHABET for ch in text):
        return None
    return text


def printed_notes(state: GameState) -> list[int]:
    """The faces of the notes printed for this table, largest first: each player's starting
    notes, plus ``BANK_SETS`` more starting sets for the bank (at least ``BANK_SETS`` of a
    note nobody starts with)."""
    edition = state.edition
    sets = len(state.players) + BANK_SETS
    split = edition.starting_notes_for(len(state.players))
    faces = []
    for face in sorted(edition.banknotes, reverse=True):
        each = split.get(face, 0)
        count = each * sets if each else BANK_SETS
        faces.extend([face] * count)
    return faces


def fake_note_share(state: GameState) -> float:
    """The game's share of fake notes: its ``fake_note_share`` setting where the game has one,
    else the edition's."""
    try:
        value = state.setting("fake_note_share")
    except KeyError:  # a build without the setting
        value = None
    if value is not None:
        return float(value)
    assert state.edition.counterfeits is not None  # only a game with the fake money prints serials
    return state.edition.counterfeits.fake_note_share


def print_run(state: GameState, secret: str) -> list[Item]:
    """Every printed item of the game: its notes (``fake_note_share`` of them fake, rounded)
    and its ``chance_cards`` Imprevisti cards (exactly ``fake_chance_cards`` fake), each with
    its serial. Refuses an edition without counterfeits (404)."""
    terms = state.edition.counterfeits
    if terms is None:
        raise NotFound("no_printed_money", N_("This edition has no money to check: there is nothing to print."))
    faces = printed_notes(state)
    draw = hmac.new(secret.encode(), f"fakes:{state.seed}".encode(), hashlib.sha256).digest()
    rng = random.Random(int.from_bytes(draw, "big"))
    fake_notes = set(rng.sample(range(len(faces)), round(len(faces) * fake_note_share(state))))
    cards = terms.chance_cards
    fake_cards = set(rng.sample(range(cards), min(terms.fake_chance_cards, cards)))
    items = [Item(NOTE, i, face, serial(secret, NOTE, i), i in fake_notes) for i, face in enumerate(faces)]
    items += [Item(CARD, i, None, serial(secret, CARD, i), i in fake_cards) for i in range(cards)]
    return items


def find(state: GameState, secret: str | None, typed: object) -> Item | None:
    """The item of this game with that serial, or ``None``."""
    wanted = normalise(typed)
    if wanted is None or not secret or state.edition.counterfeits is None:
        return None
    return next((item for item in print_run(state, secret) if hmac.compare_digest(item.serial, wanted)), None)


def scan(state: GameState, player_id: str, typed: object, secret: str | None) -> Outcome:
    """``player_id`` scans a printed note or Imprevisti card: one of their chips turns red and
    the bank says whether it is fake. Nothing else moves: on paper the checker keeps a fake
    note and the payer pays again by hand.

    Refuses: a game not running, an unknown or bankrupt player, an edition without
    counterfeits, a player in jail or without a green chip, a serial that is missing, and one
    that is no item of this game (404: edited, guessed, or another game's)."""
    require_running(state)
    player = require_player(state, player_id)
    require_chip(state, player)
    if typed is None or typed == "":
        raise BadInput("missing_field", N_("Type the serial printed under the code."))
    item = find(state, secret, typed)
    if item is None:
        raise NotFound("unknown_serial", N_("This is not a note of this game."))
    return Outcome(
        "scan",
        changes=(spent_chip(player),),
        params={"player": player.id, "item": item.kind, "face": item.face, "fake": item.fake},
        result={"fake": item.fake},
    )
