"""The QR matrices are qrcode's own, mask and all, only made faster."""

from __future__ import annotations

import random
import string

import pytest
import qrcode
import qrcode.constants
import qrcode.util
from printables_testkit import BASE_URL, EDITION_FILES, load_edition

from printables import _qr


def _qrcode(data: str):
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.add_data(data)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


def _samples() -> list[str]:
    rng = random.Random(2026)
    urls = [
        f"{BASE_URL}/card/{load_edition(p)['id']}/{d['key']}" for p in EDITION_FILES for d in load_edition(p)["deeds"]
    ]
    # Every length up to version 10 and beyond (version 7 and up carry version bits).
    others = [
        "".join(rng.choice(string.ascii_letters + string.digits + "/:.-?=&") for _ in range(n))
        for n in list(range(1, 60, 7)) + [90, 130, 180, 230, 300]
    ]
    return urls + others


@pytest.mark.parametrize("data", _samples())
def test_the_matrix_is_the_one_qrcode_makes(data):
    assert _qr.qr_matrix(data) == _qrcode(data)


def test_the_penalty_is_qrcodes():
    rng = random.Random(7)
    for count in (21, 25, 29, 45):
        for _ in range(20):
            rows = [[rng.random() < 0.5 for _ in range(count)] for _ in range(count)]
            bits = [int("".join("1" if v else "0" for v in row), 2) for row in rows]
            assert _qr._penalty(bits, count) == qrcode.util.lost_point(rows)
