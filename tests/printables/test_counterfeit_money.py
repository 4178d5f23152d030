"""A game's printed money with serials (Niente è come sembra on paper): every note's and
card's QR code, decoded from the rasterised PDF, scanned through the API, answers as the
game's secret says; the share of fake notes and exactly 12 fake cards of 24; nothing on the
paper differs between a fake and a genuine item but the serial and its code; the decoder
chips' sheet."""

from __future__ import annotations

import contextlib
import re

import pytest
from printables_testkit import decode_qr, load_edition, pdf_text, render_pages, unprintable_border_ink

import printables
from companion import services
from companion.core.counterfeits import serials
from companion.services import serials as serial_service
from printables import _draw as d
from printables.counterfeit_money import _sheet, spaced_serial

NE = "niente-e-come-sembra"
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
URL = re.compile(r"^http://banco\.test/s/([2-9A-HJ-NP-Z]{10})$")


def edition() -> dict:
    from printables_testkit import EDITION_FILES

    return load_edition(next(p for p in EDITION_FILES if p.stem == NE))


def game_with_money(app, api, players=NAMES, seed=11):
    game = api.new_game(players=players, edition=NE, seed=seed).start()
    r = api.client.get(f"/api/v1/games/{game.id}/print/money.pdf", headers={"Authorization": f"Bearer {game.banker}"})
    assert r.status_code == 200
    with app.app_context():
        row = services.get_game(game.id)
        run = serials.print_run(services.state_of(row, deeds=False), serial_service.secret_of(row))
    return game, r.data, run


def test_every_printed_code_scans_as_the_games_secret_says(app, api):
    game, pdf, run = game_with_money(app, api)
    pages = render_pages(pdf, dpi=200)
    # A summary page, 72 notes ten a page, 24 cards nine a page.
    assert len(pages) == 1 + 8 + 3
    found = []
    for image, _size in pages[1:]:
        found += decode_qr(image)
    assert len(found) == len(run) == 72 + 24
    serials_read = []
    for url in found:
        match = URL.match(url)
        assert match, url  # the address and the serial, no game id, no hint: all the same length
        serials_read.append(match.group(1))
    assert sorted(serials_read) == sorted(i.serial for i in run)
    expected = {i.serial: i.fake for i in run}
    assert sum(i.fake for i in run if i.kind == "note") == round(72 * 0.1)
    assert sum(i.fake for i in run if i.kind == "card") == 12
    # Every one scanned through the API: the answer the secret gives, one chip each.
    for n, serial in enumerate(serials_read):
        status, body = game.act("Anna", {"type": "scan", "serial": serial})
        assert status == 200, body
        assert body["result"]["fake"] is expected[serial]
        if n % 2:
            assert game.act("Anna", {"type": "pass_go"})[0] == 200  # the chips turn green again
    text = pdf_text(pdf)
    for item in run:
        assert spaced_serial(item.serial) in text


class Recorder(d.Surface):
    """Every drawing call, in order, with the region's offset applied."""

    def __init__(self):
        self.width, self.height = d.paper_mm("a4")
        self.calls = []
        self.offset = (0.0, 0.0)

    def _log(self, *call):
        self.calls.append((*call, self.offset))

    def rect(self, x, y, w, h, fill=None, stroke=None, width=0.2, radius=0.0):
        self._log("rect", x, y, w, h, fill, stroke, width, radius)

    def line(self, x0, y0, x1, y1, stroke=d.BLACK, width=0.2, dash=None):
        self._log("line", x0, y0, x1, y1, stroke, width, dash)

    def ellipse(self, x, y, w, h, fill=None, stroke=None, width=0.2):
        self._log("ellipse", x, y, w, h, fill, stroke, width)

    def polygon(self, points, fill=None, stroke=None, width=0.2):
        self._log("polygon", tuple(points), fill, stroke, width)

    def text(self, x, y, text, size, bold=False, fill=d.BLACK, align="left"):
        self._log("text", x, y, text, size, bold, fill, align)

    def qr(self, matrix, x, y, module, fill=d.PURE_BLACK):
        self._log("qr", x, y, module, len(matrix))

    @contextlib.contextmanager
    def region(self, x, y, w, h, rotate=0):
        before = self.offset
        self.offset = (before[0] + x, before[1] + y)
        self._log("region", w, h, rotate)
        yield self
        self.offset = before

    def reuse(self, key, x, y, w, h, draw):
        self._log("reuse", key, x, y, w, h)
        with self.region(x, y, w, h) as inner:
            draw(inner)


