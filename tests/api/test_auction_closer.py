"""Auctions close themselves (issue 33, item 9): when the countdown ends the server closes the
auction with no page open, through the app's one writer; what the table may not decide stays
the banker's; undo reopens an auction, which the server then leaves open.

The clock is moved on by giving the server's two readers of the time a later one (the sweep's
and the writer's), never by waiting; the live server's own closer is waited on only for its
first sweep."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from companion.services import actions, closer
from companion.services.closer import Closer
from companion.services.door import of as door_of
from companion.store import db, now_utc
from tests.api.gamekit import balanced, ok, owners
from tests.conftest import Api, LiveServer, make_app

# On PostgreSQL too: the sweep reads every running game's auction document (a JSON column) and
# the close locks the game's row in the writer's batch.
pytestmark = pytest.mark.database


@pytest.fixture
def later(monkeypatch):
    """Moves the server's time on by ``seconds``: the countdowns already set are then over."""

    def move(seconds: int) -> None:
        moved = now_utc() + dt.timedelta(seconds=seconds)
        monkeypatch.setattr(closer, "now_utc", lambda: moved)
        monkeypatch.setattr(actions, "now_utc", lambda: moved)

    return move


def sweep(app) -> list[str]:
    with app.app_context():
        return Closer(app, door_of(app).writer).sweep()


def waits_until(done, why: str, seconds: float = 10) -> None:
    """Returns once ``done()`` holds; fails with ``why`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


def test_an_auction_closes_itself_when_its_countdown_ends(app, api, later):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "auction_start", "deed": "via-roma"}))
    ok(game.act("Bruno", {"type": "bid", "amount": 130}))
    assert sweep(app) == []  # 20 s to go: nothing to close
    later(21)
    assert sweep(app) == [game.id]
    assert game.state()["auction"] is None and owners(game)["via-roma"] == game.ids["Bruno"]
    assert game.cash()["Bruno"] == 1500 - 130
    events = api.get(f"/api/v1/games/{game.id}/events", game.banker)[1]["events"]
    assert events[-1]["type"] == "auction_won" and events[-1]["actor"] == "banker"
    assert sweep(app) == []  # once closed, nothing more
    balanced(app, game)


def test_with_no_bid_the_deed_stays_with_the_bank_and_the_championship_leaves_it_to_the_banker(app, api, later):
    classic = api.new_game().start()
    ok(classic.act("Anna", {"type": "auction_start", "deed": "via-roma"}))
    championship = api.new_game(edition="campionato-2015").start()
    ok(championship.act("Anna", {"type": "auction_start", "deed": "via-roma"}))
    later(21)
    assert sweep(app) == [classic.id]  # nobody bid: unsold, as the Bank's page closed it
    assert classic.state()["auction"] is None and owners(classic)["via-roma"] is None
    # Where the richest buys at the opening bid when nobody bids, the banker closes it.
    assert championship.state()["auction"] is not None
    ok(championship.act("banker", {"type": "auction_close", "award_to": championship.ids["Carla"]}))


def test_undo_reopens_the_auction_and_the_table_leaves_it_open(app, api, later):
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "auction_start", "deed": "via-roma"}))
    ok(game.act("Bruno", {"type": "bid", "amount": 130}))
    later(21)
    assert sweep(app) == [game.id]
    ok(game.act("banker", {"type": "undo"}))  # reopened: its countdown long over
    assert game.state()["auction"]["high_bidder"] == game.ids["Bruno"]
    assert sweep(app) == [] and game.state()["auction"] is not None  # the banker's to close
    assert sweep(app) == []  # looked at again only once the game moves on
    ok(game.act("banker", {"type": "auction_close"}))
    assert owners(game)["via-roma"] == game.ids["Bruno"]
    balanced(app, game)


def test_a_bid_that_comes_first_keeps_the_auction_open(app, api, later):
    """The writer judges the close under the game's lock: a bid before it moved the countdown
    on, so the close is refused and changes nothing."""
    game = api.new_game().start()
    ok(game.act("Anna", {"type": "auction_start", "deed": "via-roma"}))
    ok(game.act("Bruno", {"type": "bid", "amount": 130}))
    work = actions.overdue_close(game.id)
    with app.app_context():
        door_of(app).writer.submit(work)
    assert work.error is not None and work.error.code == "auction_not_over"
    assert game.state()["auction"]["high_bid"] == 130


def test_the_server_closes_auctions_with_no_page_open(tmp_path, monkeypatch):
    """The live server starts the closer with itself and stops it with itself; an auction whose
    countdown ran out while it was down is closed by its first sweep."""
    app = make_app(tmp_path)
    game = Api(app.test_client()).new_game().start()
    ok(game.act("Anna", {"type": "auction_start", "deed": "via-roma"}))
    ok(game.act("Bruno", {"type": "bid", "amount": 130}))
    moved = now_utc() + dt.timedelta(seconds=21)
    monkeypatch.setattr(closer, "now_utc", lambda: moved)
    monkeypatch.setattr(actions, "now_utc", lambda: moved)
    server = LiveServer(app).start()
    try:
        waits_until(lambda: game.state()["auction"] is None, "the server did not close the auction")
        assert owners(game)["via-roma"] == game.ids["Bruno"]
    finally:
        server.stop()
    assert door_of(app).closer._thread is None  # stopped with the server
    with app.app_context():
        db.engine.dispose()


def test_the_closer_sleeps_while_no_auction_is_open_and_an_auction_wakes_it(tmp_path, monkeypatch, later):
    """With no auction open the closer does not look (no query a second for an idle table): a
    payment leaves it asleep, an auction opening wakes it, and it then closes the auction when
    the countdown ends, though its own idle look is an hour away."""
    app = make_app(tmp_path)
    game = Api(app.test_client()).new_game().start()
    watcher = door_of(app).closer
    watcher.idle_seconds = 3600
    looks = []
    sweep_once = watcher.sweep
    monkeypatch.setattr(watcher, "sweep", lambda: looks.append(sweep_once()) or looks[-1])
    server = LiveServer(app).start()
    try:
        waits_until(lambda: looks, "the closer did not look as the server started")
        ok(game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 10}))
        assert not watcher._woken.is_set() and len(looks) == 1  # a payment is no auction's business
        ok(game.act("Anna", {"type": "auction_start", "deed": "via-roma"}))
        ok(game.act("Bruno", {"type": "bid", "amount": 130}))
        later(21)
        waits_until(lambda: game.state()["auction"] is None, "the opened auction did not wake the closer")
        assert owners(game)["via-roma"] == game.ids["Bruno"]
    finally:
        server.stop()
    with app.app_context():
        db.engine.dispose()
