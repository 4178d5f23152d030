"""The score sheet: a game's final count (or its standings so far) on one page, to print and keep.

The sheet is drawn from plain text the caller has already put in the reader's language:
the web layer translates the labels and formats the money as its pages do, so the sheet and
the results page say the same thing in the same words. Nothing here knows what a part of the
count is: the breakdown's columns come as they are given, in their order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PIL import Image

from . import _draw as d

_BANCO_GREEN = (11, 110, 79)
_GREEN_TINT = d.tint(_BANCO_GREEN, 0.88)
_ROW_TINT = (244, 246, 245)
_RULE_GREY = (200, 200, 200)
_OUT_GREY = (120, 120, 120)

_MARGIN = 15.0  # left and right
_TOP = 14.0  # the paper's top edge to the title's capitals
_BOTTOM = 12.0  # the lowest ink to the paper's bottom edge (at least d.SAFE_MM)
_GAP = 2.5  # between two columns of the table
_CELL_PAD = 2.0  # above and below a row's text
_MAX_SIZE, _MIN_SIZE = 11.0, 6.5  # the table's text, in points
_AIR = 3.0  # spare width first given to each number column (air between them)
_NAME_AIR = 10.0  # then to the player column, past its longest name; the rest to the numbers
_NAME_MIN_MM = 32.0  # narrower than this, the player column shrinks the text rather than itself
_NOTE_SIZE = 8.5


def score_sheet_pdf(sheet: dict, paper: str = "a4", lang: str = "en", *, ink_saver: bool = True) -> bytes:
    """One page: the game, whether the count is final, the winner, and the ranking with each
    player's count part by part, total and tournament points, as a vector PDF.

    ``sheet`` holds text only, already in ``lang`` (money already formatted):

    - ``title``, ``edition``, ``status`` (e.g. "Final count" or "Standings so far");
    - ``details``: short facts shown on one line under the edition (the date, the game's id);
    - ``winner`` (optional): ``{"label", "name", "total"}`` (``total`` may be empty);
    - ``columns``: ``{"rank", "player", "parts": [one heading per part of the count], "total",
      "points"}``; ``points`` empty or missing leaves the tournament points column out;
    - ``rows``: one per player, best first: ``{"rank", "player", "parts": [one amount per part],
      "total", "points", "first": bool, "out": bool, "tag": shown after an out player's name}``;
    - ``notes`` (optional): sentences printed under the table.

    ``ink_saver`` (the default) draws rules and outlines only; ``False`` adds a coloured
    heading band, shaded rows and a tinted winner box.
    Refuses (``ValueError``): an unknown paper or language, a sheet without rows, a row whose
    parts do not match the columns, more rows than one page holds.
    """
    page = _ScoreSheet(sheet, paper, lang, ink_saver).draw
    return d.pdf_bytes(paper, [page], f"Banco – {sheet['title']} – {sheet['edition']}", lang)


def score_sheet_pages(
    sheet: dict, paper: str = "a4", lang: str = "en", *, ink_saver: bool = True, dpi: int = d.DPI
) -> list[Image.Image]:
    """The score sheet (see ``score_sheet_pdf``) painted as a Pillow image at ``dpi``."""
    return [d.page_image(paper, _ScoreSheet(sheet, paper, lang, ink_saver).draw, dpi)]


def score_sheet_png(
    sheet: dict, paper: str = "a4", lang: str = "en", width: int = 600, *, ink_saver: bool = True
) -> bytes:
    """The score sheet as a PNG ``width`` pixels wide; refuses what ``score_sheet_pdf`` refuses."""
    return d.preview_png(paper, _ScoreSheet(sheet, paper, lang, ink_saver).draw, width)


def _text(value, what: str, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise ValueError(f"the score sheet's {what} must be text, not {value!r}")
    return value.strip()


@dataclass(frozen=True)
class _Column:
    heading: str
    align: str  # "left", "centre" or "right"
    cells: tuple[str, ...]
    bold: bool = False


@dataclass
class _Table:
    """The table laid out at one text size: each column's left edge and width, each header's
    lines, each player's name lines and each row's height."""

    size: float
    head_size: float
    xs: list[float]
    widths: list[float]
    headings: list[list[str]]
    names: list[tuple[list[str], float]]
    head_height: float
    row_heights: list[float]

    @property
    def height(self) -> float:
        return self.head_height + sum(self.row_heights)


class _ScoreSheet:
    def __init__(self, sheet: dict, paper: str, lang: str, ink_saver: bool):
        d.check_lang(lang)
        self.width, self.height = d.paper_mm(paper)
        if not isinstance(ink_saver, bool):
            raise ValueError(f"ink_saver must be True or False, not {ink_saver!r}")
        if not isinstance(sheet, dict):
            raise ValueError("the score sheet must be a dict")
        self.ink_saver = ink_saver
        self.left, self.right = _MARGIN, self.width - _MARGIN
        self.inner = self.right - self.left
        self.title = _text(sheet.get("title"), "title")
        self.edition = _text(sheet.get("edition"), "edition")
        self.status = _text(sheet.get("status"), "status")
        details = sheet.get("details") or []
        self.details = " · ".join(_text(v, "details") for v in details)
        winner = sheet.get("winner")
        self.winner = None
        if winner:
            self.winner = (
                _text(winner.get("label"), "winner label"),
                _text(winner.get("name"), "winner"),
                _text(winner.get("total"), "winner total", required=False),
            )
        self.notes = [_text(n, "note") for n in sheet.get("notes") or []]
        self._read_table(sheet)
        self._lay_out()

    # --- reading ---------------------------------------------------------------------------

    def _read_table(self, sheet: dict) -> None:
        columns = sheet.get("columns")
        rows = sheet.get("rows")
        if not isinstance(columns, dict):
            raise ValueError("the score sheet needs its columns")
        if not isinstance(rows, list) or not rows:
            raise ValueError("the score sheet needs at least one row")
        parts = [_text(p, "part heading") for p in columns.get("parts") or []]
        points = _text(columns.get("points"), "points heading", required=False)
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise ValueError(f"row {i} must be a dict")
            if len(row.get("parts") or []) != len(parts):
                raise ValueError(f"row {i} has {len(row.get('parts') or [])} parts for {len(parts)} part columns")
        self.rows = rows
        self.first = [bool(r.get("first")) for r in rows]
        self.out = [bool(r.get("out")) for r in rows]
        self.tags = [_text(r.get("tag"), "tag", required=False) if r.get("out") else "" for r in rows]
        self.player_names = [_text(r.get("player"), f"row {i}'s player") for i, r in enumerate(rows)]
        self.player_heading = _text(columns.get("player"), "player heading")
        cols = [
            _Column(
                _text(columns.get("rank"), "rank heading"),
                "centre",
                tuple(_text(str(r.get("rank") or ""), "rank", required=False) for r in rows),
            )
        ]
        for j, heading in enumerate(parts):
            cols.append(
                _Column(heading, "right", tuple(_text(r["parts"][j], f"{heading} amount", False) for r in rows))
            )
        cols.append(
            _Column(
                _text(columns.get("total"), "total heading"),
                "right",
                tuple(_text(r.get("total"), "total", False) for r in rows),
                bold=True,
            )
        )
        if points:
            cols.append(
                _Column(
                    points,
                    "right",
                    tuple(
                        _text(str(r.get("points") if r.get("points") is not None else ""), "points", False)
                        for r in rows
                    ),
                )
            )
        self.columns = cols

    # --- laying out --------------------------------------------------------------------------

    def _lay_out(self) -> None:
        # Everything above the table, and the notes below it: what is left is the table's; its
        # text shrinks until both its width and its height fit.
        self.title_size = d.fit_size(self.title, self.inner * 0.62, 20, 12, bold=True)
        self.status_size = d.fit_size(self.status, self.inner * 0.34 - 6, 11, 7, bold=True)
        self.edition_lines, self.edition_size = d.wrap_to_fit(self.edition, self.inner, 14, 9, bold=True)
        self.details_size = d.fit_size(self.details, self.inner, 10, 6.5) if self.details else 0
        if self.winner:
            label, name, total = self.winner
            self.winner_name_lines, self.winner_name_size = d.wrap_to_fit(name, self.inner - 16, 24, 11, bold=True)
            self.winner_label_size = d.fit_size(label, self.inner - 16, 11, 7)
            self.winner_total_size = d.fit_size(total, self.inner - 16, 14, 8, bold=True) if total else 0
        self.note_lines = [d.wrap_lines(n, self.inner, _NOTE_SIZE) for n in self.notes]

        y = self._header_bottom()
        notes_height = sum(len(lines) for lines in self.note_lines) * _NOTE_SIZE * 1.35 * d.MM_PER_PT + 2.5 * len(
            self.note_lines
        )
        available = self.height - _BOTTOM - y - 6 - notes_height
        size = _MAX_SIZE
        while True:
            table = self._table(size)
            if table is not None and table.height <= available:
                break
            if size <= _MIN_SIZE:
                raise ValueError(f"{len(self.rows)} rows of {len(self.columns)} columns do not fit one page")
            size = max(_MIN_SIZE, size - 0.25)
        self.table = table
        self.table_top = y

    def _header_bottom(self) -> float:
        """Where the table starts: under the title, the edition, the details and the winner."""
        y = _TOP + d.cap_mm(self.title_size) + 4.0
        y += len(self.edition_lines) * self.edition_size * 1.2 * d.MM_PER_PT
        if self.details:
            y += d.cap_mm(self.details_size) + 2.5
        y += 3.0  # the rule under the heading
        if self.winner:
            y += self._winner_height() + 5.0
        return y + 2.0

    def _winner_height(self) -> float:
        _, _, total = self.winner
        height = 4.0 + d.cap_mm(self.winner_label_size) + 3.0
        height += len(self.winner_name_lines) * self.winner_name_size * 1.15 * d.MM_PER_PT
        if total:
            height += d.cap_mm(self.winner_total_size) + 2.5
        return height + 3.0

    def _table(self, size: float) -> _Table | None:
        """The table at ``size`` points, or ``None`` when it cannot fit the page's width."""
        head = min(9.0, size * 0.9)
        widths = []
        for col in self.columns:
            cells = max(
                (d.text_width(c, size, bold=col.bold or self.first[i]) for i, c in enumerate(col.cells)), default=0.0
            )
            width = max(cells, _heading_width(col.heading, head, cells))
            widths.append(width)
        name_w = self.inner - sum(widths) - _GAP * len(widths)
        widest = max(self._name_width(i, size) for i in range(len(self.rows)))
        if name_w < min(widest, _NAME_MIN_MM) or name_w < d.text_width(self.player_heading, head, bold=True):
            return None
        # Spare width, in turn: air between the number columns (up to _AIR each), then the
        # player column up to what its longest name needs plus _NAME_AIR, then the number
        # columns again, which stay right-aligned.
        # The rank column, left of the names, keeps its own width.
        needed = max(widest, d.text_width(self.player_heading, head, bold=True))
        numbers = len(widths) - 1
        spare = name_w - min(needed, name_w)
        air = min(_AIR, spare / numbers)
        spare -= air * numbers
        name_air = min(_NAME_AIR, spare)
        spare -= name_air
        extra = air + spare / numbers
        widths = widths[:1] + [w + extra for w in widths[1:]]
        name_w = min(needed, name_w) + name_air
        names = []
        for i, name in enumerate(self.player_names):
            room = name_w - (self._tag_width(i, size) if self.tags[i] else 0.0)
            names.append(_name_lines(name, room, size, max(_MIN_SIZE - 1, size * 0.75), bold=self.first[i]))
        # Columns: rank, player, then the numbers.
        all_widths = [widths[0], name_w] + widths[1:]
        xs, x = [], self.left
        for w in all_widths:
            xs.append(x)
            x += w + _GAP
        # Headings wrap at spaces within their column's final width.
        all_headings = [
            d.wrap_lines(heading, w + 1e-6, head, bold=True)
            for heading, w in zip(
                [self.columns[0].heading, self.player_heading] + [c.heading for c in self.columns[1:]], all_widths
            )
        ]
        head_lines = max(len(h) for h in all_headings)
        head_height = 2 * _CELL_PAD + d.cap_mm(head) + (head_lines - 1) * head * 1.2 * d.MM_PER_PT + 1.0
        rows = []
        for lines, name_size in names:
            text = max(d.cap_mm(size), d.cap_mm(name_size) + (len(lines) - 1) * name_size * 1.2 * d.MM_PER_PT)
            rows.append(text + 2 * _CELL_PAD + 2.2)
        return _Table(size, head, xs, all_widths, all_headings, names, head_height, rows)

    def _name_width(self, i: int, size: float) -> float:
        width = d.text_width(self.player_names[i], size, bold=self.first[i])
        return width + (self._tag_width(i, size) if self.tags[i] else 0.0)

    def _tag_width(self, i: int, size: float) -> float:
        return d.text_width(self.tags[i], size * 0.8) + 2.0

    # --- drawing ---------------------------------------------------------------------------

    def draw(self, s: d.Surface) -> None:
        left, right = self.left, self.right
        green = _BANCO_GREEN
        # The title, and the status in a box on the right.
        baseline = _TOP + d.cap_mm(self.title_size)
        s.text(left, baseline, self.title, self.title_size, bold=True, fill=green)
        status_w = d.text_width(self.status, self.status_size, bold=True) + 6
        box_h = d.cap_mm(self.status_size) + 4
        box_top = baseline - d.cap_mm(self.title_size) / 2 - box_h / 2
        if self.ink_saver:
            s.rect(right - status_w, box_top, status_w, box_h, stroke=green, width=0.4, radius=1.2)
            status_ink = green
        else:
            s.rect(right - status_w, box_top, status_w, box_h, fill=green, radius=1.2)
            status_ink = d.WHITE
        s.text(
            right - status_w / 2,
            box_top + box_h / 2 + d.cap_mm(self.status_size) / 2,
            self.status,
            self.status_size,
            bold=True,
            fill=status_ink,
            align="centre",
        )
        y = baseline + 4.0
        y = s.lines(left, y, self.edition_lines, self.edition_size, bold=True, align="left")
        if self.details:
            s.text_top(left, y, self.details, self.details_size, fill=d.GREY)
            y += d.cap_mm(self.details_size) + 2.5
        y += 1.0
        s.line(left, y, right, y, stroke=green, width=0.5)
        y += 2.0
        if self.winner:
            self._draw_winner(s, y + 3.0)
        self._draw_table(s, self.table_top)  # where _header_bottom put it
        y = self.table_top + self.table.height + 6.0
        for lines in self.note_lines:
            y = s.lines(left, y, lines, _NOTE_SIZE, fill=d.GREY, align="left", leading=1.35) + 2.5

    def _draw_winner(self, s: d.Surface, top: float) -> None:
        label, _name, total = self.winner
        h = self._winner_height()
        if self.ink_saver:
            s.rect(self.left, top, self.inner, h, stroke=_BANCO_GREEN, width=0.4, radius=2.0)
        else:
            s.rect(self.left, top, self.inner, h, fill=_GREEN_TINT, stroke=_BANCO_GREEN, width=0.4, radius=2.0)
        centre = self.left + self.inner / 2
        y = s.text_top(centre, top + 4.0, label, self.winner_label_size, fill=d.GREY, align="centre") + 3.0
        y = s.lines(centre, y, self.winner_name_lines, self.winner_name_size, bold=True, leading=1.15)
        if total:
            s.text_top(centre, y, total, self.winner_total_size, bold=True, fill=_BANCO_GREEN, align="centre")

    def _draw_table(self, s: d.Surface, top: float) -> None:
        t = self.table
        left, right = self.left, self.right
        aligns = ["centre", "left"] + [c.align for c in self.columns[1:]]

        def anchor(k: int) -> float:
            return {"left": t.xs[k], "centre": t.xs[k] + t.widths[k] / 2, "right": t.xs[k] + t.widths[k]}[aligns[k]]

        # The heading row: a band in full colour, rules in ink saver; headings sit on the row's foot.
        if not self.ink_saver:
            s.rect(left - 1.5, top, self.inner + 3, t.head_height, fill=_BANCO_GREEN)
        head_ink = _BANCO_GREEN if self.ink_saver else d.WHITE
        step = t.head_size * 1.2 * d.MM_PER_PT
        bottom = top + t.head_height - _CELL_PAD - 0.5
        for k, lines in enumerate(t.headings):
            for n, line in enumerate(lines):
                s.text(
                    anchor(k),
                    bottom - (len(lines) - 1 - n) * step,
                    line,
                    t.head_size,
                    bold=True,
                    fill=head_ink,
                    align=aligns[k],
                )
        y = top + t.head_height
        if self.ink_saver:
            s.line(left, top, right, top, stroke=_BANCO_GREEN, width=0.4)
            s.line(left, y, right, y, stroke=_BANCO_GREEN, width=0.4)
        cells_by_row = [[col.cells[i] for col in self.columns] for i in range(len(self.rows))]
        for i, row_h in enumerate(t.row_heights):
            first, out = self.first[i], self.out[i]
            if not self.ink_saver and first:
                s.rect(left - 1.5, y, self.inner + 3, row_h, fill=_GREEN_TINT)
            elif not self.ink_saver and i % 2:
                s.rect(left - 1.5, y, self.inner + 3, row_h, fill=_ROW_TINT)
            ink = _OUT_GREY if out else d.BLACK
            middle = y + row_h / 2
            baseline = middle + d.cap_mm(t.size) / 2
            # The player: one or two lines, centred on the row, then the "out" tag.
            lines, name_size = t.names[i]
            name_step = name_size * 1.2 * d.MM_PER_PT
            name_top = middle - (d.cap_mm(name_size) + (len(lines) - 1) * name_step) / 2
            if len(lines) == 1:  # on the row's baseline, even when set smaller
                name_top = baseline - d.cap_mm(name_size)
            last = s.lines(t.xs[1], name_top, lines, name_size, bold=first, fill=ink, align="left") - name_step
            if self.tags[i]:
                tag_x = t.xs[1] + d.text_width(lines[-1], name_size, bold=first) + 2.0
                s.text(tag_x, last + d.cap_mm(name_size), self.tags[i], t.size * 0.8, fill=_OUT_GREY)
            cells = cells_by_row[i]
            for c, cell in enumerate(cells):
                k = 0 if c == 0 else c + 1
                col = self.columns[c]
                bold = first or (col.bold and not out)
                s.text(anchor(k), baseline, cell, t.size, bold=bold, fill=ink, align=aligns[k])
            y += row_h
            last_row = i == len(t.row_heights) - 1
            s.line(left, y, right, y, stroke=_BANCO_GREEN if last_row else _RULE_GREY, width=0.4 if last_row else 0.2)


def _heading_width(text: str, size: float, room: float) -> float:
    """How wide a column heading needs its column: ``room`` (what the cells need) when the
    heading fits it on one line, else the narrowest width that breaks it into at most three
    lines at spaces (two when that is as narrow)."""
    if d.text_width(text, size, bold=True) <= room:
        return room
    words = text.split()
    spans = sorted(
        {
            d.text_width(" ".join(words[i:j]), size, bold=True)
            for i in range(len(words))
            for j in range(i + 1, len(words) + 1)
        }
    )

    def lines_at(width: float) -> int:
        lines = d.wrap_lines(text, width + 1e-6, size, bold=True)
        return len(lines) if all(d.text_width(line, size, bold=True) <= width + 1e-6 for line in lines) else 99

    fitting = {n: next(w for w in spans if lines_at(w) <= n) for n in (2, 3)}
    return fitting[2] if fitting[2] <= fitting[3] + 1.0 else fitting[3]


def _name_lines(name: str, width: float, size: float, min_size: float, bold: bool) -> tuple[list[str], float]:
    """A player's name in at most two lines no wider than ``width`` mm, and its size.

    One line while it fits at four fifths of ``size`` or more; else two lines, broken at a
    space or after a hyphen, as even as they come, at the largest size down to ``min_size``
    where they fit; else (one long word) two halves of the word; at worst smaller still."""
    one = d.fit_size(name, width, size, min_size, bold)
    if one >= size * 0.8 and d.text_width(name, one, bold) <= width + 1e-6:
        return [name], one
    pieces = re.findall(r"\S+?-(?=\S)|\S+\s*", name)
    splits = [("".join(pieces[:k]).strip(), "".join(pieces[k:]).strip()) for k in range(1, len(pieces))]
    current = size
    while True:
        fitting = [pair for pair in splits if max(d.text_width(line, current, bold) for line in pair) <= width]
        if fitting:
            return list(min(fitting, key=lambda pair: max(d.text_width(line, current, bold) for line in pair))), current
        if current <= min_size:
            break
        current = max(min_size, current * 0.95)
    if d.text_width(name, min_size, bold) <= width:
        return [name], min_size
    halves = [(name[:k].strip(), name[k:].strip()) for k in range(1, len(name))]
    pair = min(halves, key=lambda pair: max(d.text_width(line, min_size, bold) for line in pair))
    widest = max(d.text_width(line, min_size, bold) for line in pair)
    return list(pair), min_size * min(1.0, width / widest)
