"""Server-Sent Events: each open page hears about every new version of its game at once.

Each event names the version and the parts of the game it changed since the stream's last
event (``{"version": n, "parts": ["cash", "feed"]}``, ``core.parts``); the page then fetches
only its regions that show one of them (``docs/live.md``). ``"parts": null`` says the server
cannot tell (too far behind, or a restart): the page fetches itself whole. Here the app checks who asks and writes the stream's opening (where it stands,
and the version it missed, if any); the server's event loop then holds the stream open
(``companion.live.streams``), so an idle page costs no thread. A stream ends after a minute
and the browser's EventSource reconnects with ``Last-Event-ID``, which makes a dropped Wi-Fi
or a restarted server heal by itself. Served without that loop (the Flask test client, or a
plain WSGI server), the opening is the whole answer and the browser comes back in three
seconds: slower, never refused.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify, request
from flask_babel import get_locale

from .. import services
from ..core.errors import N_, BadInput, Unauthorized
from ..extension import banco
from ..live.events import LIVE, event
from ..live.news import Reader, told
from . import seats
from .ratelimit import TooManyAttempts

bp = Blueprint("live", __name__)

RETRY_MS = 1000
WITHOUT_LOOP_RETRY_MS = 3000
FULL_RETRY_SECONDS = 10  # Retry-After when the caller's address holds its most streams already


def _since(raw) -> int | None:
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 12:
        return int(raw)
    return None


def parts_since(game_id: str, since: int, current: int) -> frozenset[str] | None:
    """What ``game_id`` changed after ``since`` up to ``current``: from this process's broker
    when it heard every version, else from the journal; ``None`` when neither can tell."""
    parts = banco().broker.parts_since(game_id, since, current)
    if parts is None:
        with services.reading():
            parts = services.parts_since(game_id, since, current)
    return parts


def news_since(game_id: str, since: int, current: int, reader: Reader | None) -> tuple:
    """The parts ``game_id`` changed after ``since`` up to ``current`` and, when this process
    knows them, their news for ``reader`` (else ``None``)."""
    parts = parts_since(game_id, since, current)
    if parts is None or reader is None:
        return parts, None
    return parts, told(banco().broker.news_since(game_id, since, current), reader)


def reader(game, player_id: str | None, banker: bool, screen: bool = False) -> Reader:
    """Who a page or client of ``game`` reads for: the request's language, the player seated
    (whose notices and own cash it is told), whether it is the banker (every player's cash,
    and what undo would reverse), whether it is the table screen (a bid's auction drawn large)."""
    return Reader(str(get_locale() or "en"), player_id, banker or not game.cash_private, banker, screen)


def _current(game_id: str) -> int:
    broker = banco().broker
    current = broker.latest(game_id)
    if current is None:
        current = services.current_version(game_id) or 0
        broker.publish(game_id, current)
    return current


def changes_response(game_id: str, since_raw, reader: Reader | None = None) -> Response:
    """``{"version": n, "parts": [...] | null, "news": {...}}``: what changed after version
    ``since_raw``, and its news for ``reader`` when this process can say it (for a page back
    from the pocket or the network: one request, as the stream's event). Refuses (400) a
    ``since`` that is not a number."""
    since = _since(since_raw)
    if since is None:
        raise BadInput("invalid_since", N_("since must be a whole number."))
    if reader is not None:
        banco().broker.read_in(game_id, reader.lang)
    current = _current(game_id)
    parts, news = news_since(game_id, since, current, reader) if current > since else (frozenset(), None)
    answer: dict = {"version": current, "parts": sorted(parts) if parts is not None else None}
    if news is not None:
        answer["news"] = news
    response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"
    return response


def stream_response(game_id: str, since_raw, reader: Reader | None = None) -> Response:
    """The opening of an event stream for ``game_id`` after version ``since_raw`` (the current
    version when absent or not a number): the ``retry`` and ``id`` lines, and the current
    version's event when the caller has not seen it; its events carry their news for
    ``reader``. Under the live loop it also notes where
    the loop takes over. Refuses (429) when the loop says the caller's address holds as
    many streams as it may (``STREAMS_PER_ADDRESS``)."""
    held = request.environ.get(LIVE)
    if held is not None and held["full"]:
        held["refused"] = True  # the streams' cap, not a guess: the metrics tell them apart
        raise TooManyAttempts(FULL_RETRY_SECONDS)
    if reader is not None:
        banco().broker.read_in(game_id, reader.lang)
    current = _current(game_id)
    since = _since(since_raw)
    seen = current if since is None else since
    # The id line tells the client where it stands, so its reconnection resumes from here.
    opening = f"retry: {RETRY_MS if held is not None else WITHOUT_LOOP_RETRY_MS}\n"
    opening += event(current, *news_since(game_id, seen, current, reader)) if current > seen else f"id: {seen}\n\n"
    if held is not None:
        held.update(game_id=game_id, seen=max(seen, current), reader=reader)
    return Response(
        opening, mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


def _signed_in(game_id: str) -> Reader:
    """Who the session reads the game's pages as; refuses (401) a session seated in it neither
    as a player nor as the banker."""
    game = services.get_game(game_id)
    player = seats.caller(game_id, seats.PLAYER)
    banker = seats.caller(game_id, seats.BANKER) is not None
    if player is None and not banker:
        raise Unauthorized("missing_token", N_("Sign in to this game first."))
    return reader(game, player.player_id if player is not None else None, banker)


@bp.get("/g/<game_id>/stream")
def page_stream(game_id):
    """The stream for the game's own pages, signed in by the session cookie."""
    seated = _signed_in(game_id)
    return stream_response(game_id, request.headers.get("Last-Event-ID") or request.args.get("since"), seated)


@bp.get("/g/<game_id>/changes")
def page_changes(game_id):
    """What changed since a version, for the game's own pages (signed in as for the stream)."""
    seated = _signed_in(game_id)
    return changes_response(game_id, request.args.get("since"), seated)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
