"""One game's printed money with serials (Niente è come sembra on paper): its notes and its
Imprevisti cards, each with a QR code of ``<base_url>/s/<serial>`` and the serial printed
small under it, for a phone in the game to check.

The caller passes the print run as plain items (``{"kind": "note" | "card", "face", "serial"}``)
and never says which are fake: the sheet cannot tell, and a fake note is drawn exactly as a
genuine one, the serial and its QR code aside. Notes are the banknotes of ``printables.money``
(90×50 mm, ten a page) with the value's medallion moved right to make room for the code;
Imprevisti cards are 63×88 mm, nine a page, with a blank space where the group writes the
card's text or sticks the box's card (Banco does not know the cards' texts).
"""

from __future__ import annotations

from PIL import Image

from . import _draw as d
from ._labels import label, text_in
from .money import NOTE_GRID_COLS, NOTE_GRID_ROWS, NOTE_MM, _banknotes, _Note, _palette, _symbol

CARD_MM = (63.0, 88.0)
_QR_SIDE = 18.0  # mm on a note, quiet zone included
_CARD_QR_SIDE = 26.0
_SERIAL_SIZE = 5.5
_CARD_ORANGE = d.parse_colour("#e0701b")
_SERIAL_ALPHABET = set("23456789ABCDEFGHJKLMNPQRSTUVWXYZ")


def serial_url(base_url: str, serial: str) -> str:
    """What a note's QR code holds: the same length for every serial of a game."""
    return f"{base_url.rstrip('/')}/s/{serial}"


def spaced_serial(serial: str) -> str:
    """The serial as printed: two groups of five, easier to type."""
    return f"{serial[:5]}-{serial[5:]}" if len(serial) == 10 else serial


def counterfeit_money_pages(
    edition: dict,
    items: list[dict],
    base_url: str,
    game_label: str,
    paper: str = "a4",
    lang: str = "it",
    *,
    ink_saver: bool = True,
    dpi: int = d.DPI,
) -> list[Image.Image]:
    """The sheets (see ``counterfeit_money_pdf``) painted as Pillow images at ``dpi``."""
    return [
        d.page_image(paper, page, dpi) for page in _sheet(edition, items, base_url, game_label, paper, lang, ink_saver)
    ]


def counterfeit_money_pdf(
    edition: dict,
    items: list[dict],
    base_url: str,
    game_label: str,
    paper: str = "a4",
    lang: str = "it",
    *,
    ink_saver: bool = True,
) -> bytes:
    """A summary page (how many of each note, how to check one), then the notes ten a page and
    the Imprevisti cards nine a page, with cut marks, as a vector PDF (single-sided).

    Refuses (``ValueError``): no items, an item that is not a note of the edition or a card,
    a serial that is not ten characters of the serial alphabet, a base URL that is not
    http(s) or too long for a scannable code, an unknown paper or language."""
    pages = _sheet(edition, items, base_url, game_label, paper, lang, ink_saver)
    return d.pdf_bytes(paper, pages, f"Banco – {label('fake_title', lang)} – {game_label}", lang)


def counterfeit_money_png(
    edition: dict,
    items: list[dict],
    base_url: str,
    game_label: str,
    paper: str = "a4",
    lang: str = "it",
    width: int = 600,
    *,
    ink_saver: bool = True,
) -> bytes:
    """The first page of notes as a PNG ``width`` pixels wide."""
    pages = _sheet(edition, items, base_url, game_label, paper, lang, ink_saver)
    return d.preview_png(paper, pages[1] if len(pages) > 1 else pages[0], width)


def _check(items: list[dict], notes: list[int], base_url: str) -> None:
    if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
        raise ValueError("the base URL must start with http:// or https://")
    if not items:
        raise ValueError("nothing to print: no notes or cards")
    for i, item in enumerate(items):
        if not isinstance(item, dict) or item.get("kind") not in ("note", "card"):
            raise ValueError(f"item {i} must be a note or a card")
        if item["kind"] == "note" and item.get("face") not in notes:
            raise ValueError(f"item {i}: the edition has no note of {item.get('face')!r}")
        serial = item.get("serial")
        if not isinstance(serial, str) or len(serial) != 10 or not set(serial) <= _SERIAL_ALPHABET:
            raise ValueError(f"item {i} has no valid serial")


