"""Paper money for groups who want it in hand: the edition's banknotes and each player's starting split.

Notes are 90×50 mm, three quarters of a real Monopoly note (120×62 mm), so ten fit a page
in two columns of five on A4 and on US Letter with room for cut marks.
"""
from __future__ import annotations

from math import gcd

from PIL import Image, ImageDraw

from . import _draw as d
from ._labels import label, text_in

NOTE_MM = (90.0, 50.0)
NOTE_GRID_COLS, NOTE_GRID_ROWS = 2, 5
DEFAULT_BANK_SETS = 2

# Light fills, one per denomination from the smallest up, in the spirit of the box's money;
# all light enough for black print. An edition with more denominations starts over.
_NOTE_FILLS = ["#f3efe4", "#f7c6d9", "#fff0a0", "#c4e8bc", "#bcd4f4", "#dcc7f0", "#f9b98a",
               "#a9e2dc", "#f5d9a6", "#d6d6d6", "#f0b8b8", "#d9e89c"]


def starting_split(edition: dict, players: int) -> dict[int, int]:
    """How many notes of each denomination one player starts with: ``{denomination: count}``,
    largest denomination first, summing exactly to the starting cash for ``players``.

    Uses the edition's ``starting_notes`` when they add up to that cash; otherwise computes a
    split that leaves change in hand (see ``usable_split``).
    Refuses (``ValueError``): a player count the edition has no starting cash for, an
    edition without banknotes, a cash amount its notes cannot make exactly.
    """
    cash = starting_cash(edition, players)
    notes = _banknotes(edition)
    given = edition.get("starting_notes") or {}
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
    counts = {n: 0 for n in notes}
    unit = notes[0]
    held = 0
    for small, big in zip(notes, notes[1:]):
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
            if u <= value and best[value - u] is not None and (best[value] is None or best[value - u] + 1 < best[value]):
                best[value], last[value] = best[value - u] + 1, u
    if best[target] is None:
        return None
    counts = {n: 0 for n in notes}
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


def money_pages(edition: dict, players: int, paper: str = "a4", lang: str = "it",
                bank_sets: int = DEFAULT_BANK_SETS) -> list[Image.Image]:
    """A summary page (each player's split, how many of each note to cut), then the notes.

    Refuses (``ValueError``): what ``starting_split`` and ``note_counts`` refuse, an unknown
    paper or language, a currency symbol missing from the edition.
    """
    d.check_lang(lang)
    counts = note_counts(edition, players, bank_sets)
    symbol = (edition.get("currency") or {}).get("symbol")
    if not isinstance(symbol, str) or not symbol:
        raise ValueError(f"{edition.get('id')!r} has no currency symbol")
    fills = _fills(list(counts))
    grid = d.Grid(paper, *NOTE_MM, NOTE_GRID_COLS, NOTE_GRID_ROWS)
    cells = []
    for note, row in counts.items():
        image = _note(edition, note, symbol, fills[note], lang)
        cells.extend([image] * row["total"])
    summary = _summary(edition, players, counts, symbol, fills, paper, lang, bank_sets)
    return [summary] + grid.pages(cells)


def money_pdf(edition: dict, players: int, paper: str = "a4", lang: str = "it",
              bank_sets: int = DEFAULT_BANK_SETS) -> bytes:
    """The money sheets as a PDF (single-sided); refuses what ``money_pages`` refuses."""
    pages = money_pages(edition, players, paper, lang, bank_sets)
    return d.pdf_bytes(pages, f"Banco – {label('money_title', lang)} – {text_in(edition.get('name'), lang)}")


def money_png(edition: dict, players: int, paper: str = "a4", lang: str = "it",
              bank_sets: int = DEFAULT_BANK_SETS, width: int = 600) -> bytes:
    """The money summary page as a PNG ``width`` pixels wide; refuses what ``money_pages`` refuses."""
    return d.png_bytes(money_pages(edition, players, paper, lang, bank_sets)[0], width)


def _banknotes(edition: dict) -> list[int]:
    notes = edition.get("banknotes")
    if not isinstance(notes, list) or not notes:
        raise ValueError(f"{edition.get('id')!r} has no banknotes")
    if any(isinstance(n, bool) or not isinstance(n, int) or n <= 0 for n in notes):
        raise ValueError(f"{edition.get('id')!r}: banknotes must be positive whole numbers")
    return sorted(set(notes), reverse=True)


def _fills(notes: list[int]) -> dict[int, tuple[int, int, int]]:
    return {n: d.parse_colour(_NOTE_FILLS[i % len(_NOTE_FILLS)]) for i, n in enumerate(sorted(notes))}


