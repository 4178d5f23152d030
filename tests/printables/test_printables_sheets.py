"""Every sheet, whatever it shows: a small vector PDF with its own fonts embedded, its words as
text, and no ink where a home inkjet cannot print (within 5 mm of the paper's edge)."""

from __future__ import annotations

import re
from functools import cache

import pytest
from printables_testkit import (
    BASE_URL,
    EDITION_FILES,
    load_edition,
    no_mortgage_edition,
    odd_edition,
    pdf_text,
    render_pages,
    unprintable_border_ink,
)

import printables

EDITIONS = {path.stem: load_edition(path) for path in EDITION_FILES}
LARGEST = max(EDITIONS.values(), key=lambda e: len(e["deeds"]))
JOIN_URL = "http://192.168.1.23:5000/j/7KQ4AB"
REJOIN = [
    {"name": name, "url": f"http://192.168.1.23:5000/r/{i}-{'t0k3n' * 6}"}
    for i, name in enumerate(
        [
            "Anna",
            "Bruno",
            "Carla Maria De Santis Bellavista",
            "Dario",
            "Elena",
            "Fabio",
            "Giulia",
            "Hassan",
            "Irene",
            "Luca",
            "Marta",
        ]
    )
]

#: sheet -> (how to draw it on a paper, the most it may weigh in bytes)
SHEETS = {
    "deeds-largest": (lambda paper: printables.deed_cards_pdf(LARGEST, BASE_URL, paper), 300_000),
    "deeds-odd": (lambda paper: printables.deed_cards_pdf(odd_edition(), BASE_URL, paper, "en"), 300_000),
    "deeds-no-mortgage": (lambda paper: printables.deed_cards_pdf(no_mortgage_edition(), BASE_URL, paper), 300_000),
    "money-8": (lambda paper: printables.money_pdf(EDITIONS["classic-it"], 8, paper), 500_000),
    "money-8-full-colour": (
        lambda paper: printables.money_pdf(EDITIONS["classic-it"], 8, paper, ink_saver=False),
        500_000,
    ),
    "money-odd": (lambda paper: printables.money_pdf(odd_edition(), 2, paper, "en"), 500_000),
    "poster": (lambda paper: printables.poster_pdf(JOIN_URL, "7KQ4AB", "Venerdì da Anna", paper), 100_000),
    "rejoin-11": (lambda paper: printables.rejoin_cards_pdf(REJOIN, paper, "en"), 150_000),
}
CASES = [(sheet, paper) for sheet in SHEETS for paper in ("a4", "letter")]


@cache
def _pdf(sheet: str, paper: str) -> bytes:
    return SHEETS[sheet][0](paper)


@pytest.mark.parametrize("sheet, paper", CASES)
def test_each_sheet_is_a_small_vector_pdf_with_its_fonts_embedded(sheet, paper):
    pdf = _pdf(sheet, paper)
    assert len(pdf) < SHEETS[sheet][1], f"{sheet} weighs {len(pdf)} bytes"
    assert b"/Subtype /Image" not in pdf, "drawn as vectors, not pictures"
    fonts = set(re.findall(rb"/BaseFont\s*/(\w+)\+([\w-]+)", pdf))
    assert fonts and {name for _subset, name in fonts} <= {b"DejaVuSans", b"DejaVuSans-Bold"}
    assert not re.search(rb"/BaseFont\s*/(Helvetica|Times|Courier|Symbol|ZapfDingbats)", pdf)
    assert pdf.count(b"/FontFile2") == len(fonts), "every font embedded (as a subset)"


@pytest.mark.parametrize("sheet, paper", CASES)
def test_nothing_is_printed_within_5_mm_of_the_papers_edge(sheet, paper):
    for image, _size in render_pages(_pdf(sheet, paper), dpi=100):
        # 4.75 mm: the pixel that straddles the 5 mm line may be grey.
        assert unprintable_border_ink(image, 100, 4.75) == 0


@pytest.mark.parametrize("sheet", list(SHEETS))
def test_each_sheet_has_selectable_text(sheet):
    text = pdf_text(_pdf(sheet, "a4"))
    assert len(text) > 40
    expected = {
        "deeds-largest": LARGEST["deeds"][-1]["name"],
        "deeds-odd": "PROVISIONAL",
        "deeds-no-mortgage": "Vicolo Corto",
        "money-8": "Banconote",
        "money-8-full-colour": "€500",
        "money-odd": "P$ 1,000,000",
        "poster": "7KQ4AB",
        "rejoin-11": "Marta",
    }[sheet]
    assert expected in text


def test_the_preview_pngs_are_drawn_by_the_same_code():
    """The PNG previews are painted from the same drawing as the PDF: their QR codes scan
    and their pages are the paper's shape."""
    import io

    from PIL import Image
    from printables_testkit import decode_qr

    for png, paper in (
        (printables.deed_cards_png(LARGEST, BASE_URL, "letter", width=600), "letter"),
        (printables.money_png(EDITIONS["classic-it"], 8, "a4", width=600), "a4"),
        (printables.rejoin_cards_png(REJOIN, width=600), "a4"),
    ):
        image = Image.open(io.BytesIO(png))
        width, height = printables.PAPER_SIZES[paper]
        assert image.size == (600, round(600 * height / width))
    deeds = Image.open(io.BytesIO(printables.deed_cards_png(LARGEST, BASE_URL, width=1200))).convert("RGB")
    assert len(decode_qr(deeds)) == 9
