"""QR code matrices, as qrcode makes them, in a quarter of the time.

qrcode chooses a code's mask the way the standard says: it lays the code out with each of
the eight masks and keeps the one with the lowest penalty. That is most of the cost of a
deed sheet (28 codes), because it lays the data out nine times and scores each layout
module by module. Here the data is laid out once; each other mask is the same modules with
the data modules flipped where the two masks differ, scored with whole rows at a time. The
penalty is qrcode's own (``qrcode.util.lost_point``, format bits light while testing), so
the chosen mask, and the matrix, are exactly qrcode's: ``tests/printables`` checks it.
"""

from __future__ import annotations

import itertools
import re
from functools import cache, lru_cache

import qrcode
import qrcode.constants
import qrcode.util

_RUN = re.compile(r"0{5,}|1{5,}")
_FINDER = re.compile(r"(?=10111010000|00001011101)")
_BIT = {True: "1", False: "0"}


@lru_cache(maxsize=2048)
def qr_matrix(data: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules for ``data`` (error correction M, the smallest version that
    holds it, the mask of lowest penalty), without any quiet zone.

    Cached: a server prints the same deed URLs again and again.
    """
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.add_data(data)
    code.best_fit()
    code.makeImpl(True, 0)  # test layout: format and version bits light, as qrcode scores it
    count = len(code.modules)
    base = [int("".join(map(_BIT.get, row)), 2) for row in code.modules]
    best, best_score = 0, None
    for pattern, flips in enumerate(_flips(code.version)):
        score = _penalty([row ^ flip for row, flip in zip(base, flips)], count)
        if best_score is None or score < best_score:
            best, best_score = pattern, score
    # The chosen layout, with its format (and version) bits written in for real.
    code.modules = [
        [v == "1" for v in format(row ^ flip, f"0{count}b")] for row, flip in zip(base, _flips(code.version)[best])
    ]
    code.setup_type_info(False, best)
    if code.version >= 7:
        code.setup_type_number(False)
    return tuple(tuple(bool(v) for v in row) for row in code.modules)


@cache
def _flips(version: int) -> tuple[tuple[int, ...], ...]:
    """For each mask, each row's data modules that differ from mask 0, as bits (column 0 the
    highest): XOR-ing them into a mask-0 layout gives that mask's layout."""
    code = qrcode.QRCode(version=version, error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    count = version * 4 + 17
    code.modules_count = count
    code.modules = [[None] * count for _ in range(count)]
    code.setup_position_probe_pattern(0, 0)
    code.setup_position_probe_pattern(count - 7, 0)
    code.setup_position_probe_pattern(0, count - 7)
    code.setup_position_adjust_pattern()
    code.setup_timing_pattern()
    code.setup_type_info(True, 0)
    if version >= 7:
        code.setup_type_number(True)
    mask0 = qrcode.util.mask_func(0)
    out = []
    for pattern in range(8):
        mask = qrcode.util.mask_func(pattern)
        out.append(
            tuple(
                sum(1 << (count - 1 - c) for c, value in enumerate(row) if value is None and mask(r, c) != mask0(r, c))
                for r, row in enumerate(code.modules)
            )
        )
    return tuple(out)


def _penalty(rows: list[int], count: int) -> int:
    """``qrcode.util.lost_point`` of the matrix whose rows are the bits of ``rows`` (column 0
    the highest), computed a row (and a column) at a time."""
    lines = [format(row, f"0{count}b") for row in rows]
    lines += ["".join(column) for column in zip(*lines)]
    every = "2".join(lines)  # rows, then columns, kept apart
    runs = _RUN.findall(every)
    score = sum(map(len, runs)) - 2 * len(runs)  # runs of five or more
    score += 40 * len(_FINDER.findall(every))  # finder-like patterns
    full = (1 << count) - 1
    pairs = (1 << (count - 1)) - 1
    for a, b in itertools.pairwise(rows):  # 2×2 blocks of one colour
        dark = a & b
        light = ~(a | b) & full
        score += 3 * (((dark & (dark >> 1)) & pairs).bit_count() + ((light & (light >> 1)) & pairs).bit_count())
    dark = sum(row.bit_count() for row in rows)  # the share of dark modules
    score += int(abs(dark / count**2 * 100 - 50) / 5) * 10
    return score
