"""The Imprevisti cards of Niente è come sembra: ``chance_cards`` cards, ``fake_chance_cards`` of
them fake (which ones drawn from the game's seed), shuffled face down into a pile; three lie
face up on the board. A player takes one of the three into their hand (``chance_draw``; the
top of the pile takes its place) and keeps it until they play it (``chance_play``). Playing
opens it to a check for the same window as a payment, in the same id namespace: ``check``
with ``payment`` set to the play's id. A fake card caught is void, the checker receives the
edition's ``chance_bounty`` from the bank, and the card goes under the pile; a genuine one is
played. Banco does not know the cards' texts: the table reads the card from the box, and the
money it says is paid with the usual actions. A played card goes back under the pile when it
is checked, or with the next Imprevisti action once its window has passed unchecked (played,
fake or not: nobody caught it). The Probabilità cards are plain and not Banco's business.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime
from typing import Any

from ..errors import N_, BadInput, NotFound, RuleViolation
from ..guards import require_player, require_running
from ..ledger import BANK, move
from ..rules.common import is_past, stamp
from ..state import ChanceState, Change, CheckableState, GameState, Outcome, PlayerState, document_change
from .chips import spent_chip
from .terms import check_seconds

BOARD = 3


def new_deck(state: GameState) -> ChanceState:
    """The shuffled deck, from the game's seed: three face up, the rest in the pile."""
    terms = state.edition.counterfeits
    assert terms is not None  # only a game with the fake money deals the Imprevisti
    rng = random.Random(f"{state.seed}:chance") if state.seed is not None else random.SystemRandom()
    fakes = set(rng.sample(range(terms.chance_cards), terms.fake_chance_cards))
    cards = [{"id": f"c{i}", "fake": i in fakes} for i in range(terms.chance_cards)]
    rng.shuffle(cards)
    return ChanceState(cards[BOARD:], cards[:BOARD], {})


def _deck(state: GameState) -> dict[str, Any]:
    """The deck as plain values, a copy to change: the state's own never changes."""
    if state.edition.counterfeits is None or not state.edition.counterfeits.chance_cards:
        raise RuleViolation("no_chance_cards", N_("This edition has no Imprevisti cards to keep."))
    return (state.chance or new_deck(state)).to_dict()


def _dealt(state: GameState, deck: dict[str, Any]) -> Change:
    """The change that puts ``deck`` (``_deck``'s, changed) in place of the game's."""
    return document_change("chance", None, state.chance, ChanceState.from_dict(deck))


def _returned(state: GameState, deck: dict[str, Any], now: datetime) -> list[Change]:
    """The card plays whose window has passed unchecked: their cards go under the pile (in
    ``deck``); the changes that drop them."""
    changes = []
    for play in list(state.checkable.values()):
        if play.card is not None and play.checked is None and is_past(now, play.check_until):
            deck["pile"].append({"id": play.card, "fake": play.notes[0]["fake"]})
            changes.append(document_change("checkable", play.id, play, None))
    return changes


def chance_draw(state: GameState, player_id: str, card: object, now: datetime) -> Outcome:
    """The player takes a face-up Imprevisti card (``card``, or the first) into their hand.

    Refuses: a game not running or without Imprevisti cards, an unknown or bankrupt player,
    and a card not face up on the board."""
    require_running(state)
    player = require_player(state, player_id)
    deck = _deck(state)
    changes = _returned(state, deck, now)
    if card is None and deck["board"]:
        card = deck["board"][0]["id"]
    taken = next((c for c in deck["board"] if c["id"] == card), None) if isinstance(card, str) else None
    if taken is None:
        raise NotFound("unknown_card", N_("There is no such Imprevisti card face up on the board."))
    deck["board"].remove(taken)
    if deck["pile"]:
        deck["board"].append(deck["pile"].pop(0))
    deck["hands"].setdefault(player.id, []).append(taken)
    changes.append(_dealt(state, deck))
    return Outcome("chance_draw", changes=tuple(changes), params={"player": player.id}, result={"card": taken["id"]})


def chance_play(state: GameState, player_id: str, card: object, play_id: str, now: datetime) -> Outcome:
    """The player plays a card of their hand: open to a check until ``check_until``; the
    table reads it from the box.

    Refuses: a game not running or without Imprevisti cards, an unknown or bankrupt player,
    and a card not in their hand."""
    require_running(state)
    player = require_player(state, player_id)
    if card is None:
        raise BadInput("missing_field", N_("Say which card."))
    deck = _deck(state)
    changes = _returned(state, deck, now)
    hand = deck["hands"].get(player.id, [])
    played = next((c for c in hand if c["id"] == card), None)
    if played is None:
        raise NotFound("unknown_card", N_("You do not hold this Imprevisti card."))
    hand.remove(played)
    until = stamp(now, check_seconds(state))
    play = CheckableState(
        play_id,
        player.id,
        BANK,
        [player.id],
        0,
        [{"id": played["id"], "face": 0, "fake": played["fake"]}],
        "chance_play",
        stamp(now),
        until,
        card=played["id"],
    )
    changes += [_dealt(state, deck), document_change("checkable", play_id, None, play)]
    return Outcome(
        "chance_play",
        changes=tuple(changes),
        params={"player": player.id, "checkable": play_id},
        result={"payment": play_id, "check_until": until},
    )


def check_card(state: GameState, checker: PlayerState, play: CheckableState) -> Outcome:
    """The check of a card played (``notes.check`` has refused what it refuses): a fake is
    void and pays the checker the bounty; either way the card goes under the pile."""
    fake = play.notes[0]["fake"]
    deck = _deck(state)
    deck["pile"].append({"id": play.card, "fake": fake})
    checked = {"by": checker.id, "fake": fake, "face": 0}
    changes = (
        spent_chip(checker),
        document_change("checkable", play.id, play, replace(play, checked=checked)),
        _dealt(state, deck),
    )
    terms = state.edition.counterfeits
    assert terms is not None  # only a game with the fake money plays the Imprevisti
    bounty = terms.chance_bounty if fake else 0
    params = {
        "by": checker.id,
        "from": play.payer,
        "payment": play.id,
        "what": "chance_play",
        "fake": fake,
        "face": 0,
        "card": True,
        "amount": bounty,
    }
    return Outcome(
        "check",
        move(BANK, checker.id, bounty) if bounty else (),
        changes,
        params=params,
        result={"fake": fake, "face": 0},
    )


def hand_size(state: GameState, player_id: str) -> int:
    return len(state.chance.hands.get(player_id, [])) if state.chance else 0


def hand_ids(state: GameState, player_id: str) -> list[str]:
    return [c["id"] for c in state.chance.hands.get(player_id, [])] if state.chance else []
