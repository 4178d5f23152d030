"""Title deed cards: one 63×88 mm card per deed, a mortgaged back for each, a QR code to the deed.

The QR holds ``<public base URL>/card/<edition>/<deed key>``, nothing about a game, so one
printed set serves every game of that edition. The short code under the QR is the same link
for phones that cannot scan: it is derived from the edition and deed key alone.
"""

from __future__ import annotations

import hashlib
from urllib.parse import quote

from PIL import Image

from . import _draw as d
from ._labels import label, text_in
from ._symbols import draw_symbol, symbol_for

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
    digest = hashlib.sha256(f"{edition_id}\x00{deed_key}".encode()).digest()
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
            raise ValueError(
                f"{edition['id']}: deeds {seen[code]!r} and {deed['key']!r} share the "
                f"short code {code}; rename one of the keys"
            )
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


def deed_card_image(
    edition: dict, deed_key: str, base_url: str, lang: str = "it", side: str = "front", dpi: int = d.DPI
) -> Image.Image:
    """One deed card, 63×88 mm, painted at ``dpi``: its ``"front"`` or its mortgaged ``"back"``.

    Refuses: an unknown deed key (``KeyError``), an unknown side or language, a bad base URL,
    a deed in an unknown group or a group colour that is not ``#rrggbb`` (``ValueError``).
    """
    return d.box_image(*CARD_MM, _card_drawer(edition, deed_key, base_url, lang, side), dpi)


def deed_card_png(edition: dict, deed_key: str, base_url: str, lang: str = "it", side: str = "front") -> bytes:
    """One deed card as PNG at 300 dpi, for the in-app preview; refuses what ``deed_card_image`` refuses."""
    return d.png_bytes(deed_card_image(edition, deed_key, base_url, lang, side), dpi=d.DPI)


def deed_cards_pages(
    edition: dict, base_url: str, paper: str = "a4", lang: str = "it", dpi: int = d.DPI
) -> list[Image.Image]:
    """The deed sheets (see ``deed_cards_pdf``) painted as Pillow images at ``dpi``."""
    return [d.page_image(paper, page, dpi) for page in _sheet(edition, base_url, paper, lang)]


def deed_cards_pdf(edition: dict, base_url: str, paper: str = "a4", lang: str = "it") -> bytes:
    """Every deed of ``edition`` on 3×3 card sheets, as a vector PDF for double-sided printing
    (flip on the long edge) at 100 % scale: each front page is followed by its back page.

    The back page is mirrored left to right, so printing double-sided and flipping on the
    long edge puts each card's mortgaged side behind its own front.
    Refuses: an unknown paper or language, a bad base URL, an edition without deeds, two
    deeds sharing a short code, a deed in an unknown group (``ValueError``).
    """
    pages = _sheet(edition, base_url, paper, lang)
    title = f"Banco – {text_in(edition.get('name'), lang) or edition.get('id')}"
    return d.pdf_bytes(paper, pages, title, lang)


def deed_cards_png(edition: dict, base_url: str, paper: str = "a4", lang: str = "it", width: int = 600) -> bytes:
    """The first deed sheet as a PNG ``width`` pixels wide; refuses what ``deed_cards_pdf`` refuses."""
    return d.preview_png(paper, _sheet(edition, base_url, paper, lang)[0], width)


def _sheet(edition: dict, base_url: str, paper: str, lang: str) -> list[d.Page]:
    d.check_lang(lang)
    d.paper_mm(paper)
    deeds = _deeds(edition)
    if not deeds:
        raise ValueError(f"{edition.get('id')!r} has no deeds to print")
    deed_codes(edition)
    grid = d.Grid(paper, *CARD_MM, CARD_GRID_COLS, CARD_GRID_ROWS)
    fronts = [_Card(edition, deed, lang).front(base_url) for deed in deeds]
    backs = [_Card(edition, deed, lang).back() for deed in deeds]
    return grid.pages(fronts, backs)


