"""A tournament's standings to pin up or keep: the champion and the semi-final and final tables
once played, then the general standings, as many pages as the players need.

Like the score sheet, the page is drawn from text the caller has already put in the reader's
language (the web layer translates it as its pages do): nothing here knows what a column means.
"""

from __future__ import annotations

from . import _draw as d

_BANCO_GREEN = (11, 110, 79)
_RULE_GREY = (200, 200, 200)
_MARGIN = 18.0  # left and right
_TOP = 14.0  # the paper's top edge to the first line's capitals
_BOTTOM = 16.0  # the last row's bottom to the paper's edge
_ROW_SIZE = 11.0  # the standings' rows, in points
_ROW_STEP = 7.0  # one row, in mm
_NUMBER_COLUMN = 17.0  # the width of each number column, in mm


def standings_pdf(sheet: dict, paper: str = "a4", lang: str = "en") -> bytes:
    """The standings as a vector PDF. ``sheet`` holds text only, already in ``lang``:

    - ``title`` (the tournament), ``status`` (e.g. "Standings after round 2"), ``details``
      (the edition, the date);
    - ``champion`` (optional): ``{"label", "name"}``;
    - ``stages`` (optional): the semi-final and final tables, each ``{"title", "rows": [[place,
      name, points]]}``;
    - ``columns``: the standings' headings, the first two the rank and the player, the rest
      numbers;
    - ``rows``: ``{"cells": [one per column], "muted": bool, "tag": text after a muted name}``;
    - ``notes`` (optional): sentences printed under the first page's table.

    Refuses (``ValueError``): an unknown paper or language, no columns, no rows, a row whose
    cells do not match the columns, text that is not text.
    """
    pages = _pages(sheet, paper, lang)
    return d.pdf_bytes(paper, pages, f"Banco – {sheet['title']} – {sheet['status']}", lang)


def standings_png(sheet: dict, paper: str = "a4", lang: str = "en", width: int = 600) -> bytes:
    """The first page as a PNG ``width`` pixels wide."""
    return d.preview_png(paper, _pages(sheet, paper, lang)[0], width)


def _text(value, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"the standings' {what} must be text, not {value!r}")
    return value


