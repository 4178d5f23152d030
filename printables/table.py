"""Sheets for the table itself: the join poster for the middle, and a rejoin card per player."""

from __future__ import annotations

from urllib.parse import urlsplit

from PIL import Image

from . import _draw as d
from ._labels import label

REJOIN_CARD_MM = (63.0, 88.0)
_BANCO_GREEN = (11, 110, 79)


def _check_url(url: str, what: str) -> str:
    if not isinstance(url, str) or not url.strip().startswith(("http://", "https://")):
        raise ValueError(f"{what} must be an http:// or https:// URL, not {url!r}")
    return url.strip()


def _site(url: str) -> str:
    """What a person types to reach the site: the host and port, without the scheme or path."""
    return urlsplit(url).netloc


# --- the poster ---------------------------------------------------------------------------


def poster_pages(
    join_url: str, join_code: str, game_name: str, paper: str = "a4", lang: str = "it", dpi: int = d.DPI
) -> list[Image.Image]:
    """The poster (see ``poster_pdf``) painted as a Pillow image at ``dpi``."""
    return [d.page_image(paper, _poster(join_url, join_code, game_name, paper, lang), dpi)]


def poster_pdf(join_url: str, join_code: str, game_name: str, paper: str = "a4", lang: str = "it") -> bytes:
    """One page: the join QR, the code and the game's name, twice, head to tail, as a vector PDF.

    Folded along the dashed middle line, the sheet stands on the table as a tent, readable
    and scannable from both sides. Refuses (``ValueError``): an unknown paper or language, a
    join URL that is not http(s), an empty join code.
    """
    page = _poster(join_url, join_code, game_name, paper, lang)
    return d.pdf_bytes(paper, [page], f"Banco – {game_name}", lang)


def poster_png(
    join_url: str, join_code: str, game_name: str, paper: str = "a4", lang: str = "it", width: int = 600
) -> bytes:
    """The join poster as a PNG ``width`` pixels wide; refuses what ``poster_pdf`` refuses."""
    return d.preview_png(paper, _poster(join_url, join_code, game_name, paper, lang), width)


_POSTER_EDGE = 9.0  # the paper's edge to the lowest line of text (at least d.SAFE_MM)
_POSTER_FOLD = 8.0  # the fold to the game's name


def _poster(join_url: str, join_code: str, game_name: str, paper: str, lang: str) -> d.Page:
    d.check_lang(lang)
    width, height = d.paper_mm(paper)
    join_url = _check_url(join_url, "the join URL")
    if not isinstance(join_code, str) or not join_code.strip():
        raise ValueError("the join code must not be empty")
    join_code, game_name = join_code.strip(), (game_name or "").strip()
    half = height / 2
    text_w = width - 30
    centre = width / 2

    # One half, upright, from the fold (top) to the paper's edge (bottom).
    name_size = d.fit_size(game_name, text_w, 22, 12, bold=True) if game_name else 0
    code_size = d.fit_size(join_code, text_w, 40, 20, bold=True)
    scan = label("poster_scan", lang)
    scan_size = d.fit_size(scan, text_w, 13, 8)
    typed = label("poster_code", lang, url=_site(join_url))
    typed_size = d.fit_size(typed, text_w, 11, 7)
    typed_baseline = half - _POSTER_EDGE - typed_size * d.DESCENT * d.MM_PER_PT
    scan_baseline = typed_baseline - d.cap_mm(typed_size) - 3.2
    code_baseline = scan_baseline - d.cap_mm(scan_size) - 4.0
    qr_top = _POSTER_FOLD + (d.cap_mm(name_size) + 2.0 if game_name else 0.0)
    qr_bottom = code_baseline - d.cap_mm(code_size) - 1.0
    qr = d.qr_code(join_url, min(100.0, qr_bottom - qr_top), quiet_modules=4)
    qr_top = qr_bottom - qr.side  # the spare height, if any, goes above the code

    def upright(s: d.Surface) -> None:
        if game_name:
            s.text_top(centre, _POSTER_FOLD, game_name, name_size, bold=True, align="centre")
        qr.draw(s, centre - qr.side / 2, qr_top)
        s.text(centre, code_baseline, join_code, code_size, bold=True, align="centre")
        s.text(centre, scan_baseline, scan, scan_size, align="centre")
        s.text(centre, typed_baseline, typed, typed_size, fill=d.GREY, align="centre")

    def draw(s: d.Surface) -> None:
        with s.region(0, 0, width, half, rotate=180) as top:
            upright(top)
        with s.region(0, half, width, half) as bottom:
            upright(bottom)
        s.line(8, half, width - 8, half, stroke=d.CUT_GREY, width=0.3, dash=(4, 4))

    return draw


