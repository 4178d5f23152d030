"""QR codes drawn inline as SVG, so a page needs no image request and no internet."""

from __future__ import annotations

import io
from functools import lru_cache

import qrcode
import qrcode.image.svg
from markupsafe import Markup, escape

from .speaking import gettext as _


def qr_svg(data: str, label: str | None = None) -> Markup:
    """The QR of ``data`` as an inline ``<svg>`` that scales to its container, an image named
    ``label`` for a screen reader (by default "QR code": the address is written beside it)."""
    name = escape(label or _("QR code"))
    return Markup(_drawn(data).replace("<svg ", f'<svg class="qr" role="img" aria-label="{name}" ', 1))


@lru_cache(maxsize=512)
def _drawn(data: str) -> str:
    # Drawing a QR takes milliseconds, and a live table page shows the same ones at every
    # version: each is drawn once per address.
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M, border=2, image_factory=qrcode.image.svg.SvgPathImage
    )
    code.add_data(data)
    code.make(fit=True)
    buffer = io.BytesIO()
    code.make_image().save(buffer)
    svg = buffer.getvalue().decode()
    return svg[svg.index("<svg") :]  # without the XML declaration: this goes inside HTML


def qr_terminal(data: str) -> str:
    """The QR of ``data`` as text, for the server's console at start."""
    code = qrcode.QRCode(border=1)
    code.add_data(data)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
