"""Expropriation (Che Impresa!): a player takes another's unbuilt land, or its whole lot, by
the two special dice.

The buyer's die first: ``no`` → the buyer pays the owner the penalty printed on the deed;
``vita`` → the buyer draws a "Vita di Castiglione" card and nothing else happens; ``si`` → the
owner rolls. The owner's die: ``no`` → the penalty; ``doppio`` / ``meta`` → the deeds change
hands at double / half their value; ``ritira`` → the buyer rolls again; ``vita`` → a card,
nothing paid. Players enter the faces the box's dice show, or let the server roll a virtual
die whose faces are the edition's (the rulebook does not give them). Each roll is its own
journal entry, so every step shows on both phones and can be undone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..dice import special_faces
from ..editions.edition import Deed, Expropriation
from ..errors import N_, BadInput, Forbidden, RuleViolation
from ..guards import require_cash, require_player, require_running
from ..ledger import move
from ..money import percent_up
from ..state import Change, DeedState, ExpropriationState, GameState, Outcome, PlayerState, document_change
from ..turns import counted, require_turn
from .common import acquired, clean_id, group_members, group_of, has_buildings, require_deed

BUYER, OWNER, SETTLE = "buyer", "owner", "settle"
RENT = "rent"


def _terms(state: GameState) -> Expropriation:
    terms = state.edition.expropriation
    if terms is None:
        raise RuleViolation("no_expropriation", N_("This edition has no expropriations."))
    return terms


def expropriation_start(
    state: GameState, expropriation_id: str, buyer_id: str, deed_key: object, via: str = RENT
) -> Outcome:
    """The buyer starts an attempt on another player's deed: after paying its rent this turn
    (``via`` ``"rent"``), or from a square that allows an attempt anywhere (``via`` its key).
    When the owner holds the deed's whole lot, the attempt is on the whole lot, at the lot's
    value and the lot penalty printed on the deed; a group the edition says is no lot (the
    restaurants) never makes one, so the attempt is on the deed alone.

    Refuses: an edition without expropriations, a bad id, a game not running, an unknown or
    bankrupt buyer, a buyer out of turn, a second attempt in the same turn, an attempt already
    under way, an unknown deed, a deed nobody owns or the buyer's own, a deed (or lot) with
    buildings, via rent when the buyer has not just paid this deed's rent this turn, and via a
    square that is not the edition's or allows no attempt.
    """
    _terms(state)
    expropriation_id = clean_id(expropriation_id, "invalid_expropriation_id")
    require_running(state)
    buyer = require_player(state, buyer_id)
    require_turn(state, buyer.id)
    _require_may_try(state, buyer)
    deed, ds = require_deed(state, deed_key)
    if ds.owner is None:
        raise RuleViolation("deed_not_owned", N_("Nobody owns %(deed)s: buy it instead."), deed=deed.name)
    if ds.owner == buyer.id:
        raise RuleViolation("own_deed", N_("%(deed)s is %(name)s's own deed."), deed=deed.name, name=buyer.name)
    _require_via(state, buyer, deed, via)
    whole, taken = _taken(state, deed, ds)
    value = sum(d.price for d, _ in taken)
    penalty = (deed.lot_penalty if whole else deed.penalty) or 0
    doc = ExpropriationState(
        expropriation_id, buyer.id, ds.owner, deed.key, [d.key for d, _ in taken], whole, value, penalty, via, BUYER
    )
    changes = [document_change("expropriation", None, None, doc)]
    if counted(state):
        changes.append(Change("player", buyer.id, "expropriation_turn", buyer.expropriation_turn, state.turn_seq))
    params = {
        "player": buyer.id,
        "owner": ds.owner,
        "deed": deed.key,
        "deeds": doc.deeds,
        "whole_lot": whole,
        "value": value,
        "penalty": penalty,
        "via": via,
    }
    return Outcome(
        "expropriation_start",
        changes=tuple(changes),
        params=params,
        result={
            "expropriation": expropriation_id,
            "deeds": doc.deeds,
            "whole_lot": whole,
            "value": value,
            "penalty": penalty,
        },
    )


def _require_may_try(state: GameState, buyer: PlayerState) -> None:
    """Refuses an attempt while another is under way, and a second one in the buyer's turn
    (where the bank counts turns)."""
    if state.expropriation is not None:
        raise RuleViolation("expropriation_open", N_("An expropriation is already under way."))
    if counted(state) and buyer.expropriation_turn == state.turn_seq:
        raise RuleViolation(
            "expropriation_once_per_turn", N_("%(name)s already tried an expropriation this turn."), name=buyer.name
        )


def _require_via(state: GameState, buyer: PlayerState, deed: Deed, via: str) -> None:
    """Refuses an attempt via rent when the buyer has not just paid this deed's rent this turn,
    and one via a square that is not the edition's or allows no attempt."""
    if via == RENT:
        paid = state.last_rent or {}
        if (paid.get("payer"), paid.get("deed"), paid.get("turn")) != (buyer.id, deed.key, state.turn_seq):
            raise RuleViolation(
                "rent_first", N_("Pay the rent on %(deed)s first: an expropriation follows the rent."), deed=deed.name
            )
        return
    square = state.edition.square(via) if isinstance(via, str) else None
    if square is None or not square.expropriation:
        raise BadInput("invalid_via", N_("An expropriation follows the rent, or a square that allows one."))


