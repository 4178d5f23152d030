"""The server's dice through the API (../shared/API.md, "Dice"): `roll` answers the faces, the
journal keeps them, the state shows the last roll, the same seed rolls the same dice, and a
bad kind of dice is refused like any bad input."""

from __future__ import annotations

import pytest


def ok(result, status=200):
    code, body = result
    assert code == status, body
    return body


def refusal(result, status, code):
    got, body = result
    assert (got, body["error"]["code"]) == (status, code), body
    assert body["error"]["message"]
    return body["error"]["message"]


def events(game, since=0):
    status, body = game.api.get(f"/api/v1/games/{game.id}/events?since={since}", game.banker)
    assert status == 200, body
    return body["events"]


def test_a_player_rolls_the_dice_and_the_journal_and_the_state_keep_them(api):
    game = api.new_game(seed=42).start()
    body = ok(game.act("Anna", {"type": "roll", "dice": "2d6", "key": "roll-1"}))
    result = body["result"]
    faces = result["faces"]
    assert len(faces) == 2 and all(1 <= f <= 6 for f in faces)
    assert result["total"] == sum(faces) and result["doubles"] == (faces[0] == faces[1])
    assert result["type"] == "roll"

    event = events(game)[-1]
    assert event["type"] == "roll" and event["actor"] == game.ids["Anna"]
    assert event["params"]["faces"] == faces and event["params"]["dice"] == "2d6"
    assert event["params"]["player"] == game.ids["Anna"]
    assert "Anna" in event["summary"] and str(sum(faces)) in event["summary"]

    state = game.state("Bruno")  # every phone sees who rolled what
    assert state["last_roll"] == {
        "player": game.ids["Anna"],
        "dice": "2d6",
        "faces": faces,
        "total": sum(faces),
        "doubles": faces[0] == faces[1],
    }
    assert state["dice_kinds"] == ["2d6"]
    # Money does not move, and the same key does not roll again.
    assert set(game.cash().values()) == {1500}
    again = ok(game.act("Anna", {"type": "roll", "dice": "2d6", "key": "roll-1"}))
    assert again == body
    assert len([e for e in events(game) if e["type"] == "roll"]) == 1


def test_no_dice_named_rolls_two_and_the_banker_rolls_for_a_player(api):
    game = api.new_game(seed=1).start()
    result = ok(game.act("banker", {"type": "roll", "player": game.ids["Bruno"]}))["result"]
    assert len(result["faces"]) == 2
    assert game.state()["last_roll"]["player"] == game.ids["Bruno"]
    refusal(game.act("banker", {"type": "roll"}), 400, "player_required")
    refusal(game.act("Anna", {"type": "roll", "player": game.ids["Bruno"]}), 403, "not_your_account")


def test_the_same_seed_rolls_the_same_dice_in_two_games(api):
    def play(seed):
        game = api.new_game(seed=seed).start()
        return [
            ok(game.act(name, {"type": "roll", "dice": "2d6"}))["result"]["faces"]
            for name in ("Anna", "Bruno", "Carla", "Anna", "Bruno", "Carla")
        ]

    assert play(2024) == play(2024)
    assert play(2024) != play(2025)


def test_the_speedy_die_in_the_championship_only(api):
    champ = api.new_game(edition="campionato-2015", seed=9).start()
    assert champ.state()["dice_kinds"] == ["2d6", "speed"]
    result = ok(champ.act("Anna", {"type": "roll", "dice": "speed"}))["result"]
    first, second, speedy = result["faces"]
    assert speedy in (1, 2, 3, "bus", "mr_monopoly")
    assert result["total"] == first + second + (speedy if isinstance(speedy, int) else 0)

    classic = api.new_game(seed=9).start()
    refusal(classic.act("Anna", {"type": "roll", "dice": "speed"}), 409, "no_speed_die")
    message = refusal(classic.act("Anna", {"type": "roll", "dice": "expropriation"}), 409, "no_expropriation_dice")
    assert message == "This edition has no expropriation dice."


@pytest.mark.parametrize("kind", ["3d6", "", 7, None, ["2d6"], {"kind": "2d6"}, True])
def test_a_bad_kind_of_dice_is_refused_with_the_error_shape(api, kind):
    game = api.new_game(seed=3).start()
    body = {"type": "roll", "dice": kind}
    if kind is None:
        body["dice"] = "none"
    status, answer = game.act("Anna", body)
    assert status == 400, answer
    assert set(answer) == {"error"} and set(answer["error"]) == {"code", "message"}
    assert answer["error"]["code"] == "unknown_dice"
    assert "2d6" in answer["error"]["message"] and "speed" in answer["error"]["message"]
    assert game.state()["last_roll"] is None
    assert [e["type"] for e in events(game)][-1] == "start"


def test_no_roll_before_the_start_or_after_the_end(api):
    game = api.new_game(seed=3)
    refusal(game.act("Anna", {"type": "roll"}), 409, "game_not_started")
    game.start()
    ok(game.act("banker", {"type": "end"}))
    refusal(game.act("Anna", {"type": "roll"}), 409, "game_finished")


def test_undo_takes_a_roll_back_and_the_same_roll_comes_again(api):
    game = api.new_game(seed=77).start()
    first = ok(game.act("Anna", {"type": "roll"}))["result"]["faces"]
    second = ok(game.act("Bruno", {"type": "roll"}))["result"]["faces"]
    ok(game.act("banker", {"type": "undo"}))
    state = game.state()
    assert state["last_roll"]["player"] == game.ids["Anna"] and state["last_roll"]["faces"] == first
    # Undo is no second chance: the roll that was taken back falls the same way again.
    assert ok(game.act("Carla", {"type": "roll"}))["result"]["faces"] == second
    ok(game.act("banker", {"type": "undo"}))
    ok(game.act("banker", {"type": "undo"}))
    assert game.state()["last_roll"] is None


def test_a_game_without_a_seed_still_rolls(app, api):
    """A game stored before every game had a seed: the faces come from the system, and are kept."""
    from companion.store import Game, db

    game = api.new_game().start()
    with app.app_context():
        row = db.session.get(Game, game.id)
        row.seed = None
        db.session.commit()
    faces = ok(game.act("Anna", {"type": "roll"}))["result"]["faces"]
    assert game.state()["last_roll"]["faces"] == faces


def test_the_openapi_document_names_the_roll(client):
    doc = client.get("/api/openapi.json").get_json()
    action = doc["components"]["schemas"]["Action"]
    assert "roll" in action["properties"]["type"]["enum"]
    kinds = next(s for s in action["properties"]["dice"]["anyOf"] if "enum" in s)["enum"]
    assert kinds == ["2d6", "speed", "expropriation"]
    assert "last_roll" in doc["components"]["schemas"]["Game"]["properties"]
