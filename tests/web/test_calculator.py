"""The score calculator's pages, driven as a browser would (forms, cookies, CSRF on), without
JavaScript: start, entries, count, refusals that change nothing, reloads that keep the
entries, and a deed added from its card's page."""

from __future__ import annotations

import html as htmllib
import re

import pytest

import printables
from tests.web.test_pages import csrf, open_table, sit_down

EN = {"Accept-Language": "en"}
IT = {"Accept-Language": "it"}


def stored(app, client) -> dict | None:
    """The calculation kept in this browser's signed session cookie."""
    cookie = client.get_cookie("session")
    if cookie is None:
        return None
    return app.session_interface.get_signing_serializer(app).loads(cookie.value).get("calculator")


def start(client, names=("Anna", "Bruno", "Carla"), edition="classic-it"):
    page = client.get("/calculator").get_data(as_text=True)
    response = client.post("/calculator", data={"csrf_token": csrf(page), "edition": edition, "name": [*names, "", ""]})
    assert response.status_code == 303 and response.location == "/calculator/entries"
    return client.get("/calculator/entries", headers=EN).get_data(as_text=True)


def flash(html: str) -> str:
    """The refusal's words: one sentence, or each wrong entry's after the count of them."""
    found = re.search(r'<(p|div) class="flash flash-error"[^>]*>(.*?)</\1>', html, re.S).group(2)
    return htmllib.unescape(" ".join(re.sub(r"<[^>]+>", " ", found).split()))


def selected(html: str, name: str) -> str:
    select = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', html, re.S).group(1)
    found = re.search(r'<option value="([^"]*)" selected', select)
    return found.group(1) if found else ""


def cash_value(html: str, i: int) -> str:
    return re.search(rf'name="cash-{i}" value="([^"]*)"', html).group(1)


# Anna: green group, 2+2+1 houses, Vicolo Corto mortgaged; Bruno: dark blue with a hotel and 4
# houses, Stazione Sud; Carla: Società Elettrica mortgaged. Worked out in tests/core.
CLASSIC = {
    "cash-0": "1000",
    "cash-1": "850",
    "cash-2": "1.200",
    "owner-vicolo-corto": "0",
    "mortgaged-vicolo-corto": "1",
    "owner-via-roma": "0",
    "build-via-roma": "2",
    "owner-corso-impero": "0",
    "build-corso-impero": "2",
    "owner-largo-augusto": "0",
    "build-largo-augusto": "1",
    "owner-viale-dei-giardini": "1",
    "build-viale-dei-giardini": "4",
    "owner-parco-della-vittoria": "1",
    "build-parco-della-vittoria": "big",
    "owner-stazione-sud": "1",
    "owner-societa-elettrica": "2",
    "mortgaged-societa-elettrica": "1",
}


def count(client, page, entries, headers=EN):
    return client.post("/calculator/entries", data={"csrf_token": csrf(page), **entries}, headers=headers)


def test_home_links_the_calculator(client):
    page = client.get("/", headers=EN).get_data(as_text=True)
    assert 'href="/calculator"' in page and "Score calculator" in page
    assert "Calcolo del punteggio" in client.get("/", headers=IT).get_data(as_text=True)


def test_no_calculation_yet_leads_to_the_start(client):
    assert client.get("/calculator/entries").location == "/calculator"
    assert client.get("/calculator/result").location == "/calculator"
    page = client.get("/calculator", headers=EN).get_data(as_text=True)
    assert "New calculation" in page and "Your calculation" not in page


def test_the_entry_page_lists_players_and_deeds_by_group(client):
    page = start(client)
    for name in ("Anna", "Bruno", "Carla"):
        assert name in page
    assert page.count(' id="deed-') == 28 and page.count('class="group-row calc-group"') == 10
    assert 'name="build-via-roma"' in page and 'name="build-stazione-sud"' not in page  # stations take none
    assert 'name="mortgaged-stazione-sud"' in page
    assert '<option value="big"' in page and "4 houses" in page and ">hotel<" in page
    assert page.count('name="csrf_token"') == 1


