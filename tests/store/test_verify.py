"""``flask --app app banco verify``: every game's balances against its journal, every entry
balanced, versions without a gap; a line for each game with problems, a summary, exit 1 on
any problem."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from companion.store import db

# On PostgreSQL too (python -m tests): the journal's sums are SQL aggregates.
pytestmark = pytest.mark.database


def verify(app):
    result = app.test_cli_runner().invoke(args=["banco", "verify"])
    return result.exit_code, result.output


def played(api):
    game = api.new_game(players=("Anna", "Bruno")).start()
    status, body = game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 250})
    assert status == 200, body
    return game


def tamper(app, statement, **params):
    with app.app_context():
        db.session.execute(text(statement), params)
        db.session.commit()


def test_clean_games_pass(app, api):
    played(api)
    played(api)
    code, output = verify(app)
    assert code == 0, output
    assert output.splitlines() == ["2 games checked, all balanced"]


def test_cash_changed_behind_the_journal_is_reported(app, api):
    game = played(api)
    played(api)
    anna = game.ids["Anna"]
    tamper(app, "UPDATE player SET cash = cash + 5 WHERE id = :id", id=anna)
    code, output = verify(app)
    assert code == 1, output
    lines = output.splitlines()
    assert lines[0].startswith(f"game {game.id}: ") and anna in lines[0]
    assert "1255" in lines[0] and "1250" in lines[0]  # what it holds, what the journal says
    assert lines[-1] == "2 games checked, 1 problem"


def test_an_unbalanced_entry_is_reported(app, api):
    game = played(api)
    with app.app_context():
        entry_id = db.session.execute(
            text("SELECT id FROM entry WHERE game_id = :g AND kind = 'transfer'"), {"g": game.id}
        ).scalar_one()
    tamper(
        app,
        "INSERT INTO posting (entry_id, game_id, account, amount) VALUES (:e, :g, 'bank', 7)",
        e=entry_id,
        g=game.id,
    )
    code, output = verify(app)
    assert code == 1, output
    assert f"entry {entry_id} does not balance (sums to 7)" in output
    assert output.splitlines()[-1] == "1 game checked, 1 problem"


def test_a_gap_in_the_versions_is_reported(app, api):
    game = played(api)
    last = game.state()["version"]
    tamper(app, "UPDATE entry SET version = version + 1 WHERE game_id = :g AND version = :v", g=game.id, v=last)
    tamper(app, "UPDATE game SET version = version + 1 WHERE id = :g", g=game.id)
    code, output = verify(app)
    assert code == 1, output
    assert f"the game is at version {last + 1} but its journal lacks versions {last}" in output


def test_newest_entries_missing_are_reported(app, api):
    game = played(api)
    last = game.state()["version"]
    tamper(app, "UPDATE game SET version = version + 2 WHERE id = :g", g=game.id)
    code, output = verify(app)
    assert code == 1, output
    assert f"lacks versions {last + 1}, {last + 2}" in output
