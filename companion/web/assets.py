"""Static files under versioned addresses, kept by browsers for good; pages sent compressed.

Every ``url_for('static', filename=...)`` gets ``?v=<digest of the file>``: a phone keeps the
file for a year and never asks again, and a new release (a new digest) is a new address, so no
phone runs yesterday's script against today's pages. An address without the digest, or with an
old one, is served as before: checked again each time.

Responses are compressed (gzip or brotli, as the browser accepts) by Flask-Compress: an HTML
page of a game shrinks several times over on a crowded Wi-Fi. Live streams are left alone, so
each event leaves the server the moment it happens.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask, request
from flask_compress import Compress

FOR_GOOD = "public, max-age=31536000, immutable"
DIGEST_LENGTH = 12

compress = Compress()


def init_app(app: Flask) -> None:
    app.config.setdefault(
        "COMPRESS_MIMETYPES",
        [
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "image/svg+xml",
            "text/csv",
        ],
    )
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    # Static files are sent as streams and compress well; the live stream (text/event-stream)
    # is not in the list above, so each event still leaves the moment it happens.
    app.config.setdefault("COMPRESS_STREAMS", True)
    # What every browser reads; over plain http browsers offer gzip and deflate only.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "deflate"])
    # No answer of the app carries an ETag, and static files answer conditional requests
    # themselves (``send_file``): checking each compressed answer again only cost time.
    app.config.setdefault("COMPRESS_EVALUATE_CONDITIONAL_REQUEST", False)
    compress.init_app(app)
    digests: dict[str, tuple[float, str]] = {}
    assert app.static_folder is not None  # create_app gives the app the project's static/
    folder = Path(app.static_folder)

    def digest(filename: str) -> str | None:
        """The file's content digest, read again only when the file changed (a new release)."""
        path = (folder / filename).resolve()
        if folder.resolve() not in path.parents or not path.is_file():
            return None
        mtime = path.stat().st_mtime
        known = digests.get(filename)
        if known is None or known[0] != mtime:
            known = digests[filename] = (mtime, hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST_LENGTH])
        return known[1]

    @app.url_defaults
    def _versioned(endpoint, values):
        if endpoint == "static" and "v" not in values and values.get("filename"):
            version = digest(values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def _cache_for_good(response):
        if (
            request.endpoint == "static"
            and response.status_code == 200
            and request.view_args
            and request.args.get("v") == digest(request.view_args.get("filename", ""))
        ):
            response.headers["Cache-Control"] = FOR_GOOD
        return response
