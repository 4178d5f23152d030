"""The tournament's printed standings: the champion and the finals' tables, then every player,
over as many pages as they need; a small vector PDF."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from printables_testkit import pdf_text, render_pages, unprintable_border_ink

from printables.standings import standings_pdf, standings_png

COLUMNS = ["#", "Player", "Points", "Played", "Won"]


def layout_lines(pdf: bytes) -> list[str]:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is missing (apt-get install poppler-utils)")
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return [" ".join(line.split()) for line in out.decode().splitlines() if line.strip()]


def sheet(players=8, **extra):
    rows = [
        {
            "cells": [str(i + 1), f"Player {i + 1:02d}", str(60 - i), "3", str(i % 3)],
            "muted": i == 2,
            "tag": "withdrawn",
        }
        for i in range(players)
    ]
    return {
        "title": "Club championship",
        "status": "Final standings",
        "details": "Championship 2015 · 2 December",
        "champion": {"label": "Champion", "name": "Player 02"},
        "stages": [
            {"title": "Final", "rows": [["1", "Player 02", "25"], ["2", "Player 01", "14"]]},
            {"title": "Semi-finals, table 1", "rows": [["1", "Player 01", "19"]]},
        ],
        "columns": COLUMNS,
        "rows": rows,
        "notes": ["Ties: tables won, then the final counts."],
        **extra,
    }


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_standings_read_back_in_order(paper):
    pdf = standings_pdf(sheet(), paper, "en")
    assert pdf.startswith(b"%PDF") and len(pdf) < 60_000 and b"/Subtype /Image" not in pdf, "a small vector PDF"
    text = pdf_text(pdf)
    assert "Final standings" in text and "Club championship" in text and "Champion Player 02" in text
    lines = layout_lines(pdf)  # the finals' tables sit side by side: read them line by line
    assert any(re.search(r"^Final\s+Semi-finals, table 1$", line) for line in lines)
    assert any(re.search(r"^1\s+Player 02\s+25\s+1\s+Player 01\s+19$", line) for line in lines)
    assert any(re.search(r"^2\s+Player 01\s+14$", line) for line in lines)
    assert "1 Player 01 60 3 0 2 Player 02 59 3 1 3 Player 03 (withdrawn) 58 3 2" in text
    assert "Ties: tables won" in text
    pages = render_pages(pdf, dpi=100)
    assert len(pages) == 1 and unprintable_border_ink(pages[0][0], 100, 5.0) == 0


def test_many_players_run_over_pages_each_with_its_headings():
    pdf = standings_pdf(sheet(players=70, champion=None, stages=[]), "a4", "it")
    pages = render_pages(pdf, dpi=60)
    assert len(pages) >= 2
    text = pdf_text(pdf)
    assert text.count("Points Played Won") == len(pages)  # the headings on every page
    assert "70 Player 70" in text and f"1/{len(pages)}" in text


def test_the_preview_is_the_first_page():
    png = standings_png(sheet(), "a4", "en", width=300)
    assert png.startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "change", [{"rows": []}, {"columns": ["#"]}, {"title": None}, {"rows": [{"cells": ["1", "A"]}]}]
)
def test_a_sheet_that_cannot_be_drawn_is_refused(change):
    with pytest.raises(ValueError):
        standings_pdf(sheet(**change), "a4", "en")
    with pytest.raises(ValueError):
        standings_pdf(sheet(), "a5", "en")