def _sheet(
    edition: dict, items: list[dict], base_url: str, game_label: str, paper: str, lang: str, ink_saver: bool
) -> list[d.Page]:
    d.check_lang(lang)
    d.paper_mm(paper)
    if not isinstance(ink_saver, bool):
        raise ValueError(f"ink_saver must be True or False, not {ink_saver!r}")
    notes = _banknotes(edition)
    _check(items, notes, base_url)
    symbol, palette = _symbol(edition), _palette(notes)
    drawings = {face: _SerialNote(edition, face, symbol, palette[face], lang, ink_saver) for face in notes}
    note_cells = [
        drawings[item["face"]].with_serial(item["serial"], base_url) for item in items if item["kind"] == "note"
    ]
    card = _Card(lang)
    card_cells = [card.with_serial(item["serial"], base_url) for item in items if item["kind"] == "card"]
    counts: dict[int, int] = {}
    for item in items:
        if item["kind"] == "note":
            counts[item["face"]] = counts.get(item["face"], 0) + 1
    summary = _Summary(edition, counts, len(card_cells), game_label, symbol, paper, lang)
    pages = [summary.draw]
    if note_cells:
        pages += d.Grid(paper, *NOTE_MM, NOTE_GRID_COLS, NOTE_GRID_ROWS).pages(note_cells)
    if card_cells:
        pages += d.Grid(paper, *CARD_MM, 3, 3).pages(card_cells)
    return pages


class _SerialNote(_Note):
    """``printables.money``'s note with its medallion moved right, and on the left a white
    square holding the QR code, the serial under it. Everything but the code and the serial is
    one PDF form per face, the same for every note of that face, fake or genuine."""

    MEDALLION_X = 25.0

    def __init__(self, *args):
        super().__init__(*args)
        w, _ = NOTE_MM
        self.size = d.fit_size(self.text, w - self.MEDALLION_X - 10 - 10, 30, 12, bold=True)

    def base(self, s: d.Surface) -> None:
        w, h = NOTE_MM
        accent = self.accent
        d.cut_outline(s, w, h)
        s.rect(
            2.3, 2.3, w - 4.6, h - 4.6, fill=self.fill, stroke=accent, width=0.45 if self.ink_saver else 0.6, radius=1.2
        )
        s.rect(3.6, 3.6, w - 7.2, h - 7.2, stroke=accent, width=0.2, radius=0.6)
        left = self.MEDALLION_X
        s.ellipse(left, 9.5, w - left - 10, h - 19, fill=self.medallion, stroke=accent, width=0.35)
        centre = left + (w - left - 10) / 2
        s.text(centre, h / 2 + d.cap_mm(self.size) / 2, self.text, self.size, bold=True, fill=d.BLACK, align="centre")
        pad, cap = 5.2, d.cap_mm(self.corner_size)
        for x, baseline, align in (
            (pad, pad + cap, "left"),
            (w - pad, pad + cap, "right"),
            (pad, h - pad, "left"),
            (w - pad, h - pad, "right"),
        ):
            s.text(x, baseline, self.corner, self.corner_size, bold=True, fill=accent, align=align)
        s.text_top(w / 2, 5.4, self.name, self.name_size, fill=d.BLACK, align="centre")
        s.text(centre, h - 5.4, self.currency, self.currency_size, bold=True, fill=accent, align="centre")
        # The white square the code is printed in (the box's notes have a circle for the decoder).
        s.rect(4.4, 10.6, _QR_SIDE + 0.4, _QR_SIDE + 5.6, fill=d.WHITE, stroke=accent, width=0.2, radius=0.8)

    def with_serial(self, serial: str, base_url: str) -> d.Page:
        qr = d.qr_code(serial_url(base_url, serial), _QR_SIDE)
        text = spaced_serial(serial)

        def draw(s: d.Surface) -> None:
            s.reuse(("serial-note", self.value, self.ink_saver), 0, 0, *NOTE_MM, self.base)
            qr.draw(s, 4.6 + (_QR_SIDE - qr.side) / 2, 10.8)
            s.text(4.6 + _QR_SIDE / 2, 10.8 + _QR_SIDE + 3.0, text, _SERIAL_SIZE, fill=d.BLACK, align="centre")

        return draw


