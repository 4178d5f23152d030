"""Decoder chips for tables that play on paper (Niente è come sembra): round tokens, green on
the front page and red behind them on the back page (mirrored for long-edge duplex), the
edition's chips for each player plus spares, under a summary of the decoder's rules.
"""

from __future__ import annotations

from PIL import Image

from . import _draw as d
from ._labels import label, text_in

CHIP_MM = 30.0  # diameter
_CELL = 34.0  # each chip in a square of this side, cut around the circle
_COLS = 5
_GREEN = d.parse_colour("#2e8b3e")
_RED = d.parse_colour("#c8102e")
DEFAULT_SPARES = 2


def chip_count(edition: dict, players: int, spares: int = DEFAULT_SPARES) -> int:
    """How many chips the sheet holds: the edition's chips per player, times ``players``, plus
    ``spares``. Refuses an edition without counterfeits and a table size out of its range."""
    terms = edition.get("counterfeits")
    if not isinstance(terms, dict):
        raise ValueError(f"{edition.get('id')!r} has no decoder chips")
    limits = edition.get("players") or {}
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not limits.get("min", 1) <= players <= limits.get("max", players)
    ):
        raise ValueError(f"{edition.get('id')!r} is not played by {players!r} players")
    if isinstance(spares, bool) or not isinstance(spares, int) or not 0 <= spares <= 20:
        raise ValueError("spares must be 0 to 20")
    return int(terms.get("chips", 2)) * players + spares


def decoder_chips_pages(
    edition: dict, players: int, paper: str = "a4", lang: str = "it", spares: int = DEFAULT_SPARES, dpi: int = d.DPI
) -> list[Image.Image]:
    return [d.page_image(paper, page, dpi) for page in _sheet(edition, players, paper, lang, spares)]


def decoder_chips_pdf(
    edition: dict, players: int, paper: str = "a4", lang: str = "it", spares: int = DEFAULT_SPARES
) -> bytes:
    """The rules summary and the green chips, then the red backs (print duplex, flip on the
    long edge), as a vector PDF. Refuses what ``chip_count`` refuses, an unknown paper or
    language."""
    pages = _sheet(edition, players, paper, lang, spares)
    return d.pdf_bytes(
        paper, pages, f"Banco – {label('chips_title', lang)} – {text_in(edition.get('name'), lang)}", lang
    )


def decoder_chips_png(
    edition: dict, players: int, paper: str = "a4", lang: str = "it", spares: int = DEFAULT_SPARES, width: int = 600
) -> bytes:
    return d.preview_png(paper, _sheet(edition, players, paper, lang, spares)[0], width)


def _sheet(edition: dict, players: int, paper: str, lang: str, spares: int) -> list[d.Page]:
    d.check_lang(lang)
    page_w, page_h = d.paper_mm(paper)
    count = chip_count(edition, players, spares)
    terms = edition["counterfeits"]
    symbol = (edition.get("currency") or {}).get("symbol") or ""
    left, right = 20.0, page_w - 20.0
    width = right - left
    title_lines, title_size = d.wrap_to_fit(
        f"{label('chips_title', lang)} – {text_in(edition.get('name'), lang)}", width, 18, 11, bold=True
    )
    intro = d.wrap_lines(
        label("chips_intro", lang, chips=terms.get("chips", 2), players=players, spares=spares), width, 10.5
    )
    bounty = (
        d.format_money(int(terms.get("chance_bounty", 0)), symbol, lang)
        if symbol
        else str(terms.get("chance_bounty", 0))
    )
    rules = [
        d.wrap_lines("• " + line, width, 10.5)
        for line in label("chips_rules", lang, chips=terms.get("chips", 2), bounty=bounty).split("|")
    ]

    def header(s: d.Surface) -> float:
        y = s.lines(left, 20, title_lines, title_size, bold=True, align="left") + 3
        y = s.lines(left, y, intro, 10.5, align="left", leading=1.4) + 3
        for lines in rules:
            y = s.lines(left, y, lines, 10.5, align="left", leading=1.35) + 1
        return y + 6

    # Where the chips start: below the summary, measured once on a throwaway image surface.
    probe = d.ImageSurface(page_w, page_h, 20)
    top = header(probe)
    grid_left = (page_w - _COLS * _CELL) / 2
    rows_per_page = max(1, int((page_h - d.SAFE_MM - 3 - top) // _CELL))
    per_page = rows_per_page * _COLS

    def slots(n: int, mirrored: bool) -> list[tuple[float, float]]:
        out = []
        for i in range(n):
            row, col = divmod(i, _COLS)
            if mirrored:
                col = _COLS - 1 - col
            out.append((grid_left + col * _CELL, top + row * _CELL))
        return out

    def chip(s: d.Surface, x: float, y: float, colour, word: str, mark: str) -> None:
        pad = (_CELL - CHIP_MM) / 2
        s.rect(x, y, _CELL, _CELL, stroke=d.CUT_GREY, width=0.1)
        s.ellipse(x + pad, y + pad, CHIP_MM, CHIP_MM, fill=colour, stroke=d.BLACK, width=0.3)
        s.ellipse(x + pad + 1.5, y + pad + 1.5, CHIP_MM - 3, CHIP_MM - 3, stroke=d.WHITE, width=0.4)
        cx = x + _CELL / 2
        s.text(cx, y + _CELL / 2 + 1.5, mark, 22, bold=True, fill=d.WHITE, align="centre")
        s.text(cx, y + _CELL / 2 + 8.5, word, 7, bold=True, fill=d.WHITE, align="centre")
        s.text(cx, y + _CELL / 2 - 7.5, "DECODER", 6, bold=True, fill=d.WHITE, align="centre")

    pages: list[d.Page] = []
    for start in range(0, count, per_page):
        n = min(per_page, count - start)
        first = start == 0

        def front(s: d.Surface, n=n, first=first) -> None:
            if first:
                header(s)
            for x, y in slots(n, False):
                chip(s, x, y, _GREEN, label("chip_green", lang), "✓")

        def back(s: d.Surface, n=n) -> None:
            for x, y in slots(n, True):
                chip(s, x, y, _RED, label("chip_red", lang), "✗")

        pages += [front, back]
    return pages
