"""The hot statements run on the driver's own cursor (``companion.store.statements``) read and
write exactly what SQLAlchemy's own execution would: the same values through the same type
processors (JSON, datetimes, booleans), the same generated keys, the same errors, on SQLite and
on PostgreSQL (the suite's second run). A difference would not show as a failure anywhere else:
a batch whose fast statements fail runs again on the slower path, and only the figures move.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import bindparam, event, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from companion.store import Entry, Game, Player, Posting, db
from companion.store.statements import Prepared

# On PostgreSQL too (python -m tests): each database's driver, types, generated keys and errors.
pytestmark = pytest.mark.database

_GAME = Game.__table__
_ROW = select(*_GAME.c).where(_GAME.c.id == bindparam("game_id")).with_for_update()


@pytest.fixture
def game(api):
    return api.new_game(("Anna", "Bruno")).start()


def test_a_row_reads_as_sqlalchemy_reads_it(app, game):
    with app.app_context():
        connection = db.session.connection()
        connection.execute(
            update(_GAME)
            .where(_GAME.c.id == game.id)
            .values(
                clock_running_since=dt.datetime(2026, 12, 2, 20, 15, 30, 123456),
                auction={"deed": "x", "bids": [1, 2]},
                cash_private=True,
            )
        )
        expected = tuple(connection.execute(_ROW, {"game_id": game.id}).first())
        got = Prepared(_ROW).first(connection, {"game_id": game.id})
        assert got == expected
        assert isinstance(got[list(_GAME.c.keys()).index("clock_running_since")], dt.datetime)
        assert Prepared(_ROW).first(connection, {"game_id": "nobody"}) is None


def test_an_update_writes_what_the_orm_then_reads(app, game):
    statement = Prepared(update(Player.__table__).where(Player.__table__.c.id == bindparam("row_id")))
    with app.app_context():
        statement.execute(
            db.session.connection(),
            {"cash": 1234, "in_jail": True, "extra": {"laps": 3, "note": "è"}, "row_id": game.ids["Anna"]},
        )
        statement.execute(db.session.connection(), {"cash": 99, "row_id": game.ids["Bruno"]})  # another set of columns
        db.session.commit()
    with app.app_context():
        anna, bruno = db.session.get(Player, game.ids["Anna"]), db.session.get(Player, game.ids["Bruno"])
        assert (anna.cash, anna.in_jail, anna.extra) == (1234, True, {"laps": 3, "note": "è"})
        assert (bruno.cash, bruno.in_jail) == (99, False)


def test_an_insert_answers_its_key_and_many_rows_go_in_one_call(app, game):
    entries = Prepared(insert(Entry.__table__), key_column=Entry.__table__.c.id)
    postings = Prepared(insert(Posting.__table__))
    at = dt.datetime(2026, 12, 2, 21, 0, 0)
    with app.app_context():
        connection = db.session.connection()
        keys = [
            entries.insert(
                connection,
                {
                    "game_id": game.id,
                    "version": 1000 + n,
                    "kind": "transfer",
                    "actor": "x",
                    "params": {"n": n},
                    "changes": [],
                    "undoable": True,
                    "reverses": None,
                    "at": at,
                },
            )
            for n in range(2)
        ]
        postings.execute_many(
            connection,
            [{"entry_id": keys[1], "game_id": game.id, "account": a, "amount": m} for a, m in (("bank", -7), ("p", 7))],
        )
        db.session.commit()
    with app.app_context():
        first, second = db.session.get(Entry, keys[0]), db.session.get(Entry, keys[1])
        assert (first.version, first.params, first.at) == (1000, {"n": 0}, at)
        assert second.version == 1001
        assert sorted((p.account, p.amount) for p in second.postings) == [("bank", -7), ("p", 7)]


def test_a_unique_key_refuses_as_sqlalchemy_does_and_the_transaction_goes_on(app, game):
    entries = Prepared(insert(Entry.__table__))
    row = {
        "game_id": game.id,
        "version": 1,
        "kind": "transfer",
        "actor": "x",
        "params": {},
        "changes": [],
        "undoable": True,
        "reverses": None,
        "at": dt.datetime(2026, 12, 2),
    }
    with app.app_context():
        with pytest.raises(IntegrityError), db.session.begin_nested():
            entries.execute(db.session.connection(), row)  # version 1 is the game's start already
        entries.execute(db.session.connection(), {**row, "version": 5000})
        db.session.commit()
        assert (
            db.session.execute(select(Entry.kind).where(Entry.game_id == game.id, Entry.version == 5000)).scalar()
            == "transfer"
        )


def test_listeners_hear_each_statement(app, game):
    heard = []
    statement = Prepared(update(Player.__table__).where(Player.__table__.c.id == bindparam("row_id")))

    def hear(_connection, _cursor, sql, *_rest):
        heard.append(sql)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", hear)
        try:
            statement.execute(db.session.connection(), {"cash": 1, "row_id": game.ids["Anna"]})
        finally:
            event.remove(db.engine, "before_cursor_execute", hear)
        db.session.rollback()
    assert [sql for sql in heard if sql.startswith("UPDATE")] == [heard[-1]]  # SQLite's BEGIN may come first
    assert heard[-1].startswith("UPDATE player SET cash=")


def test_a_parameter_left_out_is_refused_before_anything_runs(app, game):
    with app.app_context():
        with pytest.raises(ValueError, match="at"):
            Prepared(insert(Entry.__table__)).execute(db.session.connection(), {"game_id": game.id, "version": 9})
        db.session.rollback()


def test_a_lost_connection_is_dropped_as_sqlalchemy_drops_it(app, game, monkeypatch):
    statement = Prepared(update(Player.__table__).where(Player.__table__.c.id == bindparam("row_id")))
    with app.app_context():
        connection = db.session.connection()
        # A driver's error read by the dialect as a lost connection (the database server
        # restarted under the game).
        monkeypatch.setattr(connection.dialect, "is_disconnect", lambda *args: True)
        with pytest.raises(DBAPIError) as caught:
            statement.execute(connection, {"cash": None, "row_id": game.ids["Anna"]})  # cash is NOT NULL
        assert caught.value.connection_invalidated and connection.invalidated
        monkeypatch.undo()
        db.session.rollback()  # the session goes on, on a new connection
        assert db.session.get(Player, game.ids["Anna"]).cash == 1500


def test_a_memo_decodes_a_row_once_and_a_changed_row_again(app, game):
    """A row read again unchanged is the row processed the first time (on SQLite, whose driver
    sends JSON as text); a row that changed is processed anew; the memo keeps at most its size.
    On PostgreSQL the driver decodes JSON itself and nothing is kept: the values are the same."""
    one = select(_GAME.c.id, _GAME.c.extra).where(_GAME.c.id == bindparam("game_id"))
    every = select(_GAME.c.id, _GAME.c.extra)
    with app.app_context():
        connection = db.session.connection()
        connection.execute(update(_GAME).where(_GAME.c.id == game.id).values(extra={"pots": {"centre": 5}}))
        read = Prepared(one, memo=4)
        first = read.first(connection, {"game_id": game.id})
        again = read.first(connection, {"game_id": game.id})
        assert first == again == (game.id, {"pots": {"centre": 5}})
        kept = db.engine.dialect.name == "sqlite"
        assert (again[1] is first[1]) is kept
        if kept:  # shared with every later reader, so none of them may change it
            with pytest.raises(TypeError):
                again[1]["pots"]["centre"] = 6
            assert read.first(connection, {"game_id": game.id}) == (game.id, {"pots": {"centre": 5}})
        connection.execute(update(_GAME).where(_GAME.c.id == game.id).values(extra={"pots": {"centre": 7}}))
        assert read.first(connection, {"game_id": game.id}) == (game.id, {"pots": {"centre": 7}})
        for number in range(6):
            connection.execute(
                insert(_GAME).values(
                    id=f"memo{number}",
                    edition_id="classic-it",
                    join_code=f"MEMO{number}",
                    banker_token_hash=f"memo{number}",
                    extra={"n": number},
                )
            )
        small = Prepared(every, memo=4)
        rows = small.all(connection, {})
        assert {row[0]: row[1] for row in rows}[f"memo{5}"] == {"n": 5} and len(rows) == 7
        memo = small._form(connection, {}).memo
        assert (memo is not None and 0 < len(memo) <= 4) is kept and (memo is None) is not kept
        db.session.rollback()
