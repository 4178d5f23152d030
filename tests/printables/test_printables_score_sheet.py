"""The score sheet: a game's count printed on one page, from the sheet drawn alone
(``printables.score_sheet``) to the results page's PDF (``/g/<id>/results.pdf``): each
player's name, every part of their count and their total, the tournament points where the
edition has them, in the reader's language, for players seated in the game only."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from PIL import Image
from printables_testkit import ink_coverage, pdf_text, render_pages, unprintable_border_ink

from printables.score_sheet import score_sheet_pdf, score_sheet_png

PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def layout_rows(pdf: bytes) -> list[str]:
    """The sheet's lines as ``pdftotext -layout`` sets them (a table row is one line), every
    space taken out: ``1Carla€1,750€50€0€1,800``."""
    pdf_text(pdf)  # skips (or fails in CI) where pdftotext is missing
    out = subprocess.run(
        [shutil.which("pdftotext"), "-layout", "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode("utf-8")
    return [re.sub(r"\s+", "", line) for line in out.splitlines() if line.strip()]


def word_boxes(pdf: bytes) -> list[tuple[str, float, float, float, float]]:
    """Every word ``pdftotext -bbox`` finds: (text, x min, y min, x max, y max) in points."""
    pdf_text(pdf)
    out = subprocess.run(
        [shutil.which("pdftotext"), "-bbox", "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode("utf-8")
    word = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>'
    return [(m[5], float(m[1]), float(m[2]), float(m[3]), float(m[4])) for m in re.finditer(word, out)]


# --- the sheet alone ----------------------------------------------------------------------------

NAMES = [
    "Anna",
    "Bruno",
    "Carla Maria De Santis Bellavista",
    "Dario",
    "Elena Giovanna Fumagalli-Rossetti",
    "Federico-Massimiliano-Bartolomeo-Rossi",
    "Giulia",
    "Hassan",
]
PARTS = ["Cash", "Deeds", "Buildings", "Mortgaged deeds", "Get out of jail cards", "Bonus"]


def euros(amount: int) -> str:
    return f"€\u00a0{amount:,}"


def big_sheet(parts=PARTS, points=True, names=NAMES) -> dict:
    """Eight players, six parts of the count each, six-figure sums, long names (one a single
    word of 38 letters), one player out."""
    rows = []
    for i, name in enumerate(names):
        values = [123456 - 9000 * i, 2340 + i, 1200, 45000, 50, 10000][: len(parts)]
        rows.append(
            {
                "rank": str(i + 1),
                "player": name,
                "parts": [euros(v) for v in values],
                "total": euros(sum(values)),
                "points": str([13, 6, 3, 1, 1, 0, 0, 0][i]),
                "first": i == 0,
                "out": i == len(names) - 1,
                "tag": "out",
            }
        )
    return {
        "title": "Score sheet",
        "edition": "Italian Monopoly Championship 2015",
        "details": ["30 November 2026", "Game ab12cd"],
        "status": "Final count",
        "winner": {"label": "The winner", "name": "Anna", "total": rows[0]["total"]},
        "columns": {
            "rank": "Rank",
            "player": "Player",
            "parts": list(parts),
            "total": "Total",
            "points": "Tournament points" if points else None,
        },
        "rows": rows,
        "notes": ["Points by place and by players left at the end."] if points else [],
    }


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("ink_saver", [True, False])
def test_eight_players_with_six_parts_fit_one_page(paper, ink_saver):
    sheet = big_sheet()
    pdf = score_sheet_pdf(sheet, paper, "en", ink_saver=ink_saver)
    [(image, size)] = render_pages(pdf, dpi=100)
    assert size == pytest.approx(PAPER_PT[paper], abs=1)
    assert unprintable_border_ink(image, 100, 4.75) == 0
    assert len(pdf) < 100_000 and b"/Subtype /Image" not in pdf, "a small vector PDF"
    fonts = {name for _subset, name in re.findall(rb"/BaseFont\s*/(\w+)\+([\w-]+)", pdf)}
    assert fonts == {b"DejaVuSans", b"DejaVuSans-Bold"}, "only the shipped fonts, embedded as subsets"
    text = pdf_text(pdf)
    for name in NAMES:
        # Long names wrap over two lines (at a space, or after a hyphen: pdftotext joins the
        # lines again without it), and are still found whole.
        assert name.replace("-", "") in text.replace("-", ""), name
    for row in sheet["rows"]:
        for amount in row["parts"] + [row["total"]]:
            assert amount.replace("\u00a0", " ") in text
    rows = layout_rows(pdf)
    for row in sheet["rows"]:  # each row ends with its total and its points
        assert any(line.endswith(f"{row['total']}{row['points']}".replace("\u00a0", "")) for line in rows), row
    # Every word on the page, and inside it: nothing runs past the right margin (15 mm).
    right = size[0] - 15 / 25.4 * 72
    assert max(x1 for _w, _x0, _y0, x1, _y1 in word_boxes(pdf)) <= right + 0.5


def test_money_columns_are_right_aligned():
    sheet = big_sheet(parts=PARTS[:3], points=False, names=NAMES[:4])
    amounts = [5, 1234567, 80, 15000]
    for row, amount in zip(sheet["rows"], amounts):
        row["parts"][0] = euros(amount)
    boxes = word_boxes(score_sheet_pdf(sheet, "a4", "en"))

    def right_edges(numbers):
        """Where each number ends: the last word that is that number (the winner box comes first)."""
        return [
            [x1 for word, _x0, _y0, x1, _y1 in boxes if word.lstrip("€\u00a0 ") == number][-1] for number in numbers
        ]

    edges = right_edges([f"{amount:,}" for amount in amounts])
    assert max(edges) - min(edges) < 0.2, edges
    edges = right_edges([row["total"].split("\u00a0")[1] for row in sheet["rows"]])
    assert max(edges) - min(edges) < 0.2, edges


def test_the_points_column_is_there_only_when_the_edition_has_points():
    with_points = layout_rows(score_sheet_pdf(big_sheet(), "a4", "en"))
    without = layout_rows(score_sheet_pdf(big_sheet(points=False), "a4", "en"))
    assert any("Tournament" in line for line in with_points)
    assert not any("Tournament" in line for line in without)
    assert any(line.endswith("€182,04613") for line in with_points)  # Anna's total, then her 13 points
    assert any(line.endswith("€182,046") for line in without)


def test_full_colour_takes_more_ink_than_the_ink_saver():
    saver = render_pages(score_sheet_pdf(big_sheet(), "a4", "en"), dpi=50)[0][0]
    full = render_pages(score_sheet_pdf(big_sheet(), "a4", "en", ink_saver=False), dpi=50)[0][0]
    assert ink_coverage(full) > ink_coverage(saver) * 1.3


def test_the_preview_is_the_page():
    image = Image.open(io.BytesIO(score_sheet_png(big_sheet(), "a4", "en", width=600)))
    assert image.size == (600, round(600 * 297 / 210))


@pytest.mark.parametrize(
    "change, paper, lang",
    [
        (lambda s: s.update(rows=[]), "a4", "en"),
        (lambda s: s["rows"][2]["parts"].pop(), "a4", "en"),
        (lambda s: s.pop("title"), "a4", "en"),
        (lambda s: s["rows"].extend(s["rows"] * 6), "a4", "en"),  # 56 rows: more than a page holds
        (lambda s: None, "a5", "en"),
        (lambda s: None, "a4", "de"),
    ],
)
def test_a_sheet_that_cannot_be_drawn_is_refused(change, paper, lang):
    sheet = big_sheet()
    change(sheet)
    with pytest.raises(ValueError):
        score_sheet_pdf(sheet, paper, lang)


# --- the results page's PDF ----------------------------------------------------------------------


def seated_phone(app, game, name):
    """A phone that holds ``name``'s seat in ``game``, as joining leaves it in the cookie."""
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["games"] = {game.id: {"p": game.tokens[name]}}
    return phone


