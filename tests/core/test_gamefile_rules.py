"""The rules' reading of a game file knows every value a change may write: a field, a document
or a wording added to the game gets its type and range here too, or these fail."""

from __future__ import annotations

from dataclasses import fields

from companion.core import gamefile_rules as rules
from companion.core.actions import ACTIONS
from companion.core.actions.lines import WORDINGS
from companion.core.state import DOCUMENT_FIELDS, GAME_SCALARS
from companion.services.gamefile_play import HANDS_DEEDS_OVER, QUIET, RERUN


def test_every_field_a_change_may_write_has_its_type_and_range():
    declared = rules.declared_fields()
    assert set(rules.PLAYER_FIELDS) == declared["player"]
    assert set(rules.DEED_FIELDS) == declared["deed"]
    assert set(rules.GAME_FIELDS) == set(GAME_SCALARS)


def test_every_document_is_read_field_by_field():
    assert set(rules.DOCUMENTS) == set(DOCUMENT_FIELDS)
    for target, spec in DOCUMENT_FIELDS.items():
        assert set(rules.DOCUMENTS[target]) == {f.name for f in fields(spec.kind)}, target


def test_every_wording_of_the_feed_reads_its_param_by_a_rule():
    assert set(rules.WORD_TESTS) == set(WORDINGS)


def test_the_entries_made_again_are_actions_a_rule_runs():
    assert all(ACTIONS[kind].run is not None for kind in RERUN)
    assert not (RERUN | {"undo", "take_back"}) & (HANDS_DEEDS_OVER | QUIET)
