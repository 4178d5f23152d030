"""Title deed cards: one 63×88 mm card per deed, a mortgaged back for each, a QR code to the deed.

The QR holds ``<public base URL>/card/<edition>/<deed key>``, nothing about a game, so one
printed set serves every game of that edition. The short code under the QR is the same link
for phones that cannot scan: it is derived from the edition and deed key alone.
"""
from __future__ import annotations

import hashlib
from urllib.parse import quote

from PIL import Image, ImageDraw

from . import _draw as d
from ._labels import label, text_in

CARD_MM = (63.0, 88.0)
CARD_GRID_COLS, CARD_GRID_ROWS = 3, 3

#: The letters and digits a short code is made of: no 0/O or 1/I to mistake for one another.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5


def deed_url(base_url: str, edition_id: str, deed_key: str) -> str:
    """The plain URL a deed's QR code holds.

    Refuses (``ValueError``) a base URL that is not ``http://`` or ``https://``, since a phone's
    camera app opens only those.
    """
    base = (base_url or "").strip().rstrip("/")
    if not base.startswith(("http://", "https://")) or len(base) <= len("https://"):
        raise ValueError(f"the public base URL must start with http:// or https://, not {base_url!r}")
    return f"{base}/card/{quote(edition_id, safe='')}/{quote(deed_key, safe='')}"


def deed_code(edition_id: str, deed_key: str) -> str:
    """The short code printed under a deed's QR, typed instead of scanning.

    Five characters of ``CODE_ALPHABET``, a hash of the edition id and the deed key: the same
    deed always gets the same code, on every printout and on every server. Uniqueness within
    an edition is checked by ``deed_codes``.
    """
    digest = hashlib.sha256(f"{edition_id}\x00{deed_key}".encode("utf-8")).digest()
    number = int.from_bytes(digest[:8], "big")
    chars = []
    for _ in range(CODE_LENGTH):
        number, index = divmod(number, len(CODE_ALPHABET))
        chars.append(CODE_ALPHABET[index])
    return "".join(chars)


def deed_codes(edition: dict) -> dict[str, str]:
    """Every deed's short code: ``{deed key: code}``.

    Refuses (``ValueError``, naming both deeds) an edition in which two deeds would share a
    code, so a typed code can never open the wrong deed; renaming either key fixes it.
    """
    codes: dict[str, str] = {}
    seen: dict[str, str] = {}
    for deed in _deeds(edition):
        code = deed_code(edition["id"], deed["key"])
        if code in seen:
            raise ValueError(f"{edition['id']}: deeds {seen[code]!r} and {deed['key']!r} share the "
                             f"short code {code}; rename one of the keys")
        seen[code] = deed["key"]
        codes[deed["key"]] = code
    return codes


def deed_key_for_code(edition: dict, typed: str) -> str | None:
    """The deed key a typed short code stands for, or ``None``.

    Forgives case, spaces and dashes; a code that matches no deed of the edition is ``None``.
    Refuses (``ValueError``) an edition whose codes collide, like ``deed_codes``.
    """
    wanted = "".join(ch for ch in (typed or "").upper() if ch.isalnum())
    for key, code in deed_codes(edition).items():
        if code == wanted:
            return key
    return None


