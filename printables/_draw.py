"""Drawing primitives shared by every sheet: paper, millimetres, fonts, QR codes, cut grids, output.

Every page is a Pillow RGB image at ``DPI`` dots per inch; the PDF is written by Pillow's own
PDF writer at that resolution, so a 63 mm card on the page is 63 mm on paper when the sheet is
printed at actual size (100 %, no "fit to page").
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import qrcode
import qrcode.constants
from PIL import Image, ImageDraw, ImageFont

DPI = 300
MM_PER_INCH = 25.4
LANGUAGES = ("it", "en")

#: Paper the sheets are laid out for: name -> (width, height) in millimetres, portrait.
PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: FONT_DIR / "DejaVuSans.ttf", True: FONT_DIR / "DejaVuSans-Bold.ttf"}

# A QR module smaller than this is hard for a phone camera at arm's length over a table.
MIN_QR_MODULE_MM = 0.4
# The QR standard asks for four modules of quiet zone; two keep their size down on small cards
# and still decode with every phone camera app and with zxing.
QR_QUIET_MODULES = 2

WHITE = (255, 255, 255)
BLACK = (17, 17, 17)
CUT_GREY = (170, 170, 170)
RED = (200, 16, 30)


def mm(value: float) -> int:
    """Millimetres to whole pixels at ``DPI``."""
    return round(value * DPI / MM_PER_INCH)


def pt(value: float) -> int:
    """Typographic points to whole pixels at ``DPI`` (font sizes)."""
    return round(value * DPI / 72)


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


def blank_page(paper: str) -> Image.Image:
    width, height = paper_mm(paper)
    return Image.new("RGB", (mm(width), mm(height)), WHITE)


@lru_cache(maxsize=256)
def font(size_px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The project's own DejaVu Sans at ``size_px`` pixels; never a system font."""
    return ImageFont.truetype(str(_FONT_FILES[bold]), size_px)