def _shade(rgb: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    return tuple(round(c * (1 - amount)) for c in rgb)  # type: ignore[return-value]


def _note(edition: dict, value: int, symbol: str, fill: tuple[int, int, int], lang: str) -> Image.Image:
    size = (d.mm(NOTE_MM[0]), d.mm(NOTE_MM[1]))
    note = Image.new("RGB", size, d.WHITE)
    draw = ImageDraw.Draw(note)
    d.cut_outline(draw, size)
    ink = _shade(fill, 0.6)
    inset = d.mm(2)
    draw.rectangle([inset, inset, size[0] - 1 - inset, size[1] - 1 - inset], fill=fill, outline=ink, width=d.mm(0.6))
    inner = d.mm(3.4)
    draw.rectangle([inner, inner, size[0] - 1 - inner, size[1] - 1 - inner], outline=ink, width=d.mm(0.2))
    centre_x, width = size[0] / 2, size[0] - d.mm(44)
    # An oval medallion behind the value, as on printed money.
    draw.ellipse([d.mm(17), d.mm(9.5), size[0] - d.mm(17), size[1] - d.mm(9.5)], fill=d.tint(fill, 0.55), outline=ink, width=d.mm(0.3))
    text = d.format_money(value, symbol, lang)
    face = d.fit_font(text, width, d.pt(34), d.pt(12), bold=True)
    draw.text((centre_x, size[1] / 2), text, font=face, fill=d.BLACK, anchor="mm")
    corner = d.format_amount(value, lang)
    small = d.fit_font(corner, d.mm(14), d.pt(11), d.pt(6), bold=True)
    pad = d.mm(5)
    for x, y, anchor in ((pad, pad, "la"), (size[0] - pad, pad, "ra"),
                         (pad, size[1] - pad, "ld"), (size[0] - pad, size[1] - pad, "rd")):
        draw.text((x, y), corner, font=small, fill=ink, anchor=anchor)
    name = text_in(edition.get("name"), lang)
    head = d.fit_font(name, size[0] - d.mm(40), d.pt(6), d.pt(4.5))
    draw.text((centre_x, d.mm(5)), name, font=head, fill=ink, anchor="ma")
    currency = text_in((edition.get("currency") or {}).get("name"), lang) or "Banco"
    foot = d.fit_font(currency.upper(), size[0] - d.mm(40), d.pt(6), d.pt(4.5), bold=True)
    draw.text((centre_x, size[1] - d.mm(5)), currency.upper(), font=foot, fill=ink, anchor="md")
    return note


def _summary(edition: dict, players: int, counts: dict, symbol: str, fills: dict, paper: str, lang: str,
             bank_sets: int) -> Image.Image:
    page = d.blank_page(paper)
    draw = ImageDraw.Draw(page)
    left, right = d.mm(20), page.width - d.mm(20)
    width = right - left
    y = d.mm(20)
    title = f"{label('money_title', lang)} – {text_in(edition.get('name'), lang)}"
    lines, face = d.wrap_to_fit(title, width, d.pt(20), d.pt(11), bold=True)
    for line in lines:
        draw.text((left, y), line, font=face, fill=d.BLACK)
        y += face.size * 1.2
    y += d.mm(3)
    cash = sum(n * row["each"] for n, row in counts.items())
    intro = label("money_intro", lang, players=players, cash=d.format_money(cash, symbol, lang),
                  w=int(NOTE_MM[0]), h=int(NOTE_MM[1]))
    draw.text((left, y), intro, font=d.fit_font(intro, width, d.pt(11), d.pt(7)), fill=d.BLACK)
    y += d.mm(10)

    body, bold = d.font(d.pt(11)), d.font(d.pt(11), True)
    columns = [(label("money_note", lang), left + d.mm(8)), (label("money_per_player", lang), left + d.mm(75)),
               (f"{label('money_players', lang)} ({players})", left + d.mm(105)),
               (label("money_bank", lang), left + d.mm(135)), (label("money_print", lang), right)]
    for i, (text, x) in enumerate(columns):
        draw.text((x, y), text, font=bold, fill=d.BLACK, anchor="la" if i == 0 else "ra")
    y += d.mm(7)
    draw.line([(left, y), (right, y)], fill=d.BLACK, width=3)
    y += d.mm(2)
    row_h = d.mm(8)
    for note, row in counts.items():
        draw.rectangle([left, y, left + d.mm(6), y + d.mm(5)], fill=fills[note], outline=d.BLACK, width=2)
        draw.text((columns[0][1], y), d.format_money(note, symbol, lang), font=bold, fill=d.BLACK)
        for (_, x), key in zip(columns[1:], ("each", "players", "bank", "total")):
            draw.text((x, y), str(row[key]), font=bold if key == "total" else body, fill=d.BLACK, anchor="ra")
        y += row_h
    draw.line([(left, y), (right, y)], fill=d.BLACK, width=3)
    y += d.mm(2)
    draw.text((columns[0][1], y), label("money_total", lang), font=bold, fill=d.BLACK)
    draw.text((columns[1][1], y), d.format_money(cash, symbol, lang), font=bold, fill=d.BLACK, anchor="ra")
    draw.text((right, y), str(sum(row["total"] for row in counts.values())), font=bold, fill=d.BLACK, anchor="ra")
    y += d.mm(14)

    each = label("money_each", lang) + ":"
    draw.text((left, y), each, font=bold, fill=d.BLACK)
    y += d.mm(7)
    parts = [f"{row['each']}\u00a0×\u00a0{d.format_money(n, symbol, lang)}" for n, row in counts.items() if row["each"]]
    sentence = " + ".join(parts) + f" = {d.format_money(cash, symbol, lang)}"
    for line in d.wrap_lines(sentence, width, body):
        draw.text((left, y), line, font=body, fill=d.BLACK)
        y += d.mm(6)
    y += d.mm(6)
    for key in ("money_bank_hint", "money_print_hint"):
        text = label(key, lang, sets=bank_sets)
        for line in d.wrap_lines(text, width, body):
            draw.text((left, y), line, font=body, fill=(70, 70, 70))
            y += d.mm(6)
    return page