def lift_value(mortgage: int, interest_percent: int) -> int:
    """What lifting a mortgage costs: the value plus the interest, rounded up to a whole unit."""
    return mortgage + -((-mortgage * interest_percent) // 100)


def deed_card_image(edition: dict, deed_key: str, base_url: str, lang: str = "it",
                    side: str = "front") -> Image.Image:
    """One deed card, 63×88 mm at 300 dpi: its ``"front"`` or its mortgaged ``"back"``.

    Refuses: an unknown deed key (``KeyError``), an unknown side or language, a bad base URL,
    a deed in an unknown group or a group colour that is not ``#rrggbb`` (``ValueError``).
    """
    d.check_lang(lang)
    deed = _deed(edition, deed_key)
    if side == "front":
        return _front(edition, deed, base_url, lang)
    if side == "back":
        return _back(edition, deed, lang)
    raise ValueError(f"unknown side {side!r}: choose front or back")


def deed_card_png(edition: dict, deed_key: str, base_url: str, lang: str = "it",
                  side: str = "front") -> bytes:
    """One deed card as PNG at 300 dpi, for the in-app preview; refuses what ``deed_card_image`` refuses."""
    return d.png_bytes(deed_card_image(edition, deed_key, base_url, lang, side))


def deed_cards_pages(edition: dict, base_url: str, paper: str = "a4", lang: str = "it") -> list[Image.Image]:
    """Every deed of ``edition`` on 3×3 card sheets, each front page followed by its back page.

    The back page is mirrored left to right, so printing double-sided and flipping on the
    long edge puts each card's mortgaged side behind its own front.
    Refuses: an unknown paper or language, a bad base URL, an edition without deeds, two
    deeds sharing a short code, a deed in an unknown group (``ValueError``).
    """
    d.check_lang(lang)
    deeds = _deeds(edition)
    if not deeds:
        raise ValueError(f"{edition.get('id')!r} has no deeds to print")
    deed_codes(edition)
    grid = d.Grid(paper, *CARD_MM, CARD_GRID_COLS, CARD_GRID_ROWS)
    fronts = [_front(edition, deed, base_url, lang) for deed in deeds]
    backs = [_back(edition, deed, lang) for deed in deeds]
    return grid.pages(fronts, backs)


def deed_cards_pdf(edition: dict, base_url: str, paper: str = "a4", lang: str = "it") -> bytes:
    """The deed sheets as a PDF for double-sided printing (flip on the long edge), 100 % scale.

    Refuses what ``deed_cards_pages`` refuses.
    """
    title = f"Banco – {text_in(edition.get('name'), lang) or edition.get('id')}"
    return d.pdf_bytes(deed_cards_pages(edition, base_url, paper, lang), title)


def deed_cards_png(edition: dict, base_url: str, paper: str = "a4", lang: str = "it",
                   width: int = 600) -> bytes:
    """The first deed sheet as a PNG ``width`` pixels wide; refuses what ``deed_cards_pages`` refuses."""
    return d.png_bytes(deed_cards_pages(edition, base_url, paper, lang)[0], width)


# --- the edition's data -----------------------------------------------------------------

def _deeds(edition: dict) -> list[dict]:
    if not isinstance(edition, dict) or "id" not in edition:
        raise ValueError("an edition must be a dict with an 'id'")
    deeds = edition.get("deeds")
    if not isinstance(deeds, list):
        raise ValueError(f"{edition['id']!r} has no list of deeds")
    return deeds


def _deed(edition: dict, deed_key: str) -> dict:
    for deed in _deeds(edition):
        if deed.get("key") == deed_key:
            return deed
    raise KeyError(f"{edition['id']!r} has no deed {deed_key!r}")


def _group(edition: dict, deed: dict) -> dict:
    for group in edition.get("groups") or ():
        if group.get("key") == deed.get("group"):
            return group
    raise ValueError(f"{edition['id']!r}: deed {deed.get('key')!r} is in unknown group {deed.get('group')!r}")


def _money(edition: dict, amount: int, lang: str) -> str:
    return d.format_money(amount, (edition.get("currency") or {}).get("symbol", ""), lang)


def _is_provisional(edition: dict, deed: dict) -> bool:
    return bool(deed.get("provisional") or edition.get("provisional"))


def _building_words(edition: dict, lang: str) -> dict[str, str]:
    buildings = edition.get("buildings") or {}
    return {
        "small": text_in(buildings.get("small"), lang),
        "small_plural": text_in(buildings.get("small_plural") or buildings.get("small"), lang),
        "big": text_in(buildings.get("big"), lang),
    }


def _rent_lines(edition: dict, deed: dict, group: dict, lang: str) -> list[tuple[str, str]]:
    """(label, amount) rows of the rent table, by the kind of group the deed is in."""
    kind = group.get("kind", "street")
    if kind == "station":
        rents = edition.get("station_rents") or []
        return [(label("rent", lang) if n == 1 else label("owned_n", lang, n=n), _money(edition, r, lang))
                for n, r in enumerate(rents, start=1)]
    if kind == "utility":
        multipliers = edition.get("utility_multipliers") or []
        return [(label("owned_1", lang) if n == 1 else label("owned_n", lang, n=n), label("times_dice", lang, k=k))
                for n, k in enumerate(multipliers, start=1)]
    words = _building_words(edition, lang)
    max_small = int((edition.get("buildings") or {}).get("max_small", 0))
    rows = []
    for step, rent in enumerate(deed.get("rents") or []):
        if step == 0:
            text = label("rent", lang)
        elif step <= max_small:
            text = label("with_one", lang, **words) if step == 1 else label("with_many", lang, n=step, **words)
        else:
            text = label("with_big", lang, **words)
        rows.append((text, _money(edition, rent, lang)))
    return rows


def _building_lines(edition: dict, deed: dict, group: dict, lang: str) -> list[tuple[str, str]]:
    cost = deed.get("building_cost")
    if group.get("kind", "street") != "street" or not cost:
        return []
    words = _building_words(edition, lang)
    max_small = int((edition.get("buildings") or {}).get("max_small", 0))
    has_big = len(deed.get("rents") or []) > max_small + 1 and words["big"]
    rows = []
    if max_small > 0:
        rows.append((label("small_cost", lang, **words), _money(edition, cost, lang)))
    if has_big:
        value = _money(edition, cost, lang)
        # The small buildings a big one takes back: all of them, or the edition's small_per_big.
        needs = int((edition.get("buildings") or {}).get("small_per_big") or max_small)
        if needs > 0:
            value = label("big_cost_plus", lang, cost=value, n=needs, **words)
        rows.append((label("big_cost", lang, **words), value))
    return rows


# --- drawing ------------------------------------------------------------------------------

_W, _H = d.mm(CARD_MM[0]), d.mm(CARD_MM[1])
_FRAME = d.mm(2.5)
_PAD = d.mm(6)
_BAND_TOP, _BAND_BOTTOM = d.mm(4), d.mm(17.5)


def _band(draw: ImageDraw.ImageDraw, edition: dict, deed: dict, lang: str, heading: str | None) -> None:
    colour = d.parse_colour(_group(edition, deed).get("color", ""))
    ink = d.ink_on(colour)
    left, right = d.mm(4), _W - d.mm(4)
    draw.rectangle([left, _BAND_TOP, right, _BAND_BOTTOM], fill=colour, outline=d.BLACK, width=3)
    top = _BAND_TOP + d.mm(1)
    if heading:
        small = d.fit_font(heading, right - left - d.mm(3), d.pt(5.5), d.pt(4.5))
        d.draw_text_centered(draw, _W / 2, top, heading, small, ink)
        top += d.mm(3)
    lines, face = d.wrap_to_fit(deed["name"], right - left - d.mm(3), d.pt(11), d.pt(6), bold=True)
    line_h = face.size * 1.12
    block = line_h * len(lines)
    y = top + max(0, (_BAND_BOTTOM - d.mm(0.6) - top - block) / 2)
    for line in lines:
        d.draw_text_centered(draw, _W / 2, y, line, face, ink)
        y += line_h


def _row(draw: ImageDraw.ImageDraw, y: float, left: str, right: str, size_px: int, bold: bool = False,
         x0: int = _PAD, x1: int = _W - _PAD) -> None:
    """A label flush left and an amount flush right on one line, shrunk together if they meet."""
    gap = d.mm(2)
    size = size_px
    while size > d.pt(5) and (d.font(size, bold).getlength(left) + d.font(size, True).getlength(right) + gap
                              > x1 - x0):
        size -= 1
    draw.text((x0, y), left, font=d.font(size, bold), fill=d.BLACK)
    draw.text((x1, y), right, font=d.font(size, True), fill=d.BLACK, anchor="ra")


def _provisional(draw: ImageDraw.ImageDraw, x0: int, x1: int, y: float, lang: str) -> None:
    """The red mark on values that are not from the box: a boxed word and what to do."""
    word, hint = label("provisional", lang), label("provisional_hint", lang)
    big = d.fit_font(word, x1 - x0 - d.mm(2), d.pt(7), d.pt(5), bold=True)
    small = d.fit_font(hint, x1 - x0, d.pt(5.5), d.pt(4), bold=True)
    height = big.size + d.mm(1.2)
    draw.rectangle([x0, y, x1, y + height], outline=d.RED, width=4)
    d.draw_text_centered(draw, (x0 + x1) / 2, y + d.mm(0.6), word, big, d.RED)
    d.draw_text_centered(draw, (x0 + x1) / 2, y + height + d.mm(0.5), hint, small, d.RED)


def _card_canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    card = Image.new("RGB", (_W, _H), d.WHITE)
    draw = ImageDraw.Draw(card)
    d.cut_outline(draw, (_W, _H))
    draw.rectangle([_FRAME, _FRAME, _W - 1 - _FRAME, _H - 1 - _FRAME], outline=d.BLACK, width=d.mm(0.3))
    return card, draw


def _fits(left: str, right: str, size_px: int, width: int) -> bool:
    return d.font(size_px).getlength(left) + d.font(size_px, True).getlength(right) + d.mm(2) <= width


def _front(edition: dict, deed: dict, base_url: str, lang: str) -> Image.Image:
    group = _group(edition, deed)
    url = deed_url(base_url, edition["id"], deed["key"])
    card, draw = _card_canvas()
    _band(draw, edition, deed, lang, label("title_deed", lang))
    body_w = _W - 2 * _PAD

    y = d.mm(19)
    _row(draw, y, label("price", lang), _money(edition, int(deed["price"]), lang), d.pt(8.5), bold=True)
    y = d.mm(23.6)
    draw.line([(_PAD, y), (_W - _PAD, y)], fill=d.BLACK, width=2)

    # Bottom: mortgage values on the left, the QR and its typed code on the right.
    qr = d.qr_image(url, d.mm(19.5))
    qr_x = _W - _FRAME - d.mm(1.2) - qr.width
    code_font = d.font(d.pt(8), bold=True)
    code_y = _H - _FRAME - d.mm(1.0) - code_font.size
    qr_y = code_y - qr.height
    card.paste(qr, (qr_x, qr_y))
    d.draw_text_centered(draw, qr_x + qr.width / 2, code_y, deed_code(edition["id"], deed["key"]), code_font, d.BLACK)

    # The rent table and the building costs share the height down to the QR: rents at their
    # full size when there is room, closer together when there is not (five buildings). A
    # cost row too long for one line puts its amount on a second line.
    rents = _rent_lines(edition, deed, group, lang)
    costs = _building_lines(edition, deed, group, lang)
    cost_size, cost_step = d.pt(6.5), d.mm(3.5)
    cost_height = sum(1 if _fits(t, v, cost_size, body_w) else 2 for t, v in costs) * cost_step
    top = d.mm(24.6)
    room = qr_y - d.mm(0.8) - top - (cost_height + d.mm(1.6) if costs else 0)
    step = min(d.mm(4.3), room / max(1, len(rents)))
    size = min(d.pt(7.5), int(step * 0.75))
    for i, (text, value) in enumerate(rents):
        _row(draw, top + i * step, text, value, size)
    if costs:
        y = top + len(rents) * step + d.mm(0.4)
        draw.line([(_PAD, y), (_W - _PAD, y)], fill=d.BLACK, width=2)
        y += d.mm(1.2)
        for text, value in costs:
            if _fits(text, value, cost_size, body_w):
                _row(draw, y, text, value, cost_size)
                y += cost_step
            else:
                draw.text((_PAD, y), text, font=d.fit_font(text, body_w, cost_size, d.pt(5)), fill=d.BLACK)
                value_font = d.fit_font(value, body_w, cost_size, d.pt(5), bold=True)
                draw.text((_W - _PAD, y + cost_step), value, font=value_font, fill=d.BLACK, anchor="ra")
                y += 2 * cost_step

    col_right = qr_x - d.mm(0.8)
    y = qr_y + d.mm(1.5)
    mortgage = int(deed.get("mortgage") or 0)
    if mortgage:
        interest = int((edition.get("mortgage") or {}).get("interest_percent", 0))
        for key, amount in (("mortgage_value", mortgage), ("lift", lift_value(mortgage, interest))):
            text = label(key, lang)
            draw.text((_PAD, y), text, font=d.fit_font(text, col_right - _PAD, d.pt(6), d.pt(4.5)), fill=d.BLACK)
            amount_text = _money(edition, amount, lang)
            draw.text((_PAD, y + d.mm(2.6)), amount_text,
                      font=d.fit_font(amount_text, col_right - _PAD, d.pt(8), d.pt(5.5), True), fill=d.BLACK)
            y += d.mm(6.6)
    if _is_provisional(edition, deed):
        _provisional(draw, _PAD, col_right, max(y, _H - _FRAME - d.mm(9)), lang)
    return card


def _back(edition: dict, deed: dict, lang: str) -> Image.Image:
    card, draw = _card_canvas()
    _band(draw, edition, deed, lang, None)
    centre = _W / 2
    width = _W - 2 * _PAD
    mortgage = int(deed.get("mortgage") or 0)
    if not mortgage:
        name = text_in(edition.get("name"), lang)
        lines, face = d.wrap_to_fit(name, width, d.pt(7), d.pt(5))
        y = d.mm(40)
        for line in lines:
            d.draw_text_centered(draw, centre, y, line, face, d.BLACK)
            y += face.size * 1.2
        return card

    word = label("mortgaged", lang)
    d.draw_text_centered(draw, centre, d.mm(23), word, d.fit_font(word, width, d.pt(18), d.pt(10), True), d.RED)
    interest = int((edition.get("mortgage") or {}).get("interest_percent", 0))
    y = d.mm(35)
    for key, amount in (("mortgage_value", mortgage), ("lift", lift_value(mortgage, interest))):
        d.draw_text_centered(draw, centre, y, label(key, lang), d.font(d.pt(7.5)), d.BLACK)
        d.draw_text_centered(draw, centre, y + d.mm(3.6), _money(edition, amount, lang), d.font(d.pt(12), True), d.BLACK)
        y += d.mm(11.5)
    hint = label("mortgaged_hint", lang)
    lines, face = d.wrap_to_fit(hint, width, d.pt(6.5), d.pt(5), max_lines=3)
    y = d.mm(60)
    for line in lines:
        d.draw_text_centered(draw, centre, y, line, face, d.BLACK)
        y += face.size * 1.2
    if _is_provisional(edition, deed):
        _provisional(draw, _PAD + d.mm(6), _W - _PAD - d.mm(6), _H - _FRAME - d.mm(10), lang)
    return card