def test_counting_shows_the_ranking_and_a_reload_keeps_the_entries(client, app):
    page = start(client)
    response = count(client, page, CLASSIC)
    assert response.status_code == 303 and response.location == "/calculator/result"
    result = client.get("/calculator/result", headers=EN).get_data(as_text=True)
    names = re.findall(r'<span class="rank-name">([^<]*)</span>', result)
    totals = re.findall(r'<span class="rank-total">([^<]*)</span>', result)
    assert names == ["Bruno", "Anna", "Carla"]
    assert [htmllib.unescape(t) for t in totals] == ["€\u00a03,600", "€\u00a02,950", "€\u00a01,275"]
    assert 'Deeds €\u00a0950</span> · <span class="calc-part">Buildings €\u00a01,000' in htmllib.unescape(result)
    assert "point" not in result  # the classic rules give no tournament points
    assert '<h1 class="winner">Bruno</h1>' in result
    # A reload (a new request with the same cookie) shows the same entries and the same result.
    again = client.get("/calculator/entries", headers=EN).get_data(as_text=True)
    assert [cash_value(again, i) for i in range(3)] == ["1000", "850", "1200"]
    assert selected(again, "owner-via-roma") == "0" and selected(again, "build-parco-della-vittoria") == "big"
    assert 'name="mortgaged-vicolo-corto" value="1" checked' in again
    assert client.get("/calculator/result", headers=EN).get_data(as_text=True) == result
    assert stored(app, client)["p"] == [["Anna", 1000], ["Bruno", 850], ["Carla", 1200]]
    assert "Your calculation" in client.get("/calculator", headers=EN).get_data(as_text=True)


def test_the_championship_tie_and_its_points(client):
    page = start(client, ("Anna", "Bruno", "Carla", "Dario"), edition="campionato-2015")
    response = count(
        client,
        page,
        {
            "cash-0": "1000",
            "cash-1": "1030",
            "cash-2": "500",
            "cash-3": "500",
            "owner-via-roma": "0",
            "mortgaged-via-roma": "1",
            "owner-vicolo-corto": "1",
            "owner-vicolo-stretto": "1",
        },
    )
    assert response.status_code == 303
    result = htmllib.unescape(client.get("/calculator/result", headers=EN).get_data(as_text=True))
    rows = re.findall(r'<span class="rank">(\d+)</span>\s*<span class="rank-name">([^<]*)</span>', result)
    assert rows == [("1", "Bruno"), ("2", "Anna"), ("3", "Carla"), ("3", "Dario")]
    assert re.findall(r'rank-points">([^<]*)<', result) == ["19 points", "10 points", "5 points", "5 points"]
    assert "the rulebook's table" in result and "stops at 6 players left" in result
    assert "Bruno and Anna count the same: the rules' tiebreak puts Bruno first." in result
    assert "Carla and Dario count the same and the rules do not separate them: they share the place." in result


def test_a_hotel_beside_two_houses_counts_in_the_championship_and_not_in_the_classic_game(client):
    """Seed 001, FAQ 29, lines 542-545: a hotel broken while the bank is short of houses leaves
    the houses the bank had and half the value of the others, so a hotel may stand beside 2
    houses in the championship; the classic rules never leave it."""
    position = {
        "cash-0": "100",
        "cash-1": "100",
        "owner-via-roma": "0",
        "build-via-roma": "big",
        "owner-corso-impero": "0",
        "build-corso-impero": "2",
        "owner-largo-augusto": "0",
        "build-largo-augusto": "big",
    }
    page = start(client, ("Anna", "Bruno"), edition="campionato-2015")
    assert count(client, page, position).status_code == 303
    result = htmllib.unescape(client.get("/calculator/result", headers=EN).get_data(as_text=True))
    assert re.findall(r'<span class="rank-name">([^<]*)</span>', result) == ["Anna", "Bruno"]
    page = start(client, ("Anna", "Bruno"))
    refused = count(client, page, position)
    assert refused.status_code == 400
    assert "Via Roma has a hotel while Corso Impero has 2 houses" in flash(refused.get_data(as_text=True))


