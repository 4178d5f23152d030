"""Printed money checked by phone, through the API: ``scan`` with a printed serial answers
fake or genuine by the game's secret and spends one chip (undoable); it is refused without a
green chip, in jail, for a guessed, edited or another game's serial (404, nothing changed);
the game's money PDF is the banker's; the secret never shows in the state or the journal."""

from __future__ import annotations

import json

from companion import services
from companion.core.counterfeits import serials
from companion.services import serials as serial_service

NAMES = ("Anna", "Bruno", "Carla")
NE = "niente-e-come-sembra"


def ok(result, status=200):
    code, body = result
    assert code == status, body
    return body.get("result", body)


def refused(result, status, code):
    got, body = result
    assert (got, body["error"]["code"]) == (status, code), body
    return body["error"]["message"]


def print_money(api, game):
    r = api.client.get(f"/api/v1/games/{game.id}/print/money.pdf", headers={"Authorization": f"Bearer {game.banker}"})
    assert r.status_code == 200 and r.mimetype == "application/pdf", r.data[:200]
    return r.data


def run_of(app, game):
    with app.app_context():
        row = services.get_game(game.id)
        return serials.print_run(services.state_of(row, deeds=False), serial_service.secret_of(row))


def chips(game):
    return {p["name"]: p["chips"] for p in game.state()["players"]}


def test_a_scan_says_fake_or_genuine_and_spends_a_chip(app, api):
    game = api.new_game(players=NAMES, edition=NE, seed=5).start()
    print_money(api, game)
    items = run_of(app, game)
    fake = next(i for i in items if i.kind == "note" and i.fake)
    genuine = next(i for i in items if i.kind == "note" and not i.fake)
    assert chips(game) == {"Anna": 2, "Bruno": 2, "Carla": 2}

    assert ok(game.act("Carla", {"type": "scan", "serial": fake.serial})) == {
        "entry": 3,
        "type": "scan",
        "fake": True,
        "cash": 1500,
    }
    assert (
        ok(game.act("Carla", {"type": "scan", "serial": genuine.serial.lower()[:5] + "-" + genuine.serial[5:]}))["fake"]
        is False
    )
    assert chips(game) == {"Anna": 2, "Bruno": 2, "Carla": 0}
    assert game.cash() == {"Anna": 1500, "Bruno": 1500, "Carla": 1500}  # on paper no money moves
    events = ok(api.get(f"/api/v1/games/{game.id}/events?since=2", game.banker))["events"]
    assert [e["summary"] for e in events] == [
        "Carla checked a printed note: fake!",
        "Carla checked a printed note: genuine.",
    ]

    # No green chip left: refused, nothing changes; GO turns them green again.
    refused(game.act("Carla", {"type": "scan", "serial": fake.serial}), 409, "no_green_chip")
    ok(game.act("Carla", {"type": "pass_go"}))
    assert chips(game)["Carla"] == 2
    # Undo gives the chip back like any change.
    card = next(i for i in items if i.kind == "card")
    assert (
        ok(game.act("banker", {"type": "scan", "player": game.ids["Anna"], "serial": card.serial}))["fake"] is card.fake
    )
    assert chips(game)["Anna"] == 1
    ok(game.act("banker", {"type": "undo"}))
    assert chips(game)["Anna"] == 2
    with app.app_context():
        assert services.verify_game(services.get_game(game.id)) == []


