"""A whole small tournament through the API (../shared/API.md, third part): 8 players, two
rounds of two tables, the standings from the tables' tournament points."""

from __future__ import annotations

import pytest

# On PostgreSQL too (python -m tests): tournaments, tables and standings as each database orders and stores them.
pytestmark = pytest.mark.database

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
POINTS_4_LEFT = [19, 10, 5, 3]  # the rulebook's row for 4 players left


def ok(result, status=200):
    code, body = result
    assert code == status, body
    return body


def refused(result, status, code):
    got, body = result
    assert (got, body["error"]["code"]) == (status, code), body
    return body["error"]["message"]


def play_table(api, table):
    """Start the table's game, give each seat a different count (seat 0 richest), end it."""
    game = table["game"]
    banker = game["banker_token"]
    path = f"/api/v1/games/{game['id']}/actions"
    ok(api.post(path, {"type": "start"}, banker))
    players = [p["id"] for p in game["players"]]
    for seat, pid in enumerate(players):
        if seat:  # seat k pays 100 × k to the bank: 1500, 1400, 1300, 1200
            ok(api.post(path, {"type": "transfer", "from": pid, "to": "bank", "amount": 100 * seat}, banker))
    ok(api.post(path, {"type": "end"}, banker))


def test_a_tournament_of_eight_over_two_rounds(api):
    created = ok(
        api.post(
            "/api/v1/tournaments",
            {
                "name": "Club night",
                "edition": "campionato-2015",
                "players": NAMES,
                "table_size": 4,
                "round_minutes": 90,
                "seed": 7,
            },
        ),
        201,
    )
    tid, director = created["id"], created["director_token"]
    ids = {p["name"]: p["id"] for p in created["players"]}
    refused(api.post(f"/api/v1/tournaments/{tid}/rounds", {}, "wrong"), 403, "not_director")
    first = ok(api.post(f"/api/v1/tournaments/{tid}/rounds", {}, director), 201)
    assert first["round"] == 1 and [len(t["players"]) for t in first["tables"]] == [4, 4]
    seated = [pid for t in first["tables"] for pid in t["players"]]
    assert sorted(seated) == sorted(ids.values())
    for table in first["tables"]:  # each table's game holds its players in seat order, on a 90' clock
        names = [p["name"] for p in table["game"]["players"]]
        assert names == [next(n for n, i in ids.items() if i == pid) for pid in table["players"]]
    message = refused(api.post(f"/api/v1/tournaments/{tid}/rounds", {}, director), 409, "tables_still_playing")
    assert "1, 2" in message
    for table in first["tables"]:
        play_table(api, table)
    second = ok(api.post(f"/api/v1/tournaments/{tid}/rounds", {}, director), 201)
    assert second["round"] == 2
    for table in second["tables"]:
        play_table(api, table)
    view = ok(api.get(f"/api/v1/tournaments/{tid}"))
    expected = dict.fromkeys(ids.values(), 0)
    for rnd in (first, second):
        for table in rnd["tables"]:
            for seat, pid in enumerate(table["players"]):
                expected[pid] += POINTS_4_LEFT[seat]
    got = {row["player"]: row["points"] for row in view["standings"]}
    assert got == expected
    assert all(row["played"] == 2 for row in view["standings"])
    ranks = [row["rank"] for row in view["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert [r["round"] for r in view["rounds"]] == [1, 2]
    assert all(t["status"] == "finished" for r in view["rounds"] for t in r["tables"])


def test_late_arrivals_and_withdrawals(api):
    created = ok(
        api.post(
            "/api/v1/tournaments", {"name": "Open", "edition": "campionato-2015", "players": NAMES[:6], "seed": 3}
        ),
        201,
    )
    tid, director = created["id"], created["director_token"]
    late = ok(api.post(f"/api/v1/tournaments/{tid}/players", {"name": "Zoe"}, director), 201)
    gone = created["players"][0]["id"]
    ok(api.post(f"/api/v1/tournaments/{tid}/players/{gone}/withdraw", {}, director))
    refused(api.post(f"/api/v1/tournaments/{tid}/players/{gone}/withdraw", {}, director), 409, "already_withdrawn")
    drawn = ok(api.post(f"/api/v1/tournaments/{tid}/rounds", {}, director), 201)
    seated = [pid for t in drawn["tables"] for pid in t["players"]]
    assert late["id"] in seated and gone not in seated and len(seated) == 6
    assert sorted(len(t["players"]) for t in drawn["tables"]) == [3, 3]


def test_bad_tournaments_are_refused(api):
    refused(
        api.post("/api/v1/tournaments", {"name": "X", "edition": "classic-it", "players": NAMES}),
        400,
        "no_tournament_points",
    )
    refused(
        api.post("/api/v1/tournaments", {"name": "", "edition": "campionato-2015", "players": NAMES}),
        400,
        "invalid_name",
    )
    refused(
        api.post(
            "/api/v1/tournaments", {"name": "X", "edition": "campionato-2015", "players": NAMES, "table_size": 12}
        ),
        400,
        "invalid_table_size",
    )
    refused(api.get("/api/v1/tournaments/nope"), 404, "unknown_tournament")


def play_ranked(api, table, extra):
    """Start the table's game; seat k pays 100 × k plus ``extra[player]`` to the bank (so no two
    counts are equal anywhere), and end it: the seats finish in order."""
    game = table["game"]
    banker = game["banker_token"]
    path = f"/api/v1/games/{game['id']}/actions"
    ok(api.post(path, {"type": "start"}, banker))
    for seat, (pid, tp) in enumerate(zip([p["id"] for p in game["players"]], table["players"])):
        amount = 100 * seat + extra[tp]
        if amount:
            ok(api.post(path, {"type": "transfer", "from": pid, "to": "bank", "amount": amount}, banker))
    ok(api.post(path, {"type": "end"}, banker))


def settings_of(api, table):
    return ok(api.get(f"/api/v1/games/{table['game']['id']}", table["game"]["banker_token"]))["settings"]


def test_a_tournament_through_the_semi_finals_and_the_final(api):
    created = ok(
        api.post(
            "/api/v1/tournaments",
            {
                "name": "Finals night",
                "edition": "campionato-2015",
                "players": NAMES,
                "table_size": 4,
                "seed": 11,
                "finals": {"semi_finalists": 8, "semi_final_tables": 2, "final_players": 4, "finalists_by": "places"},
            },
        ),
        201,
    )
    tid, director = created["id"], created["director_token"]
    ids = [p["id"] for p in created["players"]]
    extra = {pid: i for i, pid in enumerate(ids)}  # Anna pays 0 more, Ugo 7 more
    rounds = f"/api/v1/tournaments/{tid}/rounds"
    refused(api.post(rounds, {"stage": "semi_final"}, director), 409, "no_round_played")
    refused(api.post(rounds, {"stage": "quarter_final"}, director), 400, "invalid_stage")
    played = []
    for _ in range(2):
        drawn = ok(api.post(rounds, {}, director), 201)
        assert drawn["stage"] == "round"
        for table in drawn["tables"]:
            assert settings_of(api, table)["no_trades_two_left"] is True  # FAQ 31: preliminary games
            play_ranked(api, table, extra)
        played.append(drawn)
    refused(api.post(rounds, {"stage": "final"}, director), 409, "semi_finals_first")

    # By hand: points by seat (19, 10, 5, 3 with four left), wins, and counts 1500 - 100 × seat - extra.
    points, wins, worth = dict.fromkeys(ids, 0), dict.fromkeys(ids, 0), dict.fromkeys(ids, 0)
    for drawn in played:
        for table in drawn["tables"]:
            for seat, pid in enumerate(table["players"]):
                points[pid] += POINTS_4_LEFT[seat]
                wins[pid] += seat == 0
                worth[pid] += 1500 - 100 * seat - extra[pid]
    seeds = sorted(ids, key=lambda p: (-points[p], -wins[p], -worth[p]))
    view = ok(api.get(f"/api/v1/tournaments/{tid}"))
    assert [row["player"] for row in view["standings"]] == seeds
    assert [row["rank"] for row in view["standings"]] == list(range(1, 9))

    semi = ok(api.post(rounds, {"stage": "semi_final"}, director), 201)
    assert semi["stage"] == "semi_final" and semi["round"] == 3
    s = seeds
    assert [t["players"] for t in semi["tables"]] == [[s[0], s[3], s[4], s[7]], [s[1], s[2], s[5], s[6]]]
    for table in semi["tables"]:
        assert settings_of(api, table)["no_trades_two_left"] is False  # FAQ 31: trades stay open
    refused(api.post(rounds, {}, director), 409, "semi_finals_drawn")
    refused(api.post(rounds, {"stage": "semi_final"}, director), 409, "semi_finals_drawn")
    message = refused(api.post(rounds, {"stage": "final", "force": True}, director), 409, "tables_still_playing")
    assert "1, 2" in message and "3" in message

    # Two left at a semi-final table may still trade (FAQ 31).
    table = semi["tables"][0]
    game, banker = table["game"], table["game"]["banker_token"]
    path = f"/api/v1/games/{game['id']}/actions"
    seat = {p["id"]: p["token"] for p in game["players"]}
    pids = [p["id"] for p in game["players"]]
    ok(api.post(path, {"type": "start"}, banker))
    # Each owes the bank more than the 1,500 they hold and nothing else.
    ok(api.post(path, {"type": "bankrupt", "creditor": "bank", "amount": 1501}, seat[pids[2]]))
    ok(api.post(path, {"type": "bankrupt", "creditor": "bank", "amount": 1501}, seat[pids[3]]))
    ok(
        api.post(
            path,
            {
                "type": "trade_propose",
                "to": pids[1],
                "give": {"cash": 10, "deeds": []},
                "get": {"cash": 0, "deeds": []},
            },
            seat[pids[0]],
        )
    )
    ok(api.post(path, {"type": "transfer", "from": pids[1], "to": "bank", "amount": 100}, banker))
    ok(api.post(path, {"type": "end"}, banker))
    play_ranked(api, semi["tables"][1], extra)

    final = ok(api.post(rounds, {"stage": "final"}, director), 201)
    assert final["stage"] == "final" and len(final["tables"]) == 1
    a, b = semi["tables"][0]["players"], semi["tables"][1]["players"]
    # By places: both winners, then both seconds (table 1's two left: its second has 14 points).
    assert final["tables"][0]["players"] == [a[0], b[0], a[1], b[1]]
    assert settings_of(api, final["tables"][0])["no_trades_two_left"] is False
    play_ranked(api, final["tables"][0], extra)
    view = ok(api.get(f"/api/v1/tournaments/{tid}"))
    assert [r["stage"] for r in view["rounds"]] == ["round", "round", "semi_final", "final"]
    assert view["finals"]["champion"] == a[0]
    assert [row["player"] for row in view["standings"]] == seeds  # the finals' points are not added
    assert all(row["played"] == 2 for row in view["standings"])
    assert [r["place"] for r in view["rounds"][3]["tables"][0]["results"]] == [1, 2, 3, 4]
    refused(api.post(rounds, {}, director), 409, "final_drawn")


def test_a_final_straight_from_the_standings_skips_withdrawn_players(api):
    created = ok(
        api.post(
            "/api/v1/tournaments",
            {
                "name": "Short",
                "edition": "campionato-2015",
                "players": NAMES[:6],
                "table_size": 3,
                "seed": 5,
                "finals": {"semi_finalists": 0, "final_players": 3},
            },
        ),
        201,
    )
    tid, director = created["id"], created["director_token"]
    ids = [p["id"] for p in created["players"]]
    rounds = f"/api/v1/tournaments/{tid}/rounds"
    drawn = ok(api.post(rounds, {}, director), 201)
    for table in drawn["tables"]:
        play_ranked(api, table, {pid: i for i, pid in enumerate(ids)})
    refused(api.post(rounds, {"stage": "semi_final"}, director), 409, "no_semi_finals")
    top = ok(api.get(f"/api/v1/tournaments/{tid}"))["standings"]
    ok(api.post(f"/api/v1/tournaments/{tid}/players/{top[0]['player']}/withdraw", {}, director))
    assert ok(api.get(f"/api/v1/tournaments/{tid}"))["standings"] == top  # a withdrawal keeps their points
    final = ok(api.post(rounds, {"stage": "final"}, director), 201)
    assert final["tables"][0]["players"] == [row["player"] for row in top[1:4]]


def test_the_referee_sees_every_table_and_changes_nothing(api):
    created = ok(
        api.post(
            "/api/v1/tournaments",
            {"name": "Watched", "edition": "campionato-2015", "players": NAMES, "seed": 2, "last_minutes": 15},
        ),
        201,
    )
    tid, director = created["id"], created["director_token"]
    refused(api.post(f"/api/v1/tournaments/{tid}/referee", {}, "nope"), 403, "not_director")
    referee = ok(api.post(f"/api/v1/tournaments/{tid}/referee", {}, director), 201)["referee_token"]
    drawn = ok(api.post(f"/api/v1/tournaments/{tid}/rounds", {}, director), 201)
    table = drawn["tables"][0]
    game = table["game"]
    tokens = {p["id"]: p["token"] for p in game["players"]}
    pids = list(tokens)
    path = f"/api/v1/games/{game['id']}/actions"
    ok(api.post(path, {"type": "start"}, game["banker_token"]))
    ok(
        api.post(
            path,
            {
                "type": "trade_propose",
                "to": pids[1],
                "give": {"cash": 10, "deeds": []},
                "get": {"cash": 0, "deeds": []},
            },
            tokens[pids[0]],
        )
    )
    ok(api.post(path, {"type": "clock_pause"}, game["banker_token"]))
    seen = ok(api.get(f"/api/v1/tournaments/{tid}/tables", referee))
    first, second = seen["rounds"][0]["tables"]
    assert first["status"] == "running" and second["status"] == "setup"
    assert first["clock"]["running"] is False and first["clock"]["last_minutes"] == 15
    assert first["waiting_on"] == [{"kind": "trade", "who": pids[1], "name": game["players"][1]["name"], "deed": None}]
    assert [p["id"] for p in first["players"]] == table["players"]
    assert settings_of(api, table)["last_minutes"] == 15
    assert ok(api.get(f"/api/v1/tournaments/{tid}/tables", director))["rounds"] == seen["rounds"]
    refused(api.post(f"/api/v1/tournaments/{tid}/rounds", {"force": True}, referee), 403, "not_director")
    refused(api.post(f"/api/v1/tournaments/{tid}/players", {"name": "Zed"}, referee), 403, "not_director")
    refused(api.get(f"/api/v1/tournaments/{tid}/tables"), 401, "missing_token")
    refused(api.get(f"/api/v1/tournaments/{tid}/tables", "nope"), 403, "not_referee")
    ok(api.post(f"/api/v1/tournaments/{tid}/referee", {}, director), 201)  # a new code signs the old one out
    refused(api.get(f"/api/v1/tournaments/{tid}/tables", referee), 403, "not_referee")


def test_bad_finals_are_refused(api):
    base = {"name": "X", "edition": "campionato-2015", "players": NAMES}
    for finals, code in [
        ({"semi_finalists": 17}, "invalid_semi_finals"),
        ({"semi_finalists": 8, "semi_final_tables": 5}, "invalid_semi_finals"),
        ({"final_players": 9}, "invalid_final_players"),
        ({"semi_finalists": 4, "semi_final_tables": 2, "final_players": 5}, "invalid_final_players"),
        ({"finalists_by": "luck"}, "invalid_finalists_by"),
        ({"semi_finalists": "8"}, "invalid_finals"),
        ([8], "invalid_finals"),
    ]:
        refused(api.post("/api/v1/tournaments", {**base, "finals": finals}), 400, code)
    for minutes in (90, -1, True, "10"):
        refused(api.post("/api/v1/tournaments", {**base, "last_minutes": minutes}), 400, "invalid_last_minutes")
    for rounds in (0, 21, True, "2", 1.5):
        refused(
            api.post("/api/v1/tournaments", {**base, "preliminary_rounds": rounds}), 400, "invalid_preliminary_rounds"
        )


def test_the_preliminary_rounds_are_a_setting_of_the_tournament(api):
    base = {"name": "Club", "edition": "campionato-2015", "players": NAMES}
    made = ok(api.post("/api/v1/tournaments", {**base, "preliminary_rounds": 3}), 201)
    assert ok(api.get(f"/api/v1/tournaments/{made['id']}"))["preliminary_rounds"] == 3
    made = ok(api.post("/api/v1/tournaments", base), 201)
    assert ok(api.get(f"/api/v1/tournaments/{made['id']}"))["preliminary_rounds"] == 2