def finished_game_of_three(api):
    """Classic rules, 1500 each at the start; by hand:

    - Anna buys Vicolo Corto and Vicolo Stretto (60 each) and builds a house (50) on the first:
      cash 1500 - 170 = 1330, deeds 120, buildings 50, total 1500;
    - Bruno pays Carla 300: cash 1200, deeds 0, buildings 0, total 1200;
    - Carla buys Bastioni Gran Sasso (100) and mortgages it (50): cash 1800 - 100 + 50 = 1750,
      deeds 50 (a mortgaged deed counts half its price), buildings 0, total 1800.
    """
    game = api.new_game().start()
    for who, action in (
        ("Anna", {"type": "buy", "deed": "vicolo-corto"}),
        ("Anna", {"type": "buy", "deed": "vicolo-stretto"}),
        ("Anna", {"type": "build", "deed": "vicolo-corto"}),
        ("Bruno", {"type": "transfer", "to": game.ids["Carla"], "amount": 300}),
        ("Carla", {"type": "buy", "deed": "bastioni-gran-sasso"}),
        ("Carla", {"type": "mortgage", "deed": "bastioni-gran-sasso"}),
        ("banker", {"type": "end"}),
    ):
        status, body = game.act(who, action)
        assert status == 200, (action, body)
    return game


