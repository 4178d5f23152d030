"""Deed cards: every deed of every edition printed once, scannable, at playing-card size, with its back,
its words and amounts in the PDF as text, in colours that read."""

from __future__ import annotations

import io
import itertools
import math
from functools import cache

import pytest
import zxingcpp
from PIL import Image
from printables_testkit import (
    BASE_URL,
    EDITION_FILES,
    decode_qr,
    load_edition,
    no_mortgage_edition,
    odd_edition,
    pdf_text,
    render_pages,
)

import printables

EDITIONS = {path.stem: load_edition(path) for path in EDITION_FILES}
PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


@cache
def _sheet(edition_id: str, paper: str, lang: str = "it") -> bytes:
    edition = {"odd-test": odd_edition, "no-mortgage-test": no_mortgage_edition}.get(edition_id)
    return printables.deed_cards_pdf(edition() if edition else EDITIONS[edition_id], BASE_URL, paper, lang)


def _edition(edition_id: str) -> dict:
    return {"odd-test": odd_edition, "no-mortgage-test": no_mortgage_edition}.get(
        edition_id, lambda: EDITIONS[edition_id]
    )()


def test_there_are_built_in_editions():
    assert EDITION_FILES, "no edition files found under companion/editions"


@pytest.mark.parametrize("edition_id", sorted(EDITIONS))
def test_short_codes_are_unique_and_unambiguous(edition_id):
    edition = EDITIONS[edition_id]
    codes = printables.deed_codes(edition)
    assert len(codes) == len(edition["deeds"])
    assert len(set(codes.values())) == len(codes), "two deeds share a short code"
    for key, code in codes.items():
        assert len(code) == 5 and set(code) <= set(printables.CODE_ALPHABET)
        assert not set(code) & set("0O1I")
        assert code == printables.deed_code(edition_id, key)
        assert printables.deed_key_for_code(edition, f" {code[:2].lower()}-{code[2:]} ") == key
    assert printables.deed_key_for_code(edition, "ZZZZZZ") is None


def test_short_code_collision_is_refused_loudly():
    seen = {}
    for i in range(200_000):
        code = printables.deed_code("collide", f"deed-{i}")
        if code in seen:
            first, second = seen[code], f"deed-{i}"
            break
        seen[code] = f"deed-{i}"
    else:
        pytest.fail("no collision found to test with")
    edition = {"id": "collide", "deeds": [{"key": first}, {"key": second}]}
    with pytest.raises(ValueError, match="share the short code"):
        printables.deed_codes(edition)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("edition_id", sorted(EDITIONS) + ["odd-test", "no-mortgage-test"])
def test_every_deed_url_scans_exactly_once_and_every_front_has_a_back(edition_id, paper):
    edition = _edition(edition_id)
    pages = render_pages(_sheet(edition_id, paper), dpi=150)  # the QR codes decode at 150 dpi
    fronts_needed = math.ceil(len(edition["deeds"]) / 9)
    assert len(pages) == 2 * fronts_needed, "one back page after each front page"

    for _, (width, height) in pages:
        assert width == pytest.approx(PAPER_PT[paper][0], abs=1)
        assert height == pytest.approx(PAPER_PT[paper][1], abs=1)

    # Each card's QR, decoded from its own slot at 150 dpi, is its own deed's, in the
    # edition's order; the backs carry none. Each back lands behind its front: the back page
    # holds a card exactly in the mirrored slots of the front page's cards (flip on the long edge).
    cells = _grid_slots(paper, dpi=150, inset=0)
    inner = _grid_slots(paper, dpi=150)
    urls = [printables.deed_url(BASE_URL, edition["id"], d["key"]) for d in edition["deeds"]]
    for page_no in range(fronts_needed):
        front, back = pages[2 * page_no][0], pages[2 * page_no + 1][0]
        on_page = urls[9 * page_no : 9 * page_no + 9]
        assert [decode_qr(front.crop(cells[slot])) for slot in range(len(on_page))] == [[url] for url in on_page]
        assert decode_qr(back) == [], "backs carry no QR code"
        for slot, box in enumerate(inner):
            row, col = divmod(slot, 3)
            mirrored = inner[row * 3 + (2 - col)]
            assert _inked(front, box) == (slot < len(on_page))
            assert _inked(back, mirrored) == (slot < len(on_page))


