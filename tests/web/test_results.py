"""The results page and its exports: the winner, the ranking with each count part by part,
the chart of worth drawn from the journal, private cash kept private until the end."""

from __future__ import annotations

import csv
import io
import re

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from companion import services
from companion.core.ledger import Posting as CorePosting
from companion.core.replay import Step, starting_state, worth_through
from companion.core.settings import pots_for
from companion.core.state import Change
from companion.services import results as results_service
from companion.store import Entry, db
from tests.conftest import act
from tests.longgame import lengthen
from tests.web.test_pages import keyed, open_table, sit_down, start


def play(app, client, edition="classic-it"):
    """A table of three: Anna pays Bruno 300 and buys Vicolo Corto through the API."""
    game_id, _ = open_table(client, edition=edition)
    phones = {name: sit_down(app, game_id, name) for name in ("Anna", "Bruno", "Carla")}
    start(client, game_id)
    with app.app_context():
        game = services.get_game(game_id)
        ids = {p.name: p.id for p in game.players}
        banker = services.Caller(game_id, True, None)
        act(game_id, banker, {"type": "transfer", "from": ids["Anna"], "to": ids["Bruno"], "amount": 300})
        act(game_id, banker, {"type": "buy", "player": ids["Anna"], "deed": "vicolo-corto"})
    return game_id, phones, ids


def end(client, game_id):
    page = client.get(f"/g/{game_id}/table").get_data(as_text=True)
    assert client.post(f"/g/{game_id}/table", data=keyed(page, "end")).status_code == 302