def _taken(state: GameState, deed: Deed, ds: DeedState) -> tuple[bool, list[tuple[Deed, DeedState]]]:
    """Whether the attempt is on the deed's whole lot (its owner holds the lot, and its group is
    a lot), and the deeds it would take. Refuses any of them with buildings."""
    members = group_members(state, deed.group)
    # Restaurants are no lot (seed 000 lines 33-35, 182-183): an attempt on one covers it alone.
    whole = group_of(state, deed).lot and all(m.owner == ds.owner for _, m in members)
    taken = [(d, m) for d, m in members] if whole else [(deed, ds)]
    if any(has_buildings(m) for _, m in taken):
        raise RuleViolation(
            "expropriation_built",
            N_("Only unbuilt land can be expropriated: %(deed)s's lot has buildings.")
            if whole
            else N_("Only unbuilt land can be expropriated: %(deed)s has buildings."),
            deed=deed.name,
        )
    return whole, taken


def _require_open(state: GameState) -> ExpropriationState:
    if state.expropriation is None:
        raise RuleViolation("no_expropriation_open", N_("No expropriation is under way."))
    return state.expropriation


def virtual_face(state: GameState, doc: ExpropriationState, die: str) -> str:
    """A face of the virtual ``die`` (``"buyer"`` or ``"owner"``), drawn from the game's
    seed, the attempt and how many rolls it has had: the same game rolls the same."""
    return random.Random(f"{state.seed}:expropriation:{doc.id}:{len(doc.rolls)}").choice(special_faces(state, die))