class _Card:
    """An Imprevisti card, 63×88 mm: the title band, a blank space for the card's text, and at
    the bottom its QR code and serial."""

    def __init__(self, lang: str):
        w, _ = CARD_MM
        self.title = label("imprevisti", lang)
        self.title_size = d.fit_size(self.title, w - 12, 12, 7, bold=True)
        self.blank = label("imprevisti_blank", lang)

    def base(self, s: d.Surface) -> None:
        w, h = CARD_MM
        d.cut_outline(s, w, h)
        s.rect(2.7, 2.7, w - 5.4, h - 5.4, stroke=_CARD_ORANGE, width=0.45, radius=1.0)
        s.rect(4, 4, w - 8, 10, fill=_CARD_ORANGE, radius=0.6)
        s.text(
            w / 2,
            9 + d.cap_mm(self.title_size) / 2,
            self.title,
            self.title_size,
            bold=True,
            fill=d.WHITE,
            align="centre",
        )
        s.rect(6, 17, w - 12, 35, stroke=d.CUT_GREY, width=0.2, radius=0.8)
        for y in (27, 35, 43):
            s.line(9, y, w - 9, y, stroke=d.CUT_GREY, width=0.15)
        s.text(w / 2, 50, self.blank, 5.5, fill=d.GREY, align="centre")

    def with_serial(self, serial: str, base_url: str) -> d.Page:
        w, _ = CARD_MM
        qr = d.qr_code(serial_url(base_url, serial), _CARD_QR_SIDE)
        text = spaced_serial(serial)

        def draw(s: d.Surface) -> None:
            s.reuse(("serial-card",), 0, 0, *CARD_MM, self.base)
            qr.draw(s, (w - qr.side) / 2, 54.5)
            s.text(w / 2, 54.5 + _CARD_QR_SIDE + 3.2, text, 7, bold=True, fill=d.BLACK, align="centre")

        return draw


class _Summary:
    """The first page: the game, how many notes of each face and cards, how to check them."""

    def __init__(
        self, edition: dict, counts: dict[int, int], cards: int, game_label: str, symbol: str, paper: str, lang: str
    ):
        page_w, _ = d.paper_mm(paper)
        self.left, self.right = 20.0, page_w - 20.0
        width = self.right - self.left
        self.money = lambda amount: d.format_money(amount, symbol, lang)
        terms = edition.get("counterfeits") or {}
        self.title_lines, self.title_size = d.wrap_to_fit(
            f"{label('fake_title', lang)} – {text_in(edition.get('name'), lang)}", width, 18, 11, bold=True
        )
        intro = label("fake_intro", lang, game=game_label, fake=terms.get("fake_chance_cards", 0), cards=cards)
        rules = label("fake_rules", lang, bounty=self.money(terms.get("chance_bounty", 0)))
        self.paragraphs = [
            d.wrap_lines(text, width, 10.5)
            for text in (intro, rules, label("fake_cards_hint", lang), label("money_print_hint", lang))
        ]
        self.rows = [(self.money(face), str(count)) for face, count in sorted(counts.items(), reverse=True)]
        if cards:
            self.rows.append((label("fake_cards_row", lang), str(cards)))
        self.heading = (label("money_note", lang), label("money_print", lang))

    def draw(self, s: d.Surface) -> None:
        left, right = self.left, self.right
        y = s.lines(left, 20, self.title_lines, self.title_size, bold=True, align="left") + 3
        for lines in self.paragraphs:
            y = s.lines(left, y, lines, 10.5, align="left", leading=1.4) + 3
        y += 3
        s.text_top(left, y, self.heading[0], 11, bold=True)
        s.text_top(right, y, self.heading[1], 11, bold=True, align="right")
        y += 6
        s.line(left, y, right, y, width=0.25)
        y += 2.5
        for name, count in self.rows:
            baseline = y + 2.5 + d.cap_mm(11) / 2
            s.text(left, baseline, name, 11, bold=True)
            s.text(right, baseline, count, 11, align="right")
            y += 8