def test_the_results_name_the_winner_and_every_count(app, client):
    game_id, phones, _ids = play(app, client)
    end(client, game_id)
    page = phones["Carla"].get(f"/g/{game_id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert re.search(r'class="winner">Bruno<', page)
    assert "1,800" in page and "1,500" in page and "1,200" in page  # Bruno, Carla; Anna's cash
    assert "Deeds" in page and "<svg" in page and "polyline" in page
    assert "A long game" not in page  # a point for each change of worth
    rows = list(
        csv.reader(
            io.StringIO(
                phones["Anna"]
                .get(f"/g/{game_id}/results.csv", headers={"Accept-Language": "en"})
                .get_data(as_text=True)
            )
        )
    )
    assert rows[0][:2] == ["Rank", "Player"]
    assert [r[1] for r in rows[1:]] == ["Bruno", "Carla", "Anna"]
    assert rows[3][2:6] == ["1140", "60", "0", "1200"]
    data = phones["Bruno"].get(f"/g/{game_id}/results.json").get_json()
    assert data["final"] is True and data["standings"][0]["breakdown"] == {"cash": 1800, "deeds": 0, "buildings": 0}


def test_the_chart_follows_the_journal(app, client):
    game_id, _, ids = play(app, client)
    with app.app_context():
        points = services.worth_points(services.get_game(game_id))
    worth = dict(points)
    # After the start everyone holds 1500; after the payment Anna 1200 and Bruno 1800; buying
    # at the printed price changes nobody's worth, so it draws no new point.
    assert [values for _, values in points][-2:] == [
        {ids["Anna"]: 1500, ids["Bruno"]: 1500, ids["Carla"]: 1500},
        {ids["Anna"]: 1200, ids["Bruno"]: 1800, ids["Carla"]: 1500},
    ]
    assert min(worth) == 0


def test_private_cash_stays_private_in_the_standings_until_the_end(app, client):
    game_id, phones, _ = play(app, client, edition="campionato-2015")
    page = phones["Carla"].get(f"/g/{game_id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "1,800" not in page and "1,140" not in page and "1,500" in page  # only her own count
    assert "<svg" not in page
    data = phones["Carla"].get(f"/g/{game_id}/results.json").get_json()
    assert [r["total"] for r in data["standings"] if r["name"] != "Carla"] == [None, None]
    end(client, game_id)
    page = phones["Carla"].get(f"/g/{game_id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "1,800" in page and "25 points" not in page and "22 points" in page


def test_strangers_are_sent_to_join(app, client):
    game_id, _, _ = play(app, client)
    stranger = app.test_client()
    assert stranger.get(f"/g/{game_id}/results").status_code == 302
    assert stranger.get(f"/g/{game_id}/results.csv").status_code == 302


def longer(app, game_id, entries, seed=1):
    """``entries`` more payments in ``game_id``'s journal, written straight into its tables."""
    with app.app_context():
        lengthen(db.session.connection(), game_id, entries, seed)
        db.session.commit()


def replayed(app, game_id):
    """Every player's worth after each version that changed it, every entry replayed one by one
    (as the chart was drawn before it kept to ``CHART_POINTS``)."""
    with app.app_context():
        game = services.get_game(game_id)
        state = services.state_of(game, deeds=False)
        start = starting_state(
            services.edition_of(game), [(p.id, p.name) for p in game.players], state.settings, pots_for(state.settings)
        )
        entries = db.session.execute(
            select(Entry).where(Entry.game_id == game_id).order_by(Entry.version).options(selectinload(Entry.postings))
        ).scalars()
        return worth_through(
            start,
            (
                Step(e.version, [CorePosting(p.account, p.amount) for p in e.postings], [Change(*c) for c in e.changes])
                for e in entries
            ),
        )


def worth_at(points, version):
    """The worth a list of points (as ``worth_points`` gives it) says at ``version``."""
    return [values for at, values in points if at <= version][-1]


def chart_points(page: str) -> list[int]:
    """How many points each line of the page's chart has."""
    return [len(line.split()) for line in re.findall(r'<polyline[^>]*points="([^"]*)"', page)]


def test_a_long_game_draws_its_chart_from_a_fixed_number_of_exact_points(app, client):
    game_id, phones, ids = play(app, client)
    longer(app, game_id, 1500)
    with app.app_context():
        banker = services.Caller(game_id, True, None)
        richest = max(services.get_game(game_id).players, key=lambda p: p.cash)
        act(game_id, banker, {"type": "buy", "player": richest.id, "deed": "vicolo-stretto"})
        act(game_id, banker, {"type": "mortgage", "player": ids["Anna"], "deed": "vicolo-corto"})
    longer(app, game_id, 1500, seed=2)
    every = replayed(app, game_id)
    with app.app_context():
        game = services.get_game(game_id)
        points = services.worth_points(game)
        version = game.version
    assert version > 3000 and len(every) > 2 * results_service.CHART_POINTS
    assert len(points) <= results_service.CHART_POINTS + 1
    assert points[0][0] == 0 and points[-1][0] == version
    # Each point is the worth the journal left at its version, the last one the game's now.
    assert all(values == worth_at(every, at) for at, values in points)
    assert points[-1][1] == every[-1][1]
    page = phones["Anna"].get(f"/g/{game_id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
    lines = chart_points(page)
    assert len(lines) == 3 and max(lines) <= 2 * (results_service.CHART_POINTS + 1) + 1
    span = services.chart_span(version)
    assert span == 16 and f"the chart shows everyone's worth every {span} moves, and now." in page
    page = phones["Anna"].get(f"/g/{game_id}/results", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert f"il grafico mostra quanto vale ciascuno ogni {span} mosse, e adesso." in page


def test_the_chart_kept_between_reads_grows_with_the_journal(app, client):
    game_id, _, _ = play(app, client)
    for entries in (150, 40, 900, 1):  # past CHART_POINTS, then past twice and four times it
        longer(app, game_id, entries, seed=entries)
        with app.app_context():
            kept = services.worth_points(services.get_game(game_id))
        every = replayed(app, game_id)
        assert len(kept) <= results_service.CHART_POINTS + 1
        assert all(values == worth_at(every, at) for at, values in kept)
        assert kept[-1][1] == every[-1][1]
        results_service._SERIES.clear()  # the same chart read afresh
        with app.app_context():
            assert services.worth_points(services.get_game(game_id)) == kept


def test_the_results_page_weighs_the_same_at_1000_and_3000_entries(app, client):
    sizes = {}
    for entries in (1000, 3000):
        game_id, phones, _ = play(app, client)
        longer(app, game_id, entries)
        page = phones["Anna"].get(f"/g/{game_id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
        assert "<svg" in page
        sizes[entries] = len(page.encode())
    # Spans a power of two long: between half and all of CHART_POINTS points, whatever the length.
    assert sizes[3000] < 1.5 * sizes[1000] and sizes[1000] < 1.5 * sizes[3000], sizes
    assert sizes[3000] < 40_000, sizes  # drawn from every entry, the chart alone was 10 times that
