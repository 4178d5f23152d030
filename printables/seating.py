"""The seating plan of a tournament round: a list of every table's seats to pin up, then one
slip per player (table, seat, name) with a QR that gives their phone their seat."""

from __future__ import annotations

from . import _draw as d

SLIP_MM = (63.0, 88.0)
_BANCO_GREEN = (11, 110, 79)
_LIST_SIZE = 11.0  # the plan's lines, in points
_LIST_TOP = 34.0  # the first table's line, from the paper's top (mm)

_WORDS: dict[str, dict[str, str]] = {
    "title": {"it": "{name} · turno {round}", "en": "{name} · round {round}"},
    "title_semi_final": {"it": "{name} · semifinali", "en": "{name} · semi-finals"},
    "title_final": {"it": "{name} · finale", "en": "{name} · final"},
    "plan": {"it": "Posti ai tavoli", "en": "Seating plan"},
    "table": {"it": "Tavolo {n}", "en": "Table {n}"},
    "seat": {"it": "TAVOLO {table} · POSTO {seat}", "en": "TABLE {table} · SEAT {seat}"},
    "scan": {
        "it": "Inquadra il codice con la fotocamera del telefono: il telefono prende il tuo posto.",
        "en": "Scan the code with your phone's camera: the phone takes your seat.",
    },
    "private": {"it": "Personale: non darla ad altri.", "en": "Personal: do not hand it to anyone."},
}


def _word(key: str, lang: str, **values) -> str:
    return _WORDS[key][lang].format(**values)


def seating_plan_pdf(
    name: str, round_number: int, tables: list[dict], paper: str = "a4", lang: str = "it", stage: str = "round"
) -> bytes:
    """The round's seating plan as a vector PDF: the list of tables and seats, then nine slips
    a page with cut marks, one per player, each with a QR of the player's seat URL.

    ``tables`` is a list of ``{"number": int, "seats": [{"name", "url"}]}`` in seat order;
    ``stage`` names the round a ``round``, the ``semi_final`` or the ``final``.
    Refuses (``ValueError``): no tables, a seat without a name, a URL that is not http(s),
    an unknown paper, language or stage.
    """
    pages = _pages(name, round_number, tables, paper, lang, stage)
    return d.pdf_bytes(paper, pages, f"Banco – {_word('plan', lang)}", lang)


def seating_plan_png(
    name: str,
    round_number: int,
    tables: list[dict],
    paper: str = "a4",
    lang: str = "it",
    width: int = 600,
    stage: str = "round",
) -> bytes:
    """The plan's first page as a PNG ``width`` pixels wide."""
    return d.preview_png(paper, _pages(name, round_number, tables, paper, lang, stage)[0], width)


def _title(name: str, round_number: int, lang: str, stage: str) -> str:
    if stage not in ("round", "semi_final", "final"):
        raise ValueError(f"unknown stage {stage!r}")
    return _word("title" if stage == "round" else f"title_{stage}", lang, name=name, round=round_number)


def _pages(name: str, round_number: int, tables: list[dict], paper: str, lang: str, stage: str) -> list[d.Page]:
    d.check_lang(lang)
    title = _title(name, round_number, lang, stage)
    if not tables:
        raise ValueError("no tables to seat")
    slips = []
    for table in tables:
        for seat, player in enumerate(table["seats"], start=1):
            who = player.get("name") if isinstance(player, dict) else None
            if not isinstance(who, str) or not who.strip():
                raise ValueError(f"table {table['number']} seat {seat} has no name")
            url = player.get("url")
            if not isinstance(url, str) or not url.startswith(("http://", "https://")):
                raise ValueError(f"table {table['number']} seat {seat}: the URL must be http(s), not {url!r}")
            slips.append(_slip(title, table["number"], seat, who.strip(), url, lang))
    return _plan(title, tables, paper, lang) + d.Grid(paper, *SLIP_MM, 3, 3).pages(slips)


def _plan(title: str, tables: list[dict], paper: str, lang: str) -> list[d.Page]:
    """The list to pin up: each table and its players in seat order, as many pages as needed."""
    width, height = d.paper_mm(paper)
    left, text_w = 18.0, width - 36.0
    title_size = d.fit_size(title, text_w, 20, 10, bold=True)
    step = _LIST_SIZE * 1.5 * d.MM_PER_PT
    lines: list[tuple[str, bool]] = []
    for table in tables:
        lines.append((_word("table", lang, n=table["number"]), True))
        for seat, player in enumerate(table["seats"], start=1):
            lines.append((f"{seat}. {player['name']}", False))
        lines.append(("", False))
    per_page = max(1, int((height - _LIST_TOP - 18.0) // step))
    pages = []
    for start in range(0, len(lines), per_page):
        chunk = lines[start : start + per_page]

        def draw(s: d.Surface, chunk=chunk) -> None:
            s.text_top(left, 16.0, _word("plan", lang), 11, fill=d.GREY)
            s.text_top(left, 22.0, title, title_size, bold=True)
            for i, (text, bold) in enumerate(chunk):
                if text:
                    s.text_top(left + (0 if bold else 6.0), _LIST_TOP + i * step, text, _LIST_SIZE, bold=bold)

        pages.append(draw)
    return pages


def _slip(title: str, table: int, seat: int, who: str, url: str, lang: str) -> d.Page:
    w, h = SLIP_MM
    centre, width = w / 2, w - 12
    where = _word("seat", lang, table=table, seat=seat)
    where_size = d.fit_size(where, width, 10, 6, bold=True)
    name_lines, name_size = d.wrap_to_fit(who, width, 16, 7, bold=True)
    title_size = d.fit_size(title, width, 7, 4.5)
    qr = d.qr_code(url, 40)
    notes = [
        (d.wrap_to_fit(_word(key, lang), width, 6.5, 5, bold=bold), colour, bold)
        for key, colour, bold in (("scan", d.BLACK, False), ("private", d.RED, True))
    ]

    def draw(s: d.Surface) -> None:
        d.cut_outline(s, w, h)
        s.rect(2.7, 2.7, w - 5.4, h - 5.4, stroke=_BANCO_GREEN, width=0.4)
        s.rect(4, 4, w - 8, 9, fill=_BANCO_GREEN)
        s.text(centre, 8.5 + d.cap_mm(where_size) / 2, where, where_size, bold=True, fill=d.WHITE, align="centre")
        y = s.lines(centre, 16.0, name_lines, name_size, bold=True, leading=1.1)
        s.text_top(centre, y + 0.5, title, title_size, fill=d.GREY, align="centre")
        qr_y = 33.0
        qr.draw(s, centre - qr.side / 2, qr_y)
        y = qr_y + qr.side + 1.5
        for (lines, size), colour, bold in notes:
            y = s.lines(centre, y, lines, size, bold=bold, fill=colour) + 1.0

    return draw