def test_the_score_sheet_of_a_finished_game(app, api):
    game = finished_game_of_three(api)
    response = seated_phone(app, game, "Bruno").get(f"/g/{game.id}/results.pdf", headers={"Accept-Language": "en"})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"] == f'inline; filename="banco-{game.id}-score-sheet.pdf"'
    assert response.headers["Cache-Control"] == "no-store"
    pdf = response.data
    [(image, size)] = render_pages(pdf, dpi=100)
    assert size == pytest.approx(PAPER_PT["a4"], abs=1)
    assert unprintable_border_ink(image, 100, 4.75) == 0
    text = pdf_text(pdf)
    assert "Monopoly – classic Italian board" in text and game.id in text and "Final count" in text
    assert re.search(r"The winner Carla € 1,800", text)
    rows = layout_rows(pdf)
    assert "RankPlayerCashDeedsBuildingsTotal" in rows
    assert "1Carla€1,750€50€0€1,800" in rows
    assert "2Anna€1,330€120€50€1,500" in rows
    assert "3Bruno€1,200€0€0€1,200" in rows
    assert "Tournament" not in text  # the classic rules have no points table


def test_the_score_sheet_speaks_italian(app, api):
    game = finished_game_of_three(api)
    phone = seated_phone(app, game, "Anna")
    phone.set_cookie("lang", "it")
    pdf = phone.get(f"/g/{game.id}/results.pdf", headers={"Accept-Language": "en"}).data
    text = pdf_text(pdf)
    assert "Monopoly – tabellone classico italiano" in text and "Il vincitore Carla € 1.800" in text
    rows = layout_rows(pdf)
    assert "PosizioneGiocatoreSoldiContrattiEdificiTotale" in rows
    assert "1Carla€1.750€50€0€1.800" in rows and "2Anna€1.330€120€50€1.500" in rows