def _card_drawer(edition: dict, deed_key: str, base_url: str, lang: str, side: str) -> d.Page:
    d.check_lang(lang)
    card = _Card(edition, _deed(edition, deed_key), lang)
    if side == "front":
        return card.front(base_url)
    if side == "back":
        return card.back()
    raise ValueError(f"unknown side {side!r}: choose front or back")


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
        return [
            (label("rent", lang) if n == 1 else label("owned_n", lang, n=n), _money(edition, r, lang))
            for n, r in enumerate(rents, start=1)
        ]
    if kind == "utility":
        multipliers = edition.get("utility_multipliers") or []
        return [
            (label("owned_1", lang) if n == 1 else label("owned_n", lang, n=n), label("times_dice", lang, k=k))
            for n, k in enumerate(multipliers, start=1)
        ]
    words = _building_words(edition, lang)
    max_small = int((edition.get("buildings") or {}).get("max_small", 0))
    rows = []
    rents = deed.get("rents") or []
    for step, rent in enumerate(rents):
        if step == 0:
            # As on the box's deeds: the base rent is the site's alone, before any building.
            text = label("rent_site_only" if len(rents) > 1 else "rent", lang)
        elif step <= max_small:
            text = label("with_one", lang, **words) if step == 1 else label("with_many", lang, n=step, **words)
        else:
            text = label("with_big", lang, **words)
        rows.append((text, _money(edition, rent, lang)))
    return rows


def _double_rent_note(edition: dict, group: dict, lang: str) -> str | None:
    """The rulebook's note on double rent for a whole colour group, by the edition's rent
    policy; ``None`` where rent never doubles or the deed is not a street."""
    policy = (edition.get("rent") or {}).get("policy")
    if group.get("kind", "street") != "street" or policy not in _DOUBLE_RENT_NOTES:
        return None
    can_mortgage = any(int(other.get("mortgage") or 0) for other in _deeds(edition))
    if policy != "double_if_none_mortgaged_or_built" and not can_mortgage:
        return label("double_rent", lang)  # nothing can be mortgaged: say it plainly
    return label(policy, lang)


_DOUBLE_RENT_NOTES = ("double_on_unmortgaged_deeds", "double_if_none_mortgaged", "double_if_none_mortgaged_or_built")


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


def _penalty_lines(edition: dict, deed: dict, lang: str) -> list[tuple[str, str]]:
    """What a failed expropriation costs (Che Impresa! prints it on the contract): of the deed
    alone and of its whole lot."""
    if deed.get("penalty") is None:
        return []
    rows = [(label("penalty", lang), _money(edition, int(deed["penalty"]), lang))]
    if deed.get("lot_penalty") is not None:
        rows.append((label("lot_penalty", lang), _money(edition, int(deed["lot_penalty"]), lang)))
    return rows


