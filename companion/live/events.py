"""The words the app and the server's loop share about a live stream: the event a new version
makes, the event saying whether the database can save, and the environ key under which the
app and the loop agree on which stream the loop holds open. Plain Python: the server
(``companion.serve``) knows the live layer by these."""

from __future__ import annotations

import json

LIVE = "banco.live"  # environ key: the loop's note of which stream to hold open, set by companion.serve


def event(version: int, parts: frozenset[str] | None, news: dict | None = None) -> str:
    """The ``version`` event: its id, the parts changed since the stream's last event (``null``
    when the server cannot tell) and, when the server can say it to this reader, the news of
    those versions (``companion.live.news.told``)."""
    data: dict = {"version": version, "parts": sorted(parts) if parts is not None else None}
    if news is not None:
        data["news"] = news
    return f"id: {version}\nevent: version\ndata: {json.dumps(data)}\n\n"


def storage(cannot_save: bool) -> str:
    """The ``storage`` event: whether the database cannot save now (a full disk, a read-only
    file), for the page to say so; no ``id``, so a reconnecting stream still resumes from its
    last version."""
    return f"event: storage\ndata: {json.dumps({'cannot_save': cannot_save})}\n\n"
