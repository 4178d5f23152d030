"""Small line drawings for the deeds that have no colour: a locomotive for a station, a light
bulb, a tap or a gear for a utility. Drawn from rectangles, ellipses and polygons, so they
are vectors in the PDF and the same shapes in the previews.

Each symbol fills a square of ``size`` mm whose top-left corner is (``x``, ``y``).
"""

from __future__ import annotations

import math

from . import _draw as d

_LIGHT_YELLOW = (255, 228, 110)
_LIGHT_BLUE = (120, 180, 235)
_STEAM = (205, 205, 205)


def symbol_for(kind: str, deed: dict) -> str:
    """The symbol a station or utility deed shows: ``train``, ``bulb``, ``tap`` or ``gear``.

    A utility's is read from its key and name (electricity, water), since editions do not
    say; an unknown utility gets the gear.
    """
    if kind == "station":
        return "train"
    words = f"{deed.get('key', '')} {deed.get('name', '')}".lower()
    if any(w in words for w in ("elettric", "electric", "luce", "energia", "energy", "power", "light")):
        return "bulb"
    if any(w in words for w in ("acqua", "water", "idric", "acquedotto")):
        return "tap"
    return "gear"


def draw_symbol(surface: d.Surface, name: str, x: float, y: float, size: float) -> None:
    {"train": _train, "bulb": _bulb, "tap": _tap, "gear": _gear}[name](surface, x, y, size)


def _scaled(x: float, y: float, size: float):
    """Maps unit-square coordinates to millimetres."""
    return lambda u, v: (x + u * size, y + v * size)


def _train(s: d.Surface, x: float, y: float, size: float) -> None:
    p = _scaled(x, y, size)
    w = 0.045 * size  # the outline's width
    ink, white = d.BLACK, d.WHITE

    def box(u0, v0, u1, v1, fill=ink):
        (a, b), (c, e) = p(u0, v0), p(u1, v1)
        s.rect(a, b, c - a, e - b, fill=fill)

    # Steam above the chimney.
    for u, v, r in ((0.27, 0.12, 0.07), (0.17, 0.06, 0.055), (0.08, 0.02, 0.04)):
        (a, b) = p(u - r, v - r)
        s.ellipse(a, b, 2 * r * size, 2 * r * size, fill=_STEAM)
    s.polygon([p(0.19, 0.36), p(0.33, 0.36), p(0.36, 0.2), p(0.16, 0.2)], fill=ink)  # chimney
    box(0.1, 0.36, 0.68, 0.66)  # boiler
    (a, b) = p(0.42, 0.28)
    s.ellipse(a, b, 0.14 * size, 0.14 * size, fill=ink)  # dome
    box(0.66, 0.2, 0.96, 0.66)  # cab
    box(0.62, 0.16, 1.0, 0.22)  # roof
    box(0.72, 0.28, 0.9, 0.44, fill=white)  # window
    box(0.06, 0.66, 0.98, 0.72)  # frame
    s.polygon([p(0.1, 0.66), p(0.1, 0.84), p(0.0, 0.84)], fill=ink)  # cow-catcher
    for u, r in ((0.26, 0.1), (0.5, 0.1), (0.8, 0.13)):  # wheels
        (a, b) = p(u - r, 0.84 - r)
        s.ellipse(a, b, 2 * r * size, 2 * r * size, fill=white, stroke=ink, width=w)
        (a, b) = p(u - 0.025, 0.84 - 0.025)
        s.ellipse(a, b, 0.05 * size, 0.05 * size, fill=ink)
    s.line(*p(0.26, 0.84), *p(0.8, 0.84), stroke=ink, width=w)  # coupling rod
    s.line(*p(0.0, 0.97), *p(1.0, 0.97), stroke=ink, width=w)  # rail


