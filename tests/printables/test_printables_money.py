"""Paper money: each player's split sums to the starting cash, and the notes are all there to cut."""
from __future__ import annotations

import io
import math

import pytest
from PIL import Image

import printables
from printables_testkit import EDITION_FILES, load_edition, odd_edition, render_pages

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


@pytest.mark.parametrize("cash, notes", [
    (1500, [500, 100, 50, 20, 10, 5, 1]),
    (1200, [500, 100, 50, 20, 10, 5, 1]),
    (3200, [500, 100, 50, 20, 10, 5, 1]),
    (7500, [5000, 1000, 500, 100, 50, 10]),
    (2_000_000, [1_000_000, 500_000, 100_000, 50_000, 10_000, 5_000, 1_000]),
    (30, [25, 10]),
    (85, [50, 20, 10, 5]),
    (1, [1]),
])
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


def test_notes_measure_90_by_50_mm_and_denominations_differ_in_colour():
    edition = EDITIONS[sorted(EDITIONS)[0]]
    pages = printables.money_pages(edition, 2)
    note_page = pages[1]
    width_mm, height_mm = printables.PAPER_SIZES["a4"]
    px = 300 / 25.4
    top = (height_mm - 5 * 50) / 2
    grey = note_page.convert("L")
    row = [grey.getpixel((x, round((top - 3) * px))) for x in range(grey.width)]
    marks = [x for x in range(1, len(row)) if row[x] < 128 <= row[x - 1]]
    assert len(marks) == 3
    assert (marks[1] - marks[0]) / px == pytest.approx(90, abs=0.5)
    fills = set()
    for note in printables.starting_split(edition, 2):
        image = printables.money._note(edition, note, "€", printables.money._fills(edition["banknotes"])[note], "it")
        assert image.size == (round(90 * px), round(50 * px))
        fills.add(image.getpixel((round(8 * px), round(25 * px))))
    assert len(fills) == len(edition["banknotes"])


def test_summary_png_and_refusals():
    edition = EDITIONS[sorted(EDITIONS)[0]]
    image = Image.open(io.BytesIO(printables.money_png(edition, 4, width=600)))
    assert image.width == 600
    for call in (lambda: printables.money_pdf(edition, 1), lambda: printables.money_pdf(edition, 9),
                 lambda: printables.money_pdf(edition, 4, paper="a5"), lambda: printables.money_pdf(edition, 4, lang="de"),
                 lambda: printables.money_pdf(dict(edition, banknotes=[]), 4),
                 lambda: printables.money_pdf(edition, 4, bank_sets=-1)):
        with pytest.raises(ValueError):
            call()
