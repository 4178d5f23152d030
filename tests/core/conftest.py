"""Shared helpers for the pure rules tests: a running game on a real edition, an ``act`` that
applies an outcome and proves undo restores the state exactly, and a ``refused`` that proves a
refusal changes nothing.

A test follows one table through a game in one variable: ``act`` and the set-up helpers
(``give``, ``set_player``, ``set_deed``, ``set_game``) move that variable's state on to the next
one in place (``play_on``). Only the tests do that: a state is frozen, the rules cannot change
it, and the application only ever makes the next one (``changes.apply_outcome``)."""

from __future__ import annotations

import copy
import json
from dataclasses import fields, replace
from datetime import UTC, datetime

import pytest

from companion.core import commands
from companion.core.changes import apply_outcome
from companion.core.counterfeits import notes
from companion.core.editions.loading import load_editions
from companion.core.errors import BancoError
from companion.core.ledger import BANK
from companion.core.settings import clean_settings, pots_for
from companion.core.state import RUNNING, AuctionState, DeedState, GameState, PendingState, PlayerState, TradeState

EDITIONS = load_editions().editions
EDITION_IDS = ("classic-it", "campionato-2015")
NOW = datetime(2015, 4, 25, 10, 0, tzinfo=UTC)
NAMES = {"a": "Anna", "b": "Bruno", "c": "Carla", "d": "Dario"}


def street_groups(edition_id):
    edition = EDITIONS[edition_id]
    return [g.key for g in edition.groups if g.kind == "street"]


def new_state(edition_id="classic-it", cash=1500, players=3, settings=None, edition=None, **sections) -> GameState:
    """A running game at the start: everyone has ``cash``, the bank holds every deed; the
    game's ``settings`` as a client would send them. ``edition`` is a made-up edition to play
    instead of ``edition_id``; ``sections`` change fields of the edition's rule sections
    (``rent={"policy": "never_double"}``)."""
    edition = edition or EDITIONS[edition_id]
    if sections:
        edition = replace(
            edition, **{name: replace(getattr(edition, name), **fields) for name, fields in sections.items()}
        )
    ids = list(NAMES)[:players]
    chosen = clean_settings(settings)
    return GameState(
        edition,
        RUNNING,
        {i: PlayerState(i, NAMES[i], cash) for i in ids},
        {d.key: DeedState(d.key) for d in edition.deeds},
        edition.buildings.supply_small,
        edition.buildings.supply_big,
        settings=chosen,
        pots=pots_for(chosen),
    )


def play_on(state: GameState, new: GameState) -> None:
    """The test's table moves on: ``state`` takes ``new``'s fields, in place (the tests' way of
    following one table in one variable, which no rule can do)."""
    for f in fields(GameState):
        object.__setattr__(state, f.name, getattr(new, f.name))


def set_game(state: GameState, **values) -> None:
    """Sets fields of the game itself directly (a test's set-up)."""
    play_on(state, replace(state, **values))


def set_player(state: GameState, player_id: str, **values) -> None:
    """Sets fields of one player directly (a test's set-up)."""
    players = {**state.players, player_id: replace(state.players[player_id], **values)}
    play_on(state, replace(state, players=players))


def set_deed(state: GameState, key: str, **values) -> None:
    """Sets fields of one deed directly (a test's set-up)."""
    play_on(state, replace(state, deeds={**state.deeds, key: replace(state.deeds[key], **values)}))


def give(state: GameState, owner, *keys, houses=0, hotel=False, mortgaged=False) -> None:
    """Sets deeds up directly, taking their buildings from the bank's supply."""
    deeds = dict(state.deeds)
    small, big = state.bank_small, state.bank_big
    for key in keys:
        deeds[key] = replace(deeds[key], owner=owner, houses=houses, hotel=hotel, mortgaged=mortgaged)
        if small is not None:
            small -= houses
        if big is not None:
            big -= int(hotel)
    play_on(state, replace(state, deeds=deeds, bank_small=small, bank_big=big))


def give_group(state: GameState, owner, group, **kwargs) -> list[str]:
    keys = [d.key for d in state.edition.deeds_in_group(group)]
    give(state, owner, *keys, **kwargs)
    return keys


def snapshot(state: GameState) -> GameState:
    """A deep copy that shares the frozen edition (its mappings cannot be copied)."""
    return copy.deepcopy(state, {id(state.edition): state.edition})


def _json_round_trip(value):
    assert json.loads(json.dumps(value)) == value
    return value


def _buildings(state: GameState) -> tuple:
    """Buildings in play, the bank's and the deeds': no rule creates or destroys one."""
    small = None if state.bank_small is None else state.bank_small + sum(d.houses for d in state.deeds.values())
    big = None if state.bank_big is None else state.bank_big + sum(d.hotel for d in state.deeds.values())
    return small, big


def _check_invariants(state: GameState, before: GameState) -> None:
    for p in state.players.values():
        assert p.cash >= 0
    for amount in state.pots.values():
        assert amount >= 0
    assert _buildings(state) == _buildings(before)
    assert sum(p.jail_cards for p in state.players.values()) <= state.edition.jail.cards_total
    for ds in state.deeds.values():
        assert not (ds.hotel and ds.houses)
        assert not ds.fee_due or ds.mortgaged
    if state.auction:
        assert AuctionState.from_dict(_json_round_trip(state.auction.to_dict())) == state.auction
    for t in state.trades.values():
        assert TradeState.from_dict(_json_round_trip(t.to_dict())) == t
    for r in state.pending.values():
        assert PendingState.from_dict(_json_round_trip(r.to_dict())) == r
    # Where the edition has fake money, every player's notes add up to their cash.
    assert notes.conserved(state) == []


def act(state: GameState, outcome):
    """Applies ``outcome`` to ``state`` after proving: its values are JSON, money is conserved,
    and the generic undo of it restores the state exactly."""
    before = snapshot(state)
    for change in outcome.changes:
        _json_round_trip(change.before)
        _json_round_trip(change.after)
    _json_round_trip(outcome.params)
    _json_round_trip(outcome.result)
    keys = [(c.target, c.ref, c.field) for c in outcome.changes]
    assert len(keys) == len(set(keys)), "one field changed twice in one outcome"
    play_on(state, apply_outcome(state, outcome))
    bank = sum(p.amount for p in outcome.postings if p.account == BANK)
    moved = (
        sum(p.cash for p in state.players.values())
        + sum(state.pots.values())
        - sum(p.cash for p in before.players.values())
        - sum(before.pots.values())
    )
    assert moved + bank == 0
    _check_invariants(state, before)
    undone = apply_outcome(state, commands.undo(state, outcome.kind, 1, outcome.postings, outcome.changes))
    assert undone == before
    return outcome


def refused(code, fn, state, *args, **kwargs) -> BancoError:
    """Proves ``fn`` refuses with ``code``, leaves the state as it was, and words it."""
    before = snapshot(state)
    with pytest.raises(BancoError) as info:
        fn(state, *args, **kwargs)
    assert info.value.code == code, (info.value.code, str(info.value))
    assert state == before
    assert "%(" not in str(info.value)
    return info.value


def cash(state: GameState) -> dict[str, int]:
    return {p.id: p.cash for p in state.players.values()}


def owing(state: GameState, player_id: str) -> int:
    """A debt ``player_id`` cannot pay: one more than everything they could (their cash and
    what selling and mortgaging would raise), the least a bankruptcy is accepted for."""
    from companion.core.rules import liquidation_value

    return liquidation_value(state, player_id).payable + 1
