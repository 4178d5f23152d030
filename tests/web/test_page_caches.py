"""What live pages keep between versions (each QR drawn once, each amount written once) must
never carry one reader's words to another."""

from __future__ import annotations

from companion.web.qr import qr_svg
from companion.web.templating import money


class Edition:
    currency_symbol = "€"


def test_a_drawn_qr_keeps_each_readers_label(app):
    with app.test_request_context(headers={"Accept-Language": "it"}):
        first = qr_svg("http://banco.test/j/ABC123", "Codice per entrare")
        again = qr_svg("http://banco.test/j/ABC123", "Join code")
        other = qr_svg("http://banco.test/j/XYZ789", "Join code")
    assert 'aria-label="Codice per entrare"' in first and 'aria-label="Join code"' in again
    assert first.replace("Codice per entrare", "Join code") == again  # the same drawing
    assert other != again  # another address, another code
    assert first.startswith('<svg class="qr" role="img"') and "<?xml" not in first


def test_amounts_follow_the_readers_language(app):
    with app.test_request_context(headers={"Accept-Language": "it"}):
        italian = money(1500000, Edition)
    with app.test_request_context(headers={"Accept-Language": "en"}):
        english = money(1500000, Edition)
    assert italian == "€\u00a01.500.000" and english == "€\u00a01,500,000"