def _sale_lines(edition: dict, deed: dict, lang: str) -> list[tuple[str, str]]:
    """What the bank pays for the deed where owners sell deeds back to it (Niente è come
    sembra: its price), rounded up to a whole unit."""
    sale = edition.get("deed_sale")
    if not sale:
        return []
    amount = -((-int(deed["price"]) * int(sale.get("percent", 100))) // 100)
    return [(label("deed_sale", lang), _money(edition, amount, lang))]


# --- drawing ------------------------------------------------------------------------------
# Millimetres from the card's top-left corner (its cut line).

_W, _H = CARD_MM
_FRAME = 2.5  # the black frame's outer edge
_PAD = 6.0  # the text column's left and right margin
_BAND_X, _BAND_Y, _BAND_W, _BAND_H = 4.0, 4.0, 55.0, 13.5
_BAND_BOTTOM = _BAND_Y + _BAND_H
_SYMBOL = 10.5  # a station's or utility's drawing, left in its band
_QR_SIDE = 20.5  # the QR code with its quiet zone
_RULE = 0.17
_BODY_W = _W - 2 * _PAD


def _row(
    s: d.Surface,
    baseline: float,
    left: str,
    right: str,
    size: float,
    bold: bool = False,
    x0: float = _PAD,
    x1: float = _W - _PAD,
) -> None:
    """A label flush left and an amount flush right on one line, shrunk together if they meet."""
    size = _row_size(left, right, size, x1 - x0, bold)
    s.text(x0, baseline, left, size, bold)
    s.text(x1, baseline, right, size, True, align="right")


def _row_size(left: str, right: str, size: float, width: float, bold: bool = False) -> float:
    wanted = d.text_width(left, size, bold) + d.text_width(right, size, True) + 2.0
    return size if wanted <= width else size * (width - 2.0) / (wanted - 2.0)


class _Card:
    """One deed's two sides. Everything that can be refused is worked out here, before any
    drawing: the returned drawers only draw."""

    def __init__(self, edition: dict, deed: dict, lang: str):
        self.edition, self.deed, self.lang = edition, deed, lang
        self.group = _group(edition, deed)
        self.kind = self.group.get("kind", "street")
        colour = d.parse_colour(self.group.get("color", ""))
        if self.kind == "street":
            self.band, self.ink = d.band_colours(colour)
            self.symbol = None
        else:
            # Stations and utilities: a drawing on white instead of a band of colour.
            self.band, self.ink = d.WHITE, d.BLACK
            self.symbol = symbol_for(self.kind, deed)
        self.provisional = _is_provisional(edition, deed)
        self.mortgage = int(deed.get("mortgage") or 0)
        interest = int((edition.get("mortgage") or {}).get("interest_percent", 0))
        self.mortgage_rows = (
            [
                (label("mortgage_value", lang), _money(edition, self.mortgage, lang)),
                (label("lift", lang), _money(edition, lift_value(self.mortgage, interest), lang)),
            ]
            if self.mortgage
            else []
        )

    # The coloured band (or the drawing) with the deed's name.

    def _band(self, s: d.Surface, heading: str | None) -> None:
        s.rect(_BAND_X, _BAND_Y, _BAND_W, _BAND_H, fill=self.band, stroke=d.BLACK, width=0.25)
        left, right = _BAND_X + 2.0, _BAND_X + _BAND_W - 2.0
        if self.symbol:
            draw_symbol(s, self.symbol, _BAND_X + 1.6, _BAND_Y + (_BAND_H - _SYMBOL) / 2, _SYMBOL)
            left = _BAND_X + 1.6 + _SYMBOL + 0.8
        centre, width = (left + right) / 2, right - left
        top = _BAND_Y + 1.3
        if heading:
            size = d.fit_size(heading, width, 5.5, 4.5)
            s.text_top(centre, top, heading, size, fill=self.ink, align="centre")
            top += d.cap_mm(size) + 1.5
        lines, size = d.wrap_to_fit(self.deed["name"], width, 11, 6, bold=True)
        step = size * 1.12 * d.MM_PER_PT
        block = d.cap_mm(size) + (len(lines) - 1) * step
        bottom = _BAND_BOTTOM - 1.1
        s.lines(centre, top + max(0.0, (bottom - top - block) / 2), lines, size, bold=True, fill=self.ink, leading=1.12)

    def _frame(self, s: d.Surface) -> None:
        d.cut_outline(s, _W, _H)
        s.rect(_FRAME + 0.15, _FRAME + 0.15, _W - 2 * _FRAME - 0.3, _H - 2 * _FRAME - 0.3, stroke=d.BLACK, width=0.3)

    def _provisional(self, s: d.Surface, x0: float, x1: float, top: float) -> None:
        """The red mark on values that are not from the box: a boxed word and what to do."""
        word, hint = label("provisional", self.lang), label("provisional_hint", self.lang)
        big = d.fit_size(word, x1 - x0 - 2, 7, 5, bold=True)
        small = d.fit_size(hint, x1 - x0, 5.5, 4, bold=True)
        height = d.cap_mm(big) + 1.6
        s.rect(x0, top, x1 - x0, height, stroke=d.RED, width=0.35)
        s.text_top((x0 + x1) / 2, top + 0.8, word, big, bold=True, fill=d.RED, align="centre")
        s.text_top((x0 + x1) / 2, top + height + 0.8, hint, small, bold=True, fill=d.RED, align="centre")

    # The two sides.

    def front(self, base_url: str) -> d.Page:
        edition, deed, lang = self.edition, self.deed, self.lang
        url = deed_url(base_url, edition["id"], deed["key"])
        qr = d.qr_code(url, _QR_SIDE)
        code = deed_code(edition["id"], deed["key"])
        heading = label("title_deed", lang)
        price = (label("price", lang), _money(edition, int(deed["price"]), lang))
        rents = _rent_lines(edition, deed, self.group, lang)
        costs = (
            _building_lines(edition, deed, self.group, lang)
            + _penalty_lines(edition, deed, lang)
            + _sale_lines(edition, deed, lang)
        )
        note = _double_rent_note(edition, self.group, lang)

        # The QR and its typed code sit bottom right; the mortgage values beside them.
        code_size = 8.0
        code_baseline = _H - _FRAME - 1.3
        qr_x = _W - _FRAME - 1.2 - qr.side
        qr_y = code_baseline - d.cap_mm(code_size) - 0.6 - qr.side
        quiet = qr.quiet * qr.module

        # The rent table, the building costs and the mortgage values share the height down to
        # the QR: rents at full size when there is room, closer together when there is not
        # (five buildings). A cost row too long for one line puts its amount on a second line.
        # The double-rent note and the provisional mark go left of the QR.
        cost_rows = []
        for text, value in costs:
            size = _row_size(text, value, 6.5, _BODY_W)
            cost_rows.append((text, value, size) if size >= 5.5 else (text, value, None))
        small_lines = sum(1 if size else 2 for *_, size in cost_rows) + len(self.mortgage_rows)
        gaps = (1.0 if costs else 0.0) + (1.0 if self.mortgage_rows else 0.0)
        top = 23.9
        room = qr_y - 0.4 - top - gaps
        # Rents up to 4.2 mm apart, the smaller rows up to 3.2 mm; when even that does not
        # fit, every row gets the same share and the same size.
        step = min(4.2, (room - 3.2 * small_lines) / max(1, len(rents)))
        cost_step = 3.2
        if step < cost_step:
            step = cost_step = room / max(1, len(rents) + small_lines)
        size = min(7.5, step * 0.72 * d.PT_PER_MM)
        small = min(6.5, size, cost_step * 0.72 * d.PT_PER_MM)
        cost_rows = [(text, value, min(one, small) if one else None) for text, value, one in cost_rows]
        col_right = qr_x - 0.6
        col_top = qr_y + quiet
        mark_top = _H - _FRAME - 9.3
        note_lines, note_size = d.wrap_to_fit(note, col_right - _PAD, 5.3, 4.6, max_lines=5) if note else ([], 0.0)

        def draw(s: d.Surface) -> None:
            self._frame(s)
            self._band(s, heading)
            _row(s, 21.6, *price, 8.5, bold=True)
            s.line(_PAD, 23.2, _W - _PAD, 23.2, width=_RULE)
            y = top
            for text, value in rents:
                _row(s, y + (step + d.cap_mm(size)) / 2, text, value, size)
                y += step
            for block in (cost_rows, [(text, value, small) for text, value in self.mortgage_rows]):
                if not block:
                    continue
                s.line(_PAD, y + 0.4, _W - _PAD, y + 0.4, width=_RULE)
                y += 1.0
                for text, value, one_line in block:
                    if one_line:
                        _row(s, y + (cost_step + d.cap_mm(one_line)) / 2, text, value, one_line)
                        y += cost_step
                    else:
                        first = d.fit_size(text, _BODY_W, small, 4.5)
                        s.text(_PAD, y + (cost_step + d.cap_mm(first)) / 2, text, first)
                        second = d.fit_size(value, _BODY_W, small, 4.5, bold=True)
                        s.text(
                            _W - _PAD,
                            y + cost_step + (cost_step + d.cap_mm(second)) / 2,
                            value,
                            second,
                            True,
                            align="right",
                        )
                        y += 2 * cost_step

            qr.draw(s, qr_x, qr_y)
            s.text(qr_x + qr.side / 2, code_baseline, code, code_size, bold=True, align="centre")
            if note_lines:
                s.lines(_PAD, col_top + 0.3, note_lines, note_size, fill=d.GREY, align="left", leading=1.18)
            if self.provisional:
                self._provisional(s, _PAD, col_right, mark_top)

        return draw

    def back(self) -> d.Page:
        edition, lang = self.edition, self.lang
        centre, width = _W / 2, _BODY_W
        if not self.mortgage:
            name_lines, name_size = d.wrap_to_fit(text_in(edition.get("name"), lang), width, 7, 5)
        else:
            word = label("mortgaged", lang)
            word_size = d.fit_size(word, width, 18, 10, bold=True)
            hint_lines, hint_size = d.wrap_to_fit(label("mortgaged_hint", lang), width, 6.5, 5, max_lines=3)

        def draw(s: d.Surface) -> None:
            self._frame(s)
            self._band(s, None)
            if not self.mortgage:
                s.lines(centre, 41, name_lines, name_size)
                return
            s.text_top(centre, 25, word, word_size, bold=True, fill=d.RED, align="centre")
            y = 36.5
            for text, amount in self.mortgage_rows:
                s.text_top(centre, y, text, 7.5, align="centre")
                s.text_top(centre, y + 3.6, amount, 12, bold=True, align="centre")
                y += 11.5
            s.lines(centre, 61.5, hint_lines, hint_size)
            if self.provisional:
                self._provisional(s, _PAD + 6, _W - _PAD - 6, _H - _FRAME - 10)

        return draw