REFUSED = [
    ("negative cash", {"cash-1": "-5"}, "The cash of Bruno cannot be negative.", "-5"),
    ("cash with decimals", {"cash-0": "12.5"}, "The cash of Anna must be a whole number.", "12.5"),
    ("cash missing", {"cash-2": ""}, "Enter the cash of Carla (0 if none).", None),
    ("two owners", {"owner-via-roma": ["0", "1"]}, "Via Roma is given to both Anna and Bruno", None),
    ("a house on a station", {"build-stazione-sud": "1"}, "Nothing can be built on Stazione Sud.", None),
    ("five houses", {"build-via-roma": "5"}, "Via Roma has 5 houses: a deed takes at most 4.", None),
    (
        "group not whole",
        {"owner-largo-augusto": "2"},
        "Via Roma has buildings, but Anna does not own its whole group.",
        None,
    ),
    (
        "mortgaged with houses",
        {"mortgaged-via-roma": "1"},
        "Via Roma is mortgaged: a mortgaged deed cannot have buildings.",
        None,
    ),
    (
        "houses and no owner",
        {"owner-viale-vesuvio": "", "build-viale-vesuvio": "1"},
        "Viale Vesuvio belongs to nobody: it cannot have buildings.",
        None,
    ),
    (
        "an owner who is not a player",
        {"owner-via-verdi": "7"},
        "The owner of Via Verdi is not one of the players.",
        None,
    ),
    ("an unknown deed", {"owner-atlantide": "0"}, "There is no deed atlantide in this edition.", None),
    (
        "more houses than the bank",
        {
            **{
                f"owner-{k}": "0"
                for k in (
                    "bastioni-gran-sasso",
                    "viale-monterosa",
                    "viale-vesuvio",
                    "via-accademia",
                    "corso-ateneo",
                    "piazza-universita",
                    "via-verdi",
                    "corso-raffaello",
                    "piazza-dante",
                )
            },
            **{
                f"build-{k}": "4"
                for k in (
                    "bastioni-gran-sasso",
                    "viale-monterosa",
                    "viale-vesuvio",
                    "via-accademia",
                    "corso-ateneo",
                    "piazza-universita",
                    "via-verdi",
                    "corso-raffaello",
                    "piazza-dante",
                )
            },
        },
        "45 houses entered, but the bank has only 32.",
        None,
    ),
]