def test_the_score_sheet_of_an_eight_player_championship(app, api):
    names = [
        "Anna",
        "Bruno",
        "Carla Maria De Santis Bellavista",
        "Dario",
        "Elena",
        "Fabio",
        "Giulia",
        "Hassan Al-Rashid",
    ]
    game = api.new_game(players=names, edition="campionato-2015").start()
    # The k-th player pays the bank 10 × k: Anna keeps 1500, then 1490, 1480, ... 1430.
    for k, name in enumerate(names[1:], 1):
        assert game.act(name, {"type": "transfer", "to": "bank", "amount": 10 * k})[0] == 200
    assert game.act("banker", {"type": "end"})[0] == 200
    pdf = seated_phone(app, game, "Giulia").get(f"/g/{game.id}/results.pdf", headers={"Accept-Language": "en"}).data
    pages = render_pages(pdf, dpi=100)
    assert len(pages) == 1 and pages[0][1] == pytest.approx(PAPER_PT["a4"], abs=1)
    assert unprintable_border_ink(pages[0][0], 100, 4.75) == 0
    text = pdf_text(pdf)
    for name in names:
        assert name in text, name
    rows = layout_rows(pdf)
    heading = rows.index("RankPlayerCashDeedsBuildingsTotalpoints")
    assert rows[heading - 1] == "Tournament"  # the column's heading, over two lines
    assert "The table stops at 6 players left" in text  # the points note of the results page
    # Eight players left: the rulebook's last row (six players) counts, places past the fifth score 0.
    points = [13, 6, 3, 1, 1, 0, 0, 0]
    for place, (name, score) in enumerate(zip(names, points), 1):
        total = 1500 - 10 * (place - 1)
        assert f"{place}{name.replace(' ', '')}M{total:,}M0M0M{total:,}{score}" in rows, name


def test_during_play_the_sheet_shows_the_standings_and_keeps_private_cash_private(app, api):
    game = api.new_game(edition="campionato-2015").start()
    game.act("Anna", {"type": "transfer", "to": game.ids["Bruno"], "amount": 300})
    pdf = seated_phone(app, game, "Carla").get(f"/g/{game.id}/results.pdf", headers={"Accept-Language": "en"}).data
    text = pdf_text(pdf)
    assert "Standings so far" in text and "Final count" not in text and "The winner" not in text
    assert "M 1,500" in text and "1,800" not in text and "1,200" not in text  # only her own count
    assert "private" in text and "until the end you see only your own count" in text


def test_the_score_sheet_is_for_the_players_of_the_game(app, api):
    game = finished_game_of_three(api)
    stranger = app.test_client()
    response = stranger.get(f"/g/{game.id}/results.pdf")
    assert response.status_code == 302 and f"/j/{game.join_code}" in response.location
    assert response.mimetype != "application/pdf"
    # A seat in another game is no seat in this one.
    other = api.new_game()
    assert seated_phone(app, other, "Anna").get(f"/g/{game.id}/results.pdf").status_code == 302
    assert stranger.get("/g/nope/results.pdf").status_code == 404
    # The banker's browser may print it too.
    banker = app.test_client()
    with banker.session_transaction() as session:
        session["games"] = {game.id: {"b": game.banker}}
    assert banker.get(f"/g/{game.id}/results.pdf").status_code == 200


def test_the_results_page_links_the_score_sheet(app, api):
    game = finished_game_of_three(api)
    page = (
        seated_phone(app, game, "Anna")
        .get(f"/g/{game.id}/results", headers={"Accept-Language": "en"})
        .get_data(as_text=True)
    )
    assert f'href="/g/{game.id}/results.pdf"' in page and "Score sheet (PDF)" in page


def test_a_tie_for_first_place_and_what_the_tiebreak_did(app, api):
    game = api.new_game(players=("Anna", "Bruno", "Carla", "Dario")).start()
    game.act("Carla", {"type": "transfer", "to": game.ids["Anna"], "amount": 100})
    game.act("Dario", {"type": "transfer", "to": game.ids["Bruno"], "amount": 100})
    game.act("banker", {"type": "end"})
    phone = seated_phone(app, game, "Carla")
    text = pdf_text(phone.get(f"/g/{game.id}/results.pdf?paper=letter", headers={"Accept-Language": "en"}).data)
    assert "A tie for first place Anna · Bruno € 1,600" in text
    shared = "Anna and Bruno count the same and the rules do not separate them: they share the place."
    assert shared in text
    page = phone.get(f"/g/{game.id}/results", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert shared in page  # the same note as on the results page
    assert phone.get(f"/g/{game.id}/results.pdf?paper=a3").status_code == 400
