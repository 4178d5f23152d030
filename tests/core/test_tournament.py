"""A tournament's pure rules: table sizes, draws and the general standings."""

from __future__ import annotations

import itertools

import pytest

from companion.core.errors import BancoError
from companion.core.tournament import Result, draw, met_before, standings, table_sizes


@pytest.mark.parametrize(
    "players, sizes",
    [
        (4, [4]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [5, 4]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (16, [4, 4, 4, 4]),
        (17, [5, 4, 4, 4]),
    ],
)
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
    results = [
        Result("a", 25, 1, 3000),
        Result("b", 14, 2, 1500),
        Result("c", 0, None, 0),
        Result("a", 6, 3, 900),
        Result("b", 22, 1, 2500),
        Result("c", 12, 2, 1000),
        Result("d", 31, 1, 2000),
    ]  # d: one table (late arrival), 31 points
    table = standings(["a", "b", "c", "d", "e"], results)
    rows = {s.player: s for s in table}
    assert (rows["a"].points, rows["a"].played, rows["a"].wins) == (31, 2, 1)
    assert (rows["b"].points, rows["b"].wins) == (36, 1) and rows["b"].rank == 1
    # a and d both 31 points and one win: a's counts add up to more (3900 > 2000)
    assert rows["a"].rank == 2 and rows["d"].rank == 3
    assert rows["e"].points == 0 and rows["e"].played == 0 and rows["e"].rank == 5
    tie = standings(["x", "y"], [Result("x", 10, 1, 100), Result("y", 10, 1, 100)])
    assert [s.rank for s in tie] == [1, 1]


# --- the semi-finals and the final --------------------------------------------------------------

from companion.core.tournament import Finals, check_finals, finalists, seeded, snake  # noqa: E402


def test_snake_seeding_balances_the_tables():
    seeds = [f"s{i}" for i in range(1, 9)]
    assert snake(seeds, 2) == [["s1", "s4", "s5", "s8"], ["s2", "s3", "s6", "s7"]]
    assert snake(seeds[:6], 3) == [["s1", "s6"], ["s2", "s5"], ["s3", "s4"]]
    assert snake(seeds[:7], 2) == [["s1", "s4", "s5"], ["s2", "s3", "s6", "s7"]]


def test_seeding_follows_the_standings_and_skips_who_is_out():
    # By hand: a 31 (1 win), b 31 (0 wins), c 24, d 24 (same wins, d worth more), e 12.
    results = [
        Result("a", 25, 1, 3000),
        Result("a", 6, 3, 900),
        Result("b", 14, 2, 1500),
        Result("b", 17, 2, 2000),
        Result("c", 12, 2, 1000),
        Result("c", 12, 2, 1000),
        Result("d", 12, 2, 1200),
        Result("d", 12, 2, 900),
        Result("e", 12, 2, 100),
    ]
    table = standings(list("abcde"), results)
    assert seeded(table, "abcde", 4, 1) == ["a", "b", "d", "c"]
    assert seeded(table, "bcde", 3, 1) == ["b", "d", "c"]  # a withdrew: the next one goes up
    with pytest.raises(BancoError) as info:
        seeded(table, "ab", 3, 1)
    assert info.value.code == "too_few_for_stage"


def test_players_equal_on_every_tiebreak_are_seeded_by_the_seed():
    table = standings(list("wxyz"), [Result(p, 10, 2, 500) for p in "wxyz"])
    orders = {tuple(seeded(table, "wxyz", 4, seed)) for seed in range(12)}
    assert len(orders) > 1 and all(sorted(o) == list("wxyz") for o in orders)
    assert seeded(table, "wxyz", 4, 3) == seeded(table, "wxyz", 4, 3)


def test_finalists_by_places_and_by_points():
    seeds = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"]
    # Table 1 (s1 s4 s5 s8) ended with two left; table 2 (s2 s3 s6 s7) with four.
    results = [
        Result("s4", 25, 1, 4000),
        Result("s1", 14, 2, 2000),
        Result("s5", 0, 3, 0),
        Result("s8", 0, 4, 0),
        Result("s2", 19, 1, 3000),
        Result("s7", 10, 2, 2500),
        Result("s3", 5, 3, 2400),
        Result("s6", 3, 4, 1000),
    ]
    assert finalists(results, seeds, 4, "places") == ["s4", "s2", "s1", "s7"]
    assert finalists(results, seeds, 2, "places") == ["s4", "s2"]
    assert finalists(results, seeds, 4, "points") == ["s4", "s2", "s1", "s7"]
    assert finalists(results, seeds, 5, "points") == ["s4", "s2", "s1", "s7", "s3"]
    even = [Result("s3", 10, 2, 500), Result("s2", 10, 2, 500)]  # equal on everything: the better seed
    assert finalists(even, seeds, 1, "points") == ["s2"]


def test_finals_settings_must_seat_their_tables():
    check_finals(Finals(8, 2, 4, "places"), 2, 8)
    check_finals(Finals(0, 0, 6, "points"), 2, 8)
    for finals, code in [
        (Finals(17, 2, 4), "invalid_semi_finals"),
        (Finals(8, 5, 4), "invalid_semi_finals"),
        (Finals(8, 0, 4), "invalid_semi_finals"),
        (Finals(8, 2, 9), "invalid_final_players"),
        (Finals(4, 2, 5), "invalid_final_players"),
        (Finals(8, 2, 4, "luck"), "invalid_finalists_by"),
        (Finals(True, 2, 4), "invalid_finals"),
    ]:
        with pytest.raises(BancoError) as info:
            check_finals(finals, 2, 8)
        assert info.value.code == code, finals