def _pages(sheet: dict, paper: str, lang: str) -> list[d.Page]:
    d.check_lang(lang)
    width, height = d.paper_mm(paper)
    if not isinstance(sheet, dict):
        raise ValueError("the standings must be a dict")
    title, status = _text(sheet.get("title"), "title"), _text(sheet.get("status"), "status")
    details = _text(sheet.get("details", ""), "details")
    columns = [_text(c, "column") for c in sheet.get("columns") or []]
    rows = sheet.get("rows")
    if len(columns) < 2:
        raise ValueError("the standings need a rank and a player column at least")
    if not isinstance(rows, list) or not rows:
        raise ValueError("the standings need at least one row")
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or len(row.get("cells") or []) != len(columns):
            raise ValueError(f"row {i} must have one cell per column")
        for cell in row["cells"]:
            _text(cell, f"row {i}'s cell")
    champion = sheet.get("champion")
    stages = sheet.get("stages") or []
    notes = [_text(n, "note") for n in sheet.get("notes") or []]
    text_w = width - 2 * _MARGIN
    step = _ROW_STEP

    def head(s: d.Surface) -> float:
        s.text_top(_MARGIN, _TOP, status, 11, fill=d.GREY)
        size = d.fit_size(title, text_w, 20, 10, bold=True)
        y = s.text_top(_MARGIN, _TOP + 6.0, title, size, bold=True) + 2.0
        if details:
            y = s.text_top(_MARGIN, y + 1.0, details, 9, fill=d.GREY) + 2.0
        return y + 4.0

    def first_block(s: d.Surface, y: float) -> float:
        """The champion and the finals' tables, side by side where they fit."""
        if champion:
            s.rect(_MARGIN, y, text_w, 16.0, stroke=_BANCO_GREEN, width=0.6, radius=2.0)
            s.text_top(_MARGIN + 5.0, y + 3.0, _text(champion.get("label"), "champion's label"), 9, fill=d.GREY)
            name = _text(champion.get("name"), "champion's name")
            s.text_top(
                _MARGIN + 5.0,
                y + 8.0,
                name,
                d.fit_size(name, text_w - 10, 16, 8, bold=True),
                bold=True,
                fill=_BANCO_GREEN,
            )
            y += 21.0
        if stages:
            per_row = 3
            box_w = (text_w - (per_row - 1) * 6.0) / per_row
            tallest = 0.0
            for i, stage in enumerate(stages):
                if i and i % per_row == 0:
                    y += tallest + 4.0
                    tallest = 0.0
                x = _MARGIN + (i % per_row) * (box_w + 6.0)
                label = _text(stage.get("title"), "stage's title")
                s.text_top(x, y, label, d.fit_size(label, box_w, 10, 6, bold=True), bold=True)
                yy = y + 6.0
                for place, name, points in stage.get("rows") or []:
                    s.text_top(x, yy, _text(place, "place"), 9.5)
                    s.text_top(x + 6.0, yy, _text(name, "name"), d.fit_size(name, box_w - 18.0, 9.5, 6))
                    s.text_top(x + box_w, yy, _text(points, "points"), 9.5, bold=True, align="right")
                    yy += 5.0
                tallest = max(tallest, yy - y)
            y += tallest + 6.0
        return y

    numbers = len(columns) - 2
    name_x = _MARGIN + 12.0
    right = width - _MARGIN

    def table_head(s: d.Surface, y: float) -> float:
        s.text_top(_MARGIN + 9.0, y, columns[0], 9, fill=d.GREY, align="right")
        s.text_top(name_x, y, columns[1], 9, fill=d.GREY)
        for k in range(numbers):
            s.text_top(right - (numbers - 1 - k) * _NUMBER_COLUMN, y, columns[2 + k], 9, fill=d.GREY, align="right")
        s.line(_MARGIN, y + 5.0, right, y + 5.0, stroke=d.GREY, width=0.3)
        return y + 7.0

    def row_at(s: d.Surface, y: float, row: dict) -> None:
        cells = row["cells"]
        colour = d.GREY if row.get("muted") else d.BLACK
        s.text_top(_MARGIN + 9.0, y, cells[0], _ROW_SIZE, fill=colour, align="right")
        name = cells[1] + (f"  ({_text(row['tag'], 'tag')})" if row.get("muted") and row.get("tag") else "")
        name_w = right - numbers * _NUMBER_COLUMN - name_x - 2.0
        s.text_top(
            name_x,
            y,
            name,
            d.fit_size(name, name_w, _ROW_SIZE, 6.5, bold=not row.get("muted")),
            bold=not row.get("muted"),
            fill=colour,
        )
        for k in range(numbers):
            s.text_top(
                right - (numbers - 1 - k) * _NUMBER_COLUMN,
                y,
                cells[2 + k],
                _ROW_SIZE,
                bold=k == 0,
                fill=colour,
                align="right",
            )
        s.line(_MARGIN, y + step - 2.2, right, y + step - 2.2, stroke=_RULE_GREY, width=0.2)

    # Lay the rows out over pages: the first page holds the champion and the finals above them.
    probe = d.PdfSurface(width, height, "probe", lang)
    start_first = table_head(probe, first_block(probe, head(probe)))
    start_next = table_head(probe, head(probe))
    note_room = len(notes) * 5.0 + 4.0
    chunks, index = [], 0
    while index < len(rows):
        top = start_first if not chunks else start_next
        fit = max(1, int((height - _BOTTOM - top - (note_room if not chunks else 0)) // step))
        chunks.append(rows[index : index + fit])
        index += fit

    pages = []
    for n, chunk in enumerate(chunks):

        def draw(s: d.Surface, chunk=chunk, n=n) -> None:
            y = head(s)
            if n == 0:
                y = first_block(s, y)
            y = table_head(s, y)
            for row in chunk:
                row_at(s, y, row)
                y += step
            if n == 0:
                y += 2.0
                for note in notes:
                    for line in d.wrap_lines(note, text_w, 8.5):
                        s.text_top(_MARGIN, y, line, 8.5, fill=d.GREY)
                        y += 4.2
            if len(chunks) > 1:
                s.text_top(right, height - 10.0, f"{n + 1}/{len(chunks)}", 8, fill=d.GREY, align="right")

        pages.append(draw)
    return pages