def drawn(items, lang="it"):
    """The drawing calls of each page of a sheet of ``items``, the serial text left out."""
    out = []
    for page in _sheet(edition(), items, "http://banco.test", "ABC234", "a4", lang, True):
        recorder = Recorder()
        page(recorder)
        out.append(recorder.calls)
    return out


def test_fake_and_genuine_are_drawn_alike_but_for_the_serial(app, api):
    _game, _pdf, run = game_with_money(app, api, seed=12)
    for kind in ("note", "card"):
        for face in {i.face for i in run if i.kind == kind}:
            same = [i for i in run if i.kind == kind and i.face == face]
            fake = next((i for i in same if i.fake), None)
            genuine = next(i for i in same if not i.fake)
            if fake is None:
                continue
            sheets = []
            for item in (fake, genuine):
                calls = drawn([{"kind": item.kind, "face": item.face, "serial": item.serial}])
                # The serial's text and its QR's modules (same size, same place) aside.
                sheets.append(
                    [[c for c in page if not (c[0] == "text" and c[3] == spaced_serial(item.serial))] for page in calls]
                )
                assert any(c[0] == "qr" for c in calls[1])
            assert sheets[0] == sheets[1], (kind, face)
    # The printables never learn which are fake: an item is its kind, face and serial only.
    with pytest.raises(ValueError):
        printables.counterfeit_money_pdf(
            edition(), [{"kind": "note", "face": 7, "serial": "ABCDEFGHJK"}], "http://banco.test", "X"
        )
    with pytest.raises(ValueError):
        printables.counterfeit_money_pdf(
            edition(), [{"kind": "note", "face": 10, "serial": "ABCDEFGHI0"}], "http://banco.test", "X"
        )


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheets_keep_off_the_edge_and_weigh_little(app, api, paper):
    items = [
        {"kind": "note", "face": 500, "serial": "ABCDEFGHJK"},
        {"kind": "card", "face": None, "serial": "23456789AB"},
    ]
    pdf = printables.counterfeit_money_pdf(edition(), items, "http://192.168.100.200:5000", "ABC234", paper, "en")
    assert len(pdf) < 500_000
    for image, _ in render_pages(pdf, dpi=100):
        assert unprintable_border_ink(image, 100, d.SAFE_MM) == 0
    chips = printables.decoder_chips_pdf(edition(), 6, paper, "en")
    pages = render_pages(chips, dpi=100)
    assert len(pages) == 2  # green, then red behind for long-edge duplex
    for image, _ in pages:
        assert unprintable_border_ink(image, 100, d.SAFE_MM) == 0
    green, _red = (image.convert("RGB") for image, _ in pages)
    assert green.getpixel((green.width // 2, 0)) == (255, 255, 255)


def test_decoder_chips_sheet():
    ed = edition()
    assert printables.chip_count(ed, 4) == 10
    text = pdf_text(printables.decoder_chips_pdf(ed, 4, "a4", "it"))
    assert "Gettoni Decoder" in text and "In prigione non si usa il decoder." in text
    assert text.count("VERDE") == 10 and text.count("ROSSO") == 10
    with pytest.raises(ValueError):
        printables.chip_count(ed, 9)
    classic = load_edition(next(p for p in __import__("printables_testkit").EDITION_FILES if p.stem == "classic-it"))
    with pytest.raises(ValueError):
        printables.decoder_chips_pdf(classic, 4)