def _grid_slots(paper: str, dpi: int, inset: float = 10) -> list[tuple[int, int, int, int]]:
    width, height = printables.PAPER_SIZES[paper]
    left, top = (width - 3 * 63) / 2, (height - 3 * 88) / 2
    px = dpi / 25.4
    return [
        (
            round((left + c * 63 + inset) * px),
            round((top + r * 88 + inset) * px),
            round((left + (c + 1) * 63 - inset) * px),
            round((top + (r + 1) * 88 - inset) * px),
        )
        for r in range(3)
        for c in range(3)
    ]


def _inked(image: Image.Image, box) -> bool:
    region = image.crop(box).convert("L")
    dark = sum(region.histogram()[:200])
    return dark > 0.02 * region.width * region.height


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cards_measure_63_by_88_mm(paper):
    dpi = 300
    image, _ = render_pages(_sheet(sorted(EDITIONS)[0], paper), dpi=dpi)[0]
    grey = image.convert("L")
    px_per_mm = dpi / 25.4
    width_mm, height_mm = printables.PAPER_SIZES[paper]
    top = (height_mm - 3 * 88) / 2
    left = (width_mm - 3 * 63) / 2
    # The cut marks, in the margins, are in line with the card edges (Letter leaves them only
    # 1.7 mm between the card grid and the 5 mm the printer cannot reach).
    xs = _dark_runs([grey.getpixel((x, round((top - 1.8) * px_per_mm))) for x in range(grey.width)])
    ys = _dark_runs([grey.getpixel((round((left - 1.8) * px_per_mm), y)) for y in range(grey.height)])
    assert len(xs) == 4 and len(ys) == 4
    for a, b in itertools.pairwise(xs):
        assert (b - a) / px_per_mm == pytest.approx(63, abs=0.5)
    for a, b in itertools.pairwise(ys):
        assert (b - a) / px_per_mm == pytest.approx(88, abs=0.5)
    # The colour band of the first card: 55 mm wide, centred on a 63 mm card.
    band_y = round((top + 10) * px_per_mm)
    band = [
        x
        for x in range(round(left * px_per_mm), round((left + 63) * px_per_mm))
        if _is_colour(image.getpixel((x, band_y)), (0x8A, 0x5A, 0x3C))
    ]
    assert (band[-1] - band[0] + 1) / px_per_mm == pytest.approx(55, abs=0.5)
    assert ((band[0] + band[-1]) / 2 / px_per_mm - left) == pytest.approx(31.5, abs=0.5)


def _dark_runs(values: list[int]) -> list[float]:
    centres, start = [], None
    for i, v in enumerate(values + [255]):
        if v < 128 and start is None:
            start = i
        elif v >= 128 and start is not None:
            centres.append((start + i - 1) / 2)
            start = None
    return centres


def _is_colour(pixel, rgb, tolerance=24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb))


@pytest.mark.parametrize("edition_id", sorted(EDITIONS))
def test_single_card_preview_is_a_playing_card_that_scans(edition_id):
    edition = EDITIONS[edition_id]
    deed = edition["deeds"][-1]
    for lang in ("it", "en"):
        for side in ("front", "back"):
            png = printables.deed_card_png(edition, deed["key"], BASE_URL, lang, side=side)
            image = Image.open(io.BytesIO(png))
            assert image.size == (744, 1039)
            assert image.size[0] / 300 * 25.4 == pytest.approx(63, abs=0.1)
            assert image.size[1] / 300 * 25.4 == pytest.approx(88, abs=0.1)
            expected = [printables.deed_url(BASE_URL, edition_id, deed["key"])] if side == "front" else []
            assert decode_qr(image.convert("RGB")) == expected


def test_english_sheet_and_first_page_png():
    edition = EDITIONS[sorted(EDITIONS)[0]]
    pages = render_pages(_sheet(edition["id"], "letter", "en"))
    assert len(decode_qr(pages[0][0])) == min(9, len(edition["deeds"]))
    png = printables.deed_cards_png(edition, BASE_URL, "letter", "en", width=600)
    image = Image.open(io.BytesIO(png))
    assert image.width == 600 and image.height == round(600 * 279.4 / 215.9)


def _red_below(image: Image.Image, from_mm: float) -> int:
    crop = image.crop((0, round(from_mm / 25.4 * 300), image.width, image.height))
    return sum(1 for pixel in crop.getdata() if _is_colour(pixel, (200, 16, 30), 30))


