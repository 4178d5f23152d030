"""Server-Sent Events: each open page hears about every new version of its game at once.

The stream says only *that* the game changed (``{"version": n}``); the page then fetches
what it shows. A stream ends after a minute and the browser's EventSource reconnects with
``Last-Event-ID``, which frees server threads regularly and makes a dropped Wi-Fi or a
restarted server heal by itself.
"""
from __future__ import annotations

import json
import time

from flask import Blueprint, Response, current_app

from .. import services
from ..core.errors import N_, Unauthorized
from . import seats

bp = Blueprint("live", __name__)

STREAM_SECONDS = 60
KEEPALIVE_SECONDS = 15
RESERVED_THREADS = 16  # never given to streams: payments must always find a free thread
BUSY_RETRY_MS = 3000


def _since(raw) -> int | None:
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 12:
        return int(raw)
    return None


def _event(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {json.dumps({'version': version})}\n\n"


def stream_response(game_id: str, since_raw) -> Response:
    """An event stream for ``game_id`` starting after version ``since_raw`` (the current
    version when absent). When every stream slot is taken, answers at once with what is
    new and asks the browser to come back in three seconds: slower, never refused."""
    app = current_app._get_current_object()
    broker = app.extensions["banco"]["broker"]
    current = broker.latest(game_id)
    if current is None:
        current = services.current_version(game_id) or 0
        broker.publish(game_id, current)
    since = _since(since_raw)
    seen = current if since is None else since
    slots = max(1, app.config["THREADS"] - RESERVED_THREADS)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

    if not broker.open_stream(slots):
        # The id line tells the client where it stands, so its reconnection resumes from here.
        body = f"retry: {BUSY_RETRY_MS}\n" + (_event(current) if current > seen else f"id: {seen}\n\n")
        return Response(body, mimetype="text/event-stream", headers=headers)

    def generate(seen=seen):
        try:
            yield f"retry: 1000\nid: {seen}\n\n"
            if current > seen:
                seen = current
                yield _event(seen)
            deadline = time.monotonic() + STREAM_SECONDS
            while (left := deadline - time.monotonic()) > 0 and not broker.closing:
                version = broker.wait(game_id, seen, min(KEEPALIVE_SECONDS, left))
                if version is None:
                    yield ": keep-alive\n\n"
                else:
                    seen = version
                    yield _event(version)
        finally:
            broker.close_stream()

    return Response(generate(), mimetype="text/event-stream", headers=headers)


@bp.get("/g/<game_id>/stream")
def page_stream(game_id):
    """The stream for the game's own pages, signed in by the session cookie."""
    from flask import request
    services.get_game(game_id)
    if seats.caller(game_id, seats.PLAYER) is None and seats.caller(game_id, seats.BANKER) is None:
        raise Unauthorized("missing_token", N_("Sign in to this game first."))
    return stream_response(game_id, request.headers.get("Last-Event-ID") or request.args.get("since"))
