"""Paper money: each player's split sums to the starting cash, and the notes are all there to cut."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image
from printables_testkit import EDITION_FILES, ink_coverage, load_edition, odd_edition, pdf_text, render_pages

import printables

EDITIONS = {path.stem: load_edition(path) for path in EDITION_FILES}
PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


def _player_counts(edition):
    return range(edition["players"]["min"], edition["players"]["max"] + 1)


@pytest.mark.parametrize("edition", list(EDITIONS.values()) + [odd_edition()], ids=lambda e: e["id"])
def test_each_players_split_sums_to_the_starting_cash(edition):
    for players in _player_counts(edition):
        split = printables.starting_split(edition, players)
        assert set(split) == set(edition["banknotes"])
        assert list(split) == sorted(split, reverse=True)
        assert sum(note * count for note, count in split.items()) == printables.starting_cash(edition, players)
        assert all(count >= 0 for count in split.values())


@pytest.mark.parametrize("edition_id", sorted(EDITIONS))
def test_the_box_split_is_used_when_it_matches(edition_id):
    edition = EDITIONS[edition_id]
    split = printables.starting_split(edition, edition["players"]["min"])
    assert split == {int(k): v for k, v in edition["starting_notes"].items()}


@pytest.mark.parametrize("players, fives", [(2, 5), (3, 4), (4, 3), (5, 2), (6, 1)])
def test_che_impresa_prints_the_500_notes_of_the_table_size(players, fives):
    # Seed 000 lines 77-87 and 92-115: 700 baiocchi in small notes (10 × 1, 10 × 5, 7 × 20,
    # 5 × 100) plus five, four, three, two or one 500-note for two to six players.
    split = printables.starting_split(EDITIONS["che-impresa"], players)
    assert split == {500: fives, 100: 5, 20: 7, 5: 10, 1: 10}


@pytest.mark.parametrize(
    "cash, notes",
    [
        (1500, [500, 100, 50, 20, 10, 5, 1]),
        (1200, [500, 100, 50, 20, 10, 5, 1]),
        (3200, [500, 100, 50, 20, 10, 5, 1]),
        (7500, [5000, 1000, 500, 100, 50, 10]),
        (2_000_000, [1_000_000, 500_000, 100_000, 50_000, 10_000, 5_000, 1_000]),
        (30, [25, 10]),
        (85, [50, 20, 10, 5]),
        (1, [1]),
    ],
)
def test_computed_split_is_exact_and_keeps_change_in_hand(cash, notes):
    split = printables.usable_split(cash, notes)
    assert sum(note * count for note, count in split.items()) == cash
    largest = max(notes)
    if cash >= 10 * largest:
        assert all(count >= 1 for count in split.values()), "every note, for change"


def test_computed_split_refuses_an_impossible_amount():
    with pytest.raises(ValueError, match="cannot be made"):
        printables.usable_split(1505, [500, 100, 50, 10])
    with pytest.raises(ValueError):
        printables.usable_split(100, [])


def test_a_split_that_does_not_match_the_cash_is_recomputed():
    edition = dict(EDITIONS[sorted(EDITIONS)[0]], start={"policy": "none", "cash": {str(n): 2200 for n in range(2, 9)}})
    split = printables.starting_split(edition, 4)
    assert sum(n * c for n, c in split.items()) == 2200


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("edition", [EDITIONS[sorted(EDITIONS)[0]], odd_edition()], ids=lambda e: e["id"])
def test_money_sheets_hold_every_note_to_cut(edition, paper):
    players = edition["players"]["min"]
    counts = printables.note_counts(edition, players)
    for row in counts.values():
        assert row["total"] == row["players"] + row["bank"]
        assert row["players"] == row["each"] * players
    total = sum(row["total"] for row in counts.values())
    pdf = printables.money_pdf(edition, players, paper, "en")
    pages = render_pages(pdf, dpi=50)
    assert len(pages) == 1 + math.ceil(total / 10)
    for _, size in pages:
        assert size == pytest.approx(PAPER_PT[paper], abs=1)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_notes_measure_90_by_50_mm(paper):
    edition = EDITIONS[sorted(EDITIONS)[0]]
    image, _ = render_pages(printables.money_pdf(edition, 2, paper), dpi=300)[1]
    width_mm, height_mm = printables.PAPER_SIZES[paper]
    px = 300 / 25.4
    top, left = (height_mm - 5 * 50) / 2, (width_mm - 2 * 90) / 2
    grey = image.convert("L")
    row = [grey.getpixel((x, round((top - 2) * px))) for x in range(grey.width)]
    column = [grey.getpixel((round((left - 2) * px), y)) for y in range(grey.height)]
    marks = [x for x in range(1, len(row)) if row[x] < 128 <= row[x - 1]]
    rows = [y for y in range(1, len(column)) if column[y] < 128 <= column[y - 1]]
    assert len(marks) == 3 and len(rows) == 6
    for a, b in itertools.pairwise(marks):
        assert (b - a) / px == pytest.approx(90, abs=0.5)
    for a, b in itertools.pairwise(rows):
        assert (b - a) / px == pytest.approx(50, abs=0.5)


@pytest.mark.parametrize("ink_saver", [True, False])
def test_denominations_differ_in_colour(ink_saver):
    edition = EDITIONS[sorted(EDITIONS)[0]]
    px = 300 / 25.4
    fills = set()
    for note in edition["banknotes"]:
        image = printables.note_image(edition, note, ink_saver=ink_saver)
        assert image.size == (round(90 * px), round(50 * px))
        fills.add(image.getpixel((round(8 * px), round(25 * px))))
    assert len(fills) == len(edition["banknotes"])


def test_the_ink_saver_is_the_default_and_spends_far_less_ink():
    edition = EDITIONS["classic-it"]
    assert printables.money_pdf(edition, 4) == printables.money_pdf(edition, 4, ink_saver=True)
    assert printables.money_pdf(edition, 4) != printables.money_pdf(edition, 4, ink_saver=False)
    saved = spent = 0.0
    for note in edition["banknotes"]:
        saver = ink_coverage(printables.note_image(edition, note, ink_saver=True, dpi=100))
        full = ink_coverage(printables.note_image(edition, note, ink_saver=False, dpi=100))
        assert saver < 0.75 * full, note  # the white €1 note has little colour to save
        saved, spent = saved + saver, spent + full
    assert saved < 0.55 * spent
    with pytest.raises(ValueError):
        printables.money_pdf(edition, 4, ink_saver="yes")


def test_the_100_note_is_beige_like_the_boxs():
    import colorsys

    fill, _accent = printables.money._palette(EDITIONS["classic-it"]["banknotes"])[100]
    hue, lightness, saturation = colorsys.rgb_to_hls(*(c / 255 for c in fill))
    assert 30 <= hue * 360 <= 50 and 0.7 <= lightness <= 0.9 and 0.3 <= saturation <= 0.7


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_note_and_count_is_text_in_the_pdf(lang):
    edition = EDITIONS["classic-it"]
    text = pdf_text(printables.money_pdf(edition, 8, lang=lang))
    for note, row in printables.note_counts(edition, 8).items():
        amount = printables._draw.format_money(note, "€", lang)
        assert text.count(amount) >= row["total"] + 2, note  # each note, and twice on the summary
        assert f"{row['each']} × {amount}" in text
    assert printables._draw.format_money(1500, "€", lang) in text
    assert ("Banconote" if lang == "it" else "Banknotes") in text


def test_summary_png_and_refusals():
    edition = EDITIONS[sorted(EDITIONS)[0]]
    image = Image.open(io.BytesIO(printables.money_png(edition, 4, width=600)))
    assert image.width == 600
    for call in (
        lambda: printables.money_pdf(edition, 1),
        lambda: printables.money_pdf(edition, 9),
        lambda: printables.money_pdf(edition, 4, paper="a5"),
        lambda: printables.money_pdf(edition, 4, lang="de"),
        lambda: printables.money_pdf(dict(edition, banknotes=[]), 4),
        lambda: printables.money_pdf(edition, 4, bank_sets=-1),
    ):
        with pytest.raises(ValueError):
            call()
