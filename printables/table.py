"""Sheets for the table itself: the join poster for the middle, and a rejoin card per player."""
from __future__ import annotations

from urllib.parse import urlsplit

from PIL import Image, ImageDraw

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

def poster_pages(join_url: str, join_code: str, game_name: str, paper: str = "a4", lang: str = "it") -> list[Image.Image]:
    """One page: the join QR, the code and the game's name, twice, head to tail.

    Folded along the dashed middle line, the sheet stands on the table as a tent, readable
    and scannable from both sides. Refuses (``ValueError``): an unknown paper or language, a
    join URL that is not http(s), an empty join code.
    """
    d.check_lang(lang)
    join_url = _check_url(join_url, "the join URL")
    if not isinstance(join_code, str) or not join_code.strip():
        raise ValueError("the join code must not be empty")
    page = d.blank_page(paper)
    half = Image.new("RGB", (page.width, page.height // 2), d.WHITE)
    _poster_half(half, join_url, join_code.strip(), (game_name or "").strip(), lang)
    page.paste(half.rotate(180), (0, 0))
    page.paste(half, (0, page.height - half.height))
    draw = ImageDraw.Draw(page)
    middle = page.height // 2
    dash, x = d.mm(4), d.mm(8)
    while x < page.width - d.mm(8):
        draw.line([(x, middle), (min(x + dash, page.width - d.mm(8)), middle)], fill=d.CUT_GREY, width=d.mm(0.3))
        x += 2 * dash
    return [page]


def _poster_half(half: Image.Image, join_url: str, join_code: str, game_name: str, lang: str) -> None:
    draw = ImageDraw.Draw(half)
    centre, width = half.width / 2, half.width - d.mm(30)
    y = d.mm(9)
    if game_name:
        face = d.fit_font(game_name, width, d.pt(22), d.pt(12), bold=True)
        d.draw_text_centered(draw, centre, y, game_name, face, d.BLACK)
    y += d.mm(11)
    code_font = d.fit_font(join_code, width, d.pt(40), d.pt(20), bold=True)
    bottom_block = code_font.size + d.mm(17)
    qr = d.qr_image(join_url, min(d.mm(100), half.height - y - bottom_block), quiet_modules=4)
    half.paste(qr, (round(centre - qr.width / 2), y))
    y += qr.height + d.mm(1)
    d.draw_text_centered(draw, centre, y, join_code, code_font, d.BLACK)
    y += code_font.size + d.mm(3)
    scan = label("poster_scan", lang)
    d.draw_text_centered(draw, centre, y, scan, d.fit_font(scan, width, d.pt(13), d.pt(8)), d.BLACK)
    y += d.mm(6.5)
    typed = label("poster_code", lang, url=_site(join_url))
    d.draw_text_centered(draw, centre, y, typed, d.fit_font(typed, width, d.pt(11), d.pt(7)), (90, 90, 90))


def poster_pdf(join_url: str, join_code: str, game_name: str, paper: str = "a4", lang: str = "it") -> bytes:
    """The join poster as a one-page PDF; refuses what ``poster_pages`` refuses."""
    return d.pdf_bytes(poster_pages(join_url, join_code, game_name, paper, lang), f"Banco – {game_name}")


def poster_png(join_url: str, join_code: str, game_name: str, paper: str = "a4", lang: str = "it",
               width: int = 600) -> bytes:
    """The join poster as a PNG ``width`` pixels wide; refuses what ``poster_pages`` refuses."""
    return d.png_bytes(poster_pages(join_url, join_code, game_name, paper, lang)[0], width)


# --- rejoin cards -------------------------------------------------------------------------

def rejoin_cards_pages(cards: list[dict], paper: str = "a4", lang: str = "it") -> list[Image.Image]:
    """Personal rejoin cards, nine 63×88 mm cards a page with cut marks.

    ``cards`` is a list of ``{"name": player name, "url": the player's rejoin URL}``; the
    card shows the name, a QR of the URL and a warning that the card is personal.
    Refuses (``ValueError``): no cards, a card without a name, a URL that is not http(s),
    an unknown paper or language.
    """
    d.check_lang(lang)
    if not cards:
        raise ValueError("no rejoin cards to print")
    images = []
    for i, card in enumerate(cards):
        if not isinstance(card, dict):
            raise ValueError(f"rejoin card {i} must be a dict with name and url")
        name = card.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"rejoin card {i} has no name")
        images.append(_rejoin_card(name.strip(), _check_url(card.get("url"), f"rejoin card {i}'s url"), lang))
    return d.Grid(paper, *REJOIN_CARD_MM, 3, 3).pages(images)


def _rejoin_card(name: str, url: str, lang: str) -> Image.Image:
    size = (d.mm(REJOIN_CARD_MM[0]), d.mm(REJOIN_CARD_MM[1]))
    card = Image.new("RGB", size, d.WHITE)
    draw = ImageDraw.Draw(card)
    d.cut_outline(draw, size)
    frame = d.mm(2.5)
    draw.rectangle([frame, frame, size[0] - 1 - frame, size[1] - 1 - frame], outline=_BANCO_GREEN, width=d.mm(0.4))
    centre, width = size[0] / 2, size[0] - d.mm(12)
    band_bottom = d.mm(12)
    draw.rectangle([d.mm(4), d.mm(4), size[0] - d.mm(4), band_bottom], fill=_BANCO_GREEN)
    title = label("rejoin_title", lang)
    d.draw_text_centered(draw, centre, d.mm(5.8), title, d.fit_font(title, width, d.pt(9), d.pt(6), True), d.WHITE)
    lines, face = d.wrap_to_fit(name, width, d.pt(16), d.pt(7), bold=True)
    y = d.mm(14.5)
    for line in lines:
        d.draw_text_centered(draw, centre, y, line, face, d.BLACK)
        y += face.size * 1.1
    qr = d.qr_image(url, d.mm(44))
    qr_y = d.mm(31)
    card.paste(qr, (round(centre - qr.width / 2), qr_y))
    y = qr_y + qr.height + d.mm(1.5)
    for key, colour, bold in (("rejoin_scan", d.BLACK, False), ("rejoin_private", d.RED, True)):
        lines, face = d.wrap_to_fit(label(key, lang), width, d.pt(6.5), d.pt(5), bold=bold)
        for line in lines:
            d.draw_text_centered(draw, centre, y, line, face, colour)
            y += face.size * 1.2
        y += d.mm(1)
    return card


def rejoin_cards_pdf(cards: list[dict], paper: str = "a4", lang: str = "it") -> bytes:
    """The rejoin cards as a PDF; refuses what ``rejoin_cards_pages`` refuses."""
    return d.pdf_bytes(rejoin_cards_pages(cards, paper, lang), f"Banco – {label('rejoin_title', lang)}")


def rejoin_cards_png(cards: list[dict], paper: str = "a4", lang: str = "it", width: int = 600) -> bytes:
    """The first page of rejoin cards as a PNG ``width`` pixels wide; refuses what ``rejoin_cards_pages`` refuses."""
    return d.png_bytes(rejoin_cards_pages(cards, paper, lang)[0], width)