# --- rejoin cards -------------------------------------------------------------------------


def rejoin_cards_pages(cards: list[dict], paper: str = "a4", lang: str = "it", dpi: int = d.DPI) -> list[Image.Image]:
    """The rejoin cards (see ``rejoin_cards_pdf``) painted as Pillow images at ``dpi``."""
    return [d.page_image(paper, page, dpi) for page in _rejoin_sheet(cards, paper, lang)]


def rejoin_cards_pdf(cards: list[dict], paper: str = "a4", lang: str = "it") -> bytes:
    """Personal rejoin cards, nine 63×88 mm cards a page with cut marks, as a vector PDF.

    ``cards`` is a list of ``{"name": player name, "url": the player's rejoin URL}``; the
    card shows the name, a QR of the URL and a warning that the card is personal.
    Refuses (``ValueError``): no cards, a card without a name, a URL that is not http(s),
    an unknown paper or language.
    """
    return d.pdf_bytes(paper, _rejoin_sheet(cards, paper, lang), f"Banco – {label('rejoin_title', lang)}", lang)


def rejoin_cards_png(cards: list[dict], paper: str = "a4", lang: str = "it", width: int = 600) -> bytes:
    """The first page of rejoin cards as a PNG ``width`` pixels wide; refuses what ``rejoin_cards_pdf`` refuses."""
    return d.preview_png(paper, _rejoin_sheet(cards, paper, lang)[0], width)


def _rejoin_sheet(cards: list[dict], paper: str, lang: str) -> list[d.Page]:
    d.check_lang(lang)
    grid = d.Grid(paper, *REJOIN_CARD_MM, 3, 3)
    if not cards:
        raise ValueError("no rejoin cards to print")
    drawers = []
    for i, card in enumerate(cards):
        if not isinstance(card, dict):
            raise ValueError(f"rejoin card {i} must be a dict with name and url")
        name = card.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"rejoin card {i} has no name")
        drawers.append(_rejoin_card(name.strip(), _check_url(card.get("url"), f"rejoin card {i}'s url"), lang))
    return grid.pages(drawers)


def _rejoin_card(name: str, url: str, lang: str) -> d.Page:
    w, h = REJOIN_CARD_MM
    centre, width = w / 2, w - 12
    title = label("rejoin_title", lang)
    title_size = d.fit_size(title, width, 9, 6, bold=True)
    name_lines, name_size = d.wrap_to_fit(name, width, 16, 7, bold=True)
    qr = d.qr_code(url, 44)
    notes = [
        (d.wrap_to_fit(label(key, lang), width, 6.5, 5, bold=bold), colour, bold)
        for key, colour, bold in (("rejoin_scan", d.BLACK, False), ("rejoin_private", d.RED, True))
    ]

    def draw(s: d.Surface) -> None:
        d.cut_outline(s, w, h)
        s.rect(2.7, 2.7, w - 5.4, h - 5.4, stroke=_BANCO_GREEN, width=0.4)
        s.rect(4, 4, w - 8, 8, fill=_BANCO_GREEN)
        s.text(centre, 8 + d.cap_mm(title_size) / 2, title, title_size, bold=True, fill=d.WHITE, align="centre")
        s.lines(centre, 15.2, name_lines, name_size, bold=True, leading=1.1)
        qr_y = 31.0
        qr.draw(s, centre - qr.side / 2, qr_y)
        y = qr_y + qr.side + 1.5
        for (lines, size), colour, bold in notes:
            y = s.lines(centre, y, lines, size, bold=bold, fill=colour) + 1.0

    return draw
