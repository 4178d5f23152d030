"""Helpers for the printables tests: the built-in editions, odd editions, PDF rasterising, QR decoding,
the text a PDF holds, the paper's unprintable border."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp

ROOT = Path(__file__).resolve().parents[2]
EDITION_FILES = sorted(
    p for p in (ROOT / "companion" / "editions").glob("*.json") if not p.name.endswith(".schema.json")
)
BASE_URL = "http://192.168.1.23:5000"
MM_PER_PT = 25.4 / 72


def load_edition(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def largest_edition() -> dict:
    return max((load_edition(p) for p in EDITION_FILES), key=lambda e: len(e["deeds"]))


def odd_edition() -> dict:
    """An edition unlike the classic one in every way a printout can notice: provisional
    values, five small buildings, amounts in the millions, a long name, a group with a light
    colour, no station rents, notes without a starting split."""
    edition = copy.deepcopy(load_edition(ROOT / "companion" / "editions" / "classic-it.json"))
    edition.update(id="odd-test", provisional=True)
    edition["name"] = {"it": "Edizione di prova con un nome lunghissimo", "en": "A test edition with a very long name"}
    edition["currency"] = {"symbol": "P$", "name": {"it": "Petrodollari", "en": "Petrodollars"}}
    edition["buildings"].update(
        max_small=5,
        small={"it": "attività produttiva", "en": "business"},
        small_plural={"it": "attività produttive", "en": "businesses"},
    )
    edition["banknotes"] = [1000000, 500000, 100000, 50000, 10000, 5000, 1000]
    edition["start"]["cash"] = {str(n): 2000000 - 100000 * n for n in range(2, 9)}
    edition.pop("starting_notes")
    edition["mortgage"]["interest_percent"] = 20
    for deed in edition["deeds"]:
        for key in ("price", "mortgage", "building_cost"):
            if key in deed:
                deed[key] *= 1000
        if "rents" in deed:
            deed["rents"] = [r * 1000 for r in deed["rents"]] + [deed["rents"][-1] * 1200]
    edition["deeds"][0]["name"] = "Piattaforma Petrolifera del Mare del Nord Orientale"
    edition["station_rents"] = [25000, 50000, 100000, 200000]
    return edition


def no_mortgage_edition() -> dict:
    """Hotels only (no small buildings), no mortgages, one deed marked provisional."""
    edition = copy.deepcopy(load_edition(ROOT / "companion" / "editions" / "classic-it.json"))
    edition["id"] = "no-mortgage-test"
    edition["buildings"]["max_small"] = 0
    edition["groups"] = [g for g in edition["groups"] if g["kind"] == "street"]
    street_groups = {g["key"] for g in edition["groups"]}
    edition["deeds"] = [
        dict(d, mortgage=0, rents=[d["rents"][0], d["rents"][-1]])
        for d in edition["deeds"]
        if d["group"] in street_groups
    ]
    edition["deeds"][0]["provisional"] = True
    return edition


def render_pages(pdf: bytes, dpi: int = 200):
    """Every page of ``pdf`` as (PIL image, (width_pt, height_pt))."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return [(page.render(scale=dpi / 72).to_pil().convert("RGB"), page.get_size()) for page in doc]
    finally:
        doc.close()


def decode_qr(image) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]


def pdf_text(pdf: bytes) -> str:
    """The text ``pdftotext`` (Debian's poppler-utils) reads from ``pdf``, whitespace folded to
    single spaces, so a name wrapped over two lines is found whole. Skips the test where
    pdftotext is missing, except in CI (``CI=true``), where it must run."""
    tool = shutil.which("pdftotext")
    if tool is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("pdftotext is missing: install poppler-utils")
        pytest.skip("pdftotext is missing (apt-get install poppler-utils)")
    text = subprocess.run([tool, "-enc", "UTF-8", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return " ".join(text.decode("utf-8").replace("\u00a0", " ").split())


def unprintable_border_ink(image, dpi: int, border_mm: float) -> int:
    """How many pixels of ``image`` (a page rendered at ``dpi``) carry ink within
    ``border_mm`` of the paper's edge."""
    grey = image.convert("L")
    band = int(border_mm * dpi / 25.4)
    width, height = grey.size
    boxes = [
        (0, 0, width, band),
        (0, height - band, width, height),
        (0, 0, band, height),
        (width - band, 0, width, height),
    ]
    return sum(sum(grey.crop(box).point(lambda v: 255 if v < 245 else 0).histogram()[255:]) for box in boxes)


def ink_coverage(image) -> float:
    """Roughly how much ink ``image`` takes: the mean of its cyan, magenta and yellow (255
    minus red, green, blue), from 0 (white paper) to 1 (all black)."""
    histogram = image.convert("RGB").histogram()
    pixels = image.width * image.height
    return sum((255 - i % 256) * count for i, count in enumerate(histogram)) / (3 * 255 * pixels)