def test_provisional_values_are_marked_on_both_sides():
    classic = EDITIONS[sorted(EDITIONS)[0]]
    key = classic["deeds"][0]["key"]
    plain = printables.deed_card_image(classic, key, BASE_URL)
    assert _red_below(plain, 60) == 0
    marked = dict(classic, deeds=[dict(classic["deeds"][0], provisional=True)] + classic["deeds"][1:])
    assert _red_below(printables.deed_card_image(marked, key, BASE_URL), 60) > 500
    assert _red_below(printables.deed_card_image(marked, key, BASE_URL, side="back"), 70) > 500
    whole = dict(classic, provisional=True)
    assert _red_below(printables.deed_card_image(whole, classic["deeds"][-1]["key"], BASE_URL), 60) > 500


def test_lift_value_rounds_up_to_a_whole_unit():
    assert printables.lift_value(75, 10) == 83
    assert printables.lift_value(30, 10) == 33
    assert printables.lift_value(100, 0) == 100
    assert printables.lift_value(30000, 20) == 36000


def test_deed_url_is_plain_and_game_independent():
    assert (
        printables.deed_url("https://banco.example.org/", "classic-it", "via-roma")
        == "https://banco.example.org/card/classic-it/via-roma"
    )


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda e: printables.deed_cards_pdf(e, BASE_URL, paper="a3"), ValueError),
        (lambda e: printables.deed_cards_pdf(e, BASE_URL, lang="fr"), ValueError),
        (lambda e: printables.deed_cards_pdf(e, "192.168.1.23:5000"), ValueError),
        (lambda e: printables.deed_cards_pdf(e, "https://" + "x" * 120 + ".example.org"), ValueError),
        (lambda e: printables.deed_cards_pdf(dict(e, deeds=[]), BASE_URL), ValueError),
        (lambda e: printables.deed_cards_pdf(dict(e, groups=[]), BASE_URL), ValueError),
        (lambda e: printables.deed_card_png(e, "no-such-deed", BASE_URL), KeyError),
        (lambda e: printables.deed_card_png(e, e["deeds"][0]["key"], BASE_URL, side="middle"), ValueError),
    ],
)
def test_refusals(call, error):
    with pytest.raises(error):
        call(EDITIONS[sorted(EDITIONS)[0]])


@pytest.mark.parametrize("edition_id", sorted(EDITIONS))
def test_card_qr_modules_are_at_least_0_4_mm_with_a_quiet_zone(edition_id):
    edition = EDITIONS[edition_id]
    longest = max((printables.deed_url(BASE_URL, edition_id, d["key"]) for d in edition["deeds"]), key=len)
    qr = printables._draw.qr_code(longest, printables.deeds._QR_SIDE)
    assert qr.module >= 0.4 and qr.quiet == 2 and qr.side <= 20.5 + 1e-9
    image = printables.deed_card_image(edition, edition["deeds"][0]["key"], BASE_URL)
    [found] = zxingcpp.read_barcodes(image)
    side_px = found.position.top_right.x - found.position.top_left.x
    assert side_px / 300 * 25.4 == pytest.approx(qr.side - 2 * qr.quiet * qr.module, abs=0.3)


def test_a_url_too_long_for_a_readable_card_qr_is_refused():
    with pytest.raises(ValueError, match="too long"):
        printables._draw.qr_code("https://banco.example.org/" + "x" * 200, printables.deeds._QR_SIDE)


# --- the words on the cards ---------------------------------------------------------------


def _money(edition: dict, amount: int, lang: str = "it") -> str:
    return printables._draw.format_money(amount, edition["currency"]["symbol"], lang).replace("\u00a0", " ")


@pytest.mark.parametrize("edition_id", sorted(EDITIONS) + ["odd-test", "no-mortgage-test"])
def test_every_deed_name_and_amount_is_text_in_the_pdf(edition_id):
    edition = _edition(edition_id)
    text = pdf_text(_sheet(edition_id, "a4"))
    interest = edition["mortgage"].get("interest_percent", 0)
    for deed in edition["deeds"]:
        assert deed["name"] in text, deed["name"]
        amounts = [
            deed["price"],
            *deed.get("rents", []),
            deed.get("building_cost"),
            deed["mortgage"] or None,
            printables.lift_value(deed["mortgage"], interest) if deed["mortgage"] else None,
            deed.get("penalty"),
            deed.get("lot_penalty"),
        ]
        for amount in filter(None, amounts):
            assert _money(edition, amount) in text, (deed["name"], amount)
        assert printables.deed_code(edition["id"], deed["key"]) in text
    for amount in edition.get("station_rents", []):
        assert _money(edition, amount) in text
    assert text.count("CONTRATTO DI PROPRIETÀ") == len(edition["deeds"])
    assert text.count("IPOTECATA") == sum(1 for deed in edition["deeds"] if deed["mortgage"])


