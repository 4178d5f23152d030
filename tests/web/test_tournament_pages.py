"""The tournament desk, driven as a browser would (forms, cookies, CSRF tokens): create,
late arrival, withdrawal, draw, the refusal while tables play and the forced draw, start
every table, and the standings anyone may open."""

from __future__ import annotations

import re

from companion import services
from companion.store import db
from tests.conftest import act
from tests.web.test_pages import csrf

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]


def create(client, names=NAMES, **form):
    page = client.get("/t").get_data(as_text=True)
    data = {
        "csrf_token": csrf(page),
        "name": "Club night",
        "edition": "campionato-2015",
        "players": "\n".join(names),
        "table_size": "4",
        "round_minutes": "90",
        **form,
    }
    response = client.post("/t", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location.rstrip("/").split("/")[-1]


def post(client, tid, path, **data):
    page = client.get(f"/t/{tid}").get_data(as_text=True)
    return client.post(f"/t/{tid}{path}", data={"csrf_token": csrf(page), **data})


def view(app, tid):
    with app.app_context():
        return services.tournament_view(tid)


def test_the_home_page_links_the_desk(client):
    assert 'href="/t"' in client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)


def test_a_director_runs_a_round_from_the_desk(app, client):
    tid = create(client)
    desk = client.get(f"/t/{tid}").get_data(as_text=True)
    assert "Club night" in desk and "Draw round 1" in desk and "Anna" in desk
    # a late arrival, then a withdrawal
    assert post(client, tid, "/players", name="Zoe").status_code == 302
    anna = next(p["id"] for p in view(app, tid)["players"] if p["name"] == "Anna")
    assert post(client, tid, f"/players/{anna}/withdraw").status_code == 302
    players = {p["name"]: p["withdrawn"] for p in view(app, tid)["players"]}
    assert players["Zoe"] is False and players["Anna"] is True
    # draw: 8 players still in, two tables of 4, each openable as its banker from this browser
    assert post(client, tid, "/rounds").status_code == 302
    rounds = view(app, tid)["rounds"]
    assert len(rounds) == 1 and [len(t["players"]) for t in rounds[0]["tables"]] == [4, 4]
    desk = client.get(f"/t/{tid}").get_data(as_text=True)
    assert "Table 1" in desk and "Table 2" in desk and "Start every table" in desk
    for table in rounds[0]["tables"]:
        assert f"/g/{table['game']}/table" in desk
        page = client.get(f"/g/{table['game']}/table")
        assert page.status_code == 200  # the director's browser is the table's banker
    # a second draw while the tables play is refused, naming them, with "Draw anyway"
    refused = post(client, tid, "/rounds")
    text = refused.get_data(as_text=True)
    assert refused.status_code == 409 and "1, 2" in text and "Draw anyway" in text
    assert len(view(app, tid)["rounds"]) == 1
    # start every table together: both games run, their clocks too
    assert post(client, tid, "/start").status_code == 302
    with app.app_context():
        for table in rounds[0]["tables"]:
            game = services.get_game(table["game"])
            assert game.status == "running" and services.clock_view(game)["running"]
    # the forced draw
    assert post(client, tid, "/rounds", force="1").status_code == 302
    assert [r["round"] for r in view(app, tid)["rounds"]] == [1, 2]


