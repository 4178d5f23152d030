"""A tournament's pure rules: table sizes, draws and the general standings."""
from __future__ import annotations

import itertools

import pytest

from companion.core.errors import BancoError
from companion.core.tournament import Result, draw, met_before, standings, table_sizes


@pytest.mark.parametrize("players, sizes", [
    (4, [4]), (5, [5]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [5, 4]), (11, [4, 4, 3]), (12, [4, 4, 4]),
    (16, [4, 4, 4, 4]), (17, [5, 4, 4, 4]),
])
def test_tables_are_as_even_as_the_count_allows(players, sizes):
    got = table_sizes(players, 4, 2, 8)
    assert got == sizes and sum(got) == players and max(got) - min(got) <= 1


def test_a_table_never_goes_outside_the_editions_range():
    assert table_sizes(13, 6, 2, 6) == [5, 4, 4]  # 7 + 6 would seat 7 at a table of at most 6
    with pytest.raises(BancoError) as info:
        table_sizes(1, 4, 2, 8)
    assert info.value.code == "too_few_players"


def pairs(tables):
    return {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}


def test_the_draw_seats_everyone_once_and_is_repeatable():
    players = [f"p{i}" for i in range(11)]
    first = draw(players, [4, 4, 3], {}, "s1")
    assert sorted(p for t in first for p in t) == sorted(players)
    assert [len(t) for t in first] == [4, 4, 3]
    assert draw(players, [4, 4, 3], {}, "s1") == first
    assert any(draw(players, [4, 4, 3], {}, f"s{n}") != first for n in range(2, 6))


def test_nobody_meets_again_where_another_draw_exists():
    players = [f"p{i}" for i in range(16)]
    rounds = []
    for n in range(3):  # 16 players at 4 tables of 4: three rounds with no pair meeting twice exist
        tables = draw(players, [4, 4, 4, 4], met_before(rounds), f"seed:{n}")
        assert not (pairs(tables) & set(met_before(rounds))), n
        rounds.append(tables)


def test_with_8_at_two_tables_the_second_round_repeats_as_little_as_possible():
    players = [f"p{i}" for i in range(8)]
    first = draw(players, [4, 4], {}, 1)
    second = draw(players, [4, 4], met_before([first]), 2)
    repeats = len(pairs(second) & pairs(first))
    assert repeats == 4  # two from each first-round table at each: the fewest possible


def test_standings_add_points_and_break_ties_by_wins_then_worth():
    results = [Result("a", 25, 1, 3000), Result("b", 14, 2, 1500), Result("c", 0, None, 0),
               Result("a", 6, 3, 900), Result("b", 22, 1, 2500), Result("c", 12, 2, 1000),
               Result("d", 31, 1, 2000)]  # d: one table (late arrival), 31 points
    table = standings(["a", "b", "c", "d", "e"], results)
    rows = {s.player: s for s in table}
    assert (rows["a"].points, rows["a"].played, rows["a"].wins) == (31, 2, 1)
    assert (rows["b"].points, rows["b"].wins) == (36, 1) and rows["b"].rank == 1
    # a and d both 31 points and one win: a's counts add up to more (3900 > 2000)
    assert rows["a"].rank == 2 and rows["d"].rank == 3
    assert rows["e"].points == 0 and rows["e"].played == 0 and rows["e"].rank == 5
    tie = standings(["x", "y"], [Result("x", 10, 1, 100), Result("y", 10, 1, 100)])
    assert [s.rank for s in tie] == [1, 1]
