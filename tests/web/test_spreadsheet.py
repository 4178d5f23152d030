"""Every CSV export writes through ``companion.web.spreadsheet``: text a spreadsheet would run
as a formula is written as text (OWASP's single quote), numbers stay numbers."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from companion.web.spreadsheet import cell, csv_text
from tests.web.test_pages import open_table, sit_down, start
from tests.web.test_results import end

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(
    "text", ['=HYPERLINK("http://x.example","y")', "+39 333", "-Anna", "@SUM(A1)", "\tx", "\r=1+1", "=", "-"]
)
def test_text_that_begins_as_a_formula_gets_a_single_quote(text):
    assert cell(text) == "'" + text


@pytest.mark.parametrize("text", ["Anna", "", " =1", "a=b", "'quoted", "1-2", "Città"])
def test_other_text_is_left_as_it_is(text):
    assert cell(text) == text


@pytest.mark.parametrize("number", [0, 1500, -300, -1, 2.5, -0.5])
def test_numbers_stay_numbers_a_negative_one_too(number):
    assert cell(number) == number
    assert csv_text([[number]]) == f"{number}\r\n"


def test_a_truth_value_is_text_not_a_number():
    assert cell(True) == "True"


def test_every_csv_writer_is_the_spreadsheet_module():
    """A new export cannot forget the quotes: only ``spreadsheet.py`` imports ``csv``."""
    writers = [
        path.relative_to(ROOT).as_posix()
        for folder in ("companion", "printables")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"^\s*(import csv\b|from csv import)", path.read_text(encoding="utf-8"), re.MULTILINE)
    ]
    assert writers == ["companion/web/spreadsheet.py"]


def test_the_results_csv_writes_formula_names_as_text_and_counts_as_numbers(app, client):
    names = ['=HYPERLINK("http://x.example","y")', "+39 Bruno", "-Carla", "@Dino"]
    game_id, _ = open_table(client, names=names)
    phone = sit_down(app, game_id, names[0])
    start(client, game_id)
    end(client, game_id)
    rows = list(csv.reader(io.StringIO(phone.get(f"/g/{game_id}/results.csv").get_data(as_text=True))))
    assert sorted(row[1] for row in rows[1:]) == sorted("'" + name for name in names)
    for row in rows[1:]:
        assert row[0].isdigit() and row[-3] == "1500"  # the total: a number, no quote before it
        assert all(value.lstrip("-").isdigit() for value in row[2:-2])
