"""The score: each edition's final count on hand-made positions, the tiebreaks, every cell of
the championship's points table, and players out of the game. Totals are worked out by hand
from the printed deeds."""

from __future__ import annotations

import pytest

from companion.core import rules
from companion.core.score import standings, winner
from tests.core.conftest import EDITIONS, act, give, new_state, owing, set_player

# The rulebook's table (players left -> points for 1st, 2nd, ...).
POINTS = {1: [28], 2: [25, 14], 3: [22, 12, 6], 4: [19, 10, 5, 3], 5: [16, 8, 4, 2, 1], 6: [13, 6, 3, 1, 1]}


def by_player(rows):
    return {r.player: r for r in rows}


def test_classic_count_with_its_breakdown():
    state = new_state("classic-it", cash=1000)
    give(state, "a", "vicolo-corto", mortgaged=True)  # price 60: counts 30
    give(state, "a", "via-roma", "corso-impero", houses=2)  # 2 x 300, 2 x 2 houses at 200
    give(state, "b", "parco-della-vittoria", hotel=True)  # 400, a hotel = 5 x 200
    rows = by_player(standings(state))
    assert rows["a"].breakdown == {"cash": 1000, "deeds": 30 + 300 + 300, "buildings": 4 * 200}
    assert rows["a"].total == 2430
    assert rows["b"].breakdown == {"cash": 1000, "deeds": 400, "buildings": 1000} and rows["b"].total == 2400
    assert [r.player for r in standings(state)] == ["a", "b", "c"]
    assert [r.rank for r in standings(state)] == [1, 2, 3]
    assert all(r.tournament_points is None for r in standings(state))  # no points table


def test_the_championship_tie_goes_to_the_higher_unmortgaged_deeds():
    state = new_state("campionato-2015", cash=1000)
    give(state, "a", "vicolo-corto")  # 60 unmortgaged: worth 1060
    give(state, "b", "via-roma", mortgaged=True)  # 300 mortgaged: counts 150
    set_player(state, "b", cash=910)  # worth 1060 too
    rows = standings(state)
    assert [(r.player, r.total, r.rank) for r in rows] == [("a", 1060, 1), ("b", 1060, 2), ("c", 1000, 3)]
    assert [r.tournament_points for r in rows] == [22, 12, 6]


def test_the_championship_tie_counts_the_buildings_on_the_unmortgaged_deeds():
    """Seed 001 lines 124-131: "inserite in tabella il valore di ogni proprietà che possedete.
    C'è una casella che va spuntata a seconda di quanti edifici ci sono sopra la proprietà e se
    è ipotecata o no [...] In caso di pareggio, vince il giocatore che possiede il valore di
    proprietà non ipotecato più alto." The property's value is the sheet's, buildings included:
    Anna's browns with two houses each (120 + 4 x 50) beat Bruno's Piazza Dante (200) and the
    mortgaged Via Roma, which counts only in the total."""
    state = new_state("campionato-2015", cash=1000)
    give(state, "a", "vicolo-corto", "vicolo-stretto", houses=2)  # 120 + 200: worth 1320
    give(state, "b", "piazza-dante")  # 200
    give(state, "b", "via-roma", mortgaged=True)  # 150 in the total, nothing in the tiebreak
    set_player(state, "b", cash=970)  # worth 1320 too
    set_player(state, "c", cash=1320)
    rows = standings(state)
    assert [(r.player, r.total, r.rank) for r in rows] == [("a", 1320, 1), ("b", 1320, 2), ("c", 1320, 3)]
    # Printed prices alone (the edition file's other reading) would put Bruno first.
    printed = new_state("campionato-2015", cash=1000, tiebreak={"policy": "unmortgaged_deeds_value"})
    give(printed, "a", "vicolo-corto", "vicolo-stretto", houses=2)
    give(printed, "b", "piazza-dante")
    give(printed, "b", "via-roma", mortgaged=True)
    set_player(printed, "b", cash=970)
    assert [r.player for r in standings(printed)][:2] == ["b", "a"]


def test_players_the_tiebreak_cannot_separate_share_the_place_and_its_points():
    state = new_state("campionato-2015", cash=1000, players=4)
    rows = standings(state)
    assert {r.rank for r in rows} == {1} and {r.tournament_points for r in rows} == {19}


@pytest.mark.parametrize("left", sorted(POINTS))
def test_every_cell_of_the_points_table(left):
    table = EDITIONS["campionato-2015"].tournament_points
    for place, points in enumerate(POINTS[left], start=1):
        assert table.points(place, left) == points
    assert table.points(len(POINTS[left]) + 1, left) == 0
    assert table.beyond == 6


@pytest.mark.parametrize("left, place, points", [(7, 1, 13), (8, 5, 1), (8, 6, 0), (7, 7, 0)])
def test_beyond_the_table_the_last_row_counts(left, place, points):
    assert EDITIONS["campionato-2015"].tournament_points.points(place, left) == points


def test_players_out_of_the_game_come_last_and_score_nothing():
    state = new_state("campionato-2015", cash=500, players=4)
    act(state, rules.bankrupt(state, "d", "bank", owing(state, "d")))
    act(state, rules.bankrupt(state, "c", "bank", owing(state, "c")))
    set_player(state, "a", cash=900)
    rows = standings(state)
    # The worked example of the rulebook: 4 at the table, 2 eliminated: 25 and 14.
    assert [(r.player, r.rank, r.tournament_points, r.out) for r in rows] == [
        ("a", 1, 25, False),
        ("b", 2, 14, False),
        ("c", 3, 0, True),
        ("d", 4, 0, True),
    ]
    assert rows[2].total == 0 and set(rows[2].breakdown) == {"cash", "deeds", "buildings"}
    assert winner(state) is None
    act(state, rules.bankrupt(state, "b", "a", owing(state, "b")))
    assert winner(state) == "a"
    assert standings(state)[0].tournament_points == 28


def test_the_last_player_standing_wins_and_the_game_ends_by_itself():
    state = new_state("classic-it", players=3)
    act(state, rules.bankrupt(state, "c", "bank", owing(state, "c")))
    assert state.status == "running"
    give(state, "b", "vicolo-corto")
    outcome = act(state, rules.bankrupt(state, "b", "a", owing(state, "b")))  # act() also proves undo reopens it
    assert state.status == "finished"
    assert outcome.params["winner"] == outcome.result["winner"] == "a"
    assert outcome.result["to_auction"] == []
    assert winner(state) == "a" and standings(state)[0].player == "a"
