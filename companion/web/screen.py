"""The table screen (the TV or tablet in the middle of the table) and the bank's hand-off to
a phone.

The screen is for everyone to read from two metres: no forms, no sign-in, and only what the
table may see (never a token or a rejoin code; private cash stays private). It follows the game
through its own event stream, open to anyone who knows the game, since a version number tells
nothing.

The bank moves to a phone with a one-time code shown on the device that holds it now: the
phone that redeems it becomes the banker's, and the old device is signed out of the bank (it
goes on as a table screen).
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for

from .. import services
from ..core.errors import BancoError
from . import seats
from .deeds import auction_view
from .errors import translate
from .live import changes_response, reader, stream_response
from .pages import game_view
from .qr import qr_svg
from .ratelimit import count_attempt
from .regions import Lazy, render
from .speaking import gettext as _

bp = Blueprint("screen", __name__)

# How many feed lines the screen shows under the last action, smaller.
EARLIER_LINES = 2


def _public(path: str) -> str:
    return current_app.config["PUBLIC_URL"] + path


@bp.get("/g/<game_id>/screen")
def screen(game_id):
    with services.reading():  # cash, feed and auction of one instant
        game = services.get_game(game_id)
        view = game_view(game, None)  # as a stranger sees it: nobody's secrets, nobody's notes
        # The table sees every cash figure, unless the edition keeps cash private.
        view["show_cash"] = lambda _player_id: not game.cash_private
        view["auction"] = Lazy(lambda: auction_view(game, view["edition"]) if game.status == "running" else None)
        join_url = _public(url_for("pages.join", code=game.join_code))
        return render(
            "screen.html",
            game.version,
            join_url=join_url,
            join_qr=Lazy(lambda: qr_svg(join_url)),
            earlier_lines=EARLIER_LINES,
            **view,
        )


@bp.get("/g/<game_id>/screen/stream")
def screen_stream(game_id):
    """The screen's event stream: no sign-in, since it carries what the screen shows anyone."""
    game = services.get_game(game_id)
    return stream_response(
        game_id,
        request.headers.get("Last-Event-ID") or request.args.get("since"),
        reader(game, None, banker=False, screen=True),
    )


@bp.get("/g/<game_id>/screen/changes")
def screen_changes(game_id):
    """What changed since a version, for the screen (no sign-in: what the screen shows anyone)."""
    game = services.get_game(game_id)
    return changes_response(game_id, request.args.get("since"), reader(game, None, banker=False, screen=True))


# --- the bank moves to a phone ---------------------------------------------------------------


@bp.route("/g/<game_id>/bank/handoff", methods=["GET", "POST"])
def bank_handoff(game_id):
    """The banker's device shows a one-time QR that gives the bank to the phone scanning it.
    Reloaded once the bank has moved (the device is the table screen now), the page says where
    the bank went instead; opened by address (GET) it makes no code and leads the banker back
    to the bank. Refuses (403) a device that never held the bank."""
    game = services.get_game(game_id)
    if seats.caller(game.id, seats.BANKER) is None:
        if not seats.is_screen(game.id):
            abort(403)
        holder = next((p for p in game.players if p.id == game.banker_player_id), None)
        return render_template("bank_moved.html", game=game, edition=services.edition_of(game), holder=holder)
    if request.method == "GET":
        return redirect(url_for("pages.table", game_id=game.id))
    secret = services.issue_bank_handoff(game.id)
    url = _public(url_for("screen.take_bank", game_id=game.id, secret=secret))
    seat = None
    if game.banker_player_id and seats.caller(game.id, seats.PLAYER) is not None:
        seat = next(p for p in game.players if p.id == game.banker_player_id)
    return render_template(
        "bank_handoff.html",
        game=game,
        edition=services.edition_of(game),
        url=url,
        qr=qr_svg(url),
        minutes=services.HANDOFF_MINUTES,
        seat=seat,
    )


@bp.get("/g/<game_id>/bank/<secret>")
def take_bank(game_id, secret):
    """A hand-off QR opens this page; the phone takes the bank only when the banker taps (a link
    preview that merely fetches the page must not use up the code)."""
    count_attempt()
    game = services.get_game(game_id)
    return render_template("bank_take.html", game=game, edition=services.edition_of(game), secret=secret)


@bp.post("/g/<game_id>/bank/<secret>")
def redeem_bank(game_id, secret):
    count_attempt()
    game = services.get_game(game_id)
    try:
        token = services.redeem_bank_handoff(game.id, secret)
    except BancoError as error:
        return render_template("error.html", status=403, message=translate(error)), 403
    seats.forget(game.id, seats.SCREEN)  # a device that once gave the bank away may take it back
    seats.remember(game.id, seats.BANKER, token)
    flash(_("This phone runs the bank now."), "ok")
    return redirect(url_for("pages.table", game_id=game.id))
