"""Drawing shared by every sheet: paper, millimetres, fonts, text fitting, QR codes, cut grids.

A sheet is drawn once, in millimetres from the top-left corner of the page, onto a
``Surface``. Two surfaces take the same drawing:

- ``PdfSurface`` writes a vector PDF with reportlab: text as text (DejaVu embedded as a
  subset, so it can be selected and searched), QR modules as filled rectangles, every size
  exact on paper when printed at 100 %;
- ``ImageSurface`` paints a Pillow image at any resolution, for the PNG previews and for
  anyone who wants pixels.

Text is measured with the font's own advance widths (reportlab's metrics) for both, so a
line that fits in the PDF fits in the preview. Nothing is drawn closer than ``SAFE_MM`` to
the paper's edge, where a home inkjet cannot print.
"""

from __future__ import annotations

import io
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager as ContextManager
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas

from ._qr import qr_matrix

# Compressed streams stay binary: ASCII85 (reportlab's default, in pure Python) would make
# every PDF a tenth bigger and a warm deed sheet up to a third slower.
rl_config.useA85 = 0

DPI = 300
MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH
MM_PER_PT = MM_PER_INCH / 72
LANGUAGES = ("it", "en")

#: Paper the sheets are laid out for: name -> (width, height) in millimetres, portrait.
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}

#: No mark closer than this to the paper's edge: home inkjets leave 3 to 5 mm unprinted.
SAFE_MM = 5.0

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: FONT_DIR / "DejaVuSans.ttf", True: FONT_DIR / "DejaVuSans-Bold.ttf"}
_FONT_NAMES = {False: "BancoDejaVuSans", True: "BancoDejaVuSans-Bold"}
#: DejaVu Sans: the height of a capital (and of a digit) and the depth of a descender, in em.
CAP_HEIGHT = 0.729
DESCENT = 0.236

# A QR module smaller than this is hard for a phone camera at arm's length over a table.
MIN_QR_MODULE_MM = 0.4
# The QR standard asks for four modules of quiet zone; two keep their size down on small cards
# and still decode with every phone camera app and with zxing.
QR_QUIET_MODULES = 2

Colour = tuple[int, int, int]
WHITE: Colour = (255, 255, 255)
BLACK: Colour = (17, 17, 17)
PURE_BLACK: Colour = (0, 0, 0)
CUT_GREY: Colour = (170, 170, 170)
GREY: Colour = (85, 85, 85)
RED: Colour = (200, 16, 30)

#: The contrast (WCAG) that text on a coloured band must reach: AA for normal text.
MIN_CONTRAST = 4.5


def paper_mm(paper: str) -> tuple[float, float]:
    """The (width, height) in mm of ``paper``; refuses an unknown name with ``ValueError``."""
    key = paper.lower() if isinstance(paper, str) else paper
    if key not in PAPER_SIZES:
        raise ValueError(f"unknown paper {paper!r}: choose one of {', '.join(PAPER_SIZES)}")
    return PAPER_SIZES[key]


def check_lang(lang: str) -> str:
    """Returns ``lang`` if Banco prints in it; refuses anything else with ``ValueError``."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


# --- fonts and text ------------------------------------------------------------------------

_FONT_LOCK = threading.Lock()


@cache
def _registered() -> bool:
    """Registers the shipped DejaVu fonts with reportlab once (never a system font)."""
    with _FONT_LOCK:
        for bold, path in _FONT_FILES.items():
            if _FONT_NAMES[bold] not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont(_FONT_NAMES[bold], str(path)))
    return True


def font_name(bold: bool = False) -> str:
    _registered()
    return _FONT_NAMES[bold]


@lru_cache(maxsize=8192)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width in mm of ``text`` set in DejaVu Sans (``bold``) at ``size`` points."""
    return pdfmetrics.stringWidth(text, font_name(bold), size) * MM_PER_PT


def cap_mm(size: float) -> float:
    """The height in mm of a capital letter at ``size`` points: from the baseline to the top."""
    return size * CAP_HEIGHT * MM_PER_PT


