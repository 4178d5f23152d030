"""The tournament's seating plan: the list of tables and seats, then a slip per player with
a QR of their seat URL."""

from __future__ import annotations

import pytest
from printables_testkit import decode_qr, pdf_text, render_pages

from printables.seating import seating_plan_pdf

TABLES = [
    {
        "number": 1,
        "seats": [
            {"name": n, "url": f"http://banco.test/r/secret-{n.lower()}"} for n in ("Anna", "Bruno", "Carla", "Dario")
        ],
    },
    {
        "number": 2,
        "seats": [{"name": n, "url": f"http://banco.test/r/secret-{n.lower()}"} for n in ("Elena", "Fabio", "Gina")],
    },
]


def test_the_plan_lists_every_seat_and_each_slip_scans_to_its_player():
    pdf = seating_plan_pdf("Club night", 1, TABLES, "a4", "en")
    text = pdf_text(pdf)
    assert "Seating plan" in text and "Club night · round 1" in text
    assert "Table 1" in text and "Table 2" in text and "3. Gina" in text
    assert "TABLE 1 · SEAT 4" in text and "TABLE 2 · SEAT 1" in text
    pages = render_pages(pdf, dpi=200)
    assert len(pages) == 2  # the list, then seven slips on one sheet
    found = sorted(decode_qr(pages[1][0]))
    assert found == sorted(s["url"] for t in TABLES for s in t["seats"])


def test_the_plan_in_italian_and_on_letter():
    text = pdf_text(seating_plan_pdf("Serata", 2, TABLES, "letter", "it"))
    assert "Posti ai tavoli" in text and "TAVOLO 2 · POSTO 3" in text


@pytest.mark.parametrize(
    "tables",
    [
        [],
        [{"number": 1, "seats": [{"name": "", "url": "http://x/r/1"}]}],
        [{"number": 1, "seats": [{"name": "A", "url": "ftp://x"}]}],
    ],
)
def test_bad_plans_are_refused(tables):
    with pytest.raises(ValueError):
        seating_plan_pdf("X", 1, tables)
