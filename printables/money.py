"""Paper money for groups who want it in hand: the edition's banknotes and each player's starting split.

Notes are 90×50 mm, three quarters of a real Monopoly note (120×62 mm), so ten fit a page
in two columns of five on A4 and on US Letter with room for cut marks.
"""

from __future__ import annotations

import itertools
from math import gcd

from PIL import Image

from . import _draw as d
from ._labels import label, text_in

NOTE_MM = (90.0, 50.0)
NOTE_GRID_COLS, NOTE_GRID_ROWS = 2, 5
DEFAULT_BANK_SETS = 2

# One colour per denomination from the smallest up, as the box's money has them (1 white,
# 5 pink, 10 yellow, 20 green, 50 blue, 100 beige, 500 orange, then more for editions with
# more notes; an edition with more still starts over): a light fill, light enough for black
# print, and a strong accent for frames and corner figures.
_NOTE_COLOURS = [
    ("#f7f5ee", "#6d6d6d"),
    ("#f7c6d9", "#c2417a"),
    ("#fff0a0", "#a08400"),
    ("#c4e8bc", "#2e8b3e"),
    ("#bcd4f4", "#2f66b3"),
    ("#e8d6ad", "#98743a"),
    ("#f9b98a", "#cc5a14"),
    ("#a9e2dc", "#1f8a82"),
    ("#dcc7f0", "#7a4fb0"),
    ("#d6d6d6", "#555555"),
    ("#f0b8b8", "#b53838"),
    ("#d9e89c", "#6a8a12"),
]
#: Ink saver: how far towards white a note's fill is lightened.
_INK_SAVER_TINT = 0.8


def starting_split(edition: dict, players: int) -> dict[int, int]:
    """How many notes of each denomination one player starts with: ``{denomination: count}``,
    largest denomination first, summing exactly to the starting cash for ``players``.

    Uses the edition's notes for that table size (``start.notes``, else ``starting_notes``)
    when they add up to that cash; otherwise computes a split that leaves change in hand (see
    ``usable_split``).
    Refuses (``ValueError``): a player count the edition has no starting cash for, an
    edition without banknotes, a cash amount its notes cannot make exactly.
    """
    cash = starting_cash(edition, players)
    notes = _banknotes(edition)
    by_size = (edition.get("start") or {}).get("notes") or {}
    given = by_size.get(str(players)) or edition.get("starting_notes") or {}
    split = {int(k): int(v) for k, v in given.items()}
    if split and set(split) <= set(notes) and sum(k * v for k, v in split.items()) == cash:
        return {n: split.get(n, 0) for n in sorted(notes, reverse=True)}
    return usable_split(cash, notes)


