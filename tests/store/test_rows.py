"""A game read in a snapshot comes as plain rows (``companion.store.rows``), with exactly what
the ORM's ``Game`` would give there: every column of the game, of each player and of each
deed, in the same order, with the same types (JSON, datetimes, booleans), on SQLite and on
PostgreSQL (the suite's second run). A difference would not fail loudly: a page would show a
wrong value.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import event, update

from companion import services
from companion.store import Game, Holding, Player, db
from companion.store.rows import GameRow, HoldingRow, PlayerRow

# On PostgreSQL too (python -m tests): each database's types, read as the ORM reads them, in its snapshots.
pytestmark = pytest.mark.database


@pytest.fixture
def game(api):
    game = api.new_game(("Anna", "Bruno", "Carla")).start()
    status, body = game.act("Anna", {"type": "buy", "deed": "vicolo-corto"})
    assert status == 200, body
    return game


def _columns(model) -> list[str]:
    return [prop.key for prop in model.__mapper__.column_attrs]


def _orm(game_id):
    db.session.rollback()
    game = db.session.get(Game, game_id)
    return game, list(game.players), list(game.holdings)


def test_the_rows_read_as_the_orm_reads_them(app, game):
    with app.app_context():
        db.session.execute(
            update(Game)
            .where(Game.id == game.id)
            .values(
                clock_running_since=dt.datetime(2026, 12, 3, 21, 5, 30, 123456),
                auction={"deed": "x", "bids": [1, 2]},
                cash_private=True,
            )
        )
        db.session.execute(
            update(Player)
            .where(Player.game_id == game.id, Player.seat == 1)
            .values(bankrupt=True, extra={"skip_turns": 2}, rejoin_expires=dt.datetime(2026, 12, 4, 1, 2, 3))
        )
        db.session.execute(
            update(Holding)
            .where(Holding.game_id == game.id, Holding.position == 1)
            .values(owner_id=None, houses=3, mortgaged=True)
        )
        db.session.commit()
        orm, players, holdings = _orm(game.id)
        expected = (
            {name: getattr(orm, name) for name in _columns(Game)},
            [{name: getattr(p, name) for name in _columns(Player)} for p in players],
            [{name: getattr(h, name) for name in _columns(Holding)} for h in holdings],
        )
        db.session.rollback()
        with services.reading():
            read = services.find_game(game.id)
            assert isinstance(read, GameRow)
            got = (
                {name: getattr(read, name) for name in _columns(Game)},
                [{name: getattr(p, name) for name in _columns(Player)} for p in read.players],
                [{name: getattr(h, name) for name in _columns(Holding)} for h in read.holdings],
            )
            assert all(isinstance(p, PlayerRow) and p.game is read for p in read.players)
            assert all(isinstance(h, HoldingRow) for h in read.holdings)
            assert [p.claimed for p in read.players] == [p.claimed for p in players]
        assert got == expected
        assert isinstance(got[0]["clock_running_since"], dt.datetime) and got[0]["cash_private"] is True
        assert [p["seat"] for p in got[1]] == sorted(p["seat"] for p in got[1])
        assert [h["position"] for h in got[2]] == sorted(h["position"] for h in got[2]) and len(got[2]) > 20


def test_a_snapshot_reads_a_game_once_and_the_next_reads_it_again(app, game):
    with app.app_context():
        statements = []
        event.listen(db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
        with services.reading():
            first = services.find_game(game.id)
            assert services.get_game(game.id) is first
            read_in_one = len(statements)
            first.players  # noqa: B018 (read with the game: no statement more)
            assert len(statements) == read_in_one
        with services.reading():
            assert services.find_game(game.id) is not first
            assert services.find_game("nosuchgame") is None
        assert isinstance(services.find_game(game.id), Game)  # outside a snapshot: the ORM's, to write


def test_a_read_does_not_see_a_write_made_after_its_snapshot_began(app, game):
    """The deeds, read when first asked for, are of the snapshot's instant as the game's row."""
    with app.app_context(), services.reading():
        read = services.find_game(game.id)
        with app.app_context():  # another request's session, committing meanwhile
            db.session.execute(update(Holding).where(Holding.game_id == game.id).values(houses=4))
            db.session.commit()
        assert {h.houses for h in read.holdings} == {0}


def test_the_newest_lines_are_the_journals_and_an_undo_shows_at_once(app, api):
    """``recent_lines`` (two prepared statements, their rows kept decoded) gives what the
    journal's mapped entries say, newest first with their postings; the entry an undo reverses
    is a changed row, read anew, and a count it cannot read is refused."""
    from companion.store import Entry

    game = api.new_game().start()
    anna, bruno = game.ids["Anna"], game.ids["Bruno"]
    for amount in (5, 6, 7):
        status, body = game.act("Bruno", {"type": "transfer", "to": anna, "amount": amount})
        assert status == 200, body

    def journal(count):
        db.session.rollback()
        entries = db.session.query(Entry).filter_by(game_id=game.id).order_by(Entry.version.desc()).limit(count)
        return [
            (
                e.version,
                e.kind,
                e.actor,
                e.params or {},
                e.at,
                e.reversed_by,
                [(p.account, p.amount) for p in e.postings],
            )
            for e in entries
        ]

    def lines(count):
        db.session.rollback()
        return [
            (
                line.version,
                line.kind,
                line.actor,
                line.params,
                line.at,
                line.reversed_by,
                [(p.account, p.amount) for p in line.postings],
            )
            for line in services.recent_lines(services.get_game(game.id), count)
        ]

    with app.app_context():
        assert lines(3) == journal(3) and lines(40) == journal(40) and len(lines(40)) == 5
        assert sorted(lines(1)[0][6]) == sorted([(bruno, -7), (anna, 7)])
    status, body = game.act("banker", {"type": "undo"})
    assert status == 200, body
    with app.app_context():
        undone = lines(40)
        assert undone == journal(40) and undone[1][5] is not None  # the payment of 7, reversed
        with pytest.raises(ValueError):
            services.recent_lines(services.get_game(game.id), 0)