def expropriation_roll(state: GameState, player_id: str, face: object = None) -> Outcome:
    """The die whose turn it is in the attempt: the buyer's, then (on SI) the owner's. ``face``
    is what the box's die shows; without it the server rolls a virtual die.

    What the face does is applied at once; a payment the buyer cannot make now (a penalty, a
    price) is recorded as owed and the attempt waits for ``expropriation_settle``, so a face
    once rolled always counts.

    Refuses: no attempt under way, one waiting for a payment, a game not running, a player
    whose die it is not, and a face that is not on that die.
    """
    doc = _require_open(state)
    require_running(state)
    if doc.stage == SETTLE:
        raise RuleViolation("expropriation_owed", N_("The expropriation waits for the buyer to pay."))
    roller = doc.buyer if doc.stage == BUYER else doc.owner
    if player_id != roller:
        raise Forbidden("not_your_die", N_("Now %(name)s rolls."), name=state.players[roller].name)
    allowed = set(special_faces(state, doc.stage))
    virtual = face is None
    if virtual:
        face = virtual_face(state, doc, doc.stage)
    elif face not in allowed:
        raise BadInput("invalid_face", N_("That face is not on this die."))
    rolls = [*doc.rolls, {"by": doc.stage, "face": face, "virtual": virtual}]
    params = {
        "player": player_id,
        "die": doc.stage,
        "face": face,
        "virtual": virtual,
        "buyer": doc.buyer,
        "owner": doc.owner,
        "deeds": doc.deeds,
    }
    if face == "si":
        return _step(state, doc, ExpropriationState(**{**doc.__dict__, "rolls": rolls, "stage": OWNER}), params)
    if face == "ritira":
        return _step(state, doc, ExpropriationState(**{**doc.__dict__, "rolls": rolls, "stage": BUYER}), params)
    if face == "vita":
        return _step(state, doc, None, {**params, "ends": "card"})
    terms = _terms(state)
    owed: dict[str, Any]
    if face == "no":
        owed = {"face": face, "amount": doc.penalty, "transfer": False}
    else:
        percent = terms.double_percent if face == "doppio" else terms.half_percent
        owed = {"face": face, "amount": percent_up(doc.value, percent), "transfer": True}
    if owed["amount"] > state.players[doc.buyer].cash:
        waiting = ExpropriationState(**{**doc.__dict__, "rolls": rolls, "stage": SETTLE, "owed": owed})
        return _step(state, doc, waiting, {**params, "owed": owed["amount"]})
    return _settled(state, doc, owed, params)


def expropriation_settle(state: GameState, player_id: str) -> Outcome:
    """The buyer pays what a roll left owed (the penalty, or the price of the deeds taken).

    Refuses: no attempt under way, one not waiting for a payment, a player who is not the
    buyer, and a buyer still without the cash (sell buildings, or go bankrupt to the owner).
    """
    doc = _require_open(state)
    require_running(state)
    if doc.stage != SETTLE:
        raise RuleViolation("expropriation_nothing_owed", N_("Nothing is owed in this expropriation."))
    if player_id != doc.buyer:
        raise Forbidden("not_the_buyer", N_("Only %(name)s pays here."), name=state.players[doc.buyer].name)
    owed = doc.owed
    assert owed is not None  # the settle stage holds what its roll left owed
    require_cash(state.players[doc.buyer], owed["amount"])
    return _settled(
        state,
        doc,
        owed,
        {
            "player": doc.buyer,
            "buyer": doc.buyer,
            "owner": doc.owner,
            "deeds": doc.deeds,
            "face": owed["face"],
            "settle": True,
        },
    )


def _step(
    state: GameState, doc: ExpropriationState, after: ExpropriationState | None, params: dict[str, Any]
) -> Outcome:
    stage = after.stage if after else None
    return Outcome(
        "expropriation_roll",
        changes=(document_change("expropriation", None, doc, after),),
        params={**params, "next": stage},
        result={"face": params.get("face"), "next": stage, "ends": params.get("ends"), "owed": params.get("owed")},
    )


def _settled(state: GameState, doc: ExpropriationState, owed: Mapping[str, Any], params: dict[str, Any]) -> Outcome:
    buyer = state.players[doc.buyer]
    require_cash(buyer, owed["amount"])
    changes = [document_change("expropriation", None, doc, None)]
    if owed["transfer"]:
        for key in doc.deeds:
            changes += acquired(state, state.deeds.get(key) or require_deed(state, key)[1], doc.buyer)
    postings = move(doc.buyer, doc.owner, owed["amount"]) if owed["amount"] else ()
    ends = "taken" if owed["transfer"] else "penalty"
    kind = "expropriation_settle" if params.get("settle") else "expropriation_roll"
    return Outcome(
        kind,
        postings,
        tuple(changes),
        params={**params, "ends": ends, "amount": owed["amount"], "next": None},
        result={"face": owed["face"], "next": None, "amount": owed["amount"], "ends": ends},
    )


def dropped_for(state: GameState, player_id: str) -> list[Change]:
    """An attempt under way involving a player who leaves the game ends with them."""
    doc = state.expropriation
    if doc is not None and player_id in (doc.buyer, doc.owner):
        return [document_change("expropriation", None, doc, None)]
    return []