@pytest.mark.parametrize("change, message, shown", [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_an_impossible_entry_is_refused_by_name_and_changes_nothing(client, app, change, message, shown):
    page = start(client)
    assert count(client, page, CLASSIC).status_code == 303
    before = stored(app, client)
    result = client.get("/calculator/result", headers=EN).get_data(as_text=True)
    response = count(client, page, {**CLASSIC, **change})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert message in flash(html)
    if shown is not None:
        assert f'value="{shown}"' in html  # shown again as typed
    assert selected(html, "build-parco-della-vittoria") == "big"  # the rest as typed too
    assert stored(app, client) == before
    assert client.get("/calculator/result", headers=EN).get_data(as_text=True) == result


def test_the_refusal_marks_the_entry_and_speaks_italian(client):
    page = start(client)
    response = count(client, page, {**CLASSIC, "build-via-roma": "5"}, headers=IT)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert flash(html) == "Su Via Roma ci sono 5 case: un terreno ne può avere al massimo 4."
    assert 'class="calc-deed is-wrong is-owned" id="deed-via-roma"' in html
    response = count(client, page, {**CLASSIC, "cash-1": "-1"}, headers=IT)
    assert flash(response.get_data(as_text=True)) == "I soldi di Bruno non possono essere negativi."


def test_a_form_without_its_csrf_token_changes_nothing(client, app):
    page = start(client)
    assert count(client, page, CLASSIC).status_code == 303
    before = stored(app, client)
    response = client.post("/calculator/entries", data={**CLASSIC, "cash-0": "5"})
    assert response.status_code == 400 and stored(app, client) == before


def test_the_start_refuses_bad_names_and_keeps_the_current_calculation(client, app):
    page = start(client)
    assert count(client, page, CLASSIC).status_code == 303
    before = stored(app, client)
    page = client.get("/calculator").get_data(as_text=True)
    for names, message in (
        (["Anna"], "Enter at least 2 players."),
        (["Anna", "anna"], "anna is entered twice: give each player a different name."),
        ([f"P{i}" for i in range(9)], "This game takes at most 8 players."),
        (["Anna", "B" * 41], "The name of player 2 can be at most 40 characters."),
    ):
        response = client.post(
            "/calculator", data={"csrf_token": csrf(page), "edition": "classic-it", "name": names}, headers=EN
        )
        html = response.get_data(as_text=True)
        assert response.status_code == 400 and message in flash(html)
        assert f'value="{names[0]}"' in html  # as typed
        assert stored(app, client) == before
    response = client.post(
        "/calculator", data={"csrf_token": csrf(page), "edition": "monopoly-atlantis", "name": ["A", "B"]}, headers=EN
    )
    assert response.status_code == 400 and "There is no such edition." in flash(response.get_data(as_text=True))


def test_a_new_calculation_replaces_the_old_one(client, app):
    page = start(client)
    assert count(client, page, CLASSIC).status_code == 303
    page = start(client, ("Dario", "Elena"), edition="campionato-2015")
    assert "Dario" in page and "Anna" not in page
    assert stored(app, client)["e"] == "campionato-2015" and stored(app, client)["d"] == {}
    assert client.get("/calculator/result").location == "/calculator/entries"  # no cash yet


def test_a_deed_added_from_its_card_page(client, app):
    plain = client.get("/card/classic-it/vicolo-corto", headers=EN).get_data(as_text=True)
    assert "Add to the score calculator" not in plain
    start(client)
    card = client.get("/card/classic-it/vicolo-corto", headers=EN).get_data(as_text=True)
    assert "Add to the score calculator" in card and "Who holds Vicolo Corto?" in card
    assert 'action="/calculator/card/classic-it/vicolo-corto"' in card
    assert re.findall(r'name="owner" value="(\d)">([^<]*)<', card) == [("0", "Anna"), ("1", "Bruno"), ("2", "Carla")]
    response = client.post("/calculator/card/classic-it/vicolo-corto", data={"csrf_token": csrf(card), "owner": "1"})
    assert response.status_code == 303 and response.location == "/card/classic-it/vicolo-corto"
    card = client.get(response.location, headers=EN).get_data(as_text=True)
    assert "Vicolo Corto goes to Bruno in the calculation." in card
    assert "In the calculation Vicolo Corto is Bruno's." in card and 'name="owner"' not in card
    assert stored(app, client)["d"] == {"vicolo-corto": [1, 0, 0, 0]}
    # The next card: Bruno, the last one chosen, comes first in line.
    card = client.get("/card/classic-it/vicolo-stretto", headers=EN).get_data(as_text=True)
    assert 'class="btn btn-primary" name="owner" value="1"' in card
    entries = client.get("/calculator/entries", headers=EN).get_data(as_text=True)
    assert selected(entries, "owner-vicolo-corto") == "1"
    # Given to someone else: refused, naming both, nothing changed.
    before = stored(app, client)
    response = client.post("/calculator/card/classic-it/vicolo-corto", data={"csrf_token": csrf(card), "owner": "0"})
    assert response.status_code == 303
    assert "Vicolo Corto is given to both Bruno and Anna" in flash(
        client.get(response.location, headers=EN).get_data(as_text=True)
    )
    assert stored(app, client) == before
    # The same tap twice changes nothing either.
    client.post("/calculator/card/classic-it/vicolo-corto", data={"csrf_token": csrf(card), "owner": "1"})
    assert stored(app, client) == before
    # Counted with the rest.
    count(client, entries, {"cash-0": "0", "cash-1": "0", "cash-2": "0", "owner-vicolo-corto": "1"})
    result = client.get("/calculator/result", headers=EN).get_data(as_text=True)
    assert re.findall(r'<span class="rank-name">([^<]*)</span>', result)[0] == "Bruno"


def test_a_card_without_a_csrf_token_or_of_another_edition_adds_nothing(client, app):
    start(client)
    before = stored(app, client)
    assert client.post("/calculator/card/classic-it/via-roma", data={"owner": "0"}).status_code == 400
    other = client.get("/card/campionato-2015/via-roma", headers=EN).get_data(as_text=True)
    assert "Add to the score calculator" not in other
    response = client.post("/calculator/card/campionato-2015/via-roma", data={"csrf_token": csrf(other), "owner": "0"})
    assert response.status_code == 303
    assert "no calculation open for" in flash(client.get(response.location, headers=EN).get_data(as_text=True))
    assert (
        client.post("/calculator/card/classic-it/atlantide", data={"csrf_token": csrf(other), "owner": "0"}).status_code
        == 404
    )
    assert stored(app, client) == before


def test_a_card_still_opens_the_game_this_phone_plays(client, app):
    game_id, _ = open_table(client)
    phone = sit_down(app, game_id, "Anna")
    start(phone)
    response = phone.get("/card/classic-it/via-roma")
    assert response.status_code == 302 and response.location == f"/g/{game_id}/deeds/via-roma"


def test_a_typed_card_code_opens_the_card(client):
    start(client)
    code = printables.deed_code("classic-it", "corso-impero")
    response = client.get("/calculator/entries", query_string={"code": code.lower()})
    assert response.status_code == 302 and response.location == "/card/classic-it/corso-impero"
    page = client.get("/calculator/entries", query_string={"code": "ZZZZZ"}, headers=EN).get_data(as_text=True)
    assert "No deed of this game has the code ZZZZZ." in page


def test_the_page_saves_itself_at_each_change(client, app):
    page = start(client)
    token = csrf(page)
    assert client.get("/calculator/version").get_json() == {"version": 1}
    response = client.post("/calculator/save", data={"csrf_token": token, "cash-0": "700", "owner-via-roma": "2"})
    assert response.status_code == 200 and response.get_json() == {"version": 2}
    assert stored(app, client)["p"][0] == ["Anna", 700] and stored(app, client)["p"][1] == ["Bruno", None]
    assert client.get("/calculator/version").get_json() == {"version": 2}
    refused = client.post(
        "/calculator/save",
        data={"csrf_token": token, "cash-0": "700", "owner-via-roma": "2", "build-via-roma": "1"},
        headers=EN,
    )
    assert refused.status_code == 400
    assert refused.get_json() == {
        "error": "Via Roma has buildings, but Carla does not own its whole group.",
        "key": "via-roma",
        "player": None,
        "errors": [
            {
                "message": "Via Roma has buildings, but Carla does not own its whole group.",
                "code": "group_incomplete",
                "key": "via-roma",
                "player": None,
            }
        ],
        "version": 2,
    }
    assert stored(app, client)["d"] == {"via-roma": [2, 0, 0, 0]}
    again = client.get("/calculator/entries").get_data(as_text=True)
    assert cash_value(again, 0) == "700" and selected(again, "owner-via-roma") == "2"


def test_eight_long_names_and_every_deed_fit_the_cookie(client, app):
    names = [f"{'Élodie-Françoise Ünterwäßer'[:30]} n.{i} ÀÈÌ" for i in range(8)]
    page = start(client, names)
    entries = {f"cash-{i}": str(123456 + i) for i in range(8)}
    streets = ("via-roma", "corso-impero", "largo-augusto")
    entries.update({f"owner-{k}": "3" for k in streets})
    entries.update({f"build-{k}": "big" for k in streets})
    owners = iter(range(8))
    with app.app_context():
        from companion import services

        for deed in services.editions()["classic-it"].deeds:
            if deed.key not in streets:
                entries[f"owner-{deed.key}"] = str(next(owners, 7))
                entries[f"mortgaged-{deed.key}"] = "1"
    response = count(client, page, entries)
    assert response.status_code == 303
    assert len(stored(app, client)["d"]) == 28
    cookie = next(h for h in response.headers.getlist("Set-Cookie") if h.startswith("session="))
    assert len(cookie) < 4000, len(cookie)


def test_every_wrong_entry_is_named_and_marked_at_once(client, app):
    """Uneven building is refused (Petropolis, seed 003 line 43; Motopolis, seed 002 line 61),
    and the page names every wrong entry, not only the first, on the page and in the JSON the
    page saves itself with."""
    page = start(client)
    assert count(client, page, CLASSIC).status_code == 303
    before = stored(app, client)
    wrong = {**CLASSIC, "cash-0": "-3", "build-via-roma": "4", "owner-stazione-sud": "5"}
    response = count(client, page, wrong)
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and stored(app, client) == before
    said = flash(html)
    assert said.startswith("3 entries cannot be right:")
    assert "The cash of Anna cannot be negative." in said
    assert "Via Roma has 4 houses but Largo Augusto only 1: building goes evenly, at most one apart." in said
    assert "The owner of Stazione Sud is not one of the players." in said
    assert 'class="calc-cash-row is-wrong"' in html
    assert 'id="deed-via-roma"' in html and re.search(r'class="calc-deed is-wrong[^"]*" id="deed-via-roma"', html)
    assert re.search(r'class="calc-deed is-wrong[^"]*" id="deed-stazione-sud"', html)
    saved = client.post("/calculator/save", data={"csrf_token": csrf(page), **wrong}, headers=EN)
    assert saved.status_code == 400
    answer = saved.get_json()
    assert [(e["code"], e["key"], e["player"]) for e in answer["errors"]] == [
        ("negative_cash", None, 0),
        ("invalid_owner", "stazione-sud", None),
        ("uneven_buildings", "via-roma", None),
    ]
    assert answer["error"] == answer["errors"][0]["message"] and answer["player"] == 0
    assert stored(app, client) == before