def fit_size(text: str, max_width: float, size: float, min_size: float, bold: bool = False) -> float:
    """The largest size from ``size`` down to ``min_size`` points at which ``text`` fits ``max_width`` mm.

    Returns ``min_size`` when even that is too wide; callers that cannot accept an overflow
    wrap (``wrap_to_fit``).
    """
    width = text_width(text, size, bold)
    if width <= max_width:
        return size
    return max(min_size, size * max_width / width)


def wrap_to_fit(
    text: str, max_width: float, size: float, min_size: float, bold: bool = False, max_lines: int = 2
) -> tuple[list[str], float]:
    """Breaks ``text`` at spaces into at most ``max_lines`` lines that fit ``max_width`` mm.

    One line is kept while it fits at four fifths of ``size`` or more; otherwise the largest
    size at which the words wrap into ``max_lines`` lines wins. At worst the text is set at
    ``min_size`` in as few lines as fit, shrunk further if a single word is still too wide.
    """
    one = fit_size(text, max_width, size, min_size, bold)
    if text_width(text, one, bold) <= max_width + 1e-6 and (one >= size * 0.8 or max_lines < 2):
        return [text], one
    current = size
    while True:
        lines = wrap_lines(text, max_width, current, bold)
        if len(lines) <= max_lines and all(text_width(line, current, bold) <= max_width for line in lines):
            return _balance(lines, max_width, current, bold), current
        if current <= min_size:
            lines = lines[: max_lines - 1] + [" ".join(lines[max_lines - 1 :])]
            widest = max(text_width(line, current, bold) for line in lines)
            return lines, current * min(1.0, max_width / widest)
        current = max(min_size, current * 0.95)