def _bulb(s: d.Surface, x: float, y: float, size: float) -> None:
    p = _scaled(x, y, size)
    w = 0.045 * size
    ink = d.BLACK
    cx, cy, r = 0.5, 0.4, 0.27
    for angle in range(-150, -20, 26):  # rays
        a = math.radians(angle)
        s.line(
            *p(cx + math.cos(a) * (r + 0.07), cy + math.sin(a) * (r + 0.07)),
            *p(cx + math.cos(a) * (r + 0.16), cy + math.sin(a) * (r + 0.16)),
            stroke=ink,
            width=w,
        )
    s.polygon([p(0.36, 0.58), p(0.64, 0.58), p(0.6, 0.74), p(0.4, 0.74)], fill=_LIGHT_YELLOW, stroke=ink, width=w)
    (a, b) = p(cx - r, cy - r)
    s.ellipse(a, b, 2 * r * size, 2 * r * size, fill=_LIGHT_YELLOW, stroke=ink, width=w)  # glass
    s.polygon(
        [
            p(0.41, 0.6),
            p(0.45, 0.42),
            p(0.5, 0.5),
            p(0.55, 0.42),
            p(0.59, 0.6),
            p(0.57, 0.6),
            p(0.55, 0.47),
            p(0.5, 0.55),
            p(0.45, 0.47),
            p(0.43, 0.6),
        ],
        fill=ink,
    )  # filament
    for v in (0.75, 0.82, 0.89):  # screw base
        (a, b), (c, e) = p(0.39, v), p(0.61, v + 0.05)
        s.rect(a, b, c - a, e - b, fill=ink)
    s.polygon([p(0.43, 0.94), p(0.57, 0.94), p(0.53, 0.99), p(0.47, 0.99)], fill=ink)  # tip


def _tap(s: d.Surface, x: float, y: float, size: float) -> None:
    p = _scaled(x, y, size)
    w = 0.045 * size
    ink = d.BLACK

    def box(u0, v0, u1, v1, fill=ink):
        (a, b), (c, e) = p(u0, v0), p(u1, v1)
        s.rect(a, b, c - a, e - b, fill=fill)

    box(0.0, 0.3, 0.08, 0.56)  # the wall plate
    box(0.08, 0.36, 0.66, 0.5)  # pipe
    box(0.3, 0.28, 0.52, 0.54)  # valve body
    box(0.39, 0.14, 0.43, 0.28)  # stem
    box(0.24, 0.08, 0.58, 0.14)  # handle
    s.polygon(
        [p(0.52, 0.36), p(0.72, 0.36), p(0.8, 0.46), p(0.8, 0.62), p(0.66, 0.62), p(0.66, 0.5), p(0.52, 0.5)], fill=ink
    )  # spout
    # A drop falling from the spout.
    cx, cy, r = 0.73, 0.86, 0.09
    s.polygon(
        [p(cx - r * 0.98, cy - r * 0.2), p(cx, 0.66), p(cx + r * 0.98, cy - r * 0.2)],
        fill=_LIGHT_BLUE,
        stroke=ink,
        width=w,
    )
    (a, b) = p(cx - r, cy - r)
    s.ellipse(a, b, 2 * r * size, 2 * r * size, fill=_LIGHT_BLUE, stroke=ink, width=w)
    s.polygon([p(cx - r * 0.9, cy - r * 0.25), p(cx, 0.7), p(cx + r * 0.9, cy - r * 0.25)], fill=_LIGHT_BLUE)


def _gear(s: d.Surface, x: float, y: float, size: float) -> None:
    p = _scaled(x, y, size)
    teeth, outer, inner = 8, 0.46, 0.36
    points = []
    for i in range(teeth * 4):
        angle = 2 * math.pi * i / (teeth * 4)
        radius = outer if i % 4 in (1, 2) else inner
        points.append(p(0.5 + math.cos(angle) * radius, 0.5 + math.sin(angle) * radius))
    s.polygon(points, fill=d.BLACK)
    (a, b) = p(0.36, 0.36)
    s.ellipse(a, b, 0.28 * size, 0.28 * size, fill=d.WHITE)