def test_the_standings_need_no_token_and_a_stranger_cannot_direct(app, client):
    tid = create(client)
    post(client, tid, "/rounds")
    stranger = app.test_client()
    page = stranger.get(f"/t/{tid}/standings", headers={"Accept-Language": "en"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "Standings" in text and "Bruno" in text and "Table 1" in text
    assert 'data-refresh="10"' in text and "js/refresh.js" in text  # follows the desk in place
    assert not re.search(r"/g/\w+/table", text)  # no banker links on the big screen
    # the desk sends a stranger to the standings; the director's forms refuse them
    assert stranger.get(f"/t/{tid}").location.endswith(f"/t/{tid}/standings")
    home = stranger.get("/").get_data(as_text=True)
    assert stranger.post(f"/t/{tid}/rounds", data={"csrf_token": csrf(home)}).status_code == 403
    assert stranger.post(f"/t/{tid}/players", data={"csrf_token": csrf(home), "name": "X"}).status_code == 403
    assert stranger.get(f"/t/{tid}/referee").status_code == 403
    assert len(view(app, tid)["rounds"]) == 1
    assert stranger.get("/t/nope/standings").status_code == 404


def test_the_referee_sees_every_table(app, client):
    tid = create(client)
    post(client, tid, "/rounds")
    page = client.get(f"/t/{tid}/referee", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert page.count("Open the table") == 2 and "90:00" in page and "waiting" in page


def test_a_bad_form_is_refused_with_its_reason(client):
    page = client.get("/t", headers={"Accept-Language": "en"}).get_data(as_text=True)
    response = client.post(
        "/t",
        data={
            "csrf_token": csrf(page),
            "name": "X",
            "edition": "campionato-2015",
            "players": "Anna\nAnna",
            "table_size": "4",
        },
        headers={"Accept-Language": "en"},
    )
    assert response.status_code == 400 and "same name" in response.get_data(as_text=True)


def test_the_printed_seating_plan_seats_each_phone(app, client):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "printables"))
    from printables_testkit import decode_qr, render_pages

    tid = create(client, names=NAMES[:6])
    post(client, tid, "/rounds")
    response = post(client, tid, "/seating.pdf", lang="en")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.headers["Cache-Control"] == "no-store"
    pages = render_pages(response.data, dpi=200)
    urls = sorted(u for image, _size in pages[1:] for u in decode_qr(image))
    assert len(urls) == 6 and all(u.startswith("http://banco.test/r/") for u in urls)
    phone = app.test_client()
    secret = urls[0].rsplit("/", 1)[1]
    page = phone.get(f"/r/{secret}").get_data(as_text=True)
    seated = phone.post(f"/r/{secret}", data={"csrf_token": csrf(page)})
    assert seated.status_code == 302 and seated.location.endswith("/me")
    assert phone.get(seated.location).status_code == 200
    # a stranger cannot print it (it issues seat codes)
    stranger = app.test_client()
    home = stranger.get("/").get_data(as_text=True)
    assert stranger.post(f"/t/{tid}/seating.pdf", data={"csrf_token": csrf(home)}).status_code == 403


def test_a_form_sent_twice_opens_one_tournament_and_draws_one_round(app, client):
    page = client.get("/t").get_data(as_text=True)
    data = {
        "csrf_token": csrf(page),
        "key": "k-1",
        "name": "Once",
        "edition": "campionato-2015",
        "players": "\n".join(NAMES),
        "table_size": "4",
    }
    first, again = client.post("/t", data=data), client.post("/t", data=data)
    assert first.location == again.location
    tid = first.location.rsplit("/", 1)[1]
    assert post(client, tid, "/rounds", round="1").status_code == 302
    assert post(client, tid, "/rounds", round="1", force="1").status_code == 302  # a double tap
    assert len(view(app, tid)["rounds"]) == 1


def test_finished_tables_score_and_leave_the_cookie_at_the_next_draw(app, client):
    tid = create(client)
    post(client, tid, "/rounds")
    post(client, tid, "/start")
    with client.session_transaction() as session:
        bankers = {game_id: seat["b"] for game_id, seat in session["games"].items()}
    first = view(app, tid)["rounds"][0]["tables"]
    assert set(bankers) == {t["game"] for t in first}
    with app.app_context():
        for table in first:
            act(table["game"], None, {"type": "end"}, token=bankers[table["game"]])
    board = client.get(f"/t/{tid}/standings", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert board.count("over") >= 2
    assert [row["played"] for row in view(app, tid)["standings"]] == [1] * 8
    assert post(client, tid, "/rounds").status_code == 302
    with client.session_transaction() as session:
        kept = set(session["games"])
    second = view(app, tid)["rounds"][1]["tables"]
    assert kept == {t["game"] for t in second}  # round 1's finished tables were let go


def end_round(app, client, tid, start=True):
    """Starts (from the desk) and ends every table of the last round, as their banker."""
    if start:
        post(client, tid, "/start")
    with client.session_transaction() as session:
        bankers = {game_id: seat["b"] for game_id, seat in session["games"].items()}
    with app.app_context():
        for table in services.tournament_view(tid)["rounds"][-1]["tables"]:
            first = min(services.get_game(table["game"]).players, key=lambda p: p.seat).id
            if start:  # the bank pays the first seat: one winner a table
                act(
                    table["game"],
                    None,
                    {"type": "transfer", "from": "bank", "to": first, "amount": 100},
                    token=bankers[table["game"]],
                )
            act(table["game"], None, {"type": "end"}, token=bankers[table["game"]])


def test_the_desk_runs_the_semi_finals_and_the_final(app, client):
    tid = create(client, semi_finalists="8", semi_final_tables="2", final_players="4", finalists_by="places")
    desk = client.get(f"/t/{tid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Draw round 1" in desk and "Draw the semi-finals" not in desk
    assert "The best 8 of the standings play 2 semi-final tables" in desk and "rulebook does not say" in desk
    post(client, tid, "/rounds")
    end_round(app, client, tid)
    desk = client.get(f"/t/{tid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Draw round 2" in desk and "Draw the semi-finals" in desk and "Draw the final" not in desk
    assert post(client, tid, "/rounds", stage="semi_final", round="2").status_code == 302
    rounds = view(app, tid)["rounds"]
    assert rounds[-1]["stage"] == "semi_final" and len(rounds[-1]["tables"]) == 2
    with app.app_context():  # FAQ 31: the semi-finals keep trades open with two left
        game = services.get_game(rounds[-1]["tables"][0]["game"])
        assert game.extra["settings"]["no_trades_two_left"] is False
        game = services.get_game(rounds[0]["tables"][0]["game"])
        assert game.extra["settings"]["no_trades_two_left"] is True
    desk = client.get(f"/t/{tid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "<h2>Semi-finals</h2>" in desk and "Draw the final" in desk and "Draw round" not in desk
    refused = post(client, tid, "/rounds", stage="final", round="3")  # the semi-finals still play
    assert refused.status_code == 302 and len(view(app, tid)["rounds"]) == 2
    assert "still playing" in client.get(f"/t/{tid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    end_round(app, client, tid)
    assert post(client, tid, "/rounds", stage="final", round="3").status_code == 302
    end_round(app, client, tid)
    final = view(app, tid)
    champion = next(p["name"] for p in final["players"] if p["id"] == final["finals"]["champion"])
    desk = client.get(f"/t/{tid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert f"Champion: {champion}" in desk and "Draw" not in re.sub(r"<[^>]+>", "", desk).split("Players")[0]
    board = app.test_client().get(f"/t/{tid}/standings", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert f"Campione: {champion}" in board and "Finale" in board and "Semifinali" in board


def test_a_referees_phone_sees_the_tables_and_changes_nothing(app, client):
    tid = create(client)
    post(client, tid, "/rounds")
    post(client, tid, "/start")
    shown = post(client, tid, "/referee/code")
    text = shown.get_data(as_text=True)
    url = re.search(r'data-url="([^"]+)"', text).group(1)
    assert shown.status_code == 200 and "<svg" in text and url.startswith("http://banco.test/t/")
    phone = app.test_client()
    signed = phone.get(url.removeprefix("http://banco.test"))
    assert signed.status_code == 302 and signed.location.endswith(f"/t/{tid}/referee")
    page = phone.get(f"/t/{tid}/referee", headers={"Accept-Language": "en"}).get_data(as_text=True)
    games = [t["game"] for t in view(app, tid)["rounds"][0]["tables"]]
    assert all(f"/g/{g}/screen" in page for g in games) and "/table" not in page
    assert "Back to the desk" not in page and "data-tick" in page
    # a trade waiting: the table is stuck on its recipient
    with client.session_transaction() as session:
        banker = session["games"][games[0]]["b"]
    with app.app_context():
        game = services.get_game(games[0])
        (anna, _), (bruno, bruno_name) = [(p.id, p.name) for p in sorted(game.players, key=lambda p: p.seat)[:2]]
        act(
            games[0],
            None,
            {
                "type": "trade_propose",
                "player": anna,
                "to": bruno,
                "give": {"cash": 10, "deeds": []},
                "get": {"cash": 0, "deeds": []},
            },
            token=banker,
        )
    page = phone.get(f"/t/{tid}/referee", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert ">stuck<" in page and f"A trade waits on {bruno_name}." in page
    # the referee cannot direct
    home = phone.get("/").get_data(as_text=True)
    assert phone.post(f"/t/{tid}/rounds", data={"csrf_token": csrf(home), "force": "1"}).status_code == 403
    assert (
        phone.post(
            f"/t/{tid}/players/{view(app, tid)['players'][0]['id']}/withdraw", data={"csrf_token": csrf(home)}
        ).status_code
        == 403
    )
    assert phone.post(f"/t/{tid}/referee/code", data={"csrf_token": csrf(home)}).status_code == 403
    assert phone.get(f"/t/{tid}").location.endswith(f"/t/{tid}/standings")
    # a new code signs the old one out
    post(client, tid, "/referee/code")
    assert phone.get(f"/t/{tid}/referee").status_code == 403
    again = app.test_client().get(url.removeprefix("http://banco.test"), headers={"Accept-Language": "en"})
    assert again.status_code == 403 and "no longer works" in again.get_data(as_text=True)


def test_the_tables_warn_of_the_last_minutes(app, client):
    tid = create(client, last_minutes="15")
    post(client, tid, "/rounds")
    post(client, tid, "/start")
    game_id = view(app, tid)["rounds"][0]["tables"][0]["game"]
    screen = app.test_client()
    page = screen.get(f"/g/{game_id}/screen", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'data-last="900"' in page and re.search(r"data-clock-closing[^>]*hidden", page)
    with app.app_context():
        game = services.get_game(game_id)
        game.clock_elapsed_seconds = 80 * 60  # ten minutes left of 90
        db.session.commit()
    page = screen.get(f"/g/{game_id}/screen", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Ultimi 15 minuti di gioco!" in page and not re.search(r"data-clock-closing[^>]*hidden", page)
    referee = client.get(f"/t/{tid}/referee", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "is-closing" in referee and "last minutes" in referee


def test_bad_finals_on_the_form_are_refused_with_their_reason(client):
    page = client.get("/t", headers={"Accept-Language": "en"}).get_data(as_text=True)
    response = client.post(
        "/t",
        data={
            "csrf_token": csrf(page),
            "name": "X",
            "edition": "campionato-2015",
            "players": "\n".join(NAMES),
            "table_size": "4",
            "final_players": "9",
        },
        headers={"Accept-Language": "en"},
    )
    assert response.status_code == 400 and "The final seats 2 to 8 players." in response.get_data(as_text=True)


def test_the_printed_standings(app, client):
    import subprocess

    tid = create(client)
    post(client, tid, "/rounds")
    end_round(app, client, tid)
    response = app.test_client().get(f"/t/{tid}/standings.pdf", headers={"Accept-Language": "it"})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=response.data, capture_output=True, check=True
    ).stdout.decode()
    assert "Club night" in text and "Classifica dopo il turno 1" in text
    for row in view(app, tid)["standings"]:
        assert re.search(rf"{row['rank']}\s+{row['name']}\s+{row['points']}\s+1\s+{row['wins']}", text), row
    assert app.test_client().get(f"/t/{tid}/standings.pdf?paper=legal").status_code == 400


def _highlighted(client, tid) -> list[str]:
    desk = client.get(f"/t/{tid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    return re.findall(r'class="btn btn-primary" id="(draw[\w-]*)"', desk)


def test_the_desk_highlights_the_step_the_tournament_puts_next(app, client):
    tid = create(client, preliminary_rounds="2")
    assert view(app, tid)["preliminary_rounds"] == 2
    assert _highlighted(client, tid) == ["draw"]  # round 1
    post(client, tid, "/rounds")
    end_round(app, client, tid)
    assert _highlighted(client, tid) == ["draw"]  # round 2 of 2
    post(client, tid, "/rounds", round="2")
    end_round(app, client, tid)
    desk = client.get(f"/t/{tid}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Draw round 3" in desk  # still offered, not put first
    assert _highlighted(client, tid) == ["draw-semi-final"]
    post(client, tid, "/rounds", stage="semi_final", round="3")
    end_round(app, client, tid)
    assert _highlighted(client, tid) == ["draw-final"]


def test_the_preliminary_rounds_default_to_two_and_refuse_nonsense(app, client):
    assert view(app, create(client))["preliminary_rounds"] == 2
    page = client.get("/t").get_data(as_text=True)
    data = {
        "csrf_token": csrf(page),
        "name": "x",
        "edition": "campionato-2015",
        "players": "\n".join(NAMES),
        "table_size": "4",
    }
    refused = client.post("/t", data={**data, "preliminary_rounds": "0"}, headers={"Accept-Language": "en"})
    assert refused.status_code == 400 and "The preliminary rounds must be 1 to 20." in refused.get_data(as_text=True)