def starting_cash(edition: dict, players: int) -> int:
    """The cash each player starts with at a table of ``players``; refuses (``ValueError``) a
    count outside the edition's player range or missing from its ``start.cash``."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"the number of players must be a whole number, not {players!r}")
    limits = edition.get("players") or {}
    low, high = limits.get("min", 1), limits.get("max", players)
    if not low <= players <= high:
        raise ValueError(f"{edition.get('id')!r} is played by {low} to {high} players, not {players}")
    table = (edition.get("start") or {}).get("cash")
    cash = table.get(str(players), table.get(players)) if isinstance(table, dict) else table
    if isinstance(cash, bool) or not isinstance(cash, int) or cash <= 0:
        raise ValueError(f"{edition.get('id')!r} has no starting cash for {players} players")
    return cash


def usable_split(cash: int, denominations: list[int]) -> dict[int, int]:
    """``cash`` in notes a player can actually pay with: a change fund, then the rest greedily.

    The change fund holds, for each note but the largest, enough of it (with the smaller
    notes already held) to pay any amount up to the next note, at least one of each, as long
    as the fund stays within half the cash. The rest goes largest notes first; if the greedy
    rest leaves a remainder (notes like 25 and 10), the fewest notes that make it exactly.
    Refuses (``ValueError``) a cash amount the notes cannot make.
    """
    notes = sorted({int(n) for n in denominations if int(n) > 0})
    if not notes:
        raise ValueError("an edition needs at least one banknote value")
    counts = dict.fromkeys(notes, 0)
    unit = notes[0]
    held = 0
    for small, big in itertools.pairwise(notes):
        need = max(1, -(-(big - unit - held) // small))
        if held + need * small > cash // 2:
            break
        counts[small] += need
        held += need * small
    rest = cash - held
    greedy = _greedy(rest, notes)
    if greedy is None:
        greedy = _fewest_notes(rest, notes)
    if greedy is None:
        raise ValueError(f"{cash} cannot be made from notes of {', '.join(map(str, notes))}")
    for n, k in greedy.items():
        counts[n] += k
    split = {n: counts[n] for n in sorted(notes, reverse=True)}
    if sum(n * k for n, k in split.items()) != cash:
        raise ValueError(f"the split of {cash} does not add up")
    return split


def _greedy(amount: int, notes: list[int]) -> dict[int, int] | None:
    counts = {}
    for n in sorted(notes, reverse=True):
        counts[n], amount = divmod(amount, n)
    return counts if amount == 0 else None


def _fewest_notes(amount: int, notes: list[int]) -> dict[int, int] | None:
    step = 0
    for n in notes:
        step = gcd(step, n)
    if amount % step:
        return None
    target = amount // step
    units = [n // step for n in notes]
    best = [0] + [None] * target
    last = [0] * (target + 1)
    for value in range(1, target + 1):
        for u in units:
            if (
                u <= value
                and best[value - u] is not None
                and (best[value] is None or best[value - u] + 1 < best[value])
            ):
                best[value], last[value] = best[value - u] + 1, u
    if best[target] is None:
        return None
    counts = dict.fromkeys(notes, 0)
    value = target
    while value:
        counts[last[value] * step] += 1
        value -= last[value]
    return counts


def note_counts(edition: dict, players: int, bank_sets: int = DEFAULT_BANK_SETS) -> dict[int, dict[str, int]]:
    """For each denomination: ``each`` (per player), ``players`` (all players), ``bank`` and
    ``total`` (notes to print and cut). The bank holds ``bank_sets`` starting sets, and at
    least ``bank_sets`` of a note no player starts with, for salaries and change."""
    if isinstance(bank_sets, bool) or not isinstance(bank_sets, int) or bank_sets < 0:
        raise ValueError(f"bank_sets must be a whole number, zero or more, not {bank_sets!r}")
    out = {}
    for note, each in starting_split(edition, players).items():
        bank = bank_sets * max(each, 1)
        out[note] = {"each": each, "players": each * players, "bank": bank, "total": each * players + bank}
    return out


def money_pages(
    edition: dict,
    players: int,
    paper: str = "a4",
    lang: str = "it",
    bank_sets: int = DEFAULT_BANK_SETS,
    *,
    ink_saver: bool = True,
    dpi: int = d.DPI,
) -> list[Image.Image]:
    """The money sheets (see ``money_pdf``) painted as Pillow images at ``dpi``."""
    return [d.page_image(paper, page, dpi) for page in _sheet(edition, players, paper, lang, bank_sets, ink_saver)]


def money_pdf(
    edition: dict,
    players: int,
    paper: str = "a4",
    lang: str = "it",
    bank_sets: int = DEFAULT_BANK_SETS,
    *,
    ink_saver: bool = True,
) -> bytes:
    """A summary page (each player's split, how many of each note to cut), then the notes, ten
    a page with cut marks, as a vector PDF (single-sided).

    ``ink_saver`` (the default, for home printers) prints each note as coloured outlines on a
    light tint of its colour; ``False`` fills each note with its colour.
    Refuses (``ValueError``): what ``starting_split`` and ``note_counts`` refuse, an unknown
    paper or language, a currency symbol missing from the edition.
    """
    pages = _sheet(edition, players, paper, lang, bank_sets, ink_saver)
    return d.pdf_bytes(
        paper, pages, f"Banco – {label('money_title', lang)} – {text_in(edition.get('name'), lang)}", lang
    )


def money_png(
    edition: dict,
    players: int,
    paper: str = "a4",
    lang: str = "it",
    bank_sets: int = DEFAULT_BANK_SETS,
    width: int = 600,
    *,
    ink_saver: bool = True,
) -> bytes:
    """The money summary page as a PNG ``width`` pixels wide; refuses what ``money_pdf`` refuses."""
    return d.preview_png(paper, _sheet(edition, players, paper, lang, bank_sets, ink_saver)[0], width)


def note_image(edition: dict, value: int, lang: str = "it", *, ink_saver: bool = True, dpi: int = d.DPI) -> Image.Image:
    """One banknote of ``value``, 90×50 mm, painted at ``dpi``; refuses a value the edition has no note of."""
    notes = _banknotes(edition)
    if value not in notes:
        raise ValueError(f"{edition.get('id')!r} has no note of {value}")
    return d.box_image(
        *NOTE_MM, _Note(edition, value, _symbol(edition), _palette(notes)[value], lang, ink_saver).draw, dpi
    )


def _sheet(edition: dict, players: int, paper: str, lang: str, bank_sets: int, ink_saver: bool) -> list[d.Page]:
    d.check_lang(lang)
    d.paper_mm(paper)
    if not isinstance(ink_saver, bool):
        raise ValueError(f"ink_saver must be True or False, not {ink_saver!r}")
    counts = note_counts(edition, players, bank_sets)
    symbol = _symbol(edition)
    palette = _palette(list(counts))
    grid = d.Grid(paper, *NOTE_MM, NOTE_GRID_COLS, NOTE_GRID_ROWS)
    cells: list[d.Page] = []
    for note, row in counts.items():
        drawing = _Note(edition, note, symbol, palette[note], lang, ink_saver)
        cells.extend([drawing.reused] * row["total"])
    swatches = {
        n: (d.tint(fill, _INK_SAVER_TINT) if ink_saver else fill, accent) for n, (fill, accent) in palette.items()
    }
    summary = _Summary(edition, players, counts, symbol, swatches, paper, lang, bank_sets)
    return [summary.draw] + grid.pages(cells)


def _symbol(edition: dict) -> str:
    symbol = (edition.get("currency") or {}).get("symbol")
    if not isinstance(symbol, str) or not symbol:
        raise ValueError(f"{edition.get('id')!r} has no currency symbol")
    return symbol


def _banknotes(edition: dict) -> list[int]:
    notes = edition.get("banknotes")
    if not isinstance(notes, list) or not notes:
        raise ValueError(f"{edition.get('id')!r} has no banknotes")
    if any(isinstance(n, bool) or not isinstance(n, int) or n <= 0 for n in notes):
        raise ValueError(f"{edition.get('id')!r}: banknotes must be positive whole numbers")
    return sorted(set(notes), reverse=True)


def _palette(notes: list[int]) -> dict[int, tuple[d.Colour, d.Colour]]:
    """Each denomination's (fill, accent), from the smallest note up."""
    return {
        n: tuple(d.parse_colour(c) for c in _NOTE_COLOURS[i % len(_NOTE_COLOURS)])  # type: ignore[misc]
        for i, n in enumerate(sorted(notes))
    }


class _Note:
    """One banknote, 90×50 mm: its value big in an oval, in the corners, the edition's name
    and currency. Full colour fills it; the ink saver draws outlines on a light tint."""

    def __init__(
        self, edition: dict, value: int, symbol: str, colours: tuple[d.Colour, d.Colour], lang: str, ink_saver: bool
    ):
        self.value, self.ink_saver = value, ink_saver
        fill, self.accent = colours
        self.fill = d.tint(fill, _INK_SAVER_TINT) if ink_saver else fill
        self.medallion = d.WHITE if ink_saver else d.tint(fill, 0.55)
        width, _ = NOTE_MM
        self.text = d.format_money(value, symbol, lang)
        self.size = d.fit_size(self.text, width - 44, 34, 12, bold=True)
        self.corner = d.format_amount(value, lang)
        self.corner_size = d.fit_size(self.corner, 14, 11, 6, bold=True)
        self.name = text_in(edition.get("name"), lang)
        self.name_size = d.fit_size(self.name, width - 40, 6, 4.5)
        self.currency = (text_in((edition.get("currency") or {}).get("name"), lang) or "Banco").upper()
        self.currency_size = d.fit_size(self.currency, width - 40, 6, 4.5, bold=True)

    def reused(self, s: d.Surface) -> None:
        """The note in its cell, drawn once per sheet and repeated (one PDF form per note)."""
        s.reuse(("note", self.value, self.ink_saver), 0, 0, *NOTE_MM, self.draw)

    def draw(self, s: d.Surface) -> None:
        w, h = NOTE_MM
        accent = self.accent
        d.cut_outline(s, w, h)
        s.rect(
            2.3, 2.3, w - 4.6, h - 4.6, fill=self.fill, stroke=accent, width=0.45 if self.ink_saver else 0.6, radius=1.2
        )
        s.rect(3.6, 3.6, w - 7.2, h - 7.2, stroke=accent, width=0.2, radius=0.6)
        # An oval medallion behind the value, as on printed money.
        s.ellipse(17, 9.5, w - 34, h - 19, fill=self.medallion, stroke=accent, width=0.35)
        s.text(w / 2, h / 2 + d.cap_mm(self.size) / 2, self.text, self.size, bold=True, fill=d.BLACK, align="centre")
        pad, cap = 5.2, d.cap_mm(self.corner_size)
        for x, baseline, align in (
            (pad, pad + cap, "left"),
            (w - pad, pad + cap, "right"),
            (pad, h - pad, "left"),
            (w - pad, h - pad, "right"),
        ):
            s.text(x, baseline, self.corner, self.corner_size, bold=True, fill=accent, align=align)
        s.text_top(w / 2, 5.4, self.name, self.name_size, fill=d.BLACK, align="centre")
        s.text(w / 2, h - 5.4, self.currency, self.currency_size, bold=True, fill=accent, align="centre")


class _Summary:
    """The first page: each player's split, and how many of each note to cut."""

    def __init__(
        self,
        edition: dict,
        players: int,
        counts: dict,
        symbol: str,
        palette: dict,
        paper: str,
        lang: str,
        bank_sets: int,
    ):
        self.counts, self.palette, self.lang = counts, palette, lang
        page_w, _ = d.paper_mm(paper)
        self.left, self.right = 20.0, page_w - 20.0
        width = self.right - self.left
        money = lambda amount: d.format_money(amount, symbol, lang)  # noqa: E731
        self.money = money
        self.title_lines, self.title_size = d.wrap_to_fit(
            f"{label('money_title', lang)} – {text_in(edition.get('name'), lang)}", width, 20, 11, bold=True
        )
        self.cash = sum(n * row["each"] for n, row in counts.items())
        self.intro = label(
            "money_intro", lang, players=players, cash=money(self.cash), w=int(NOTE_MM[0]), h=int(NOTE_MM[1])
        )
        self.intro_lines, self.intro_size = d.wrap_to_fit(self.intro, width, 11, 8, max_lines=3)
        self.columns = [
            (label("money_note", lang), self.left + 8),
            (label("money_per_player", lang), self.left + 68),
            (f"{label('money_players', lang)} ({players})", self.left + 105),
            (label("money_bank", lang), self.left + 135),
            (label("money_print", lang), self.right),
        ]
        parts = [f"{row['each']}\u00a0×\u00a0{money(n)}" for n, row in counts.items() if row["each"]]
        self.sentence = d.wrap_lines(" + ".join(parts) + f" = {money(self.cash)}", width, 11)
        self.hints = [
            d.wrap_lines(label(key, lang, sets=bank_sets), width, 11) for key in ("money_bank_hint", "money_print_hint")
        ]

    def draw(self, s: d.Surface) -> None:
        left, right, lang = self.left, self.right, self.lang
        y = s.lines(left, 20, self.title_lines, self.title_size, bold=True, align="left")
        y = s.lines(left, y + 3, self.intro_lines, self.intro_size, align="left", leading=1.3)
        y += 4
        for i, (text, x) in enumerate(self.columns):
            s.text_top(x, y, text, 11, bold=True, align="left" if i == 0 else "right")
        y += 6
        s.line(left, y, right, y, width=0.25)
        y += 2.5
        for note, row in self.counts.items():
            s.rect(left, y, 6, 5, fill=self.palette[note][0], stroke=self.palette[note][1], width=0.25)
            baseline = y + 2.5 + d.cap_mm(11) / 2
            s.text(self.columns[0][1], baseline, self.money(note), 11, bold=True)
            for (_, x), key in zip(self.columns[1:], ("each", "players", "bank", "total")):
                s.text(x, baseline, str(row[key]), 11, bold=key == "total", align="right")
            y += 8
        s.line(left, y, right, y, width=0.25)
        y += 2.5
        baseline = y + 2.5 + d.cap_mm(11) / 2
        s.text(self.columns[0][1], baseline, label("money_total", lang), 11, bold=True)
        s.text(self.columns[1][1], baseline, self.money(self.cash), 11, bold=True, align="right")
        s.text(right, baseline, str(sum(row["total"] for row in self.counts.values())), 11, bold=True, align="right")
        y += 16
        s.text_top(left, y, label("money_each", lang) + ":", 11, bold=True)
        y = s.lines(left, y + 7, self.sentence, 11, align="left", leading=1.5) + 5
        for lines in self.hints:
            y = s.lines(left, y, lines, 11, fill=d.GREY, align="left", leading=1.5)
