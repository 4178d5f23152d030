"""Every action is declared once, whole (``core.actions``): its payload's fields, read strictly,
cover everything its handler reads, and the parts of the pages it changes are parts."""

from __future__ import annotations

import inspect
import re
from datetime import UTC, datetime

import pytest

from companion.core import parts
from companion.core.actions import ACTIONS, Asked, acting_player
from companion.core.errors import BadInput, Forbidden, NotFound

# Run by the services on the journal or the clock, not by a rule.
SERVICES_RUN = {"undo", "take_back", "clock_pause", "clock_resume"}


def _read_by(action) -> set[str]:
    """The fields a handler reads: ``asked.get("name")``, ``"name" in asked.fields``, and the
    field ``player`` for one that acts for the acting player (or asks who approves)."""
    source = inspect.getsource(action.run)
    read = set(re.findall(r'asked\.get\(\s*"(\w+)"', source)) | set(re.findall(r'"(\w+)" in asked\.fields', source))
    if re.search(r"asked\.(player|approver)\(\)", source):
        read.add("player")
    return read


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_action_is_declared_whole(name):
    action = ACTIONS[name]
    assert action.name == name
    assert action.about, f"{name} says nothing of itself in the OpenAPI document"
    assert (action.run is None) == (name in SERVICES_RUN), f"{name} has no handler"
    assert action.parts <= parts.ALL
    assert parts.KINDS[name] == action.parts
    names = [field.name for field in action.fields]
    assert len(names) == len(set(names)), f"{name} declares a field twice"
    for field in action.fields:
        assert field.about, f"{name}.{field.name} says nothing of itself"
        assert field.name not in ("type", "key")


@pytest.mark.parametrize("name", sorted(set(ACTIONS) - SERVICES_RUN))
def test_a_handler_reads_only_the_fields_its_action_declares(name):
    action = ACTIONS[name]
    read = _read_by(action)
    assert read <= {field.name for field in action.fields}, f"{name} reads undeclared fields"


def test_the_search_finds_what_handlers_read():
    assert sum(len(_read_by(a)) for a in ACTIONS.values() if a.run is not None) > 60


def test_a_field_the_action_does_not_know_is_refused_naming_it():
    with pytest.raises(BadInput) as refused:
        ACTIONS["transfer"].read({"type": "transfer", "to": "bank", "amout": 7})
    assert refused.value.code == "unknown_field" and refused.value.params == {"field": "amout"}


@pytest.mark.parametrize(
    "name, payload, error, code",
    [
        ("sell_building", {"break_hotel": "yes"}, BadInput, "invalid_field"),
        ("break_shared", {"deeds": "vicolo-corto"}, BadInput, "invalid_deeds"),
        ("buy", {"deed": 7}, NotFound, "unknown_deed"),
        ("transfer", {"to": ["x"]}, NotFound, "unknown_player"),
        ("transfer", {"amount": "7"}, BadInput, "invalid_amount"),
        ("pass_go", {"dice": "7"}, BadInput, "invalid_dice"),
        ("trade_propose", {"give": []}, BadInput, "invalid_trade"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_naming_the_field(name, payload, error, code):
    with pytest.raises(error) as refused:
        ACTIONS[name].read({"type": name, **payload})
    assert refused.value.code == code
    if code != "invalid_amount":  # an amount is refused as every amount is
        assert refused.value.params == {"field": next(iter(payload))}


def test_the_type_and_key_are_every_action_s_and_null_is_for_the_rule_to_judge():
    assert ACTIONS["buy"].read({"type": "buy", "key": "k1", "deed": "vicolo-corto", "player": None}) == {
        "deed": "vicolo-corto",
        "player": None,
    }


class _Caller:
    def __init__(self, is_banker: bool, player_id: str | None):
        self.is_banker, self.player_id = is_banker, player_id


def test_the_acting_player_is_the_caller_s_or_the_one_the_banker_names():
    assert acting_player(_Caller(False, "anna"), {}) == "anna"
    assert acting_player(_Caller(True, None), {"player": "bruno"}) == "bruno"
    with pytest.raises(Forbidden):
        acting_player(_Caller(False, "anna"), {"player": "bruno"})
    with pytest.raises(BadInput):
        acting_player(_Caller(True, None), {})
    asked = Asked(_Caller(True, None), {}, datetime(2026, 1, 1, tzinfo=UTC), lambda: "id1")
    assert asked.approver() == "banker"
