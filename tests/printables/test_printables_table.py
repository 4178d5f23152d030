"""The join poster and the rejoin cards: their QR codes scan back to the URLs they were given."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from printables_testkit import decode_qr, pdf_text, render_pages

import printables

JOIN_URL = "http://192.168.1.23:5000/join/7KQ4"
PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}


@pytest.mark.parametrize("lang", ["it", "en"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poster_scans_to_the_join_url_from_both_sides(paper, lang):
    pdf = printables.poster_pdf(JOIN_URL, "7KQ4", "Venerdì da Anna", paper, lang)
    pages = render_pages(pdf, dpi=100)
    assert len(pages) == 1
    image, (width, height) = pages[0]
    assert (width, height) == pytest.approx(PAPER_PT[paper], abs=1)
    assert decode_qr(image) == [JOIN_URL, JOIN_URL]
    # Each half holds one of them: the tent shows one to each side of the table.
    top = image.crop((0, 0, image.width, image.height // 2))
    bottom = image.crop((0, image.height // 2, image.width, image.height))
    assert decode_qr(top) == [JOIN_URL] and decode_qr(bottom) == [JOIN_URL]
    text = pdf_text(pdf)
    assert text.count("7KQ4") == 2 and text.count("Venerdì da Anna") == 2
    assert text.count("192.168.1.23:5000") == 2


@pytest.mark.parametrize("paper, least_mm", [("a4", 70), ("letter", 60)])
def test_poster_qr_is_large(paper, least_mm):
    import zxingcpp

    [(image, _)] = render_pages(printables.poster_pdf(JOIN_URL, "7KQ4", "Partita", paper), dpi=300)
    results = zxingcpp.read_barcodes(image)
    assert len(results) == 2
    for result in results:
        corners = result.position
        side_mm = abs(corners.top_right.x - corners.top_left.x) / 300 * 25.4
        assert side_mm > least_mm, "the table poster's QR scans from across the table"


def test_poster_png_preview():
    image = Image.open(io.BytesIO(printables.poster_png(JOIN_URL, "7KQ4", "Partita", width=600)))
    assert image.width == 600
    assert decode_qr(image.convert("RGB")) == [JOIN_URL, JOIN_URL]


def _cards(n: int) -> list[dict]:
    names = [
        "Anna",
        "Bruno",
        "Carla Maria De Santis Bellavista",
        "Dario",
        "Elena",
        "Fabio",
        "Giulia",
        "Hassan",
        "Irene",
        "Luca",
        "Marta",
    ]
    return [{"name": names[i], "url": f"http://192.168.1.23:5000/rejoin/{i}-{'t0k3n' * 6}"} for i in range(n)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("count", [1, 8, 11])
def test_rejoin_cards_each_scan_to_their_own_url(paper, count):
    cards = _cards(count)
    pdf = printables.rejoin_cards_pdf(cards, paper, "en")
    pages = render_pages(pdf, dpi=150)
    assert len(pages) == -(-count // 9)
    found = []
    for image, size in pages:
        assert size == pytest.approx(PAPER_PT[paper], abs=1)
        found.extend(decode_qr(image))
    assert sorted(found) == sorted(card["url"] for card in cards)
    text = pdf_text(pdf)
    for card in cards:
        assert card["name"] in text
    assert text.count("Personal: whoever scans it plays as you.") == count


def test_rejoin_png_preview():
    image = Image.open(io.BytesIO(printables.rejoin_cards_png(_cards(2), width=600)))
    assert image.width == 600


@pytest.mark.parametrize(
    "call",
    [
        lambda: printables.poster_pdf("192.168.1.23/join", "7KQ4", "x"),
        lambda: printables.poster_pdf(JOIN_URL, " ", "x"),
        lambda: printables.poster_pdf(JOIN_URL, "7KQ4", "x", paper="legal"),
        lambda: printables.poster_pdf(JOIN_URL, "7KQ4", "x", lang="de"),
        lambda: printables.rejoin_cards_pdf([]),
        lambda: printables.rejoin_cards_pdf([{"name": "", "url": JOIN_URL}]),
        lambda: printables.rejoin_cards_pdf([{"name": "Anna", "url": "ftp://x"}]),
        lambda: printables.rejoin_cards_pdf(["Anna"]),
    ],
)
def test_refusals(call):
    with pytest.raises(ValueError):
        call()
