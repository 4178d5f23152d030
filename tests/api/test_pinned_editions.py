"""A game keeps the exact edition content it started with: changing the edition file later
(a new printing's prices) changes new games only."""

from __future__ import annotations

import json

import pytest

from companion import services
from companion.core.editions.loading import parse_edition
from companion.extension import banco

# On PostgreSQL too (python -m tests): edition content stored once by hash (a unique row).
pytestmark = pytest.mark.database


def _edited(edition, **deed_changes):
    """The edition as if its file had been edited: the raw content and the parsed deeds."""
    raw = json.loads(json.dumps(dict(edition.raw), default=dict))
    for deed in raw["deeds"]:
        if deed["key"] in deed_changes:
            deed["price"] = deed_changes[deed["key"]]
    return parse_edition(raw)


def test_a_game_in_progress_keeps_its_rules_when_the_edition_file_changes(app, api):
    old_game = api.new_game(players=("Anna", "Bruno")).start()
    with app.app_context():
        catalog = banco(app).editions
        original = catalog["classic-it"]
        first = original.deeds[0]
        catalog["classic-it"] = _edited(original, **{first.key: first.price * 10})
    try:
        status, body = old_game.act("Anna", {"type": "buy", "deed": first.key})
        assert status == 200, body
        assert body["result"]["amount"] == first.price
        new_game = api.new_game(players=("Carla", "Dario")).start()
        status, body = new_game.act("Carla", {"type": "buy", "deed": first.key})
        assert status == 200 and body["result"]["amount"] == first.price * 10
        with app.app_context():
            old_row, new_row = services.get_game(old_game.id), services.get_game(new_game.id)
            assert old_row.edition_hash != new_row.edition_hash
            assert services.edition_of(old_row).deed(first.key).price == first.price
    finally:
        with app.app_context():
            catalog["classic-it"] = original


def test_games_of_the_same_content_share_one_stored_copy(app, api):
    a = api.new_game(players=("Anna", "Bruno"))
    b = api.new_game(players=("Carla", "Dario"))
    with app.app_context():
        from companion.store import EditionContent, db

        assert services.get_game(a.id).edition_hash == services.get_game(b.id).edition_hash
        assert db.session.query(EditionContent).count() == 1


def test_a_game_takes_its_editions_clock_unless_told_otherwise(api):
    assert api.new_game(edition="campionato-2015").state()["clock"]["limit_seconds"] == 90 * 60
    assert api.new_game(edition="campionato-2015", time_limit_minutes=None).state()["clock"] is None
    assert api.new_game(edition="campionato-2015", time_limit_minutes=30).state()["clock"]["limit_seconds"] == 1800
    assert api.new_game(edition="classic-it").state()["clock"] is None
