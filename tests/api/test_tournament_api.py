"""A whole small tournament through the API (../shared/API.md, third part): 8 players, two
rounds of two tables, the standings from the tables' tournament points."""
from __future__ import annotations

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
    created = ok(api.post("/api/v1/tournaments", {"name": "Club night", "edition": "campionato-2015",
                                                  "players": NAMES, "table_size": 4, "round_minutes": 90,
                                                  "seed": 7}), 201)
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
    expected = {pid: 0 for pid in ids.values()}
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
    created = ok(api.post("/api/v1/tournaments", {"name": "Open", "edition": "campionato-2015",
                                                  "players": NAMES[:6], "seed": 3}), 201)
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
    refused(api.post("/api/v1/tournaments", {"name": "X", "edition": "classic-it", "players": NAMES}),
            400, "no_tournament_points")
    refused(api.post("/api/v1/tournaments", {"name": "", "edition": "campionato-2015", "players": NAMES}),
            400, "invalid_name")
    refused(api.post("/api/v1/tournaments", {"name": "X", "edition": "campionato-2015", "players": NAMES,
                                             "table_size": 12}), 400, "invalid_table_size")
    refused(api.get("/api/v1/tournaments/nope"), 404, "unknown_tournament")