def test_the_base_rent_is_the_sites_alone_and_the_double_rent_note_follows_the_rules():
    classic = EDITIONS["classic-it"]
    text = pdf_text(_sheet("classic-it", "a4"))
    streets = [d for d in classic["deeds"] if d.get("rents")]
    assert text.count("Rendita (solo terreno)") == len(streets)
    note = "Se possiedi tutto il gruppo di colore, la rendita raddoppia su ogni terreno senza edifici"
    assert text.count(note) == len(streets), "the rulebook's double rent, on every street"
    english = pdf_text(_sheet("classic-it", "a4", "en"))
    assert english.count("Rent (site only)") == len(streets)
    assert english.count("If you own the whole colour group, the rent doubles") == len(streets)

    strict = dict(classic, rent=dict(classic["rent"], policy="double_if_none_mortgaged"))
    strict_text = pdf_text(printables.deed_cards_pdf(strict, BASE_URL))
    assert strict_text.count("e nessun terreno è ipotecato, la rendita raddoppia") == len(streets)
    never = dict(classic, rent=dict(classic["rent"], policy="never_double"))
    assert "raddoppia" not in pdf_text(printables.deed_cards_pdf(never, BASE_URL))
    # An edition without mortgages does not mention them.
    plain = pdf_text(_sheet("no-mortgage-test", "a4"))
    assert "la rendita raddoppia sui terreni senza edifici" in plain and "ipotecat" not in plain


def test_stations_and_utilities_show_a_drawing_not_a_grey_band():
    classic = EDITIONS["classic-it"]
    assert {
        d["key"]: printables.deeds.symbol_for(g["kind"], d)
        for d in classic["deeds"]
        for g in classic["groups"]
        if g["key"] == d["group"] and g["kind"] != "street"
    } == {
        "stazione-sud": "train",
        "stazione-ovest": "train",
        "stazione-nord": "train",
        "stazione-est": "train",
        "societa-elettrica": "bulb",
        "societa-acqua-potabile": "tap",
    }
    assert printables.deeds.symbol_for("utility", {"key": "gas", "name": "Gasdotto"}) == "gear"
    px = 300 / 25.4
    for key in ("stazione-sud", "societa-elettrica", "societa-acqua-potabile"):
        for side in ("front", "back"):
            card = printables.deed_card_image(classic, key, BASE_URL, side=side)
            band = card.crop((round(4.5 * px), round(4.5 * px), round(58.5 * px), round(17 * px)))
            symbol = band.crop((0, 0, round(12 * px), band.height)).convert("L")
            white = sum(band.convert("L").point(lambda v: 255 if v > 235 else 0).histogram()[255:])
            dark = sum(symbol.point(lambda v: 255 if v < 100 else 0).histogram()[255:])
            assert white > 0.6 * band.width * band.height, (key, side, "the band is white, not grey")
            assert dark > 0.08 * symbol.width * symbol.height, (key, side, "a drawing on the left")


@pytest.mark.parametrize("edition_id", sorted(EDITIONS))
def test_the_text_on_every_colour_band_meets_contrast(edition_id):
    edition = EDITIONS[edition_id]
    for group in edition["groups"]:
        band, ink = printables._draw.band_colours(printables._draw.parse_colour(group["color"]))
        assert printables._draw.contrast(band, ink) >= 4.5, group["key"]


def test_the_pink_band_carries_black_text_at_4_5_to_1():
    classic = EDITIONS["classic-it"]
    pink = next(g for g in classic["groups"] if g["key"] == "pink")
    deed = next(d for d in classic["deeds"] if d["group"] == "pink")
    band, ink = printables._draw.band_colours(printables._draw.parse_colour(pink["color"]))
    assert ink == (0, 0, 0) and printables._draw.contrast(band, ink) >= 4.5
    card = printables.deed_card_image(classic, deed["key"], BASE_URL)
    px = 300 / 25.4
    region = card.crop((round(5 * px), round(5 * px), round(58 * px), round(16.5 * px)))
    colours = region.getcolors(maxcolors=1 << 16)
    fill = max(colours)[1]
    assert all(abs(a - b) <= 2 for a, b in zip(fill, band)), "the band is the checked colour"
    assert not any(count > 50 and min(c) > 230 for count, c in colours), "no white text on pink"
    assert sum(count for count, c in colours if max(c) < 60) > 2000, "black text"
