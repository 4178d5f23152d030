"""Printables stay pure rendering: no web framework, no database, no application imports, no system fonts."""

from __future__ import annotations

import ast
from pathlib import Path

import printables

PACKAGE = Path(printables.__file__).resolve().parent
ALLOWED = {
    "__future__",
    "abc",
    "io",
    "hashlib",
    "dataclasses",
    "functools",
    "itertools",
    "collections",
    "pathlib",
    "math",
    "urllib",
    "contextlib",
    "threading",
    "typing",
    "re",
    "qrcode",
    "PIL",
    "reportlab",
    "printables",
}


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add("printables" if node.level else (node.module or "").split(".")[0])
    return found


def test_printables_imports_only_pillow_qrcode_reportlab_and_the_standard_library():
    for path in PACKAGE.glob("*.py"):
        assert _imports(path) <= ALLOWED, f"{path.name} imports {_imports(path) - ALLOWED}"


def test_fonts_are_shipped_with_their_licence():
    fonts = PACKAGE / "fonts"
    assert (fonts / "DejaVuSans.ttf").is_file() and (fonts / "DejaVuSans-Bold.ttf").is_file()
    assert "Bitstream" in (fonts / "LICENSE").read_text(encoding="utf-8")
    from reportlab.pdfbase import pdfmetrics

    for bold, name in ((False, "DejaVuSans.ttf"), (True, "DejaVuSans-Bold.ttf")):
        # The previews' font (Pillow) and the PDFs' (ReportLab): both the files shipped here.
        assert printables._draw._pil_font(12, bold).path == str(fonts / name)
        assert pdfmetrics.getFont(printables._draw.font_name(bold)).face.filename == str(fonts / name)
