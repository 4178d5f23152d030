"""GET /api/v1/games/{id}/score: live standings during play, the final count after the end,
each row with its breakdown; private cash stays private until the end."""

from __future__ import annotations


def test_the_score_during_play_and_after_the_end(api):
    game = api.new_game().start()
    game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 300})
    game.act("Carla", {"type": "buy", "deed": "vicolo-corto"})
    status, body = api.get(f"/api/v1/games/{game.id}/score", game.tokens["Anna"])
    assert status == 200 and body["final"] is False
    rows = {r["name"]: r for r in body["standings"]}
    assert rows["Bruno"]["rank"] == 1 and rows["Bruno"]["total"] == 1800
    assert rows["Carla"]["breakdown"] == {"cash": 1440, "deeds": 60, "buildings": 0} and rows["Carla"]["total"] == 1500
    assert rows["Anna"]["rank"] == 3 and rows["Anna"]["tournament_points"] is None
    game.act("banker", {"type": "end"})
    status, body = api.get(f"/api/v1/games/{game.id}/score", game.tokens["Carla"])
    assert body["final"] is True and [r["name"] for r in body["standings"]] == ["Bruno", "Carla", "Anna"]


def test_championship_cash_stays_private_until_the_end(api):
    game = api.new_game(edition="campionato-2015").start()
    game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 300})
    _status, body = api.get(f"/api/v1/games/{game.id}/score", game.tokens["Anna"])
    rows = {r["name"]: r for r in body["standings"]}
    assert rows["Anna"]["total"] == 1200 and rows["Bruno"]["total"] is None and rows["Bruno"]["rank"] is None
    banker = {r["name"]: r for r in api.get(f"/api/v1/games/{game.id}/score", game.banker)[1]["standings"]}
    assert banker["Bruno"]["total"] == 1800 and banker["Bruno"]["tournament_points"] == 22
    game.act("banker", {"type": "end"})
    rows = {r["name"]: r for r in api.get(f"/api/v1/games/{game.id}/score", game.tokens["Anna"])[1]["standings"]}
    assert rows["Bruno"]["total"] == 1800 and rows["Anna"]["tournament_points"] == 6


def test_the_score_needs_a_token_of_the_game(api):
    game = api.new_game()
    assert api.get(f"/api/v1/games/{game.id}/score")[0] == 401
    assert api.get("/api/v1/games/nope/score", game.banker)[0] == 404


def test_the_last_player_standing_ends_the_game_and_its_clock(api):
    game = api.new_game(players=("Anna", "Bruno"), time_limit_minutes=60).start()
    owed = game.beyond_means("Bruno")
    status, body = game.act("Bruno", {"type": "bankrupt", "creditor": game.ids["Anna"], "amount": owed})
    assert status == 200 and body["result"]["winner"] == game.ids["Anna"]
    state = game.state()
    assert state["status"] == "finished" and state["clock"]["running"] is False
    score = api.get(f"/api/v1/games/{game.id}/score", game.banker)[1]
    assert score["final"] is True and score["standings"][0]["name"] == "Anna"
    assert [r["out"] for r in score["standings"]] == [False, True]


def test_the_championship_tie_goes_to_the_higher_property_value_buildings_included(api):
    """Seed 001 lines 124-131: the score sheet's "valore di ogni proprietà" is ticked "a seconda
    di quanti edifici ci sono sopra la proprietà e se è ipotecata o no", and "in caso di
    pareggio, vince il giocatore che possiede il valore di proprietà non ipotecato più alto":
    Anna's browns with a house each (120 + 100) beat Bruno's Piazza Dante (200), all three
    worth 1500."""
    game = api.new_game(edition="campionato-2015").start()
    for deed in ("vicolo-corto", "vicolo-stretto"):
        assert game.act("Anna", {"type": "buy", "deed": deed})[0] == 200
    for deed in ("vicolo-corto", "vicolo-stretto"):
        assert game.act("Anna", {"type": "build", "deed": deed})[0] == 200
    assert game.act("Bruno", {"type": "buy", "deed": "piazza-dante"})[0] == 200
    game.act("banker", {"type": "end"})
    _status, body = api.get(f"/api/v1/games/{game.id}/score", game.tokens["Carla"])
    rows = [(r["name"], r["total"], r["rank"], r["tournament_points"]) for r in body["standings"]]
    assert rows == [("Anna", 1500, 1, 22), ("Bruno", 1500, 2, 12), ("Carla", 1500, 3, 6)]