def fit_font(text: str, max_width: int, size_px: int, min_px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The largest font from ``size_px`` down to ``min_px`` in which ``text`` fits ``max_width``.

    Returns the ``min_px`` font when even that is too wide; callers that cannot accept an
    overflow measure with ``getlength`` themselves (and wrap).
    """
    size = size_px
    while size > min_px and font(size, bold).getlength(text) > max_width:
        size -= max(1, size // 20)
    return font(max(size, min_px), bold)


def wrap_to_fit(text: str, max_width: int, size_px: int, min_px: int, bold: bool = False,
                max_lines: int = 2) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """Breaks ``text`` at spaces into at most ``max_lines`` lines that fit ``max_width``.

    One line is kept while it fits at four fifths of ``size_px`` or more; otherwise the
    largest size at which the words wrap into ``max_lines`` lines wins. At worst the text is
    set in the ``min_px`` font in as few lines as fit, the last line possibly too wide.
    """
    one = fit_font(text, max_width, size_px, min_px, bold)
    if one.getlength(text) <= max_width and (one.size >= size_px * 0.8 or max_lines < 2):
        return [text], one
    size = size_px
    while True:
        face = font(size, bold)
        lines = wrap_lines(text, max_width, face)
        if len(lines) <= max_lines and all(face.getlength(line) <= max_width for line in lines):
            return _balance(lines, max_width, face), face
        if size <= min_px:
            return lines[:max_lines - 1] + [" ".join(lines[max_lines - 1:])], face
        size = max(min_px, size - max(1, size // 20))


def wrap_lines(text: str, max_width: int, face: ImageFont.FreeTypeFont) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``max_width`` (a single long word overflows)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and face.getlength(trial) > max_width:
            lines.append(current)
            current = word
        else:
            current = trial
    return lines + [current] if current else lines


def _balance(lines: list[str], max_width: int, face: ImageFont.FreeTypeFont) -> list[str]:
    """Two lines split as evenly as the words allow, rather than a full line and a short one."""
    if len(lines) != 2:
        return lines
    words = " ".join(lines).split()
    splits = [[" ".join(words[:i]), " ".join(words[i:])] for i in range(1, len(words))]
    fitting = [pair for pair in splits if max(face.getlength(part) for part in pair) <= max_width]
    return min(fitting, key=lambda pair: max(face.getlength(part) for part in pair)) if fitting else lines


def draw_text_centered(draw: ImageDraw.ImageDraw, centre_x: float, top: float, text: str,
                       face: ImageFont.FreeTypeFont, fill) -> None:
    draw.text((centre_x, top), text, font=face, fill=fill, anchor="ma")


def parse_colour(value: str) -> tuple[int, int, int]:
    """``#rgb`` or ``#rrggbb`` to an RGB triple; refuses anything else with ``ValueError``."""
    text = value.strip().lstrip("#") if isinstance(value, str) else ""
    if len(text) == 3:
        text = "".join(ch * 2 for ch in text)
    try:
        if len(text) != 6:
            raise ValueError
        return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        raise ValueError(f"not a colour: {value!r} (expected #rrggbb)") from None


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(background: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever contrasts more with ``background`` (WCAG contrast ratio)."""
    lum = _luminance(background)
    on_black = (lum + 0.05) / (_luminance(BLACK) + 0.05)
    on_white = 1.05 / (lum + 0.05)
    return BLACK if on_black >= on_white else WHITE


def tint(rgb: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    """``rgb`` mixed with white; ``amount`` 0 is the colour, 1 is white."""
    return tuple(round(c + (255 - c) * amount) for c in rgb)  # type: ignore[return-value]


def format_amount(amount: int, lang: str) -> str:
    """A whole amount with the language's thousands separator (1.500 in Italian, 1,500 in English)."""
    grouped = f"{amount:,}"
    return grouped.replace(",", ".") if lang == "it" else grouped


def format_money(amount: int, symbol: str, lang: str) -> str:
    """``€60``, ``M60``, ``P$ 500.000``: a one-character symbol hugs the number, a longer one is spaced."""
    space = "\u00a0" if len(symbol) > 1 else ""
    return f"{symbol}{space}{format_amount(amount, lang)}"


@lru_cache(maxsize=2048)
def qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules for ``data`` (error correction M), without any quiet zone.

    Cached: choosing the best of the eight masks is most of the cost of a deed sheet, and a
    server prints the same deed URLs again and again.
    """
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def qr_image(data: str, max_side_px: int, min_module_mm: float = MIN_QR_MODULE_MM,
             quiet_modules: int = QR_QUIET_MODULES) -> Image.Image:
    """A black-on-white QR code of ``data``, as large as fits ``max_side_px`` in whole-pixel modules.

    The quiet zone is included in the returned image. Refuses (``ValueError``) data so long
    that a module would be smaller than ``min_module_mm`` in that space, since such a code
    would not scan reliably from paper.
    """
    matrix = qr_matrix(data)
    count = len(matrix)
    module_px = max_side_px // (count + 2 * quiet_modules)
    if module_px < 1 or module_px * MM_PER_INCH / DPI < min_module_mm - 1e-9:
        raise ValueError(
            f"the text to encode is too long ({len(data)} characters) for a scannable QR code of "
            f"{max_side_px * MM_PER_INCH / DPI:.0f} mm: use a shorter public URL")
    small = Image.new("1", (count + 2 * quiet_modules,) * 2, 1)
    pixels = small.load()
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                pixels[x + quiet_modules, y + quiet_modules] = 0
    side = small.width * module_px
    return small.resize((side, side), Image.NEAREST).convert("RGB")


@dataclass(frozen=True)
class Grid:
    """Equal cells edge to edge, centred on the page, cut along the cell edges.

    Cut marks are drawn in the margin only, in line with every cell edge, so the sheet can
    be cut with a guillotine or a ruler without a mark showing on any piece.
    """

    paper: str
    cell_w_mm: float
    cell_h_mm: float
    cols: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def cell_px(self) -> tuple[int, int]:
        return mm(self.cell_w_mm), mm(self.cell_h_mm)

    def _margins_mm(self) -> tuple[float, float]:
        width, height = paper_mm(self.paper)
        left = (width - self.cols * self.cell_w_mm) / 2
        top = (height - self.rows * self.cell_h_mm) / 2
        if left < 0 or top < 0:
            raise ValueError(f"{self.cols}×{self.rows} cells of {self.cell_w_mm}×{self.cell_h_mm} mm "
                             f"do not fit on {self.paper}")
        return left, top

    def x_edges(self) -> list[int]:
        left, _ = self._margins_mm()
        return [mm(left + i * self.cell_w_mm) for i in range(self.cols + 1)]

    def y_edges(self) -> list[int]:
        _, top = self._margins_mm()
        return [mm(top + j * self.cell_h_mm) for j in range(self.rows + 1)]

    def origin(self, slot: int, mirrored: bool = False) -> tuple[int, int]:
        """Top-left pixel of cell ``slot`` (row-major); ``mirrored`` swaps columns left to right,
        which puts a back exactly behind its front when the sheet is flipped on its long edge."""
        row, col = divmod(slot, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        return self.x_edges()[col], self.y_edges()[row]

    def draw_cut_marks(self, page: Image.Image) -> None:
        draw = ImageDraw.Draw(page)
        xs, ys = self.x_edges(), self.y_edges()
        gap, length, weight = mm(1.5), mm(6), max(2, mm(0.2))
        top, bottom, left, right = ys[0], ys[-1], xs[0], xs[-1]
        for x in xs:
            draw.line([(x, max(0, top - gap - length)), (x, top - gap)], fill=BLACK, width=weight)
            draw.line([(x, bottom + gap), (x, min(page.height - 1, bottom + gap + length))], fill=BLACK, width=weight)
        for y in ys:
            draw.line([(max(0, left - gap - length), y), (left - gap, y)], fill=BLACK, width=weight)
            draw.line([(right + gap, y), (min(page.width - 1, right + gap + length), y)], fill=BLACK, width=weight)

    def pages(self, cells: list[Image.Image], backs: list[Image.Image] | None = None) -> list[Image.Image]:
        """Lays ``cells`` out page by page with cut marks; with ``backs`` (one per cell), each
        front page is followed by its back page, mirrored for long-edge duplex."""
        out = []
        for start in range(0, len(cells), self.per_page):
            chunk = cells[start:start + self.per_page]
            front = blank_page(self.paper)
            for slot, cell in enumerate(chunk):
                front.paste(cell, self.origin(slot))
            self.draw_cut_marks(front)
            out.append(front)
            if backs is not None:
                back = blank_page(self.paper)
                for slot, cell in enumerate(backs[start:start + self.per_page]):
                    back.paste(cell, self.origin(slot, mirrored=True))
                out.append(back)
        return out


def cut_outline(draw: ImageDraw.ImageDraw, size: tuple[int, int]) -> None:
    """A hairline on the cell's own edge: the cut line, also where it meets its neighbour."""
    draw.rectangle([0, 0, size[0] - 1, size[1] - 1], outline=CUT_GREY, width=max(2, mm(0.15)))


def pdf_bytes(pages: list[Image.Image], title: str) -> bytes:
    """The pages as one PDF at ``DPI``, so each page's physical size is exact.

    Pillow's writer embeds RGB pages as JPEG. Quality 90 keeps black text and QR modules
    crisp; 4:2:0 chroma subsampling blurs colour edges by 0.17 mm at most, invisible on
    paper, and halves the encoding time.
    """
    if not pages:
        raise ValueError("nothing to print: no pages")
    out = io.BytesIO()
    pages[0].save(out, "PDF", save_all=True, append_images=pages[1:], resolution=DPI,
                  title=title, author="Banco", quality=90, subsampling=2)
    return out.getvalue()


def png_bytes(image: Image.Image, width: int | None = None) -> bytes:
    """``image`` as PNG, scaled to ``width`` pixels wide when given (aspect kept)."""
    if width is not None:
        if width <= 0:
            raise ValueError("the preview width must be positive")
        height = max(1, round(image.height * width / image.width))
        image = image.resize((width, height), Image.LANCZOS)
    out = io.BytesIO()
    image.save(out, "PNG", dpi=(DPI, DPI) if width is None else None, optimize=False)
    return out.getvalue()
