"""Server-Sent Events: each open page hears about every new version of its game at once.

The stream says only *that* the game changed (``{"version": n}``); the page then fetches
what it shows. Here the app checks who asks and writes the stream's opening (where it stands,
and the version it missed, if any); the server's event loop then holds the stream open
(``companion.serve.streams``), so an idle page costs no thread. A stream ends after a minute
and the browser's EventSource reconnects with ``Last-Event-ID``, which makes a dropped Wi-Fi
or a restarted server heal by itself. Served without that loop (the Flask test client, or a
plain WSGI server), the opening is the whole answer and the browser comes back in three
seconds: slower, never refused.
"""
from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, request

from .. import services
from ..core.errors import N_, Unauthorized
from . import seats
from .ratelimit import TooManyAttempts

bp = Blueprint("live", __name__)

LIVE = "banco.live"  # environ key: the loop's note of which stream to hold open, set by companion.serve
RETRY_MS = 1000
WITHOUT_LOOP_RETRY_MS = 3000
FULL_RETRY_SECONDS = 10  # Retry-After when the caller's address holds its most streams already


def _since(raw) -> int | None:
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 12:
        return int(raw)
    return None


def event(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {json.dumps({'version': version})}\n\n"


def stream_response(game_id: str, since_raw) -> Response:
    """The opening of an event stream for ``game_id`` after version ``since_raw`` (the current
    version when absent or not a number): the ``retry`` and ``id`` lines, and the current
    version's event when the caller has not seen it. Under the live loop it also notes where
    the loop takes over. Refuses (429) when the loop says the caller's address holds as
    many streams as it may (``STREAMS_PER_ADDRESS``)."""
    held = request.environ.get(LIVE)
    if held is not None and held["full"]:
        raise TooManyAttempts(FULL_RETRY_SECONDS)
    broker = current_app.extensions["banco"]["broker"]
    current = broker.latest(game_id)
    if current is None:
        current = services.current_version(game_id) or 0
        broker.publish(game_id, current)
    since = _since(since_raw)
    seen = current if since is None else since
    # The id line tells the client where it stands, so its reconnection resumes from here.
    opening = f"retry: {RETRY_MS if held is not None else WITHOUT_LOOP_RETRY_MS}\n"
    opening += event(current) if current > seen else f"id: {seen}\n\n"
    if held is not None:
        held.update(game_id=game_id, seen=max(seen, current))
    return Response(opening, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/g/<game_id>/stream")
def page_stream(game_id):
    """The stream for the game's own pages, signed in by the session cookie."""
    services.get_game(game_id)
    if seats.caller(game_id, seats.PLAYER) is None and seats.caller(game_id, seats.BANKER) is None:
        raise Unauthorized("missing_token", N_("Sign in to this game first."))
    return stream_response(game_id, request.headers.get("Last-Event-ID") or request.args.get("since"))