def wrap_lines(text: str, max_width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``max_width`` mm (a single long word overflows)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and text_width(trial, size, bold) > max_width:
            lines.append(current)
            current = word
        else:
            current = trial
    return lines + [current] if current else lines


def _balance(lines: list[str], max_width: float, size: float, bold: bool) -> list[str]:
    """Two lines split as evenly as the words allow, rather than a full line and a short one."""
    if len(lines) != 2:
        return lines
    words = " ".join(lines).split()
    splits = [[" ".join(words[:i]), " ".join(words[i:])] for i in range(1, len(words))]
    widest = lambda pair: max(text_width(part, size, bold) for part in pair)  # noqa: E731
    fitting = [pair for pair in splits if widest(pair) <= max_width]
    return min(fitting, key=widest) if fitting else lines


# --- colour and money ----------------------------------------------------------------------


def parse_colour(value: str) -> Colour:
    """``#rgb`` or ``#rrggbb`` to an RGB triple; refuses anything else with ``ValueError``."""
    text = value.strip().lstrip("#") if isinstance(value, str) else ""
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    try:
        if len(text) != 6:
            raise ValueError
        return tuple(int(text[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        raise ValueError(f"not a colour: {value!r} (expected #rrggbb)") from None


def luminance(rgb: Colour) -> float:
    """The relative luminance of ``rgb`` (WCAG 2)."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """The WCAG contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(background: Colour) -> Colour:
    """Black or white, whichever contrasts more with ``background``."""
    return PURE_BLACK if contrast(PURE_BLACK, background) >= contrast(WHITE, background) else WHITE


def band_colours(colour: Colour, minimum: float = MIN_CONTRAST) -> tuple[Colour, Colour]:
    """(band, ink) for text on a band of ``colour``: black or white ink, whichever contrasts
    more, and the band itself nudged lighter (under black) or darker (under white) just
    enough for the two to reach ``minimum``. Most colours come back unchanged."""
    ink = ink_on(colour)
    band = colour
    step = 0
    while contrast(band, ink) < minimum and step < 40:
        step += 1
        band = tint(colour, step * 0.02) if ink == PURE_BLACK else shade(colour, step * 0.02)
    return band, ink


def tint(rgb: Colour, amount: float) -> Colour:
    """``rgb`` mixed with white; ``amount`` 0 is the colour, 1 is white."""
    return tuple(round(c + (255 - c) * amount) for c in rgb)  # type: ignore[return-value]


def shade(rgb: Colour, amount: float) -> Colour:
    """``rgb`` mixed with black; ``amount`` 0 is the colour, 1 is black."""
    return tuple(round(c * (1 - amount)) for c in rgb)  # type: ignore[return-value]


def format_amount(amount: int, lang: str) -> str:
    """A whole amount with the language's thousands separator (1.500 in Italian, 1,500 in English)."""
    grouped = f"{amount:,}"
    return grouped.replace(",", ".") if lang == "it" else grouped


def format_money(amount: int, symbol: str, lang: str) -> str:
    """``€60``, ``M60``, ``P$ 500.000``: a one-character symbol hugs the number, a longer one is spaced."""
    space = "\u00a0" if len(symbol) > 1 else ""
    return f"{symbol}{space}{format_amount(amount, lang)}"


# --- QR codes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class QR:
    """A QR code laid out in a square of ``side`` mm, quiet zone included."""

    matrix: tuple[tuple[bool, ...], ...]
    module: float
    quiet: int

    @property
    def side(self) -> float:
        return (len(self.matrix) + 2 * self.quiet) * self.module

    def draw(self, surface: Surface, x: float, y: float) -> None:
        """Draws the code with its top-left quiet-zone corner at (``x``, ``y``) mm."""
        offset = self.quiet * self.module
        surface.qr(self.matrix, x + offset, y + offset, self.module)


def qr_code(
    data: str,
    max_side: float,
    min_module: float = MIN_QR_MODULE_MM,
    quiet_modules: int = QR_QUIET_MODULES,
    max_module: float | None = None,
) -> QR:
    """A QR code of ``data`` as large as fits a square of ``max_side`` mm (quiet zone included).

    Refuses (``ValueError``) data so long that a module would be smaller than
    ``min_module`` mm in that space, since such a code would not scan reliably from paper.
    """
    matrix = qr_matrix(data)
    module = max_side / (len(matrix) + 2 * quiet_modules)
    if max_module is not None:
        module = min(module, max_module)
    if module < min_module - 1e-9:
        raise ValueError(
            f"the text to encode is too long ({len(data)} characters) for a scannable QR code of "
            f"{max_side:.0f} mm: use a shorter public URL"
        )
    return QR(matrix, module, quiet_modules)


def _qr_runs(matrix) -> list[tuple[int, int, int]]:
    """The dark modules as horizontal runs: (row, first column, length)."""
    runs = []
    for y, row in enumerate(matrix):
        x, count = 0, len(row)
        while x < count:
            if row[x]:
                start = x
                while x < count and row[x]:
                    x += 1
                runs.append((y, start, x - start))
            else:
                x += 1
    return runs


# --- surfaces --------------------------------------------------------------------------------


class Surface(ABC):
    """What a sheet draws on: millimetres from the top-left corner, y going down.

    Strokes are centred on the outline, as in PDF. ``text`` takes the baseline's y and
    aligns ``"left"``, ``"centre"`` or ``"right"`` on ``x``.
    """

    width: float
    height: float

    @abstractmethod
    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: Colour | None = None,
        stroke: Colour | None = None,
        width: float = 0.2,
        radius: float = 0.0,
    ) -> None:
        """A rectangle, its corners rounded by ``radius``."""

    @abstractmethod
    def line(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        stroke: Colour = BLACK,
        width: float = 0.2,
        dash: tuple[float, float] | None = None,
    ) -> None:
        """A straight line, dashed by ``dash`` (on, off)."""

    @abstractmethod
    def ellipse(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: Colour | None = None,
        stroke: Colour | None = None,
        width: float = 0.2,
    ) -> None:
        """An ellipse in the box."""

    @abstractmethod
    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        fill: Colour | None = None,
        stroke: Colour | None = None,
        width: float = 0.2,
    ) -> None:
        """A closed polygon through ``points``."""

    @abstractmethod
    def text(
        self, x: float, y: float, text: str, size: float, bold: bool = False, fill: Colour = BLACK, align: str = "left"
    ) -> None:
        """One line of text on the baseline ``y``."""

    @abstractmethod
    def qr(self, matrix, x: float, y: float, module: float, fill: Colour = PURE_BLACK) -> None:
        """A QR code from its module matrix, each module ``module`` wide."""

    @abstractmethod
    def region(self, x: float, y: float, w: float, h: float, rotate: int = 0) -> ContextManager[Surface]:
        """Draws in a box whose top-left corner is (``x``, ``y``), turned by ``rotate`` (0 or 180)
        degrees. A turned box must be drawn before anything else that overlaps it."""

    def reuse(self, key, x: float, y: float, w: float, h: float, draw: Callable[[Surface], None]) -> None:
        """Draws ``draw`` (in a ``w``×``h`` box) at (``x``, ``y``); the same ``key`` again repeats
        the first drawing instead of drawing it anew (one PDF form, one painted image)."""
        with self.region(x, y, w, h) as box:
            draw(box)

    # Helpers built on the primitives.

    def text_top(
        self,
        x: float,
        top: float,
        text: str,
        size: float,
        bold: bool = False,
        fill: Colour = BLACK,
        align: str = "left",
    ) -> float:
        """Text whose capitals start at ``top``; returns the baseline's y."""
        baseline = top + cap_mm(size)
        self.text(x, baseline, text, size, bold, fill, align)
        return baseline

    def lines(
        self,
        x: float,
        top: float,
        lines: Sequence[str],
        size: float,
        bold: bool = False,
        fill: Colour = BLACK,
        align: str = "centre",
        leading: float = 1.2,
    ) -> float:
        """Lines of text, the first one's capitals at ``top``, ``leading`` × the size apart;
        returns where a next line's capitals would start."""
        step = size * leading * MM_PER_PT
        for i, line in enumerate(lines):
            self.text_top(x, top + i * step, line, size, bold, fill, align)
        return top + len(lines) * step


class PdfSurface(Surface):
    """Draws on a reportlab canvas; one instance per document, ``new_page`` between pages."""

    def __init__(self, width: float, height: float, title: str, lang: str = "en"):
        self.width, self.height = width, height
        self._out = io.BytesIO()
        _registered()
        self.canvas = rl_canvas.Canvas(
            self._out,
            pagesize=(self.width * PT_PER_MM, self.height * PT_PER_MM),
            pageCompression=1,
            invariant=1,
            initialFontName=font_name(),
            initialFontSize=10,
            lang=lang,
        )
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Banco")
        self.canvas.setCreator("Banco")
        self._forms: set = set()
        self._begin_page()

    def _begin_page(self) -> None:
        c = self.canvas
        c.saveState()
        c.translate(0, self.height * PT_PER_MM)
        c.setLineJoin(0)
        c.setLineCap(0)

    def new_page(self) -> None:
        self.canvas.restoreState()
        self.canvas.showPage()
        self._begin_page()

    def finish(self) -> bytes:
        self.canvas.restoreState()
        self.canvas.showPage()
        self.canvas.save()
        return self._out.getvalue()

    @staticmethod
    def _xy(x: float, y: float) -> tuple[float, float]:
        return x * PT_PER_MM, -y * PT_PER_MM

    def _paint(self, fill, stroke, width) -> tuple[int, int]:
        c = self.canvas
        if fill is not None:
            c.setFillColorRGB(*(v / 255 for v in fill))
        if stroke is not None:
            c.setStrokeColorRGB(*(v / 255 for v in stroke))
            c.setLineWidth(width * PT_PER_MM)
        return int(fill is not None), int(stroke is not None)

    def rect(self, x, y, w, h, fill=None, stroke=None, width=0.2, radius=0.0):
        do_fill, do_stroke = self._paint(fill, stroke, width)
        if not (do_fill or do_stroke):
            return
        left, bottom = self._xy(x, y + h)
        if radius:
            self.canvas.roundRect(
                left, bottom, w * PT_PER_MM, h * PT_PER_MM, radius * PT_PER_MM, stroke=do_stroke, fill=do_fill
            )
        else:
            self.canvas.rect(left, bottom, w * PT_PER_MM, h * PT_PER_MM, stroke=do_stroke, fill=do_fill)

    def line(self, x0, y0, x1, y1, stroke=BLACK, width=0.2, dash=None):
        c = self.canvas
        self._paint(None, stroke, width)
        if dash:
            c.setDash([dash[0] * PT_PER_MM, dash[1] * PT_PER_MM])
        c.line(*self._xy(x0, y0), *self._xy(x1, y1))
        if dash:
            c.setDash([])

    def ellipse(self, x, y, w, h, fill=None, stroke=None, width=0.2):
        do_fill, do_stroke = self._paint(fill, stroke, width)
        if do_fill or do_stroke:
            self.canvas.ellipse(*self._xy(x, y), *self._xy(x + w, y + h), stroke=do_stroke, fill=do_fill)

    def polygon(self, points, fill=None, stroke=None, width=0.2):
        do_fill, do_stroke = self._paint(fill, stroke, width)
        if not (do_fill or do_stroke):
            return
        path = self.canvas.beginPath()
        path.moveTo(*self._xy(*points[0]))
        for point in points[1:]:
            path.lineTo(*self._xy(*point))
        path.close()
        self.canvas.drawPath(path, stroke=do_stroke, fill=do_fill)

    def text(self, x, y, text, size, bold=False, fill=BLACK, align="left"):
        c = self.canvas
        c.setFillColorRGB(*(v / 255 for v in fill))
        c.setFont(font_name(bold), size)
        px, py = self._xy(x, y)
        if align == "centre":
            c.drawCentredString(px, py, text)
        elif align == "right":
            c.drawRightString(px, py, text)
        else:
            c.drawString(px, py, text)

    def qr(self, matrix, x, y, module, fill=PURE_BLACK):
        # In module units, y going down: each run of dark modules is one whole-number
        # rectangle, and the code is one filled path (no seams between modules).
        c = self.canvas
        c.saveState()
        c.setFillColorRGB(*(v / 255 for v in fill))
        k = module * PT_PER_MM
        c.transform(k, 0, 0, -k, x * PT_PER_MM, -y * PT_PER_MM)
        c.addLiteral(" ".join(f"{col} {row} {length} 1 re" for row, col, length in _qr_runs(matrix)) + " f")
        c.restoreState()

    @contextmanager
    def region(self, x, y, w, h, rotate=0):
        c = self.canvas
        c.saveState()
        c.translate(*self._xy(x, y))
        if rotate == 180:
            c.translate(*self._xy(w, h))
            c.rotate(180)
        elif rotate:
            raise ValueError("a region turns by 0 or 180 degrees")
        try:
            yield self
        finally:
            c.restoreState()

    def reuse(self, key, x, y, w, h, draw):
        c = self.canvas
        name = "F" + "".join(ch if ch.isalnum() else "_" for ch in str(key))
        if name not in self._forms:
            c.beginForm(name, 0, -h * PT_PER_MM, w * PT_PER_MM, 0)
            c.setLineJoin(0)
            draw(self)
            c.endForm()
            self._forms.add(name)
        c.saveState()
        c.translate(*self._xy(x, y))
        c.doForm(name)
        c.restoreState()


@lru_cache(maxsize=256)
def _pil_font(size_px: float, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_FONT_FILES[bold]), size_px, layout_engine=ImageFont.Layout.BASIC)


class ImageSurface(Surface):
    """Paints a white Pillow image of ``width``×``height`` mm at ``dpi``."""

    def __init__(self, width: float, height: float, dpi: float = DPI):
        self.width, self.height, self.dpi = width, height, dpi
        self.image = Image.new(
            "RGB", (max(1, round(width * dpi / MM_PER_INCH)), max(1, round(height * dpi / MM_PER_INCH))), WHITE
        )
        self.draw = ImageDraw.Draw(self.image)
        self._ox = self._oy = 0.0
        self._cache: dict = {}

    def _p(self, value: float) -> float:
        return value * self.dpi / MM_PER_INCH

    def _px(self, x: float, y: float) -> tuple[float, float]:
        return self._p(self._ox + x), self._p(self._oy + y)

    def _w(self, width: float) -> int:
        return max(1, round(self._p(width)))

    def rect(self, x, y, w, h, fill=None, stroke=None, width=0.2, radius=0.0):
        x0, y0 = self._px(x, y)
        x1, y1 = self._px(x + w, y + h)
        r = self._p(radius)
        if fill is not None:
            box = [round(x0), round(y0), round(x1) - 1, round(y1) - 1]
            if r:
                self.draw.rounded_rectangle(box, radius=r, fill=fill)
            else:
                self.draw.rectangle(box, fill=fill)
        if stroke is not None:
            half = self._p(width) / 2
            box = [round(x0 - half), round(y0 - half), round(x1 + half) - 1, round(y1 + half) - 1]
            if r:
                self.draw.rounded_rectangle(box, radius=r + half, outline=stroke, width=self._w(width))
            else:
                self.draw.rectangle(box, outline=stroke, width=self._w(width))

    def line(self, x0, y0, x1, y1, stroke=BLACK, width=0.2, dash=None):
        if not dash:
            self.draw.line([self._px(x0, y0), self._px(x1, y1)], fill=stroke, width=self._w(width))
            return
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        on, off = dash
        t = 0.0
        while t < length:
            end = min(t + on, length)
            a, b = t / length, end / length
            self.draw.line(
                [self._px(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), self._px(x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                fill=stroke,
                width=self._w(width),
            )
            t += on + off

    def ellipse(self, x, y, w, h, fill=None, stroke=None, width=0.2):
        x0, y0 = self._px(x, y)
        x1, y1 = self._px(x + w, y + h)
        if fill is not None:
            self.draw.ellipse([x0, y0, x1, y1], fill=fill)
        if stroke is not None:
            half = self._p(width) / 2
            self.draw.ellipse([x0 - half, y0 - half, x1 + half, y1 + half], outline=stroke, width=self._w(width))

    def polygon(self, points, fill=None, stroke=None, width=0.2):
        pts = [self._px(*p) for p in points]
        if fill is not None:
            self.draw.polygon(pts, fill=fill)
        if stroke is not None:
            self.draw.line(pts + [pts[0]], fill=stroke, width=self._w(width), joint="curve")

    def text(self, x, y, text, size, bold=False, fill=BLACK, align="left"):
        size_px = round(size * self.dpi / 72 * 4) / 4
        if size_px <= 0:
            return
        anchor = {"left": "ls", "centre": "ms", "right": "rs"}[align]
        self.draw.text(self._px(x, y), text, font=_pil_font(size_px, bold), fill=fill, anchor=anchor)

    def qr(self, matrix, x, y, module, fill=PURE_BLACK):
        left, top = self._px(x, y)
        step = self._p(module)
        for row, col, length in _qr_runs(matrix):
            self.draw.rectangle(
                [
                    round(left + col * step),
                    round(top + row * step),
                    round(left + (col + length) * step) - 1,
                    round(top + (row + 1) * step) - 1,
                ],
                fill=fill,
            )

    @contextmanager
    def region(self, x, y, w, h, rotate=0):
        if rotate == 0:
            saved = self._ox, self._oy
            self._ox, self._oy = self._ox + x, self._oy + y
            try:
                yield self
            finally:
                self._ox, self._oy = saved
            return
        if rotate != 180:
            raise ValueError("a region turns by 0 or 180 degrees")
        child = ImageSurface(w, h, self.dpi)
        yield child
        self.image.paste(child.image.rotate(180), tuple(round(v) for v in self._px(x, y)))

    def reuse(self, key, x, y, w, h, draw):
        painted = self._cache.get(key)
        if painted is None:
            child = ImageSurface(w, h, self.dpi)
            draw(child)
            painted = self._cache[key] = child.image
        self.image.paste(painted, tuple(round(v) for v in self._px(x, y)))


# --- documents -------------------------------------------------------------------------------

Page = Callable[[Surface], None]


def pdf_bytes(paper: str, pages: Sequence[Page], title: str, lang: str = "en") -> bytes:
    """The pages drawn as one vector PDF on ``paper``, each page its exact physical size."""
    if not pages:
        raise ValueError("nothing to print: no pages")
    surface = PdfSurface(*paper_mm(paper), title, lang)
    for i, page in enumerate(pages):
        if i:
            surface.new_page()
        page(surface)
    return surface.finish()


def page_image(paper: str, page: Page, dpi: float = DPI) -> Image.Image:
    """One page painted as a Pillow image at ``dpi``."""
    surface = ImageSurface(*paper_mm(paper), dpi)
    page(surface)
    return surface.image


def box_image(width: float, height: float, draw: Page, dpi: float = DPI) -> Image.Image:
    """A ``width``×``height`` mm drawing (one card, one note) painted at ``dpi``."""
    surface = ImageSurface(width, height, dpi)
    draw(surface)
    return surface.image


def preview_png(paper: str, page: Page, width: int) -> bytes:
    """The page as a PNG ``width`` pixels wide: painted at twice that, then scaled down smoothly."""
    if width is None or width <= 0:
        raise ValueError("the preview width must be positive")
    paper_w, paper_h = paper_mm(paper)
    image = page_image(paper, page, dpi=2 * width * MM_PER_INCH / paper_w)
    height = max(1, round(paper_h * width / paper_w))
    return png_bytes(image.resize((width, height), Image.LANCZOS))


def png_bytes(image: Image.Image, dpi: int | None = None) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", dpi=(dpi, dpi) if dpi else None)
    return out.getvalue()


@dataclass(frozen=True)
class Grid:
    """Equal cells edge to edge, centred on the page, cut along the cell edges.

    Cut marks are drawn in the margin only, in line with every cell edge, so the sheet can
    be cut with a guillotine or a ruler without a mark showing on any piece; they stop
    ``SAFE_MM`` from the paper's edge.
    """

    paper: str
    cell_w: float
    cell_h: float
    cols: int
    rows: int

    MARK_GAP = 1.0
    MARK_LENGTH = 6.0
    MARK_WIDTH = 0.2

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def margins(self) -> tuple[float, float]:
        width, height = paper_mm(self.paper)
        left = (width - self.cols * self.cell_w) / 2
        top = (height - self.rows * self.cell_h) / 2
        if left < SAFE_MM + self.MARK_GAP or top < SAFE_MM + self.MARK_GAP:
            raise ValueError(
                f"{self.cols}×{self.rows} cells of {self.cell_w}×{self.cell_h} mm do not fit on {self.paper}"
            )
        return left, top

    def x_edges(self) -> list[float]:
        left, _ = self.margins()
        return [left + i * self.cell_w for i in range(self.cols + 1)]

    def y_edges(self) -> list[float]:
        _, top = self.margins()
        return [top + j * self.cell_h for j in range(self.rows + 1)]

    def origin(self, slot: int, mirrored: bool = False) -> tuple[float, float]:
        """Top-left corner (mm) of cell ``slot`` (row-major); ``mirrored`` swaps columns left to
        right, which puts a back exactly behind its front when the sheet is flipped on its long edge."""
        row, col = divmod(slot, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        return self.x_edges()[col], self.y_edges()[row]

    def draw_cut_marks(self, surface: Surface) -> None:
        width, height = paper_mm(self.paper)
        xs, ys = self.x_edges(), self.y_edges()
        gap, length, weight = self.MARK_GAP, self.MARK_LENGTH, self.MARK_WIDTH
        # The stroke's square end must stay inside the safe area too.
        near, far_x, far_y = SAFE_MM + weight, width - SAFE_MM - weight, height - SAFE_MM - weight
        top, bottom, left, right = ys[0], ys[-1], xs[0], xs[-1]
        for x in xs:
            surface.line(x, max(near, top - gap - length), x, top - gap, width=weight)
            surface.line(x, bottom + gap, x, min(far_y, bottom + gap + length), width=weight)
        for y in ys:
            surface.line(max(near, left - gap - length), y, left - gap, y, width=weight)
            surface.line(right + gap, y, min(far_x, right + gap + length), y, width=weight)

    def pages(self, cells: Sequence[Page], backs: Sequence[Page] | None = None) -> list[Page]:
        """Page drawers laying ``cells`` (each drawing one cell in its own box) out with cut
        marks; with ``backs`` (one per cell), each front page is followed by its back page,
        mirrored for long-edge duplex."""
        out: list[Page] = []
        for start in range(0, len(cells), self.per_page):
            out.append(self._page(cells[start : start + self.per_page], mirrored=False, marks=True))
            if backs is not None:
                out.append(self._page(backs[start : start + self.per_page], mirrored=True, marks=False))
        return out

    def _page(self, chunk: Sequence[Page], mirrored: bool, marks: bool) -> Page:
        def draw(surface: Surface) -> None:
            for slot, cell in enumerate(chunk):
                x, y = self.origin(slot, mirrored)
                with surface.region(x, y, self.cell_w, self.cell_h) as box:
                    cell(box)
            if marks:
                self.draw_cut_marks(surface)

        return draw


def cut_outline(surface: Surface, width: float, height: float) -> None:
    """A hairline on the cell's own edge: the cut line, also where it meets its neighbour."""
    surface.rect(0, 0, width, height, stroke=CUT_GREY, width=0.15)
