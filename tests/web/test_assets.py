"""Static files under versioned addresses cached for good, and compressed pages."""

from __future__ import annotations

import gzip
import hashlib
import re
import zlib
from pathlib import Path

import brotli
import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"


def _assets(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_every_static_address_on_a_page_carries_the_files_digest(client):
    html = client.get("/").get_data(as_text=True)
    assets = _assets(html)
    assert any("css/banco.css" in a for a in assets) and any("js/banco.js" in a for a in assets)
    for address in assets:
        path, _, version = address.partition("?v=")
        content = (STATIC / path.removeprefix("/static/")).read_bytes()
        assert version == hashlib.sha256(content).hexdigest()[:12], address


def test_a_versioned_address_is_kept_for_good_and_any_other_is_checked_again(client):
    address = next(a for a in _assets(client.get("/").get_data(as_text=True)) if "banco.css" in a)
    kept = client.get(address)
    assert kept.status_code == 200
    assert kept.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    for other in ("/static/css/banco.css", "/static/css/banco.css?v=0123456789ab"):
        response = client.get(other)
        assert response.status_code == 200
        assert "immutable" not in response.headers.get("Cache-Control", "")


def test_a_missing_file_has_no_version_and_is_not_found(client, app):
    with app.test_request_context():
        from flask import url_for

        assert url_for("static", filename="nothing-here.js") == "/static/nothing-here.js"
        assert url_for("static", filename="../app.py") == "/static/../app.py"
    assert client.get("/static/nothing-here.js?v=x").status_code == 404


# What Chromium asks for over the home Wi-Fi's plain http, and over https.
@pytest.mark.parametrize("accepted, page_coding", [("gzip, deflate", "gzip"), ("gzip, deflate, br, zstd", "br")])
def test_pages_and_files_are_sent_compressed_to_a_browser_that_accepts_it(client, accepted, page_coding):
    plain = client.get("/").get_data()
    packed = client.get("/", headers={"Accept-Encoding": accepted})
    assert packed.headers["Content-Encoding"] == page_coding
    assert "Accept-Encoding" in packed.headers["Vary"]
    body = packed.get_data()
    unpacked = gzip.decompress(body) if page_coding == "gzip" else brotli.decompress(body)
    # The same page (each render carries fresh form keys, so not byte for byte).
    assert unpacked.startswith(b"<!doctype html>") and abs(len(unpacked) - len(plain)) < 100
    assert len(body) * 3 < len(plain)
    script = client.get("/static/js/banco.js", headers={"Accept-Encoding": accepted})
    assert script.headers["Content-Encoding"] in ("deflate", "br")
    content = (STATIC / "js/banco.js").read_bytes()
    packed_script = script.get_data()
    unpacked = (
        zlib.decompress(packed_script)
        if script.headers["Content-Encoding"] == "deflate"
        else brotli.decompress(packed_script)
    )
    assert unpacked == content and len(packed_script) * 2 < len(content)


def test_a_browser_that_does_not_ask_for_compression_gets_the_plain_page(client):
    response = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in response.headers
    assert b"<!doctype html>" in response.get_data()


def test_the_live_stream_is_never_compressed(client, api):
    status, game = api.post("/api/v1/games", {"edition": "classic-it", "players": ["Anna", "Bruno"]})
    assert status == 201
    response = client.get(
        f"/api/v1/games/{game['id']}/stream",
        buffered=False,
        headers={"Authorization": f"Bearer {game['banker_token']}", "Accept-Encoding": "gzip"},
    )
    try:
        assert response.mimetype == "text/event-stream"
        assert "Content-Encoding" not in response.headers
        assert next(response.response).startswith(b"retry:")
    finally:
        response.close()


def test_a_file_the_browser_holds_is_answered_not_modified_compressed_or_not(client):
    """Static files answer a conditional request themselves (``send_file``), so the compressor
    is not asked to check every answer again (``COMPRESS_EVALUATE_CONDITIONAL_REQUEST``)."""
    for accepted in ("gzip, deflate", "identity"):
        first = client.get("/static/js/banco.js", headers={"Accept-Encoding": accepted})
        assert first.status_code == 200 and first.headers.get("Last-Modified")
        again = client.get(
            "/static/js/banco.js",
            headers={"Accept-Encoding": accepted, "If-Modified-Since": first.headers["Last-Modified"]},
        )
        assert again.status_code == 304 and not again.get_data()