def test_scans_refused_in_jail_and_for_serials_not_of_this_game(app, api):
    game = api.new_game(players=NAMES, edition=NE, seed=6).start()
    other = api.new_game(players=NAMES, edition=NE, seed=6).start()
    print_money(api, game)
    print_money(api, other)
    mine, theirs = run_of(app, game), run_of(app, other)
    assert {i.serial for i in mine}.isdisjoint({i.serial for i in theirs})
    # The same seed, another secret: the fakes fall elsewhere too (nothing learned from one game).
    note = mine[0].serial
    before = game.state()
    version = before["version"]
    edited = note[:-1] + ("2" if note[-1] != "2" else "3")
    for typed in (edited, theirs[0].serial, "ABCDEFGHJK", "not a serial", note + "2"):
        refused(game.act("Bruno", {"type": "scan", "serial": typed}), 404, "unknown_serial")
    assert game.state()["version"] == version and chips(game)["Bruno"] == 2
    refused(game.act("Bruno", {"type": "scan"}), 400, "missing_field")
    # In jail the decoder is not used.
    ok(game.act("Bruno", {"type": "go_to_jail"}))
    assert (
        refused(game.act("Bruno", {"type": "scan", "serial": note}), 409, "decoder_in_jail")
        == "Bruno is in jail and cannot use the decoder."
    )
    assert chips(game)["Bruno"] == 2
    # The banker acts for a player, never alone; a player only for themselves.
    refused(game.act("banker", {"type": "scan", "serial": note}), 400, "player_required")
    refused(game.act("Anna", {"type": "scan", "serial": note, "player": game.ids["Carla"]}), 403, "not_your_account")


def test_the_share_of_fakes_and_exactly_twelve_fake_cards(app, api):
    for players, seed in ((("Anna", "Bruno"), 1), (NAMES, 2), (("A", "B", "C", "D", "E", "F"), 3)):
        game = api.new_game(players=list(players), edition=NE, seed=seed).start()
        print_money(api, game)
        items = run_of(app, game)
        notes = [i for i in items if i.kind == "note"]
        cards = [i for i in items if i.kind == "card"]
        # Each player's 1500 (2×500, 3×100, 3×50, 1×20, 3×10) plus two sets for the bank.
        assert len(notes) == 12 * (len(players) + 2)
        assert sum(i.fake for i in notes) == round(len(notes) * 0.1)
        assert len(cards) == 24 and sum(i.fake for i in cards) == 12
        assert len({i.serial for i in items}) == len(items)
        # The same game prints the same serials and fakes again.
        print_money(api, game)
        assert run_of(app, game) == items


def test_the_money_pdf_is_the_bankers(app, api):
    game = api.new_game(players=NAMES, edition=NE).start()
    path = f"/api/v1/games/{game.id}/print/money.pdf"
    refused(api.get(path), 401, "missing_token")
    refused(api.get(path, game.tokens["Anna"]), 403, "banker_only")
    refused(api.get("/api/v1/games/nosuchgame/print/money.pdf", game.banker), 404, "unknown_game")
    classic = api.new_game(players=NAMES).start()
    refused(api.get(f"/api/v1/games/{classic.id}/print/money.pdf", classic.banker), 404, "no_printed_money")
    # No money printed yet: no serial is a note of this game.
    refused(game.act("Anna", {"type": "scan", "serial": "ABCDEFGHJK"}), 404, "unknown_serial")
    # In a game without counterfeits there is nothing to scan.
    refused(classic.act("Anna", {"type": "scan", "serial": "ABCDEFGHJK"}), 409, "no_counterfeits")


def test_the_secret_shows_nowhere(app, api):
    game = api.new_game(players=NAMES, edition=NE).start()
    print_money(api, game)
    with app.app_context():
        secret = serial_service.secret_of(services.get_game(game.id))
    assert secret and len(secret) == 64
    item = run_of(app, game)[0]
    ok(game.act("Anna", {"type": "scan", "serial": item.serial}))
    for who in ("banker", "Anna"):
        assert secret not in json.dumps(game.state(who))
    events = api.client.get(f"/api/v1/games/{game.id}/events", headers={"Authorization": f"Bearer {game.banker}"})
    assert secret not in events.get_data(as_text=True)
    assert "serial_secret" not in json.dumps(game.state())


def test_the_games_own_share_of_fake_notes(app, api):
    game = api.new_game(players=NAMES, edition=NE, settings={"fake_note_share": 0.25}).start()
    print_money(api, game)
    notes = [i for i in run_of(app, game) if i.kind == "note"]
    assert len(notes) == 60 and sum(i.fake for i in notes) == 15
