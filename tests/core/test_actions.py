"""Every action is declared once, whole (``core.actions``): its payload's fields, read strictly,
cover everything its handler reads; the parts of the pages it changes are parts; every kind of
entry has its line in the feed, and every sentence words each of its placeholders."""

from __future__ import annotations

import inspect
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from companion.core import parts
from companion.core.actions import (
    ACTIONS,
    BIDDING,
    BIDS,
    LINES,
    NOBODYS,
    OFFERS,
    OPENS_BIDDING,
    OTHERS,
    OWN,
    TOLD,
    Asked,
    acting_player,
)
from companion.core.actions.lines import BIDDER, OUTBID, WORDINGS
from companion.core.errors import BadInput, Forbidden, NotFound
from companion.services import steps

COMPANION = Path(__file__).resolve().parents[2] / "companion"
PLACEHOLDER = re.compile(r"%\((\w+)\)")
# Run by the services on the journal or the clock, not by a rule.
SERVICES_RUN = {"undo", "take_back", "clock_pause", "clock_resume"}
# The banker's alone, refused to anyone else before anything runs.
BANKER_ONLY = {
    "undo",
    "clock_pause",
    "clock_resume",
    "start",
    "end",
    "play_off",
    "building_auction_start",
    "break_shared",
}


def _read_by(action) -> set[str]:
    """The fields a handler reads: ``asked.get("name")``, ``"name" in asked.fields``, and the
    field ``player`` for one that acts for the acting player (or asks who approves)."""
    source = inspect.getsource(action.handler)
    read = set(re.findall(r'asked\.get\(\s*"(\w+)"', source)) | set(re.findall(r'"(\w+)" in asked\.fields', source))
    if re.search(r"asked\.(player|approver)\(\)", source):
        read.add("player")
    return read


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_action_is_declared_whole(name):
    action = ACTIONS[name]
    assert action.name == name
    assert action.about, f"{name} says nothing of itself in the OpenAPI document"
    assert (action.handler is None) == (name in SERVICES_RUN), f"{name} has no handler"
    assert (action.step is None) == (action.handler is not None), f"{name} is run by a rule or by a step, one of them"
    assert action.banker_only == (name in BANKER_ONLY)
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


def test_every_step_a_declaration_names_is_carried_out_by_the_services():
    named = {action.step for action in ACTIONS.values()} - {None}
    assert named == set(steps.STEPS)
    clock = {action.clock for action in ACTIONS.values()} | {action.clock_undone for action in ACTIONS.values()}
    assert clock - {None} == set(steps.CLOCK)


def test_only_the_banker_may_ask_an_action_declared_the_banker_s():
    anna = Asked(_Caller(False, "anna"), {}, datetime(2026, 1, 1, tzinfo=UTC), lambda: "id1")
    for name, action in ACTIONS.items():
        action.allows(_Caller(True, None))
        if action.banker_only:
            with pytest.raises(Forbidden) as refused:
                action.allows(anna.by)
            assert refused.value.code == "banker_only", name
            if action.handler is not None:  # refused before the rule reads the state
                with pytest.raises(Forbidden):
                    action.run(None, anna)
        else:
            action.allows(anna.by)


def test_an_action_no_rule_runs_is_not_run_as_one():
    banker = Asked(_Caller(True, None), {}, datetime(2026, 1, 1, tzinfo=UTC), lambda: "id1")
    with pytest.raises(LookupError):
        ACTIONS["undo"].run(None, banker)


def test_the_search_finds_what_handlers_read():
    assert sum(len(_read_by(a)) for a in ACTIONS.values() if a.handler is not None) > 60


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


def _made_kinds() -> set[str]:
    """Every kind an entry is made with (``Outcome("kind"``) in the application's code."""
    kinds = set()
    for path in COMPANION.rglob("*.py"):
        kinds |= set(re.findall(r'Outcome\(\s*"(\w+)"', path.read_text(encoding="utf-8")))
    return kinds


def test_every_kind_of_entry_has_its_line_in_the_feed():
    made = _made_kinds()
    assert len(made) > 40  # the search still finds them
    # A replay is the journal's own step, never an entry of the feed.
    assert made - set(LINES) == {"replay"}
    assert set(parts.KINDS) - set(LINES) - {"replay"} == {
        name for name, action in ACTIONS.items() if action.line is None
    }, "an action without a line makes entries of other kinds only"
    for name, action in ACTIONS.items():
        if action.line is None:
            assert name not in made, f"{name} makes entries of its own kind: declare its line"


def _sentences():
    for kind, line in LINES.items():
        for say in (*line.says, *line.more):
            yield kind, say
    for kind, tells in TOLD.items():
        for tell in tells:
            yield kind, tell.say
    for name, action in ACTIONS.items():
        if action.received is not None:
            yield name, action.received
        for offer in action.offers:
            for say in (*offer.says, *([offer.closed] if offer.closed else [])):
                yield name, say


def test_every_sentence_words_each_of_its_placeholders_and_only_those():
    assert sum(1 for _ in _sentences()) > 80
    for kind, say in _sentences():
        wanted = set(PLACEHOLDER.findall(say.text)) | set(PLACEHOLDER.findall(say.plural or ""))
        given = set(say.words) | ({"num"} if say.plural else set())
        assert wanted == given, f"{kind}: {say.text!r} words {sorted(given)}, needs {sorted(wanted)}"
        assert (say.plural is None) == (say.count is None), kind
        for spec in [*say.words.values(), *([say.tail] if say.tail else [])]:
            how, _param = spec.split()
            assert how in WORDINGS, f"{kind}: no wording {how!r}"


def test_a_notice_is_for_a_player_a_param_names_or_a_bidder():
    for kind, tells in TOLD.items():
        for tell in tells:
            assert tell.to in (BIDDER, OUTBID) or re.fullmatch(r"[a-z_]+", tell.to), kind
            assert tell.tone in ("info", "plus", "minus"), kind


def test_an_action_a_deed_s_page_offers_acts_on_that_deed_and_always_has_words():
    offered = {name for name, _offer in OFFERS}
    assert offered >= {"buy", "auction_start", "square", "pay_rent", "expropriation_start", "build", "mortgage"}
    for name, offer in OFFERS:
        assert ACTIONS[name].field("deed") is not None, f"{name} is offered on a deed it does not read"
        assert offer.whose in (NOBODYS, OTHERS, OWN), name
        assert offer.says and offer.says[-1].when is None, f"{name}: its last words must always hold"
        assert not offer.by_dice or ACTIONS[name].field("dice") is not None, f"{name} asks for dice it does not read"


def test_an_entry_follows_the_bidders_by_a_declared_way():
    assert set(BIDDING.values()) == {OPENS_BIDDING, BIDS}
    assert set(BIDDING) <= set(LINES), "a kind of entry that follows the bidders is one the feed says"
